"""The opening book (``gamecore solve --book``, :mod:`gamecore.search.book`), the engine's use
of it and the perfect-play check (``gamecore bench othello perfect``), on both backends.

- the shipped 6x6 book: its SHA-256 and size pinned (and its record's), the start's value
  (white wins by 4: 20-16, Feinstein 1993), a few entries solved again (compiled);
- a 4x4 book built by both backends: the same entries, every value against the memoised
  minimax of tests/test_endgame.py and every move keeping it;
- the engine plays the book's move by default (timed searches), not with ``book=False`` or a
  fixed depth; both backends the same move and value;
- the check: perfect play on 4x4 checked move by move (0 mistakes), a random player's mistakes
  found; 6x6 games at 5 s a move (slow);
- bad book files: a gamecore error.
"""

from __future__ import annotations

import hashlib
import io
import json
import random

import pytest

from gamecore import Engine, Othello
from gamecore.bench.perfect import check_games
from gamecore.cli import main
from gamecore.errors import CorruptDataError, InvalidOptionError
from gamecore.games.othello import PASS
from gamecore.search.book import book_path, book_record, build_book, load_book, opening_book
from test_endgame import minimax

#: The shipped 6x6 book (gamecore solve --book othello6.book --size 6 --plies 10).
BOOK6_SHA256 = "4e826cd0d824fbef3bee1433b5d0ef73d6cbefc47ff57cf6d6cdaa8fbccf3ab6"
BOOK6_POSITIONS = 1000


def test_shipped_book_is_pinned():
    with open(book_path(6), "rb") as handle:
        assert hashlib.sha256(handle.read()).hexdigest() == BOOK6_SHA256
    with open(book_record(book_path(6)), encoding="utf-8") as handle:
        record = json.load(handle)
    assert record["sha256"] == BOOK6_SHA256
    assert record["positions"] == BOOK6_POSITIONS == len(opening_book(6))


def test_the_start_is_a_white_win_by_four(backend):
    start = Othello(6, backend=backend.name)
    move, value = opening_book(6).lookup(start.core)
    assert value == -4  # white wins 20-16 with perfect play (Feinstein 1993)
    assert start.move_from_code(move) in start.legal_moves()
    # Each of the four first moves is one of the symmetric images: +4 for white after any.
    for first in start.legal_moves():
        after = start.copy()
        after.push(first)
        assert opening_book(6).lookup(after.core)[1] == 4


@pytest.mark.parametrize("backend", ["cython"], indirect=True)
def test_book_entries_solved_again_agree(backend):
    """The deepest entries (25 empty squares, a second or two each compiled): the solver's value
    again, and the book's move keeps it."""
    book = opening_book(6)
    deepest = sorted(key for key in book.entries if (key[0] | key[1]).bit_count() == 11)
    assert deepest
    solve = Othello(6, backend=backend.name).exact_solver()
    for key in random.Random(36).sample(deepest, 2):
        game = Othello(6, backend=backend.name)
        game.core.set_board(key[0], key[1], key[2])
        move, value = book.lookup(game.core)
        _, exact, _, done = solve(game.core.copy())
        assert done and exact == value
        child = game.core.copy()
        child.push(move)
        _, after, _, done = solve(child, -value - 1, -value + 1)
        assert done and after == -value


def test_a_four_by_four_book_is_exact_in_both_backends(backends, tmp_path):
    books = []
    for backend in backends:
        path = tmp_path / f"{backend.name}.book"
        build = build_book(4, 20, path, backend=backend.name)
        assert build.completed and build.solved == build.positions > 50
        books.append(load_book(path))
    assert books[0].entries == books[1].entries  # the twins: the same values and moves
    _four_by_four_book_is_exact(books[0])


