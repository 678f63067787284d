"""Alpha-beta uses its whole time budget, as the n-player searches do (test_multiplayer_budget).

- With a time limit in CPU time (``clock="cpu"``) the engine's alpha-beta uses between 85 %
  and 100 % of the limit, measured by the test with the thread's own CPU clock, on Othello
  (the standard and the learned evaluation) and Tetralath, and reports that share.
- A search stopped half-way through an iteration answers with that iteration's best root
  move so far only when it is sound: the move then has, searched alone to the stopped
  iteration's depth, exactly the score reported and at least the value of the last finished
  iteration's move (both searched alone to that depth, the independent truth); ``depth``
  stays the finished one.
- A game budget (``EnginePlayer(game_time=...)``) is spread over the moves by
  ``game_move_time`` and a whole game never spends more than it.
"""

from __future__ import annotations

import time

import pytest

from gamecore import Othello, Tetralath, search
from gamecore.players import EnginePlayer, RandomPlayer, make_player
from gamecore.players.base import QUICK_LAST_MOVES, game_move_time
from gamecore.search.engine import Engine


def _position(game_class, backend_name, plies, seed):
    game = game_class(backend=backend_name)
    player = RandomPlayer(seed)
    for _ in range(plies):
        game.push(player.choose_move(game))
    return game


@pytest.mark.parametrize(
    ("game_class", "evaluation"), [(Othello, "standard"), (Othello, "learned"), (Tetralath, "standard")]
)
def test_a_cpu_time_limit_is_used_whole_and_never_overrun(backend, game_class, evaluation):
    limit = 0.2
    for plies, seed in ((0, 0), (12, 1), (30, 2)) if game_class is Othello else ((0, 0), (4, 1), (8, 2)):
        game = _position(game_class, backend.name, plies, seed)
        engine = Engine(evaluation, clock="cpu", tt_mb=4)
        before = time.thread_time()
        result = engine.search(game, time_limit=limit)
        used = time.thread_time() - before
        assert not result.exact and result.move in game.legal_moves()
        assert 0.85 * limit <= used <= limit, (plies, used)
        assert result.elapsed <= used  # reported on the same (CPU) clock
        assert result.time_limit == limit and result.time_share == result.elapsed / limit


def test_a_solved_position_stops_early_and_says_so(backend):
    game = Othello(6, backend=backend.name)
    player = RandomPlayer(7)
    while sum(row.count(-1) for row in game.cells()) > 8:
        game.push(player.choose_move(game))
    result = search(game, time_limit=5.0, endgame_empties=0, clock="cpu")
    # Every line reached the end long before the deadline: no deeper iteration can differ.
    assert result.proven or result.score == 0
    assert result.time_limit == 5.0 and 0 < result.time_share < 0.5
    fixed = search(game, depth=2)
    assert fixed.time_limit is None and fixed.time_share == 0.0


# (game, plies, seed, depth): Othello positions where iteration depth + 1 changes its mind,
# so that some node limits stop it after a better move than the last iteration's was found.
PARTIAL_CASES = [(20, 1, 3), (30, 2, 2), (30, 2, 3), (8, 3, 2), (20, 3, 3)]


@pytest.mark.parametrize("aspiration", [False, True])
def test_a_stopped_iteration_answers_only_what_it_has_proved(backend, aspiration):
    taken = 0
    for plies, seed, depth in PARTIAL_CASES:
        game = _position(Othello, backend.name, plies, seed)
        finished = search(game, depth=depth, tt_mb=1, aspiration=aspiration)
        deeper = search(game, depth=depth + 1, tt_mb=1, aspiration=aspiration)
        last_value = search(game, depth=depth + 1, moves=[finished.move], tt_mb=1).score
        step = max(1, (deeper.nodes - finished.nodes) // 12)
        for nodes in range(finished.nodes + 1, deeper.nodes, step):
            stopped = search(game, nodes=nodes, tt_mb=1, aspiration=aspiration)
            assert stopped.depth == depth and stopped.pv[0] == stopped.move
            if stopped.move == finished.move:
                continue
            taken += 1
            alone = search(game, depth=depth + 1, moves=[stopped.move], tt_mb=1).score
            # Exact, or (an aspiration window's fail high) a lower bound.
            assert (stopped.score <= alone) if aspiration else (stopped.score == alone), (plies, nodes)
            assert alone >= last_value, (plies, nodes)
    assert taken > 0  # the cases do exercise the stopped iteration's answer


def test_backends_agree_on_a_stopped_iteration(backends):
    for plies, seed, _ in PARTIAL_CASES:
        for nodes in (60, 300, 1000):
            for algorithm in ("alphabeta", "minimax"):
                py, cy = (
                    search(_position(Othello, mods.name, plies, seed), algorithm=algorithm, nodes=nodes)
                    for mods in backends
                )
                assert (py.move, py.score, py.pv, py.depth, py.nodes) == (cy.move, cy.score, cy.pv, cy.depth, cy.nodes)


def test_game_move_time_shares_what_is_left_over_the_moves_to_come():
    assert QUICK_LAST_MOVES == 4
    assert game_move_time(52.0, Othello()) == 2.0  # 60 empty squares: 30 moves each, 26 counted
    assert game_move_time(54.0, Tetralath()) == 2.0  # 61 cells: 31 moves for the first player, 27 counted
    late = Othello(6)
    player = RandomPlayer(2)
    while sum(row.count(-1) for row in late.cells()) > 10:
        late.push(player.choose_move(late))
    assert game_move_time(3.0, late) == 1.5  # 5 moves each at most: half of what is left
    assert game_move_time(-1.0, late) == 0.0


def test_a_game_budget_is_spread_over_the_game_and_never_overspent(backend):
    budget = 1.5
    player = EnginePlayer(game_time=budget, tt_mb=1)
    game = Othello(6, backend=backend.name)
    spent, shares = 0.0, []
    player.new_game()
    opponent = RandomPlayer(4)
    while not game.is_game_over():
        if game.turn == 0:
            before = time.perf_counter()
            game.push(player.choose_move(game))
            spent += time.perf_counter() - before
            if player.last_result is not None:
                shares.append(player.last_result.elapsed)
        else:
            game.push(opponent.choose_move(game))
    assert spent <= budget
    assert len(shares) >= 5 and max(shares) < budget / 2
    assert make_player("engine:game_time=60").game_time == 60.0


def test_an_engine_player_uses_most_of_its_move_time(backend):
    """On the wall clock the search runs to its deadline, so the lower bound holds on a
    loaded machine too (the upper one is tested in CPU time above)."""
    game = Othello.from_moves("f5d6c3d3c4f4", backend=backend.name)
    for limit in (0.2, 1.0):
        player = EnginePlayer(time=limit, tt_mb=4)
        start = time.perf_counter()
        player.choose_move(game)
        assert time.perf_counter() - start >= 0.85 * limit
        assert player.last_result.time_share > 0.85  # of what the engine was given, on the wall clock
