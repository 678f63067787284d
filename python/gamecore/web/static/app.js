// gamecore web board: plain modern JS, no build step. The server holds the game; this page
// draws what /api/sessions/{id}/events sends and posts the user's actions as JSON.

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const SEAT_NAMES = {
  othello: ["black", "white"],
  tetralath: ["white", "black"],
  tetralath_pt: ["brancas", "pretas"],
  rolit: { 2: ["red", "green"], 3: ["red", "yellow", "green"], 4: ["red", "blue", "yellow", "green"] },
};
const SEAT_DEFAULTS = { othello: ["human", "engine"], tetralath: ["human", "engine"], rolit: ["human", "mcts", "mcts", "mcts"] };
const PLAYERS = {
  othello: ["human", "random", "greedy", "engine", "mcts", "maxn", "paranoid", "brs"],
  rolit: ["human", "random", "greedy", "engine", "mcts", "maxn", "paranoid", "brs"],
  tetralath: ["human", "random", "engine", "mcts", "maxn", "paranoid", "brs"],
};
// Everything the page says, in the session's language (Tetralath's course speaks Portuguese);
// [data-say] elements take their text from here. Player kinds (human, mcts...) are the CLI's words.
const WORDS = {
  pt: {
    toPlay: "vez das {side}", you: "você", paused: "pausado", thinking: "pensando", waiting: "aguardando um motor livre", depth: "profundidade",
    playouts: "simulações", pv: "variação principal", nodes: "nós", nps: "nós/s", lost: "servidor perdido; recarregue a página",
    game: "Jogo", size: "Tamanho", colours: "Cores", language: "Idioma", swap: "regra de troca", newGame: "Novo jogo",
    undo: "Desfazer", redo: "Refazer", pause: "Pausar", play: "Continuar", stop: "Parar", pace: "Ritmo",
    moves: "Lances", record: "Registro (importar / exportar)", import: "Importar", copy: "Copiar",
    replay: "Partida de torneio", open: "Abrir",
  },
  en: {
    toPlay: "{side} to play", you: "you", paused: "paused", thinking: "thinking", waiting: "waiting for a free engine", depth: "depth",
    playouts: "playouts", pv: "PV", nodes: "nodes", nps: "nodes/s", lost: "lost the server; reload the page",
    game: "Game", size: "Size", colours: "Colours", language: "Language", swap: "swap rule", newGame: "New game",
    undo: "Undo", redo: "Redo", pause: "Pause", play: "Play", stop: "Stop", pace: "Pace",
    moves: "Moves", record: "Record (import / export)", import: "Import", copy: "Copy",
    replay: "Tournament replay", open: "Open",
  },
};

let session = null; // the latest state from the server
let events = null;
let replayUpload = null; // an uploaded games.json, kept in the page

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

function seatNames(game) {
  if (game === "rolit") return SEAT_NAMES.rolit[$("players").value];
  if (game === "tetralath" && $("lang").value === "pt") return SEAT_NAMES.tetralath_pt;
  return SEAT_NAMES[game];
}

function drawSeatChoice(seats) {
  const game = $("game").value;
  const holder = $("seat-choice");
  holder.replaceChildren();
  seatNames(game).forEach((name, k) => {
    const box = document.createElement("span");
    box.className = "seat";
    const select = document.createElement("select");
    select.id = `seat-${k}`;
    select.setAttribute("aria-label", `${name} player`);
    for (const p of PLAYERS[game]) select.add(new Option(p, p));
    select.value = seats?.[k]?.player ?? SEAT_DEFAULTS[game][k];
    const time = document.createElement("input");
    time.type = "number";
    time.min = "0.05";
    time.max = "60";
    time.step = "0.05";
    time.id = `time-${k}`;
    time.title = "seconds per move";
    time.value = seats?.[k]?.time ?? (game === "tetralath" ? 2 : 1);
    box.append(`${name}: `, select, time, "s");
    holder.append(box);
  });
}