def test_a_stopped_build_goes_on(tmp_path):
    path = tmp_path / "b.book"
    first = build_book(4, 6, path)
    again = build_book(4, 20, path)
    assert again.solved == again.positions - first.positions > 0
    whole = build_book(4, 20, tmp_path / "whole.book")
    assert load_book(path).entries == load_book(tmp_path / "whole.book").entries
    assert whole.positions == again.positions


def _four_by_four_book_is_exact(book):
    """Every value of a 4x4 book against the independent minimax, every move keeping it."""
    for (black, white, turn), (value, move) in book.entries.items():
        assert value == minimax(black, white, turn, 4)
        game = Othello(4)
        game.core.set_board(black, white, turn)
        game.core.push(move)
        after_black, after_white = game.core.bitboards()
        assert -minimax(after_black, after_white, int(game.core.turn), 4) == value, "the move loses value"


def test_a_build_in_two_processes_equals_one_in_one(tmp_path):
    """``--workers 2``: a level's positions solved at once in two processes, written in the
    one-process order; the same positions and values (a tie may pick another optimal move)."""
    one = build_book(4, 20, tmp_path / "one.book", table_bits=12)
    two = build_book(4, 20, tmp_path / "two.book", workers=2, table_bits=12)
    assert two.completed and two.solved == two.positions == one.positions
    assert two.nodes > 0 and two.cpu_seconds > 0  # the workers' figures reach the build
    by_one, by_two = load_book(tmp_path / "one.book"), load_book(tmp_path / "two.book")
    assert {key: value for key, (value, _) in by_one.entries.items()} == {
        key: value for key, (value, _) in by_two.entries.items()
    }
    lines = [open(tmp_path / name).read().splitlines() for name in ("one.book", "two.book")]
    assert [line.split()[:3] for line in lines[0]] == [line.split()[:3] for line in lines[1]]  # the order
    _four_by_four_book_is_exact(by_two)
    with pytest.raises(InvalidOptionError):
        build_book(4, 4, tmp_path / "bad.book", workers=0)


def test_a_build_on_a_dask_cluster(tmp_path):
    pytest.importorskip("dask.distributed", reason='Dask runs need the cluster extra: pip install ".[cluster]"')
    out = io.StringIO()
    path = tmp_path / "dask.book"
    argv = ["solve", "--book", str(path), "--size", "4", "--plies", "8", "--scheduler", "local", "--table-bits", "12"]
    assert main(argv, out=out) == 0, out.getvalue()
    alone = build_book(4, 8, tmp_path / "alone.book", table_bits=12)
    book = load_book(path)
    assert len(book) == alone.positions
    assert {k: v for k, (v, _) in book.entries.items()} == {
        k: v for k, (v, _) in load_book(tmp_path / "alone.book").entries.items()
    }
    _four_by_four_book_is_exact(book)


def test_the_engine_plays_the_book(backends):
    found = []
    for backend in backends:
        game = Othello(6, backend=backend.name)
        game.push("c2")  # white to move, 31 empty squares: the book's
        result = Engine().search(game, time_limit=0.05)
        assert result.algorithm == "book" and result.exact and result.score == 4 and result.proven == "win"
        move, _ = opening_book(6).lookup(game.core)
        assert result.move == game.move_from_code(move)
        found.append((result.move, result.score))
        # Not with book=False, nor in a fixed-depth search (unless asked for).
        assert Engine(book=False).search(game, time_limit=0.05).algorithm == "alphabeta"
        assert Engine().search(game, depth=2).algorithm == "alphabeta"
        assert Engine(book=True).search(game, depth=2).algorithm == "book"
        # Nor where the root's moves leave the book's out.
        other = next(m for m in game.legal_moves() if m != result.move)
        assert Engine(book=True).search(game, depth=1, moves=[other]).move == other
    assert found[0] == found[1]  # both backends: the same move and value


def test_out_of_the_book_the_engine_searches():
    game = Othello.from_moves("c2b4c5d2e4e3d1c1b1d5", size=6)  # 10 plies: past the book
    assert opening_book(6).lookup(game.core) is None
    assert Engine().search(game, time_limit=0.05).algorithm != "book"
    assert Engine(book=True).search(game, depth=1).algorithm == "alphabeta"


