"""The web board in a real browser: Playwright for Python driving the system's Chromium
(never Playwright's own download). The page keeps its Content-Security-Policy: the tests
wait on DOM attributes (``#board[data-ply]``), not on evaluated script.

Without Playwright or Chromium these tests skip, unless GAMECORE_REQUIRE_BROWSER=1 (CI),
where they fail. GAMECORE_WEB_SCREENSHOTS=DIR also writes the docs' screenshots there.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from gamecore import GAMES, Othello, Rolit, Tetralath
from test_game_registry import NAME as FOURTH
from test_game_registry import small_othello  # noqa: F401  # the fixture of the fourth game
from web_helpers import played_record, running_server, write_database, write_games_json


def _chromium() -> str | None:
    return os.environ.get("GAMECORE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401, PLC0415 -- only to know whether it is there
        import starlette  # noqa: F401, PLC0415
        import uvicorn  # noqa: F401, PLC0415
    except ImportError as exc:
        return f"the web extra or playwright is not installed ({exc})"
    return None if _chromium() else "no chromium on PATH (apt-get install chromium)"


_MISSING = _missing()
if _MISSING:
    if os.environ.get("GAMECORE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"GAMECORE_REQUIRE_BROWSER=1 but {_MISSING}", pytrace=False)
    pytest.skip(_MISSING, allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402

TIMEOUT = 30_000  # ms: a wait, not a speed claim (a loaded CI machine)


@pytest.fixture(scope="module")
def replays(tmp_path_factory):
    folder = tmp_path_factory.mktemp("replays")
    records = [
        played_record("othello", 5, "othello/6/0-1/g0"),
        played_record("rolit", 6, "rolit/8/0-1-2-3/g1"),
        played_record("tetralath", 7, "tetralath/61/0-1/g2"),
    ]
    write_games_json(folder / "games.json", [r for r, _ in records])
    write_database(folder / "results.db", [r for r, _ in records])
    return folder, records


@pytest.fixture(scope="module")
def server(replays):
    # Every test here is one client (127.0.0.1) and leaves its games open: room for all of
    # them under the per-client cap (half the sessions, #31), which test_web_server tests.
    with running_server(replay_path=str(replays[0] / "games.json"), max_sessions=128) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    yield page
    context.close()
    assert not [e for e in errors if "409" not in e], errors  # a click racing the engine may get a 409


def new_game(page, game, seats, **options):
    number = int(page.get_attribute("#board", "data-game-number"))
    page.select_option("#game", game)
    for name, value in options.items():  # the form's controls, built from GET /api/games
        page.select_option(f"#option-{name}", str(value))
    for k, (player, seconds) in enumerate(seats):
        page.select_option(f"#seat-{k}", player)
        page.fill(f"#time-{k}", str(seconds))
    page.click("#new")
    page.wait_for_selector(f"#board[data-game='{game}'][data-game-number='{number + 1}'][data-ply='0']")


def board_owners(page) -> dict[str, int]:
    """The owner of each occupied cell, as the board picture's cell targets say."""
    cells = page.query_selector_all("#board .hit")
    owners = {c.get_attribute("data-cell"): int(c.get_attribute("data-owner")) for c in cells}
    return {name: owner for name, owner in owners.items() if owner >= 0}


def last_move(page) -> str:
    return page.get_attribute("#board .hit[data-last]", "data-cell")


def expected_owners(position, names) -> dict[str, int]:
    cells = [v for row in position.cells() for v in row]
    return {names[i]: v for i, v in enumerate(cells) if v >= 0}


def click_moves(page, moves) -> None:
    for move in moves:
        ply = page.get_attribute("#board", "data-ply")
        page.click(f"[data-cell='{move}']")
        page.wait_for_selector(f"#board:not([data-ply='{ply}'])")


def play_to_the_end(page) -> int:
    """Click the first legal cell (or pass) whenever the human is to move; the moves made."""
    clicks = 0
    while True:
        page.wait_for_selector("#board[data-turn='human'], #board[data-turn='over']")
        board = page.query_selector("#board")
        if board.get_attribute("data-turn") == "over":
            return clicks
        ply = board.get_attribute("data-ply")
        target = page.query_selector("#board [data-legal='1'][role='button']") or page.query_selector("#special button")
        target.click()
        clicks += 1
        page.wait_for_selector(f"#board:not([data-ply='{ply}'])")


