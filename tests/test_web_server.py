"""The web board's server (gamecore serve): its API, and attacks on it that must fail with a
4xx and change nothing. Runs with whichever backend GAMECORE_BACKEND selects."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

WEB_EXTRA = 'the web extra and httpx2: pip install ".[web]" httpx2'
pytest.importorskip("starlette", reason=WEB_EXTRA)
httpx = pytest.importorskip("httpx2", reason=WEB_EXTRA)  # Starlette's TestClient warns when it runs on the older httpx
from starlette.testclient import TestClient  # noqa: E402

from gamecore import GAMES, Othello, Rolit, Tetralath  # noqa: E402
from gamecore.cli import main  # noqa: E402
from gamecore.players import EnginePlayer, MCTSPlayer  # noqa: E402
from gamecore.search.engine import SearchResult  # noqa: E402
from gamecore.svg import board  # noqa: E402
from gamecore.ui import GAME_UIS  # noqa: E402
from gamecore.ui.play import MESSAGES, describe_score, evaluation_scale  # noqa: E402
from gamecore.web import app as web_app  # noqa: E402
from gamecore.web.app import create_app  # noqa: E402
from web_helpers import played_record, running_server, write_database, write_games_json  # noqa: E402

BASE = "http://127.0.0.1:8765"


@pytest.fixture
def client():
    with TestClient(create_app(), base_url=BASE) as c:
        yield c


def new_session(client, **body):
    response = client.post("/api/sessions", json={})
    assert response.status_code == 201
    state = response.json()
    if body:
        state = act(client, state["id"], "new", **body)
    return state


def act(client, sid, action, status=200, **body):
    response = client.post(f"/api/sessions/{sid}/{action}", json=body)
    assert response.status_code == status, response.text
    return response.json()


def state_of(client, sid):
    return client.get(f"/api/sessions/{sid}").json()


def wait_for(client, sid, check, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = state_of(client, sid)
        if check(state):
            return state
        time.sleep(0.02)
    raise AssertionError(f"timed out; last state: ply {state['ply']}, result {state['result']}")


HUMANS = [{"player": "human"}, {"player": "human"}]


def stable(state):
    """A state without its counters, to compare before and after a refused request."""
    return {k: v for k, v in state.items() if k not in ("version",)}


# -- playing -------------------------------------------------------------------------------


def test_a_new_session_is_othello_8x8_at_the_start(client):
    state = new_session(client)
    assert state["game"] == "othello" and state["ply"] == 0
    assert sorted(state["legal_names"]) == ["c4", "d3", "e6", "f5"]
    assert state["cells"] == [v for row in Othello().cells() for v in row]
    assert [c["score"] for c in state["colours"]] == [2, 2]


def test_moves_flips_and_last_move(client):
    sid = new_session(client, game="othello", options={"size": 8}, seats=HUMANS)["id"]
    state = act(client, sid, "move", move="d3")
    names = state["names"]
    assert names[state["last"]] == "d3"
    assert [names[i] for i in state["flipped"]] == ["d4"]
    assert state["cells"] == [v for row in Othello.from_moves("d3").cells() for v in row]
    assert state["turn_name"] == "white" and [c["score"] for c in state["colours"]] == [4, 1]


def test_the_board_is_the_librarys_svg(client):
    # issue 34: one renderer draws boards everywhere; the page shows the state's picture
    start = new_session(client, game="rolit", options={"players": 3}, seats=[{"player": "human"}] * 3)
    move = start["legal_names"][-1]
    state = act(client, start["id"], "move", move=move)
    sid, position = start["id"], Rolit.from_moves(move, players=3)
    assert state["board_svg"] == str(board(position, size=560, flipped=True, clickable=True))
    picture = client.get(f"/api/sessions/{sid}/board.svg")
    assert picture.headers["content-type"].startswith("image/svg+xml")
    assert picture.text == state["board_svg"] and picture.headers["content-security-policy"]
    assert client.get(f"/api/sessions/{sid}/board.svg?size=200").text == str(
        board(position, size=200, flipped=True, clickable=True)
    )
    for size in ("10", "x", "99999999", "-5"):
        answer = client.get(f"/api/sessions/{sid}/board.svg?size={size}")
        assert answer.status_code == 400 and "size" in answer.json()["error"]
    assert client.get("/api/sessions/nosuchsessionnosuch/board.svg").status_code == 404


def test_the_menus_say_each_games_options_and_seats(client):
    # issue 32: the page names no game; what it offers comes from each game's class
    menu = {entry["game"]: entry for entry in client.get("/api/games").json()["games"]}
    assert set(menu) == set(GAMES)
    for name, entry in menu.items():
        cls = GAMES[name]
        assert [o["name"] for o in entry["options"]] == [o.name for o in cls.game_options()]
        assert entry["players"] == list(cls.players) and entry["default_time"] == cls.default_time
        for key, colours in entry["seats"].items():  # every setting of the options that change the seats
            position, values = cls.from_options(json.loads(key))
            named = [GAME_UIS[name].colour_name(c, values["lang"]).lower() for c in position.colors]
            assert colours == named, (name, key)
    assert menu["rolit"]["seat_options"] == ["players"] and len(menu["rolit"]["seats"]) == 3
    assert menu["tetralath"]["seats"]['{"lang":"pt"}'] == ["brancas", "pretas"]
    assert menu["othello"]["seats"] == {"{}": ["black", "white"]}


def test_a_count_of_pieces_only_where_it_decides_the_game(client):
    sid = new_session(client, game="tetralath", options={}, seats=HUMANS)["id"]
    assert [c["score"] for c in act(client, sid, "move", move="e5")["colours"]] == [None, None]


def test_undo_redo_goto_and_a_new_line(client):
    sid = new_session(client, game="othello", options={"size": 6}, seats=HUMANS)["id"]
    for move in ("c2", "b2", "a2"):
        act(client, sid, "move", move=move)
    assert act(client, sid, "undo")["ply"] == 2
    assert act(client, sid, "redo")["ply"] == 3
    state = act(client, sid, "goto", ply=1)
    assert state["ply"] == 1 and [m["text"] for m in state["moves"]] == ["c2", "b2", "a2"]
    assert state["cells"] == [v for row in Othello.from_moves("c2", size=6).cells() for v in row]
    state = act(client, sid, "move", move=state["legal_names"][-1])  # another move: the old line goes
    assert state["ply"] == 2 and len(state["moves"]) == 2
    act(client, sid, "redo", status=409)


def test_undo_against_the_engine_goes_back_to_the_human(client):
    sid = new_session(client, game="othello", options={"size": 8}, seats=[{"player": "human"}, {"player": "random"}])[
        "id"
    ]
    act(client, sid, "move", move="d3")
    wait_for(client, sid, lambda s: s["ply"] == 2)
    state = act(client, sid, "undo")
    assert state["ply"] == 0 and state["turn_name"] == "black" and not state["paused"]


def test_export_and_import_a_record(client):
    sid = new_session(client, game="othello", options={"size": 8}, seats=HUMANS)["id"]
    for move in ("f5", "d6", "c3", "d3", "c4"):
        act(client, sid, "move", move=move)
    record = state_of(client, sid)["record"]
    assert Othello.from_moves(record) == Othello.from_moves("f5 d6 c3 d3 c4")
    other = new_session(client, game="othello", options={"size": 8}, seats=HUMANS)["id"]
    state = act(client, other, "import", record=record)
    assert state["ply"] == 5 and state["cells"] == state_of(client, sid)["cells"]


@pytest.mark.parametrize(
    ("game", "options", "seats"),
    [
        ("othello", {"size": 4}, 2),
        ("rolit", {"players": 3}, 3),
        ("tetralath", {"lang": "pt"}, 2),
    ],
)
def test_an_engine_game_plays_to_its_end(client, game, options, seats):
    engines = [{"player": p, "time": 0.05} for p in ("engine", "paranoid", "mcts")[:seats]]
    sid = new_session(client, game=game, options=options, seats=engines)["id"]
    state = wait_for(client, sid, lambda s: s["result"] is not None)
    record = state["record"]
    truth = {
        "othello": lambda: Othello.from_moves(record, size=4),  # passes left out, as from_moves reads them
        "rolit": lambda: Rolit.from_moves(record, colours="RYG"),
        "tetralath": lambda: Tetralath.from_moves(record),
    }[game]()
    assert truth.is_game_over() and [v for row in truth.cells() for v in row] == state["cells"]
    assert state["result"]["termination"] == truth.outcome().termination.value
    assert state["last_thought"] is None or state["last_thought"]["score"]
    if game == "tetralath":
        assert any(w in state["result"]["text"] for w in ("brancas", "pretas", "empate"))


def test_live_thinking_and_the_stop_button(client):
    sid = new_session(
        client, game="othello", options={"size": 8}, seats=[{"player": "engine", "time": 60}, {"player": "human"}]
    )["id"]
    state = wait_for(client, sid, lambda s: s["thinking"] and s["thinking"]["depth"] >= 2)
    thinking = state["thinking"]
    assert thinking["score"].endswith(("for black", "for white")) or thinking["score"] == "level"
    assert thinking["pv"].split()[0] in state["legal_names"] and thinking["nodes"] > 0
    act(client, sid, "stop")
    state = wait_for(client, sid, lambda s: s["ply"] == 1, timeout=30)
    assert state["moves"][0]["text"] in ("d3", "c4", "f5", "e6")
    assert state["last_thought"]["depth"] >= thinking["depth"]


def test_mcts_live_thinking_and_the_stop_button(client):
    sid = new_session(
        client,
        game="rolit",
        options={"players": 4},
        seats=[{"player": "mcts", "time": 60}] + [{"player": "human"}] * 3,
    )["id"]
    state = wait_for(client, sid, lambda s: s["thinking"] and s["thinking"]["iterations"] > 0)
    thinking = state["thinking"]
    said = {GAME_UIS["rolit"].move_text(m) for m in Rolit("RBYG").legal_moves()}  # as the page says moves
    assert "red" in thinking["score"] and thinking["pv"].split(", ")[0] in said
    act(client, sid, "stop")  # without stop() this move would take its 60 s
    state = wait_for(client, sid, lambda s: s["ply"] == 1, timeout=30)
    assert state["moves"][0]["text"] in said and state["last_thought"]["iterations"] >= thinking["iterations"]


def test_the_score_is_said_in_discs_where_the_evaluation_counts_them():
    # Othello's learned evaluation (6x6, 8x8, 10x10) is in hundredths of a disc: +1110 is "+11
    # for white"; a proven margin is discs already; the standard evaluation (4x4, which ships
    # no weights) and Tetralath's have no unit to convert; Rolit's is in balls.
    names = {Othello.BLACK: "black", Othello.WHITE: "white"}.get
    m = MESSAGES["en"]
    engine = EnginePlayer(time=1)
    assert evaluation_scale(Othello(8), engine) == evaluation_scale(Othello(6), engine) == 100
    assert evaluation_scale(Othello(10), engine) == 100
    assert evaluation_scale(Othello(8), EnginePlayer(time=1, evaluation="learned")) == 100
    assert evaluation_scale(Othello(4), engine) == 1
    assert evaluation_scale(Othello(8), EnginePlayer(time=1, evaluation="standard")) == 1
    assert evaluation_scale(Tetralath(), engine) == evaluation_scale(Rolit(), engine) == 1
    assert evaluation_scale(Othello(8), MCTSPlayer(iterations=10)) == 1

    def said(score, mover, **kw):
        result = SearchResult(move=None, score=score, depth=9, **kw)
        return describe_score(result, mover, names, m, True, 100)

    assert said(1110, Othello.WHITE) == "+11 for white"
    assert said(-650, Othello.WHITE) == "+6 for black"
    assert said(40, Othello.BLACK) == "level"  # less than half a disc
    assert said(12, Othello.BLACK, proven="win") == "black wins by 12"  # a margin: not scaled
    assert said(-12, Othello.BLACK, exact=True) == "white wins by 12"


def test_the_page_says_the_engines_score_in_discs(client):
    # An 8x8 engine's thought as the page shows it: in discs (at most 64), never hundredths.
    sid = new_session(
        client, game="othello", options={"size": 8}, seats=[{"player": "human"}, {"player": "engine", "time": 0.3}]
    )["id"]
    act(client, sid, "move", move="d3")
    state = wait_for(client, sid, lambda s: s["ply"] == 2 and s["last_thought"])
    score = state["last_thought"]["score"]
    assert score == "level" or (score.endswith(("for black", "for white")) and abs(int(score.split()[0])) <= 64)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_player_of_every_seat_plays(client, game):
    # Each player the game lists (its seat menus), in each game, plays a legal move from the start.
    options = {"players": 2} if game == "rolit" else {"size": 6} if game == "othello" else {}
    state = new_session(client, game=game, options=options)
    assert state["players"] == list(GAMES[game].players)
    sid = state["id"]  # one session, a new game for each player (a client may hold only a few sessions)
    for name in GAMES[game].players:
        if name == "human":
            continue
        seats = [{"player": name, "time": 0.05}, {"player": "human"}]
        number = act(client, sid, "new", game=game, options=options, seats=seats)["game_number"]
        state = wait_for(client, sid, lambda s, number=number: s["game_number"] == number and s["ply"] == 1)
        assert state["seats"][0]["player"] == name and state["message"] == ""
        start = {"othello": lambda: Othello(6), "rolit": lambda: Rolit(players=2), "tetralath": Tetralath}[game]()
        assert state["moves"][0]["text"] in {GAME_UIS[game].move_text(m) for m in start.legal_moves()}


def test_rolit_columns_are_numbered_as_its_moves_are_said(client):
    state = new_session(client, game="rolit", options={"players": 4}, seats=[{"player": "human"}] * 4)
    assert state["geometry"]["columns"] == [str(k) for k in range(1, 9)]
    state = act(client, state["id"], "move", move="f4")
    assert state["moves"][0]["text"] == "4 6"  # row 4, column 6: the square under column "6", row "4"
    assert state["names"][state["last"]] == "f4" and state["last"] == 3 * 8 + 5
    assert new_session(client)["geometry"]["columns"] == list("abcdefgh")


def test_an_engine_waiting_for_a_thread_says_so_and_stops():
    # One engine thread: a second game's engine waits for it, the page says so, and its stop
    # button ends that search as soon as it starts (it would have taken 60 s).
    with TestClient(create_app(threads=1), base_url=BASE) as client:
        seats = [{"player": "engine", "time": 60}, {"player": "human"}]
        first = new_session(client, game="othello", options={"size": 8}, seats=seats)["id"]
        wait_for(client, first, lambda s: s["thinking"] and not s["thinking"].get("waiting"))
        second = new_session(client, game="othello", options={"size": 6}, seats=seats)["id"]
        state = wait_for(client, second, lambda s: s["thinking"] is not None)
        time.sleep(0.3)
        assert state_of(client, second)["thinking"]["waiting"] is True  # the one thread is busy
        act(client, second, "stop")  # asked while waiting
        act(client, first, "stop")  # frees the thread
        assert wait_for(client, first, lambda s: s["ply"] == 1, timeout=30)["moves"][0]["text"] in (
            "d3",
            "c4",
            "f5",
            "e6",
        )
        state = wait_for(client, second, lambda s: s["ply"] == 1, timeout=30)
        assert state["moves"][0]["text"] in ("c2", "b3", "e4", "d5")


def test_serve_checks_its_numbers(capsys):
    for option in (["--threads", "0"], ["--sessions", "0"]):
        assert main(["serve", "--no-browser", *option]) == 1
        assert "must be from 1" in capsys.readouterr().err


def test_pause_stops_an_engine_game_between_moves(client):
    # The pace is set before the engines take their seats: random players without a pace
    # could finish the whole game between two requests on a loaded machine (a flake seen).
    sid = new_session(client, game="othello", options={"size": 6}, seats=HUMANS)["id"]
    act(client, sid, "pace", pace=0.3)
    act(client, sid, "seats", seats=[{"player": "random"}] * 2)
    wait_for(client, sid, lambda s: s["ply"] >= 1)  # the engines play at that pace
    act(client, sid, "pause", paused=True)
    ply = wait_for(client, sid, lambda s: s["thinking"] is None)["ply"]
    assert ply < 20
    time.sleep(0.8)
    assert state_of(client, sid)["ply"] == ply
    act(client, sid, "pause", paused=False)
    wait_for(client, sid, lambda s: s["ply"] > ply)


def test_replays_from_games_json_and_database(tmp_path):
    records = [
        played_record(game, 7 + k, f"{game}/8/0-1/g{k}") for k, game in enumerate(("othello", "rolit", "tetralath"))
    ]
    write_games_json(tmp_path / "games.json", [r for r, _ in records])
    write_database(tmp_path / "results.db", [r for r, _ in records])
    for source in ("games.json", "results.db"):
        with TestClient(create_app(replay_path=str(tmp_path / source)), base_url=BASE) as client:
            listed = client.get("/api/replays").json()
            assert listed["source"] == source and len(listed["games"]) == 3
            sid = new_session(client)["id"]
            for index, (record, final) in enumerate(records):
                state = act(client, sid, "replay", index=index)
                assert state["game"] == record["game"] and state["ply"] == 0
                assert len(state["moves"]) >= len(record["moves"])
                state = act(client, sid, "goto", ply=len(state["moves"]))
                assert state["cells"] == [v for row in final.cells() for v in row]
                assert state["result"] is not None and state["replay"]["players"] == record["players"]


def test_a_replay_uploaded_by_the_page(client):
    record, final = played_record("othello", 3, "othello/6/0-1/g0")
    sid = new_session(client)["id"]
    state = act(client, sid, "replay-file", name="games.json", games=[record], index=0)
    state = act(client, sid, "goto", ply=len(state["moves"]))
    assert state["cells"] == [v for row in final.cells() for v in row]


def test_sessions_are_independent_and_capped(monkeypatch):
    monkeypatch.setattr(web_app, "UNSHOWN_SECONDS", 0.0)  # a game no page shows may make room at once
    with TestClient(create_app(max_sessions=3), base_url=BASE) as client:
        ids = [new_session(client, game="othello", options={"size": 8}, seats=HUMANS)["id"] for _ in range(3)]
        act(client, ids[1], "move", move="d3")
        assert [state_of(client, sid)["ply"] for sid in ids] == [0, 1, 0]
        client.get(f"/api/sessions/{ids[0]}")  # the first is used again: the second is the oldest
        client.get(f"/api/sessions/{ids[2]}")
        new_session(client)
        gone = client.get(f"/api/sessions/{ids[1]}")
        assert gone.status_code == 410 and gone.json()["error"] == web_app.EVICTED  # the page says why
        assert client.get(f"/api/sessions/{ids[0]}").status_code == 200


def test_issue31_one_client_cannot_evict_a_game_a_person_is_playing():
    # one client made 40 sessions and evicted another user's game that waited on a human move
    app = create_app(max_sessions=8)
    with TestClient(app, base_url=BASE, client=("10.0.0.1", 5000)) as player:
        sid = new_session(player, game="othello", options={"size": 8}, seats=HUMANS)["id"]
        before = act(player, sid, "move", move="d3")  # waiting on the other human's move
        flood = TestClient(app, base_url=BASE, client=("10.0.0.2", 5000))
        made = [flood.post("/api/sessions", json={}).status_code for _ in range(40)]
        assert made == [201] * 4 + [429] * 36  # half of the server a client, at least 4
        for k in range(3, 6):  # more clients fill the server: the newcomer is refused, nobody is evicted
            other = TestClient(app, base_url=BASE, client=(f"10.0.0.{k}", 5000))
            made = [other.post("/api/sessions", json={}).status_code for _ in range(4)]
            assert made == ([201] * 3 + [503] if k == 3 else [503] * 4)
        assert stable(state_of(player, sid)) == stable(before)
        assert act(player, sid, "move", move="c3")["ply"] == 2


def test_the_event_stream_sends_each_change_and_is_capped():
    with running_server() as url, httpx.Client(base_url=url, timeout=30) as client:
        sid = client.post("/api/sessions", json={}).json()["id"]
        client.post(f"/api/sessions/{sid}/new", json={"game": "othello", "options": {"size": 6}, "seats": HUMANS})
        with client.stream("GET", f"/api/sessions/{sid}/events") as events:
            assert events.headers["content-type"].startswith("text/event-stream")
            lines = events.iter_lines()
            first = json.loads(next(line for line in lines if line.startswith("data: "))[6:])
            assert first["id"] == sid and first["ply"] == 0
            client.post(f"/api/sessions/{sid}/move", json={"move": "c2"})
            moved = json.loads(next(line for line in lines if line.startswith("data: "))[6:])
            assert moved["ply"] == 1 and moved["moves"][0]["text"] == "c2"
            others = [client.stream("GET", f"/api/sessions/{sid}/events") for _ in range(3)]
            opened = [o.__enter__() for o in others]
            assert all(o.status_code == 200 for o in opened)
            refused = client.get(f"/api/sessions/{sid}/events")
            assert refused.status_code == 429  # a fifth stream of one game
            for o in others:
                o.__exit__(None, None, None)


def test_serve_refuses_other_addresses(capsys):
    assert main(["serve", "--host", "0.0.0.0", "--no-browser"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_serve_listens_on_this_machine_and_opens_the_browser(tmp_path):
    # As a user runs it: `gamecore serve` with no --host, the browser that $BROWSER names.
    opened = tmp_path / "opened"
    browser = f"{sys.executable} -c \"import sys; open(sys.argv[1], 'w').write(sys.argv[2])\" {opened} %s"
    env = {**os.environ, "BROWSER": browser}
    child = subprocess.Popen(
        [sys.executable, "-m", "gamecore", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        line = child.stdout.readline()
        found = re.search(r"on (http://127\.0\.0\.1:(\d+)/) ", line)
        assert found, line
        deadline = time.monotonic() + 30
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert opened.read_text() == found.group(1)
        port = int(found.group(2))
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass
        # listening on 127.0.0.1 alone: the kernel's table of listening sockets (Linux) has
        # that port on 0100007F (127.0.0.1) and on no other address, IPv4 or IPv6
        tables = [Path("/proc/net/tcp"), Path("/proc/net/tcp6")]
        if tables[0].exists():
            listening = [
                row.split()[1].split(":")[0]
                for table in tables
                if table.exists()
                for row in table.read_text().splitlines()[1:]
                if row.split()[3] == "0A" and int(row.split()[1].split(":")[1], 16) == port
            ]
            assert listening == ["0100007F"]
    finally:
        child.terminate()
        child.wait(10)


def _raw(port: int, request: bytes) -> tuple[int, bytes]:
    """Send bytes as they are (no client tidies the path) and read the status and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_raw_paths_and_bodies_on_a_real_server():
    # The paths reach the server byte for byte (an HTTP client would remove the dot segments).
    with running_server() as url, httpx.Client(base_url=url, timeout=30) as client:
        port = int(url.rsplit(":", 1)[1])
        sid = client.post("/api/sessions", json={}).json()["id"]
        client.post(f"/api/sessions/{sid}/new", json={"game": "othello", "options": {"size": 6}, "seats": HUMANS})
        before = stable(client.get(f"/api/sessions/{sid}").json())
        secrets_ = (b"[build-system]", b"root:", b"import ", b"def ")
        for path in (
            "/static/../../../../etc/passwd",
            "/static/..%2f..%2f..%2fetc%2fpasswd",
            "/static/%2e%2e/%2e%2e/pyproject.toml",
            "/static/../app.py",
            "/static/..\\app.py",
            "/static/./app.js/../../web/app.py",
            "/../../../../etc/passwd",
            "//etc/passwd",
            "/static/app.js%00.py",
            f"/api/sessions/{sid}/../../../../etc/passwd",
        ):
            status, body = _raw(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            assert 400 <= status < 500, (path, status)
            assert not any(m in body for m in secrets_), path
        # a body without a length, sent in chunks past the cap: refused as it comes
        chunk = b"x" * 8192
        chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(12)) + b"0\r\n\r\n"
        request = (
            f"POST /api/sessions/{sid}/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        ).encode()
        assert _raw(port, request + chunks)[0] == 413
        # a declared length far past the cap is refused before the body comes
        request = (
            f"POST /api/sessions/{sid}/move HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            "Content-Length: 10000000000\r\nConnection: close\r\n\r\n{}"
        ).encode()
        assert _raw(port, request)[0] == 413
        # no Host header, another Host, an absolute URL to elsewhere
        assert _raw(port, b"GET / HTTP/1.0\r\n\r\n")[0] == 400
        assert _raw(port, b"GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")[0] == 400
        assert stable(client.get(f"/api/sessions/{sid}").json()) == before
        assert client.get("/").status_code == 200  # and the server still serves


# -- attacks: each gets a 4xx and changes nothing ------------------------------------------------


def test_only_the_page_files_are_served(client):
    assert "text/html" in client.get("/").headers["content-type"]
    assert client.get("/static/app.js").status_code == 200
    secret_markers = ("[build-system]", "import ", "root:", "def ")
    for path in (
        "/static/../pyproject.toml",
        "/static/..%2f..%2fpyproject.toml",
        "/static/%2e%2e/app.py",
        "/static/..%5capp.py",
        "/static/__init__.py",
        "/static/app.py",
        "/static/index.html/..",
        "/static//etc/passwd",
        "/static/%2fetc%2fpasswd",
        "/../../etc/passwd",
        "/etc/passwd",
    ):
        response = client.get(path)
        assert response.status_code == 404, path
        assert not any(m in response.text for m in secret_markers), path


@pytest.mark.parametrize("base", ["http://127.0.0.1:8765", "http://localhost:8765", "http://[::1]:8765"])
def test_each_loopback_name_is_served(base):
    # the addresses `gamecore serve --host` takes, as the browser names them in the Host header
    with TestClient(create_app(), base_url=base) as client:
        assert client.get("/").status_code == 200
        sid = client.post("/api/sessions", json={}, headers={"origin": base}).json()["id"]
        response = client.post(f"/api/sessions/{sid}/move", json={"move": "d3"}, headers={"origin": base})
        assert response.status_code == 200 and response.json()["ply"] == 1


def test_other_hosts_and_origins_are_refused(client):
    sid = new_session(client, game="othello", options={"size": 8}, seats=HUMANS)["id"]
    before = stable(state_of(client, sid))
    # DNS rebinding: a page of another site whose name resolves to 127.0.0.1
    assert client.get("/", headers={"host": "evil.example:8765"}).status_code == 400
    assert (
        client.post(f"/api/sessions/{sid}/move", json={"move": "d3"}, headers={"host": "evil.example"}).status_code
        == 400
    )
    # a cross-site form or fetch: another origin, or not JSON (a form's simple request)
    response = client.post(f"/api/sessions/{sid}/move", json={"move": "d3"}, headers={"origin": "http://evil.example"})
    assert response.status_code == 403
    response = client.post(
        f"/api/sessions/{sid}/move", content="move=d3", headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 415
    response = client.post(
        f"/api/sessions/{sid}/move", content='{"move": "d3"}', headers={"content-type": "text/plain"}
    )
    assert response.status_code == 415
    assert client.delete(f"/api/sessions/{sid}", headers={"origin": "http://evil.example"}).status_code == 403
    assert stable(state_of(client, sid)) == before


@pytest.mark.parametrize(
    ("action", "body", "status"),
    [
        ("move", {"move": "z9"}, 400),
        ("move", {"move": "a1"}, 409),
        ("move", {"move": 19}, 400),
        ("move", {"move": "d3" * 100}, 400),
        ("move", {}, 400),
        ("goto", {"ply": 5}, 400),
        ("goto", {"ply": -1}, 400),
        ("goto", {"ply": True}, 400),
        ("undo", {}, 409),
        ("redo", {}, 409),
        ("stop", {}, 409),
        ("new", {"game": "chess"}, 400),
        ("new", {"game": "othello", "options": {"size": 7}, "seats": HUMANS}, 400),
        ("new", {"game": "othello", "options": {"size": 10**100}, "seats": HUMANS}, 400),
        ("new", {"game": "othello", "options": [], "seats": HUMANS}, 400),
        ("new", {"game": "othello", "options": {"lang": "pt"}, "seats": HUMANS}, 400),
        ("new", {"game": "othello", "options": {}, "seats": [{"player": "human"}]}, 400),
        (
            "new",
            {
                "game": "othello",
                "options": {},
                "seats": [{"player": "__import__('os').system('id')"}, {"player": "human"}],
            },
            400,
        ),
        (
            "new",
            {"game": "othello", "options": {}, "seats": [{"player": "engine", "time": 1e9}, {"player": "human"}]},
            400,
        ),
        (
            "new",
            {"game": "othello", "options": {}, "seats": [{"player": "engine", "time": "1"}, {"player": "human"}]},
            400,
        ),
        (
            "new",
            {
                "game": "othello",
                "options": {},
                "seats": [{"player": "engine", "time": float("nan")}, {"player": "human"}],
            },
            400,
        ),
        ("new", {"game": "tetralath", "options": {"swap": "yes"}, "seats": HUMANS}, 400),
        ("new", {"game": "tetralath", "options": {}, "seats": [{"player": "greedy"}, {"player": "human"}]}, 400),
        ("seats", {"seats": "engine"}, 400),
        ("pace", {"pace": -1}, 400),
        ("pace", {"pace": 1e6}, 400),
        ("pause", {"paused": "yes"}, 400),
        ("import", {"record": "f5 d6 z9"}, 400),
        ("import", {"record": "f5 f5"}, 400),
        ("import", {"record": "f5" * 20_000}, 400),
        ("import", {"record": ["f5"]}, 400),
        ("replay", {"index": 0}, 400),
        ("replay-file", {"games": []}, 400),
        ("replay-file", {"games": [{"game": "chess", "moves": []}]}, 400),
        ("replay-file", {"games": [{"game": "othello", "size": 6, "moves": [{"move": "a1"}]}]}, 400),
        ("replay-file", {"games": [{"game": "othello", "size": 3, "moves": []}]}, 400),
        ("replay-file", {"games": [{"game": "othello", "size": 6, "moves": "c2"}]}, 400),
        ("replay-file", {"games": [{"game": "othello", "size": 6, "moves": []}], "index": 1}, 400),
        ("../../etc/passwd", {}, 404),
        ("eval", {"code": "1+1"}, 404),
    ],
)
def test_bad_requests_get_a_4xx_and_change_nothing(client, action, body, status):
    sid = new_session(client, game="othello", options={"size": 6}, seats=HUMANS)["id"]
    before = stable(state_of(client, sid))
    response = client.post(
        f"/api/sessions/{sid}/{action}", content=json.dumps(body), headers={"content-type": "application/json"}
    )
    assert response.status_code == status, response.text
    assert response.json()["error"]
    assert stable(state_of(client, sid)) == before


def test_malformed_bodies_and_unknown_sessions(client):
    sid = new_session(client, game="othello", options={"size": 6}, seats=HUMANS)["id"]
    before = stable(state_of(client, sid))
    url = f"/api/sessions/{sid}/move"
    headers = {"content-type": "application/json"}
    assert client.post(url, content="{not json", headers=headers).status_code == 400
    assert client.post(url, content="[1, 2]", headers=headers).status_code == 400
    assert client.post(url, content="[" * 100_000, headers=headers).status_code == 413
    assert client.post(url, content="[" * 50_000 + "]" * 50_000, headers=headers).status_code == 413
    assert client.post(url, content='{"move": "' + "x" * 70_000 + '"}', headers=headers).status_code == 413
    assert client.post(url, content="[" * 20_000 + "]" * 20_000, headers=headers).status_code == 400  # deep nesting
    assert client.post(url, content=b"\xff\xfe", headers=headers).status_code == 400
    assert stable(state_of(client, sid)) == before
    for bad in ("nosuchsession0000000", "../../etc/passwd", "x" * 300, "%00"):
        assert client.get(f"/api/sessions/{bad}").status_code == 404
        assert client.post(f"/api/sessions/{bad}/move", json={"move": "d3"}).status_code == 404
    assert client.get("/api/sessions").status_code == 405
