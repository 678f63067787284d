"""gamecore.archive: WTHOR, GGF and transcripts read, replayed, written back; damage caught.

The WTHOR fixture is the FFO's real 1977 file (see tests/data/archive/README.md): its recorded
disc counts are the independent truth the replays are checked against.
"""

import dataclasses
import datetime
import random
import shutil
from pathlib import Path

import pytest

from gamecore import Othello
from gamecore.archive import (
    ArchiveError,
    ArchiveGame,
    read_ggf,
    read_transcripts,
    read_wthor,
    read_wthor_players,
    read_wthor_tournaments,
    write_ggf,
    write_transcript,
    write_wthor,
    write_wthor_players,
)
from gamecore.errors import GamecoreError

DATA = Path(__file__).parent / "data" / "archive"
WTB = DATA / "WTH_1977.wtb"
GGF = DATA / "games.ggf"
HEADER, RECORD = 16, 68


def wthor_count(score):
    """Black's count as WTHOR records it: the empty squares go to the winner (halved on a draw)."""
    black, white = score
    empty = 64 - black - white
    return black + (empty if black > white else 0 if black < white else empty // 2)


@pytest.fixture
def wtb_copy(tmp_path):
    """A copy of the 1977 file alone (no name files beside it), to damage."""
    path = tmp_path / "WTH_1977.wtb"
    shutil.copy(WTB, path)
    return path


# -- WTHOR ------------------------------------------------------------------------------


def test_wthor_1977_reads_with_names_from_the_files_beside_it():
    games = read_wthor(WTB)
    assert len(games) == 12
    first = games[0]
    assert (first.black, first.white, first.tournament) == ("Inoue Hiroshi", "Heiberg Thomas", "World Championship")
    assert (first.year, first.theoretical_depth, first.black_discs, first.theoretical_black) == (1977, 24, 34, 41)
    assert first.moves[:4] == ("f5", "d6", "c3", "f3") and len(first.moves) == 60
    assert first.source == ("WTH_1977.wtb", 0) and first.wthor_ids == (1, 346, 843)
    # game 8 stopped with an empty square: its last move byte is 0
    assert len(games[8].moves) == 59


def test_wthor_final_scores_match_the_recorded_ones(backend):
    for game in read_wthor(WTB):
        final = game.replay(backend=backend.name)
        assert final.is_game_over()
        assert wthor_count(final.score()) == game.black_discs, game.where()
    assert read_wthor(WTB)[0].replay(backend=backend.name).score() == (34, 30)


def test_wthor_without_name_files_keeps_the_ids(wtb_copy):
    games = read_wthor(wtb_copy)
    assert games[0].black == "" and games[0].wthor_ids == (1, 346, 843)
    named = read_wthor(wtb_copy, players=read_wthor_players(DATA / "WTHOR.JOU"), tournaments=["a", "b"])
    assert (named[0].black, named[0].tournament) == ("Inoue Hiroshi", "b")


def test_wthor_round_trip_is_byte_identical(tmp_path):
    original = WTB.read_bytes()
    made = datetime.date(2000 + original[1], original[2], original[3])
    out = tmp_path / "again.wtb"
    write_wthor(out, read_wthor(WTB), created=made)
    assert out.read_bytes() == original


def test_wthor_name_files_round_trip(tmp_path):
    players = read_wthor_players(DATA / "WTHOR.JOU")
    assert players[346] == "Inoue Hiroshi" and len(players) == 2439
    write_wthor_players(tmp_path / "p.jou", players)
    assert read_wthor_players(tmp_path / "p.jou") == players
    assert read_wthor_tournaments(DATA / "WTHOR.TRN") == ["Diverses parties", "World Championship"]


def test_games_gamecore_plays_round_trip_through_wthor(tmp_path):
    games = [ArchiveGame(moves=tuple(m.name for m in play_out(seed)), year=2026) for seed in range(5)]
    write_wthor(tmp_path / "own.wtb", games)
    again = read_wthor(tmp_path / "own.wtb")
    assert [g.moves for g in again] == [g.moves for g in games]
    assert [g.black_discs for g in again] == [wthor_count(g.replay().score()) for g in games]


def play_out(seed):
    """The moves of a game of random legal moves (passes left out, as archives do)."""
    rng, game, moves = random.Random(seed), Othello(), []
    while not game.is_game_over():
        move = rng.choice(game.legal_moves())
        game.push(move)
        if not move.is_pass:
            moves.append(move)
    return moves


def damage(path, offset, new):
    data = bytearray(path.read_bytes())
    data[offset : offset + len(new)] = new
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("how", "words"),
    [
        (lambda p: p.write_bytes(p.read_bytes()[:-10]), "not a whole number of 68-byte games"),
        (lambda p: p.write_bytes(p.read_bytes()[:-68]), "the header says 12 games, the file holds 11"),
        (lambda p: damage(p, 4, b"\x0d"), "the header says 13 games"),
        (lambda p: p.write_bytes(b"\x14\x07"), "shorter than the 16-byte WTHOR header"),
        (lambda p: damage(p, HEADER + 3 * RECORD + 8 + 10, b"\x63"), "game 3: move 11 is byte 99, which is no square"),
        (lambda p: damage(p, HEADER + 8 * RECORD + 8 + 20, b"\x00"), "game 8: a move after the end"),
        (lambda p: damage(p, HEADER + 5 * RECORD + 6, b"\x41"), "a score above 64"),
        (lambda p: damage(p, 12, b"\x0a"), "only 8x8 WTHOR games"),
        (lambda p: damage(p, HEADER + 2 * RECORD + 8, b"\x0b"), "game 2: move 1 (a1) cannot be played"),
    ],
)
def test_a_damaged_wthor_file_is_one_clear_error(wtb_copy, how, words):
    how(wtb_copy)
    with pytest.raises(ArchiveError, match="WTH_1977.wtb") as caught:
        read_wthor(wtb_copy)
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, GamecoreError)


