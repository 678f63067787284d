// gamecore web board: plain modern JS, no build step. The server holds the game; this page
// shows what /api/sessions/{id}/events sends and posts the user's actions as JSON.
// It names no game: the menus come from GET /api/games (each game's options, seat players and
// seat colours, read from its class), and the board is the library's own SVG picture
// (gamecore.svg, sent as `board_svg`) whose cells carry data-cell / data-legal for the clicks.

const $ = (id) => document.getElementById(id);
// Everything the page says, in the session's language (Tetralath's course speaks Portuguese);
// [data-say] elements take their text from here. Player kinds (human, mcts...) are the CLI's words.
const WORDS = {
  pt: {
    toPlay: "vez das {side}", you: "você", paused: "pausado", thinking: "pensando", waiting: "aguardando um motor livre", depth: "profundidade",
    playouts: "simulações", pv: "variação principal", nodes: "nós", nps: "nós/s", lost: "servidor perdido; recarregue a página",
    game: "Jogo", newGame: "Novo jogo", undo: "Desfazer", redo: "Refazer", pause: "Pausar", play: "Continuar", stop: "Parar",
    pace: "Ritmo", moves: "Lances", record: "Registro (importar / exportar)", import: "Importar", copy: "Copiar",
    replay: "Partida de torneio", open: "Abrir", replaying: "Reprodução, lance {n} de {total}", seconds: "segundos por lance",
    options: { size: "Tamanho", players: "Cores", lang: "Idioma", swap: "regra de troca" },
  },
  en: {
    toPlay: "{side} to play", you: "you", paused: "paused", thinking: "thinking", waiting: "waiting for a free engine", depth: "depth",
    playouts: "playouts", pv: "PV", nodes: "nodes", nps: "nodes/s", lost: "lost the server; reload the page",
    game: "Game", newGame: "New game", undo: "Undo", redo: "Redo", pause: "Pause", play: "Play", stop: "Stop",
    pace: "Pace", moves: "Moves", record: "Record (import / export)", import: "Import", copy: "Copy",
    replay: "Tournament replay", open: "Open", replaying: "Replay, move {n} of {total}", seconds: "seconds per move",
    options: { size: "Size", players: "Colours", lang: "Language", swap: "swap rule" },
  },
};
// The languages' own names, for a game's `lang` option.
const LANGUAGES = { en: "English", pt: "Português" };

let menu = {}; // game name -> its entry of GET /api/games
let session = null; // the latest state from the server
let events = null;
let replayUpload = null; // an uploaded games.json, kept in the page
let shownSvg = null; // the board picture on the page (redrawn only when it changes)

async function post(action, body = {}) {
  const url = action === null ? "/api/sessions" : `/api/sessions/${session.id}/${action}`;
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    $("message").textContent = data.error || `HTTP ${response.status}`;
    return null;
  }
  $("message").textContent = "";
  show(data);
  return data;
}

function words(lang = session?.options?.lang) {
  return WORDS[lang] ?? WORDS.en;
}

// -- the new-game form, built from the game's menu entry --------------------------------------

function chosenGame() {
  return menu[$("game").value];
}

function optionValue(option) {
  const control = $(`option-${option.name}`);
  if (!control) return option.default;
  if (control.type === "checkbox") return control.checked;
  return option.choices[control.selectedIndex];
}

function chosenOptions() {
  return Object.fromEntries(chosenGame().options.map((o) => [o.name, optionValue(o)]));
}

function drawOptions(values = {}) {
  const game = chosenGame();
  const w = words(values.lang ?? session?.options?.lang);
  const holder = $("options");
  holder.replaceChildren();
  for (const option of game.options) {
    if (option.choices.length < 2) continue; // nothing to choose
    const label = document.createElement("label");
    label.title = option.help;
    const value = values[option.name] ?? option.default;
    let control;
    if (typeof option.default === "boolean") {
      control = document.createElement("input");
      control.type = "checkbox";
      control.checked = value;
      label.append(control, ` ${w.options[option.name] ?? option.name}`);
    } else {
      control = document.createElement("select");
      option.choices.forEach((c) => control.add(new Option(LANGUAGES[c] ?? String(c), String(c))));
      control.selectedIndex = Math.max(0, option.choices.indexOf(value));
      label.append(`${w.options[option.name] ?? option.name} `, control);
    }
    control.id = `option-${option.name}`;
    // an option may change the seats (Rolit's number of colours, the language): redraw them
    control.addEventListener("change", () => drawSeatChoice(chosenSeats()));
    holder.append(label);
  }
}