function chosenSeats() {
  return seatNames($("game").value).map((_, k) => ({
    player: $(`seat-${k}`).value,
    time: Number($(`time-${k}`).value),
  }));
}

function showOptions() {
  const game = $("game").value;
  for (const label of document.querySelectorAll("label[data-for]")) label.hidden = label.dataset.for !== game;
  drawSeatChoice(null);
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.append(node);
  return node;
}

function hexagon(x, y, r) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k + Math.PI / 6;
    points.push(`${(x + r * Math.cos(a)).toFixed(3)},${(y + r * Math.sin(a)).toFixed(3)}`);
  }
  return points.join(" ");
}

function drawBoard(s) {
  const svg = $("board");
  svg.replaceChildren();
  const g = s.geometry;
  const pad = g.shape === "square" ? 0.45 : 0.1;
  svg.setAttribute("viewBox", `${-pad} ${-pad} ${g.width + 2 * pad} ${g.height + 2 * pad}`);
  svg.dataset.game = s.game;
  svg.dataset.ply = s.ply;
  svg.dataset.gameNumber = s.game_number;
  const legal = new Set(s.legal);
  const flipped = new Set(s.flipped);
  const mine = s.turn === null ? "#000" : s.fills[s.turn];
  const humanTurn = s.turn !== null && !s.engine_to_move && !s.replay;
  svg.dataset.turn = s.result ? "over" : humanTurn ? "human" : "wait";
  for (const cell of g.cells) {
    const owner = s.cells[cell.i];
    const name = s.names[cell.i];
    let shape;
    if (g.shape === "square") {
      shape = el("rect", { x: cell.x - 0.5, y: cell.y - 0.5, width: 1, height: 1, class: "cell square" }, svg);
    } else {
      shape = el("polygon", { points: hexagon(cell.x, cell.y, 0.57), class: "cell hexcell" }, svg);
    }
    shape.dataset.cell = name;
    if (owner >= 0) {
      const disc = el("circle", { cx: cell.x, cy: cell.y, r: g.shape === "square" ? 0.4 : 0.36, fill: s.fills[owner], class: "disc" }, svg);
      disc.dataset.owner = owner;
      disc.dataset.cell = name;
    } else if (g.shape === "hex") {
      el("text", { x: cell.x, y: cell.y, class: "hexlabel" }, svg).textContent = name;
    }
    if (legal.has(cell.i)) {
      shape.classList.add("legal");
      shape.dataset.legal = "1";
      if (humanTurn) {
        shape.setAttribute("tabindex", "0");
        shape.setAttribute("role", "button");
        shape.setAttribute("aria-label", `play ${name}`);
        shape.addEventListener("click", () => post("move", { move: name }));
        shape.addEventListener("keydown", (e) => { if (e.key === "Enter") post("move", { move: name }); });
      }
      if (s.game !== "tetralath") el("circle", { cx: cell.x, cy: cell.y, r: 0.13, class: "hint turn", fill: mine }, svg);
    }
    if (flipped.has(cell.i)) el("circle", { cx: cell.x, cy: cell.y, r: 0.3, class: "flipped" }, svg);
    if (s.last === cell.i) {
      const mark = g.shape === "square"
        ? el("rect", { x: cell.x - 0.45, y: cell.y - 0.45, width: 0.9, height: 0.9, class: "last" }, svg)
        : el("polygon", { points: hexagon(cell.x, cell.y, 0.5), class: "last" }, svg);
      mark.dataset.last = name;
    }
  }
  if (g.shape === "square") {
    for (let k = 0; k < g.rows; k++) {
      el("text", { x: k + 0.42, y: -0.12, class: "label" }, svg).textContent = g.columns[k];
      el("text", { x: -0.4, y: k + 0.6, class: "label" }, svg).textContent = String(k + 1);
    }
  }
}

function words() {
  return WORDS[session?.options?.lang === "pt" ? "pt" : "en"];
}