def test_an_unknown_player_id_is_an_error(wtb_copy):
    with pytest.raises(ArchiveError, match="player id 346, but the player file has 3 names"):
        read_wthor(wtb_copy, players=["a", "b", "c"])


def test_a_missing_file_is_an_archive_error(tmp_path):
    with pytest.raises(ArchiveError, match="cannot read"):
        read_wthor(tmp_path / "nothing.wtb")


def test_an_illegal_move_unchecked_is_caught_on_replay(wtb_copy, backend):
    damage(wtb_copy, HEADER + 2 * RECORD + 8 + 30, b"\x0b")  # a1 as move 31
    game = read_wthor(wtb_copy, check=False)[2]
    with pytest.raises(ArchiveError, match=r"WTH_1977.wtb, game 2: move 31 \(a1\) cannot be played"):
        game.replay(backend=backend.name)
    with pytest.raises(ArchiveError, match="move 31"):
        list(game.positions(backend=backend.name))


def test_positions_pair_each_move_with_the_position_it_was_played_on(backend):
    game = read_wthor(WTB)[0]
    pairs = list(game.positions(backend=backend.name))
    assert [move.name for _, move in pairs] == list(game.moves)
    for position, move in pairs:
        assert position.is_legal(move) and position.backend == backend.name
    # white had to pass after h7 (move 53): black moved twice running
    assert pairs[52][0].turn == pairs[53][0].turn == Othello.BLACK
    last, move = pairs[-1]
    assert last.play(move) == game.replay(backend=backend.name)


# -- GGF ---------------------------------------------------------------------------------


def test_ggf_fixture_reads():
    first, six, from_board = read_ggf(GGF)
    assert first.moves == read_wthor(WTB)[0].moves  # the same 1977 game, with evals and times
    assert (first.black, first.white, first.margin, first.result, first.year) == (
        "Inoue Hiroshi",
        "Heiberg Thomas",
        4,
        1,
        1977,
    )
    assert ("TI", "30:00//00:00") in first.tags and first.start is None
    assert six.size == 6 and six.replay().score() == (25, 11) and six.margin == 14
    assert from_board.start is not None and from_board.margin == -12 and from_board.result == -1
    assert ("RE", "-12.000:t") in from_board.tags


def test_ggf_non_standard_start_is_honoured(backend):
    game = read_ggf(GGF)[2]
    final = game.replay(backend=backend.name)
    black, white = final.score()
    assert black - white == game.margin == -12
    from_standard = dataclasses.replace(game, start=None)
    with pytest.raises(ArchiveError, match="move 1 .*cannot be played"):
        from_standard.replay(backend=backend.name)