function seatNames() {
  const game = chosenGame();
  const values = chosenOptions();
  const key = JSON.stringify(Object.fromEntries(game.seat_options.map((name) => [name, values[name]])));
  return game.seats[key];
}

// The seats of the form: menus to choose each colour's player, or a replay's players as text.
function drawSeatChoice(seats, editable = true) {
  const game = chosenGame();
  const holder = $("seat-choice");
  holder.replaceChildren();
  holder.dataset.editable = editable ? "1" : "";
  if (!editable && session?.replay) {
    session.colours.forEach((c, k) => {
      const box = document.createElement("span");
      box.className = "seat replay-seat";
      box.textContent = `${c.name}: ${session.replay.players[k] ?? "?"}`;
      holder.append(box);
    });
    return;
  }
  seatNames().forEach((name, k) => {
    const box = document.createElement("span");
    box.className = "seat";
    const select = document.createElement("select");
    select.id = `seat-${k}`;
    select.setAttribute("aria-label", `${name} player`);
    for (const p of game.players) select.add(new Option(p, p));
    select.value = seats?.[k]?.player ?? (k === 0 ? "human" : game.default_opponent);
    const time = document.createElement("input");
    time.type = "number";
    time.min = "0.05";
    time.max = "60";
    time.step = "0.05";
    time.id = `time-${k}`;
    time.title = words().seconds;
    time.value = seats?.[k]?.time ?? game.default_time;
    box.append(`${name} `, select, time, "s");
    holder.append(box);
  });
}

function chosenSeats() {
  const seats = [];
  for (let k = 0; $(`seat-${k}`); k++) seats.push({ player: $(`seat-${k}`).value, time: Number($(`time-${k}`).value) });
  return seats;
}

function syncForm(state) {
  $("game").value = state.game;
  drawOptions(state.options);
  drawSeatChoice(state.seats, !state.replay);
}

function newGameBody() {
  if ($("seat-choice").dataset.editable !== "1") drawSeatChoice(null); // leaving a replay: the game's defaults
  return { game: $("game").value, options: chosenOptions(), seats: chosenSeats() };
}

// -- the board: the library's SVG, its cells wired up -----------------------------------------

function drawBoard(s) {
  const holder = $("board");
  holder.dataset.game = s.game;
  holder.dataset.ply = s.ply;
  holder.dataset.gameNumber = s.game_number;
  const humanTurn = s.turn !== null && !s.engine_to_move && !s.replay;
  holder.dataset.turn = s.result ? "over" : humanTurn ? "human" : "wait";
  if (s.board_svg !== shownSvg) {
    // parsed as SVG (never as HTML): the picture is data, and the page's CSP allows no inline script
    const picture = new DOMParser().parseFromString(s.board_svg, "image/svg+xml").documentElement;
    picture.removeAttribute("width");
    picture.removeAttribute("height");
    picture.setAttribute("preserveAspectRatio", "xMidYMin meet"); // the board at the top of its space
    picture.setAttribute("role", "group"); // not "img": its legal cells are buttons
    picture.setAttribute("aria-label", "board");
    holder.replaceChildren(document.importNode(picture, true));
    shownSvg = s.board_svg;
  }
  for (const cell of holder.querySelectorAll(".hit[data-legal='1']")) {
    if (humanTurn) {
      cell.setAttribute("tabindex", "0");
      cell.setAttribute("role", "button");
      cell.setAttribute("aria-label", `play ${cell.dataset.cell}`);
    } else {
      for (const name of ["tabindex", "role", "aria-label"]) cell.removeAttribute(name);
    }
  }
}

function playCell(event) {
  const cell = event.target.closest?.(".hit[data-legal='1']");
  if (!cell || $("board").dataset.turn !== "human") return;
  if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
  event.preventDefault();
  post("move", { move: cell.dataset.cell });
}