@pytest.mark.parametrize(
    ("game", "options", "seats", "truth"),
    [
        ("othello", {"size": 4}, [("human", 1), ("engine", 0.05)], lambda rec: Othello.from_moves(rec, size=4)),
        ("othello", {"size": 8}, [("human", 1), ("engine", 0.05)], lambda rec: Othello.from_moves(rec, size=8)),
        (
            "rolit",
            {"players": 4},
            [("human", 1), ("paranoid", 0.05), ("greedy", 1), ("random", 1)],
            lambda rec: Rolit.from_moves(rec),
        ),
        ("tetralath", {"lang": "pt"}, [("human", 1), ("engine", 0.05)], lambda rec: Tetralath.from_moves(rec)),
    ],
)
def test_a_full_game_against_the_engine_by_clicking(page, game, options, seats, truth):
    new_game(page, game, seats, **options)
    assert play_to_the_end(page) >= 2
    result = page.text_content("#result")
    assert result
    record = page.input_value("#record")
    final = truth(record)
    assert final.is_game_over()
    names = [final.move_from_code(i).name for i in range(len([v for row in final.cells() for v in row]))]
    assert board_owners(page) == expected_owners(final, names)
    assert len(page.query_selector_all("#moves li")) == int(page.get_attribute("#board", "data-ply"))
    if game == "tetralath":
        assert any(word in result for word in ("brancas", "pretas", "empate"))


def test_each_board_drawn_as_the_game_says(page, tmp_path):
    shots = os.environ.get("GAMECORE_WEB_SCREENSHOTS")
    # Othello 8x8: the start, then d3 with its flip and the last move marked
    new_game(page, "othello", [("human", 1), ("human", 1)], size=8)
    assert len(page.query_selector_all("#board rect.hit")) == 64
    assert sorted(e.get_attribute("data-cell") for e in page.query_selector_all("[data-legal='1']")) == [
        "c4",
        "d3",
        "e6",
        "f5",
    ]
    assert board_owners(page) == {"d4": 1, "e4": 0, "d5": 0, "e5": 1}
    page.click("[data-cell='d3']")
    page.wait_for_selector("#board[data-ply='1']")
    assert last_move(page) == "d3"
    assert len(page.query_selector_all(".flipped")) == 1
    assert [li.get_attribute("data-score") for li in page.query_selector_all("#scores li")] == ["4", "1"]
    click_moves(page, ("c5", "f6", "f5", "e6", "e3"))
    assert page.get_attribute("#board", "data-ply") == "6"
    truth = Othello.from_moves("d3 c5 f6 f5 e6 e3")
    assert board_owners(page) == expected_owners(truth, [Othello.Move(i).name for i in range(64)])
    _screenshot(page, tmp_path, shots, "web-othello.png")
    # Rolit, four colours in the handout's order
    new_game(page, "rolit", [("human", 1)] * 4, players=4)
    assert [li.get_attribute("data-colour") for li in page.query_selector_all("#scores li")] == [
        "red",
        "blue",
        "yellow",
        "green",
    ]
    click_moves(page, ("f4", "d3", "d2", "c5", "c4", "d6", "d7", "c3"))
    position = Rolit.from_moves("f4 d3 d2 c5 c4 d6 d7 c3")
    assert board_owners(page) == expected_owners(position, [position.move_from_code(i).name for i in range(64)])
    _screenshot(page, tmp_path, shots, "web-rolit.png")
    # every ball stands apart from the squares it lies on and from the other balls (green balls on
    # Othello's green felt were hard to see), by the colours the browser really paints
    square = _rgb(page.eval_on_selector("#board svg > rect:nth-of-type(2)", "e => getComputedStyle(e).fill"))
    on_board = {
        _rgb(fill)
        for fill in page.eval_on_selector_all("#board circle.piece", "es => es.map(e => getComputedStyle(e).fill)")
    }
    balls = {  # the four colours, as the score list shows them
        _rgb(fill)
        for fill in page.eval_on_selector_all(
            "#scores .swatch", "es => es.map(e => getComputedStyle(e).backgroundColor)"
        )
    }
    assert len(balls) == 4 and on_board <= balls, (balls, on_board)
    for ball in balls:
        # the library's Rolit board is slate grey and each ball has a dark rim: 90 apart at least
        # (Othello's green felt, 63 from the green ball, is what this keeps out)
        assert _distance(ball, square) > 90, (ball, square)
        assert all(_distance(ball, other) > 100 for other in balls - {ball}), balls
    # Tetralath: 61 hexagons, in Portuguese
    new_game(page, "tetralath", [("human", 1), ("human", 1)], lang="pt")
    assert len(page.query_selector_all("#board polygon.cell")) == 61
    assert "brancas" in page.text_content("#status")
    # the whole page speaks the game's language, not only the board
    assert page.get_attribute("html", "lang") == "pt"
    assert [page.text_content(k) for k in ("#undo", "#stop", "#new", "h2")] == [
        "Desfazer",
        "Parar",
        "Novo jogo",
        "Lances",
    ]
    click_moves(page, ("e5", "d4", "f5", "e4", "c5", "c3"))
    position = Tetralath.from_moves("e5 d4 f5 e4 c5 c3")
    assert board_owners(page) == expected_owners(position, [position.move_from_code(i).name for i in range(61)])
    _screenshot(page, tmp_path, shots, "web-tetralath.png")