function sayAll(w, lang) {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-say]")) node.textContent = w[node.dataset.say];
}

function drawPanel(s) {
  const w = words();
  sayAll(w, s.options.lang === "pt" ? "pt" : "en");
  const humans = s.seats.filter((seat) => seat.player === "human").length;
  if (s.result) {
    $("status").textContent = "";
    $("result").textContent = s.result.text;
  } else {
    const seat = s.seats[s.colours.findIndex((c) => c.index === s.turn)];
    const who = s.replay ? "" : seat.player === "human" ? (humans === 1 ? ` (${w.you})` : "") : ` (${seat.player})`;
    $("status").textContent = w.toPlay.replace("{side}", s.turn_name) + who + (s.paused ? ` — ${w.paused}` : "");
    $("result").textContent = "";
  }
  $("status").dataset.turn = s.turn ?? "";
  const scores = $("scores");
  scores.replaceChildren();
  for (const c of s.colours) {
    const li = document.createElement("li");
    const dot = document.createElement("span");
    dot.className = "swatch";
    dot.dataset.fill = c.fill;
    li.append(dot, ` ${c.name} ${s.game === "tetralath" ? "" : c.score}`);
    li.dataset.colour = c.name;
    li.dataset.score = c.score;
    scores.append(li);
  }
  for (const dot of scores.querySelectorAll(".swatch")) dot.style.background = dot.dataset.fill;
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
  $("thinking").dataset.depth = s.thinking ? s.thinking.depth : "";
  $("thinking").dataset.waiting = s.thinking?.waiting ? "1" : "";
  $("stop").disabled = !s.thinking;
  $("pause").textContent = s.paused ? w.play : w.pause;
  $("undo").disabled = s.ply === 0;
  $("redo").disabled = s.ply >= s.moves.length;
  if (s.message) $("message").textContent = s.message;
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
  if (document.activeElement !== $("record")) $("record").value = s.record;
  $("replay-info").textContent = s.replay ? `${s.replay.title} — ${s.replay.result}` : "";
  if (document.activeElement !== $("pace")) $("pace").value = s.options.pace ?? 0;
}

function show(state) {
  if (session && state.version < session.version && state.id === session.id) return; // an older answer
  const fresh = !session || session.id !== state.id;
  session = state;
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
  const saved = sessionStorage.getItem("gamecore-session");
  if (saved) {
    const response = await fetch(`/api/sessions/${encodeURIComponent(saved)}`);
    if (response.ok) {
      const state = await response.json();
      syncForm(state);
      show(state);
      return;
    }
  }
  const state = await post(null);
  if (state) {
    sessionStorage.setItem("gamecore-session", state.id);
    syncForm(state);
  }
}

function syncForm(state) {
  $("game").value = state.game;
  if (state.options.size) $("size").value = state.options.size;
  if (state.options.players) $("players").value = state.options.players;
  $("lang").value = state.options.lang;
  $("swap").checked = !!state.options.swap;
  for (const label of document.querySelectorAll("label[data-for]")) label.hidden = label.dataset.for !== state.game;
  drawSeatChoice(state.seats);
}

function newGameBody() {
  const game = $("game").value;
  const options = { lang: game === "tetralath" ? $("lang").value : "en" };
  if (game === "othello") options.size = Number($("size").value);
  if (game === "rolit") options.players = Number($("players").value);
  if (game === "tetralath") options.swap = $("swap").checked;
  return { game, options, seats: chosenSeats() };
}

async function loadReplayList() {
  const response = await fetch("/api/replays");
  const data = await response.json();
  const list = $("replay-list");
  list.replaceChildren();
  data.games.forEach((title, k) => list.add(new Option(title, `server:${k}`)));
}

$("game").addEventListener("change", showOptions);
$("players").addEventListener("change", () => drawSeatChoice(null));
$("lang").addEventListener("change", () => drawSeatChoice(chosenSeats()));
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

showOptions();
loadReplayList();
start();