// -- the panel ----------------------------------------------------------------------------------

function sayAll(w, lang) {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-say]")) node.textContent = w[node.dataset.say];
}

function drawStatus(s, w) {
  const humans = s.seats.filter((seat) => seat.player === "human").length;
  const replay = s.replay ? w.replaying.replace("{n}", s.ply).replace("{total}", s.moves.length) : "";
  $("replay-status").textContent = s.replay ? `${replay} — ${s.replay.title}` : "";
  $("replay-status").hidden = !s.replay;
  if (s.result) {
    $("status").textContent = "";
    $("result").textContent = s.result.text + (s.replay?.result ? ` (${s.replay.result})` : "");
  } else {
    const k = s.colours.findIndex((c) => c.index === s.turn);
    const player = s.replay ? s.replay.players[k] : s.seats[k].player;
    const who = player === "human" ? (humans === 1 ? ` (${w.you})` : "") : player ? ` (${player})` : "";
    $("status").textContent = w.toPlay.replace("{side}", s.turn_name) + who + (s.paused && !s.replay ? ` — ${w.paused}` : "");
    $("result").textContent = "";
  }
  $("status").dataset.turn = s.turn ?? "";
}

function drawScores(s) {
  const scores = $("scores");
  scores.replaceChildren();
  for (const c of s.colours) {
    const li = document.createElement("li");
    const dot = document.createElement("span");
    dot.className = "swatch";
    dot.dataset.fill = c.fill;
    li.append(dot, ` ${c.name}${c.score === null ? "" : ` ${c.score}`}`);
    li.dataset.colour = c.name;
    li.dataset.score = c.score ?? "";
    scores.append(li);
  }
  for (const dot of scores.querySelectorAll(".swatch")) dot.style.background = dot.dataset.fill;
}

function drawThinking(s, w) {
  const t = s.thinking || s.last_thought;
  let text = "";
  if (t && s.thinking && !t.depth && !t.iterations && !t.nodes) {
    // a search that waits for a free engine thread, or has not reported yet
    text = `${s.colours.find((c) => c.index === t.colour)?.name ?? ""} ${t.waiting ? w.waiting : w.thinking}…`;
  } else if (t) {
    const side = s.colours.find((c) => c.index === t.colour)?.name ?? "";
    const head = s.thinking ? `${side} ${w.thinking}…` : `${side}:`;
    const depth = t.iterations ? `${t.iterations.toLocaleString()} ${w.playouts}` : `${w.depth} ${t.depth}`;
    text = `${head} ${depth}  ${t.score}\n${w.pv}: ${t.pv}\n${t.nodes.toLocaleString()} ${w.nodes}, ${t.nps.toLocaleString()} ${w.nps}`;
  }
  $("thinking").textContent = text;
  $("thinking").hidden = !text; // no empty box when nothing thinks
  $("thinking").dataset.depth = s.thinking ? s.thinking.depth : "";
  $("thinking").dataset.waiting = s.thinking?.waiting ? "1" : "";
}

function drawMoves(s) {
  const list = $("moves");
  list.replaceChildren();
  s.moves.forEach((m, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `${s.colours.find((c) => c.index === m.colour)?.name ?? ""} ${m.text}`;
    b.dataset.ply = k + 1;
    b.addEventListener("click", () => post("goto", { ply: k + 1 }));
    li.append(b);
    if (k + 1 > s.ply) li.className = "future";
    if (k + 1 === s.ply) li.className = "current";
    list.append(li);
  });
  const current = list.querySelector(".current");
  if (current) list.scrollTop = current.offsetTop - list.clientHeight / 2; // the list is its offsetParent
}

