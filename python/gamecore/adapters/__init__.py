"""Drop-in players and board converters for the course frameworks.

- :mod:`gamecore.adapters.ufrj`: the UFRJ "tabuleiro-othello" framework (10x10 bordered
  board of ``'○'``/``'●'``/``'.'``/``'?'``, players loaded with ``exec``).
- :mod:`gamecore.adapters.ctu`: the CTU "Reversi" framework (``MyPlayer(my_color,
  opponent_color, board_size=8)``, boards as lists of lists of -1/0/1).

``gamecore export ufrj|ctu`` writes a player file for either framework.
"""

__all__ = ["ufrj", "ctu"]