def _rgb(css: str) -> tuple[int, ...]:
    """``rgb(r, g, b)`` as the browser computes a fill, as three numbers."""
    return tuple(int(x) for x in re.findall(r"\d+", css)[:3])


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5


def _screenshot(page, tmp_path: Path, folder: str | None, name: str) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if folder:
        shutil.copy(path, Path(folder) / name)


def test_undo_redo_and_the_move_list(page):
    new_game(page, "othello", [("human", 1), ("random", 1)], size=6)
    page.click("#board [data-legal='1']")
    page.wait_for_selector("#board[data-ply='2'][data-turn='human']")
    page.click("#undo")
    page.wait_for_selector("#board[data-ply='0'][data-turn='human']")
    assert len(page.query_selector_all("#board circle.piece")) == 4
    assert len(page.query_selector_all("#moves li.future")) == 2
    page.click("#moves button[data-ply='2']")  # forward through the list: the engine's reply, replayed
    page.wait_for_selector("#board[data-ply='2']")
    assert len(page.query_selector_all("#board circle.piece")) == 6


def test_watching_an_engine_game_with_live_thinking_and_stop(page, tmp_path):
    new_game(page, "othello", [("engine", 30), ("engine", 0.05)], size=8)
    page.wait_for_selector("#thinking:not([data-depth='']):not([data-depth='0'])")
    text = page.text_content("#thinking")
    assert "depth" in text and ("for black" in text or "for white" in text or "level" in text)
    assert "nodes/s" in text and "PV:" in text

    page.click("#stop")
    page.wait_for_selector("#board:not([data-ply='0'])")
    page.click("#pause")  # watch at a pace, then pause: the game waits
    page.wait_for_selector("#pause:text('Play')")
    ply = int(page.get_attribute("#board", "data-ply"))
    page.wait_for_timeout(300)
    assert int(page.get_attribute("#board", "data-ply")) <= ply + 1  # at most the move already being thought
    new_game(page, "othello", [("human", 1), ("human", 1)], size=8)  # and the 30 s engine stops thinking
    assert page.text_content("#undo") == "Undo" and page.get_attribute("html", "lang") == "en"
    # a record imported with an engine to move waits for Play; then it thinks (the docs' picture)
    new_game(page, "othello", [("human", 1), ("engine", 30)], size=8)
    page.click("details:not(#replays) > summary")  # open the record box
    page.fill("#record", "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7")
    page.click("#import")
    page.wait_for_selector("#board[data-ply='11']")
    assert page.text_content("#pause") == "Play"
    page.click("#pause")
    page.wait_for_selector("#thinking:not([data-depth='']):not([data-depth='0']):not([data-depth='1'])")
    thought = page.text_content("#thinking")  # read once: the next iteration may change it
    assert "for " in thought or "level" in thought
    _screenshot(page, tmp_path, os.environ.get("GAMECORE_WEB_SCREENSHOTS"), "web-thinking.png")
    page.click("#stop")
    page.wait_for_selector("#board[data-ply='12']")


def test_watching_mcts_think_and_stopping_it(page):
    new_game(page, "rolit", [("mcts", 30), ("human", 1), ("human", 1), ("human", 1)], players=4)
    page.wait_for_selector("#thinking:text('playouts')")
    assert "wins expected for red" in page.text_content("#thinking")
    page.click("#stop")  # MCTS plays its most visited move now, not after its 30 s
    page.wait_for_selector("#board[data-ply='1']")
    assert "red:" in page.text_content("#thinking")  # what it thought, kept after the move


def _open_replay(page, option: str) -> None:
    number = int(page.get_attribute("#board", "data-game-number"))
    page.select_option("#replay-list", option)
    page.click("#replay-open")
    page.wait_for_selector(f"#board[data-game-number='{number + 1}']")  # the replay, not the game before