def test_book_option_is_checked():
    with pytest.raises(InvalidOptionError):
        Engine(book="yes")


def test_perfect_play_checked_on_four_by_four(backend):
    """A search to the end of the game (12 empty squares) plays perfectly: no mistake found."""
    result = check_games("engine:depth=12", "random", size=4, games=2, backend=backend.name)
    assert result.games == 2 and result.checked > 4 and result.mistakes == []
    assert result.searched == result.checked


def test_the_check_finds_mistakes():
    result = check_games("random", "random", size=4, games=4, seed=2)
    assert result.mistakes and result.searched == result.checked


def test_the_check_command(tmp_path):
    out = io.StringIO()
    cache = tmp_path / "values.book"
    argv = ["bench", "othello", "perfect", "--size", "4", "--games", "2", "--time", "0.05", "--quiet"]
    assert main([*argv, "--cache", str(cache)], out=out) == 0
    assert "2 games" in out.getvalue() and "0 mistakes" in out.getvalue()
    assert len(load_book(cache)) > 0  # the solved values, kept for the next run
    assert main([*argv, "--player", "random"], out=io.StringIO()) == 1  # mistakes: exit 1


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["cython"], indirect=True)
def test_the_book_after_two_moves_solved_again(backend):
    """c2 b4 (30 empty squares, black to move: the book's -4) solved again, 20-40 s compiled."""
    game = Othello.from_moves("c2b4", size=6, backend=backend.name)
    move, value = opening_book(6).lookup(game.core)
    assert value == -4
    _, exact, _, done = game.exact_solver()(game.core.copy())
    assert done and exact == value


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["cython"], indirect=True)
def test_perfect_play_on_six_by_six(backend):
    """Two games against random at 5 s a move (CPU), every move proven optimal."""
    result = check_games("engine:time=5,clock=cpu", "random", size=6, games=2, trust_book=True, backend=backend.name)
    assert result.mistakes == [] and result.from_book >= 6 and result.solved_live > 0


@pytest.mark.parametrize(
    "text, match",
    [
        ("# size 6\nnot a line\n", "not a book line"),
        ("# size 6\n000108000 000204000 x -4 c2\n", "not a 6x6 position"),
        ("# size 6\n000108000 000204000 b -99 c2\n", "not a 6x6 position"),
        ("# size 6\n000108000 000204000 b -4 c3\n", "occupied"),
        ("# size 6\n000108000 000204000 b -4 z9\n", "not a book line"),
        ("# size 7\n", "size 7"),
        ("000108000 000204000 b -4 c2\n", "no '# size N'"),
        ("", "no '# size N'"),
    ],
)
def test_bad_book_files(tmp_path, text, match):
    path = tmp_path / "bad.book"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CorruptDataError, match=match):
        load_book(path)


def test_unreadable_book_files(tmp_path):
    with pytest.raises(InvalidOptionError):
        load_book(tmp_path / "missing.book")
    path = tmp_path / "binary.book"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CorruptDataError):
        load_book(path)


def test_the_build_command(tmp_path):
    out = io.StringIO()
    path = tmp_path / "o4.book"
    assert main(["solve", "--book", str(path), "--size", "4", "--plies", "4", "--progress", "0"], out=out) == 0
    record = json.loads((tmp_path / "o4.book.json").read_text())
    assert record["positions"] == len(load_book(path)) and record["plies"] == 4
    assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert main(["solve", "c4", "--book", str(path)], out=io.StringIO()) == 1  # a position and --book: refused


def test_pass_entries_read_back(tmp_path):
    path = tmp_path / "p.book"
    path.write_text("# size 4\n0240 0420 b -10 pass\n", encoding="utf-8")
    assert load_book(path).entries[(0x240, 0x420, 0)] == (-10, PASS)
