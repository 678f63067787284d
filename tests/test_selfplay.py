"""Self-play games for training (``gamecore train othello-selfplay``, :mod:`gamecore.train.selfplay`).

- Every line is a whole legal game with black's true final margin, read back by the archive
  reader; with no random plies a game is the engine's own game, played here move by move
  with ``Engine.search`` (both backends), and the two backends write the same file.
- The file does not depend on how it was made: two processes, a Dask cluster, or a run
  stopped and started again give the same lines as one run; Ctrl-C keeps what is written
  and exits 130; a file of other options is refused and left as it was.
- Its games train: ``train othello --from`` fits weights from them.
"""

from __future__ import annotations

import io
import json

import pytest

from gamecore import Engine, Othello, archive
from gamecore.cli import main
from gamecore.errors import InvalidOptionError
from gamecore.train import selfplay


def lines_of(path):
    return [line for line in path.read_text().splitlines() if not line.startswith("#")]


def run(path, *extra, games=4, size=6, player="engine:depth=2"):
    args = ["train", "othello-selfplay", "--size", str(size), "--games", str(games), "--out", str(path)]
    return main([*args, "--player", player, "--quiet", *extra], out=io.StringIO())


def test_every_line_is_a_legal_game_with_its_margin(backend, tmp_path):
    out = tmp_path / "games.txt"
    selfplay.self_play(str(out), size=6, games=5, player="engine:depth=2", backend=backend.name)
    games = archive.read_transcripts(str(out), size=6)  # replays and checks every move
    assert len(games) == 5 == len(set(game.moves for game in games))  # varied openings
    for game in games:
        final = game.replay()
        assert final.is_game_over()
        black, white = final.score()
        empty = 36 - black - white
        assert game.margin == black - white + (empty if black > white else -empty if white > black else 0)


def test_with_no_random_plies_a_game_is_the_engines_own(backend, tmp_path):
    out = tmp_path / "games.txt"
    selfplay.self_play(str(out), size=6, games=1, player="engine:depth=3", random_plies=(0, 0), backend=backend.name)
    game = Othello(6, backend=backend.name)
    engine = Engine()
    names = []
    while not game.is_game_over():
        move = engine.search(game.copy(), depth=3).move
        game.push(move)
        if not move.is_pass:
            names.append(move.name)
    assert lines_of(out)[0].split()[0] == "".join(names)


def test_both_backends_write_the_same_games(backends, tmp_path):
    texts = []
    for modules in backends:
        out = tmp_path / f"{modules.name}.txt"
        selfplay.self_play(str(out), size=6, games=4, player="engine:depth=2", backend=modules.name)
        texts.append(out.read_text())
    assert texts[0] == texts[1]


def test_workers_and_restarts_give_the_same_file(tmp_path):
    one = tmp_path / "one.txt"
    assert run(one, games=6) == 0
    two = tmp_path / "two.txt"
    assert run(two, "--workers", "2", games=6) == 0
    resumed = tmp_path / "resumed.txt"
    assert run(resumed, games=2) == 0
    assert run(resumed, games=6) == 0
    assert run(resumed, games=6) == 0  # nothing left to play
    assert one.read_text() == two.read_text() == resumed.read_text()
    assert len(lines_of(one)) == 6


def test_a_dask_cluster_gives_the_same_file(tmp_path):
    pytest.importorskip("dask.distributed", reason='Dask runs need the cluster extra: pip install ".[cluster]"')
    here = tmp_path / "here.txt"
    assert run(here, games=5) == 0
    cluster = tmp_path / "cluster.txt"
    assert run(cluster, "--scheduler", "local", "--workers", "2", games=5) == 0
    assert here.read_text() == cluster.read_text()


def test_ctrl_c_keeps_what_is_written_and_exits_130(tmp_path, monkeypatch):
    play = selfplay.play_game

    def play_then_interrupt(job):
        if job.index == 2:
            raise KeyboardInterrupt  # as Ctrl-C arrives during the third game
        return play(job)

    monkeypatch.setattr(selfplay, "play_game", play_then_interrupt)
    out = tmp_path / "games.txt"
    assert run(out, games=5) == 130
    assert len(lines_of(out)) == 2
    monkeypatch.setattr(selfplay, "play_game", play)
    assert run(out, games=5) == 0
    whole = tmp_path / "whole.txt"
    assert run(whole, games=5) == 0
    assert out.read_text() == whole.read_text()


def test_a_file_of_other_options_is_refused_and_kept(tmp_path):
    out = tmp_path / "games.txt"
    assert run(out, games=2) == 0
    before = out.read_text()
    with pytest.raises(InvalidOptionError, match="not made by this command with these options"):
        selfplay.self_play(str(out), size=6, games=4, player="engine:depth=3")
    assert out.read_text() == before


@pytest.mark.parametrize(
    "options",
    [
        {"player": "no-such-player"},
        {"player": "human"},
        {"random_plies": (5, 2)},
        {"games": -1},
        {"size": 7},
        {"workers": 0},
    ],
)
def test_bad_options_are_one_clear_error(tmp_path, options):
    out = tmp_path / "games.txt"
    with pytest.raises(InvalidOptionError):
        selfplay.self_play(str(out), **{"size": 6, "games": 2, **options})
    assert not out.exists()


def test_self_play_games_train_weights(tmp_path):
    for name in ("numpy", "scipy"):
        pytest.importorskip(name, reason='the training needs numpy and scipy: pip install ".[train]"')
    games = tmp_path / "games.txt"
    assert run(games, games=12) == 0
    code = main(
        ["train", "othello", "--size", "6", "--from", str(games), "--out", str(tmp_path / "w")]
        + ["--iterations", "5", "--held-out", "0.2", "--quiet"],
        out=io.StringIO(),
    )
    assert code == 0
    record = json.loads((tmp_path / "w" / "othello6.json").read_text())
    assert record["sources"][0]["games"] == 12
    engine = Engine(weights=str(tmp_path / "w" / "othello6.patterns"))
    assert engine.search(Othello(6), depth=2).move is not None