def _step_through_replay(page, record, final) -> None:
    """The replay opened at its start: step with Redo, then jump to its end from the list."""
    page.wait_for_selector(f"#board[data-game='{record['game']}'][data-ply='0']")
    assert "bot0" in page.text_content("#replay-info")
    last = len(page.query_selector_all("#moves li"))
    assert last >= len(record["moves"])
    page.click("#redo")
    page.wait_for_selector("#board[data-ply='1']")
    page.click(f"#moves button[data-ply='{last}']")
    page.wait_for_selector(f"#board[data-ply='{last}']")
    cells = len([v for row in final.cells() for v in row])
    assert board_owners(page) == expected_owners(final, [final.move_from_code(i).name for i in range(cells)])
    assert page.text_content("#result")


def test_loading_a_tournament_replay(page, replays):
    _, records = replays
    page.click("#replays summary")
    for index, (record, final) in enumerate(records):
        _open_replay(page, f"server:{index}")
        _step_through_replay(page, record, final)


def test_loading_a_replay_from_a_results_database(browser, replays):
    folder, records = replays
    with running_server(replay_path=str(folder / "results.db")) as url:
        context = browser.new_context(viewport={"width": 1100, "height": 760})
        page = context.new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto(url + "/")
        page.wait_for_selector("body[data-ready='1']")
        page.click("#replays summary")
        assert len(page.query_selector_all("#replay-list option")) == len(records)
        _open_replay(page, "server:2")
        _step_through_replay(page, *records[2])
        context.close()


def test_opening_a_games_json_from_disk(page, replays):
    folder, records = replays
    page.click("#replays summary")
    page.set_input_files("#replay-file", str(folder / "games.json"))
    page.wait_for_selector("#replay-list option[value='file:2']", state="attached")
    _open_replay(page, "file:0")
    _step_through_replay(page, *records[0])


@pytest.mark.parametrize(
    ("game", "options", "squares", "colours"),
    [
        ("othello", {"size": 4}, 16, ["black", "white"]),
        ("othello", {"size": 6}, 36, ["black", "white"]),
        ("othello", {"size": 10}, 100, ["black", "white"]),
        ("rolit", {"players": 2}, 64, ["red", "green"]),
        ("rolit", {"players": 3}, 64, ["red", "yellow", "green"]),
        ("tetralath", {"lang": "en"}, 61, ["white", "black"]),
    ],
)
def test_every_size_and_number_of_colours_is_drawn(page, game, options, squares, colours):
    seats = [("human", 1)] * len(colours)
    new_game(page, game, seats, **options)
    shape = "polygon.hit" if game == "tetralath" else "rect.hit"
    assert len(page.query_selector_all(f"#board {shape}")) == squares
    assert [li.get_attribute("data-colour") for li in page.query_selector_all("#scores li")] == colours
    position = {
        "othello": lambda: Othello(options.get("size", 8)),
        "rolit": lambda: Rolit(players=options.get("players", 4)),
        "tetralath": Tetralath,
    }[game]()
    names = [position.move_from_code(i).name for i in range(squares)]
    assert board_owners(page) == expected_owners(position, names)
    legal = sorted(e.get_attribute("data-cell") for e in page.query_selector_all("[data-legal='1']"))
    assert legal == sorted(m.name for m in position.legal_moves())
    labels = [t.text_content() for t in page.query_selector_all("#board text.coordinate")]
    if game == "rolit":  # columns numbered, as Rolit's moves are said ("4 6": row 4, column 6)
        assert labels[:8] == [str(k) for k in range(1, 9)]
    elif game == "othello":
        assert labels[: options["size"]] == [chr(ord("a") + k) for k in range(options["size"])]
    # the seat menus name the colours in order of play
    assert [page.text_content(f"#seat-choice .seat:nth-child({k + 1})").split()[0] for k in range(len(colours))] == [
        *colours
    ]


def test_portuguese_seats_in_a_portuguese_game(page):
    new_game(page, "tetralath", [("human", 1), ("human", 1)], lang="pt")
    assert [page.text_content(f"#seat-choice .seat:nth-child({k})").split()[0] for k in (1, 2)] == [
        "brancas",
        "pretas",
    ]