function drawPanel(s) {
  const w = words();
  sayAll(w, s.options.lang in WORDS ? s.options.lang : "en");
  drawStatus(s, w);
  drawScores(s);
  const special = $("special");
  special.replaceChildren();
  if (!s.engine_to_move && !s.replay) {
    for (const name of s.special) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = name;
      b.id = `move-${name}`;
      b.addEventListener("click", () => post("move", { move: name }));
      special.append(b);
    }
  }
  drawThinking(s, w);
  $("stop").disabled = !s.thinking;
  // Pause only while an engine plays (or to resume a paused one); never in a replay
  $("pause").textContent = s.paused ? w.play : w.pause;
  $("pause").disabled = !!s.replay || !!s.result || !(s.paused || s.engine_to_move);
  $("undo").disabled = s.ply === 0;
  $("redo").disabled = s.ply >= s.moves.length;
  if (s.message) $("message").textContent = s.message;
  drawMoves(s);
  if (document.activeElement !== $("record")) $("record").value = s.record;
  $("replay-info").textContent = s.replay ? `${s.replay.title} — ${s.replay.result}` : "";
  if (document.activeElement !== $("pace")) $("pace").value = s.options.pace ?? 0;
}

function show(state) {
  if (session && state.version < session.version && state.id === session.id) return; // an older answer
  const fresh = !session || session.id !== state.id;
  const newGame = fresh || state.game_number !== session.game_number;
  session = state;
  if (newGame) syncForm(state); // the form shows the game on the board (a replay's players)
  drawBoard(state);
  drawPanel(state);
  document.body.dataset.version = state.version;
  document.body.dataset.ready = "1";
  if (fresh) listen();
}

function listen() {
  events?.close();
  events = new EventSource(`/api/sessions/${session.id}/events`);
  events.onmessage = (e) => show(JSON.parse(e.data));
  events.onerror = async () => {
    if (events.readyState !== EventSource.CLOSED) return;
    // the server's own words when it closed this game (to make room), else "lost the server"
    const gone = await fetch(`/api/sessions/${session.id}`).then((r) => r.json()).catch(() => ({}));
    $("message").textContent = gone.error || words().lost;
  };
}

async function start() {
  const games = (await (await fetch("/api/games")).json()).games;
  menu = Object.fromEntries(games.map((g) => [g.game, g]));
  for (const g of games) $("game").add(new Option(g.title, g.game));
  const saved = sessionStorage.getItem("gamecore-session");
  if (saved) {
    const response = await fetch(`/api/sessions/${encodeURIComponent(saved)}`);
    if (response.ok) {
      show(await response.json());
      return;
    }
  }
  const state = await post(null);
  if (state) sessionStorage.setItem("gamecore-session", state.id);
}

async function loadReplayList() {
  const response = await fetch("/api/replays");
  const data = await response.json();
  const list = $("replay-list");
  list.replaceChildren();
  data.games.forEach((title, k) => list.add(new Option(title, `server:${k}`)));
}

$("game").addEventListener("change", () => {
  drawOptions();
  drawSeatChoice(null);
});
$("board").addEventListener("click", playCell);
$("board").addEventListener("keydown", playCell);
$("new-game").addEventListener("submit", (e) => {
  e.preventDefault();
  post("new", newGameBody());
});
$("undo").addEventListener("click", () => post("undo"));
$("redo").addEventListener("click", () => post("redo"));
$("stop").addEventListener("click", () => post("stop"));
$("pause").addEventListener("click", () => post("pause", { paused: !session.paused }));
$("pace").addEventListener("change", () => post("pace", { pace: Number($("pace").value) }));
$("import").addEventListener("click", () => post("import", { record: $("record").value }));
$("copy").addEventListener("click", () => navigator.clipboard?.writeText($("record").value));
$("replay-file").addEventListener("change", async () => {
  const file = $("replay-file").files[0];
  if (!file) return;
  try {
    replayUpload = { name: file.name, games: JSON.parse(await file.text()) };
  } catch {
    $("message").textContent = `${file.name} is not JSON`;
    return;
  }
  await loadReplayList();
  const list = $("replay-list");
  if (!Array.isArray(replayUpload.games)) return;
  replayUpload.games.forEach((g, k) => {
    const players = Array.isArray(g?.players) ? g.players.join(" vs ") : "?";
    list.add(new Option(`${file.name} ${k + 1}. ${g?.game ?? "?"}: ${players}`, `file:${k}`));
  });
  list.value = "file:0";
});
$("replay-open").addEventListener("click", () => {
  const [where, k] = $("replay-list").value.split(":");
  if (where === "server") post("replay", { index: Number(k) });
  else if (where === "file") post("replay-file", { name: replayUpload.name, games: replayUpload.games, index: Number(k) });
});

loadReplayList();
start();