def test_ggf_round_trip():
    for game in read_ggf(GGF):
        text = write_ggf(game)
        [again] = read_ggf(text)
        assert again == dataclasses.replace(game, source=("<text>", 0))
    assert "W[PA]" in write_ggf(read_ggf(GGF)[0])  # forced passes are written out


def test_wthor_game_to_ggf_and_back_keeps_players_and_result():
    game = read_wthor(WTB)[0]
    [again] = read_ggf(write_ggf(game))
    assert (again.moves, again.black, again.white, again.margin) == (game.moves, game.black, game.white, game.margin)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("(;GM[Othello]PB[x]B[f5];)", "no starting board"),
        ("(;GM[Othello]BO[8 ---- *]B[f5];)", "is not 64 squares"),
        ("(;GM[Othello]BO[12 " + "-" * 144 + " *];)", "12"),
        ("(;GM[Go]BO[8 " + "-" * 64 + " *];)", "not an Othello game"),
        ("nothing here", "no GGF game record"),
        ("(;GM[Othello]BO[4 ---- -O*- -*O- ---- *]RE[lots];)", "RE[lots]"),
        ("(;GM[Othello]BO[8 " + "-" * 27 + "O*------*O" + "-" * 27 + " *]B[f5]W[f5];)", "game 0: move 2 (f5)"),
    ],
)
def test_bad_ggf_is_one_clear_error(text, words):
    with pytest.raises(ArchiveError) as caught:
        read_ggf(text)
    assert "<text>" in str(caught.value) and words in str(caught.value)


# -- transcripts ---------------------------------------------------------------------------


def test_transcripts_round_trip_with_results(tmp_path):
    games = read_wthor(WTB)
    path = tmp_path / "selfplay.txt"
    write_transcript(games, path)
    first_line = path.read_text().splitlines()[0]
    assert first_line.startswith("f5d6c3f3f4d3") and first_line.endswith(" 1")
    again = read_transcripts(path)
    assert [g.moves for g in again] == [g.moves for g in games]
    assert [g.result for g in again] == [g.result for g in games]
    assert again[3].source == ("selfplay.txt", 3)


def test_transcript_text_forms():
    text = "# a comment\n\nf5 d6 c3 d3 c4   -1\nf5d6c3d3c4f4\nf5d6 12\n"
    spaced, bare, margin = read_transcripts(text)
    assert spaced.moves == bare.moves[:5] and spaced.result == -1 and spaced.margin is None
    assert bare.result is None and margin.margin == 12 and margin.result == 1
    assert read_transcripts("c2b2", size=6)[0].replay().size == 6


def test_a_bad_transcript_line_is_one_clear_error():
    with pytest.raises(ArchiveError, match=r"<text>, game 1 \(line 3\): move 2 \(f5\) cannot be played"):
        read_transcripts("f5d6\n# comment\nf5f5\n")
    with pytest.raises(ArchiveError, match=r"game 0 \(line 1\): cannot read a move"):
        read_transcripts("f5 zz 1")


def test_a_transcript_cannot_record_a_non_standard_start():
    with pytest.raises(ArchiveError, match="non-standard starting position"):
        write_transcript([read_ggf(GGF)[2]])


def test_random_damage_is_an_archive_error_or_a_clean_read(wtb_copy):
    """Whatever bytes are changed or cut, the reader raises ArchiveError or reads every game."""
    original = WTB.read_bytes()
    rng = random.Random(34)
    outcomes = {"error": 0, "read": 0}
    for _ in range(150):
        data = bytearray(original)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.2:
            del data[rng.randrange(len(data)) :]
        wtb_copy.write_bytes(bytes(data))
        try:
            games = read_wthor(wtb_copy, players=[""] * 65536, tournaments=[""] * 65536)
        except ArchiveError:
            outcomes["error"] += 1
        else:
            assert len(games) == (len(data) - HEADER) // RECORD
            outcomes["read"] += 1
    assert outcomes["error"] > 50 and outcomes["read"] > 0


@pytest.mark.parametrize("seed", range(3))
def test_random_text_is_an_archive_error_or_games(seed):
    rng = random.Random(seed)
    pieces = ["(;", ";)", "GM[Othello]", "BO[8 ", "-" * 27, "O*", "*O", " *]", "B[", "W[", "f5", "]", "PA", "\\", "\n"]
    for _ in range(100):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        for reader in (read_ggf, read_transcripts):
            try:
                reader(text)
            except ArchiveError:
                pass