def test_two_tabs_are_two_games(browser, server):
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        tab.set_default_timeout(TIMEOUT)
        tab.goto(server + "/")
        tab.wait_for_selector("body[data-ready='1']")
    new_game(first, "othello", [("human", 1), ("human", 1)], size=8)
    first.click("[data-cell='d3']")
    first.wait_for_selector("#board[data-ply='1']")
    assert second.get_attribute("#board", "data-ply") == "0"
    new_game(second, "tetralath", [("human", 1), ("human", 1)])
    click_moves(second, ("e5", "d4"))
    first.reload()  # a reload keeps the tab's own game
    first.wait_for_selector("body[data-ready='1']")
    assert first.get_attribute("#board", "data-game") == "othello"
    assert first.get_attribute("#board", "data-ply") == "1"
    assert last_move(first) == "d3"
    assert second.get_attribute("#board", "data-game") == "tetralath"
    context.close()


def _box(page, selector):
    return page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
    )


@pytest.mark.parametrize(
    ("game", "options", "seats"),
    [
        ("othello", {"size": 8}, [("human", 1), ("engine", 0.05)]),
        ("rolit", {"players": 4}, [("human", 1), ("mcts", 0.05), ("maxn", 0.05), ("brs", 0.05)]),
        ("tetralath", {"lang": "pt"}, [("human", 1), ("engine", 0.05)]),
    ],
)
def test_a_small_window_shows_the_board_beside_the_status(browser, server, tmp_path, game, options, seats):
    # issue 33: at 800x700 the status and the controls fell below the board, off screen
    context = browser.new_context(viewport={"width": 800, "height": 700})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    new_game(page, game, seats, **options)
    # at the start, a person to move: nothing to pause, no empty thinking box
    assert page.is_disabled("#pause") and page.is_hidden("#thinking")
    page.click("#board [data-legal='1'][role='button']")
    page.wait_for_selector("#board[data-turn='human']:not([data-ply='0'])")
    picture = "#board svg > rect"  # the picture's background: where the board is drawn
    for selector in (picture, "#status", "#scores", "#controls", "#new"):
        left, top, right, bottom = _box(page, selector)
        assert 0 <= left and right <= 800 and 0 <= top and bottom <= 700, (selector, (left, top, right, bottom))
    left, _, right, _ = _box(page, picture)
    assert _box(page, "#status")[0] >= right - 1 and right - left >= 400  # beside the board, which is not tiny
    assert page.text_content("#thinking")  # what the engine thought, once it has moved
    _screenshot(page, tmp_path, os.environ.get("GAMECORE_WEB_SCREENSHOTS"), f"web-{game}-800x700.png")
    context.close()


def test_a_replay_says_it_is_one_and_whose_game_it_is(page, replays, tmp_path):
    # issue 33: a replay showed the new-game form's seats and said nothing of being a replay
    _, records = replays
    page.click("#replays summary")
    _open_replay(page, "server:1")  # Rolit, four bots
    record = records[1][0]
    seats = [e.text_content() for e in page.query_selector_all("#seat-choice .replay-seat")]
    assert seats == [
        f"{colour}: {player}" for colour, player in zip(["red", "blue", "yellow", "green"], record["players"])
    ]
    assert not page.query_selector_all("#seat-choice select")
    total = len(page.query_selector_all("#moves li"))
    assert page.text_content("#replay-status").startswith(f"Replay, move 0 of {total}")
    assert "(bot0)" in page.text_content("#status") and page.is_disabled("#pause")
    page.click("#redo")
    page.wait_for_selector("#board[data-ply='1']")
    assert page.text_content("#replay-status").startswith(f"Replay, move 1 of {total}")
    _screenshot(page, tmp_path, os.environ.get("GAMECORE_WEB_SCREENSHOTS"), "web-replay.png")
    # a new game from there takes the game's own seats again
    number = int(page.get_attribute("#board", "data-game-number"))
    page.click("#new")
    page.wait_for_selector(f"#board[data-game-number='{number + 1}']")
    assert page.is_hidden("#replay-status") and len(page.query_selector_all("#seat-choice select")) == 4


@pytest.mark.usefixtures("small_othello")
def test_a_game_no_page_file_names_is_played_by_clicking(browser, server):
    # issue 32: a fourth game registered in a test is on the page's menu and played like the others
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    fourth = GAMES[FOURTH]
    new_game(page, FOURTH, [("human", 1), ("human", 1)], size=6)
    assert len(page.query_selector_all("#board rect.hit")) == 36
    click_moves(page, ("c2", "b2"))
    truth = fourth.from_moves("c2 b2", size=6)
    assert board_owners(page) == expected_owners(truth, [truth.move_from_code(i).name for i in range(36)])
    context.close()
