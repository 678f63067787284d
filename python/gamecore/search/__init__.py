"""The searches, written once over the game protocol (``gamecore._game_py``):

- ``engine``: :func:`search`, :class:`Engine` (iterative-deepening alpha-beta and plain
  minimax over ``_alphabeta_py`` / ``_alphabeta_cy``) and :func:`solve` (Othello's exact
  endgame solver, ``_endgame_py`` / ``_endgame_cy``);
- ``mcts``: :class:`MCTS` (UCT with tree reuse, ``_mcts_py`` / ``_mcts_cy``).
"""

from .engine import ALGORITHMS, WIN, Engine, SearchResult, SolveResult, search, solve
from .mcts import MCTS, MCTSResult

__all__ = ["search", "solve", "Engine", "SearchResult", "SolveResult", "WIN", "ALGORITHMS", "MCTS", "MCTSResult"]
