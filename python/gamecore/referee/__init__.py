"""The tournament referee: round robins of untrusted bots under hard limits, resumable from SQLite.

``gamecore tournament PLAYERS... --game othello --sizes 6 8 10 --time 5 --out DIR --db FILE``
(see :mod:`gamecore.referee.cli`). The parts:

- :mod:`~gamecore.referee.bots`: what a player argument names (built-in, CTU, UFRJ, external);
- :mod:`~gamecore.referee.host`: the process that loads one bot and speaks the protocol, after
  building the bot's side of the sandbox (:mod:`~gamecore.referee.jail`); the Python bots it
  loads (built-in, CTU, UFRJ) are :mod:`~gamecore.referee.course_bots`;
- :mod:`~gamecore.referee.sandbox`: a bot's process, its channel and its deadlines, in the isolation
  :mod:`~gamecore.referee.isolation` chooses (the threat model is in docs/sandbox.rst): bubblewrap's
  command line (:mod:`~gamecore.referee.bubblewrap`), the bot's cgroup (:mod:`~gamecore.referee.cgroups`),
  its seccomp filter (:mod:`~gamecore.referee.seccomp`), ``basic`` isolation's sweeps
  (:mod:`~gamecore.referee.basic`);
- :mod:`~gamecore.referee.play`: one game of a table of bots, forfeits and their reasons;
- :mod:`~gamecore.referee.tournament`: schedule, identity, workers, resume;
- :mod:`~gamecore.referee.games`: the games it runs (every registered game class);
- :mod:`~gamecore.referee.rules`: the default limits, written once, and the typed bot, task
  and record dicts;
- :mod:`~gamecore.referee.db`: the SQLite results; :mod:`~gamecore.referee.scoring`: matches,
  standings, Elo-style ratings, crosstable; :mod:`~gamecore.referee.report`: CSV, JSON,
  Markdown and the HTML replay;
- :mod:`~gamecore.referee.cluster`: Dask distributed (the only module that imports dask);
- :mod:`~gamecore.referee.check`: the compliance check; :mod:`~gamecore.referee.bench`: overhead figures.

The protocol
------------
One bot process per game. It reads **requests on its standard input** and writes **replies
on file descriptor 3** (``GAMECORE_REPLY_FD``), one JSON object per line (UTF-8, ``\\n``
ended); its standard output and error go to ``/dev/null``, so prints never reach the referee.
Python bots never see the protocol: the host speaks it for them. Requests:

``{"type": "start", "game": "othello", "size": 8, "seat": 0, "seats": 2, "time": 5.0, "seed": 17}``
    Load and get ready; reply ``{"type": "ready", "name": "..."}`` within the start-up limit.
    ``seat`` is the bot's colour: seat 0 moves first (Othello: black; Tetralath: white).
``{"type": "move", "game": ..., "size": 8, "seat": 0, "turn": 0, "board": [[-1, 0, 1, ...], ...], "legal": ["d3", "c4", ...], "history": ["f5", "d6", ...], "time": 5.0, "bank": 0.0}``
    Reply ``{"type": "move", "move": "d3"}`` (a name from ``legal``) within ``time`` (+ bank,
    + grace). ``board`` holds -1 for empty and the seat number of each stone (Othello: n rows
    of n; Tetralath: 9 rows of 5..9 cells, ``a1`` first). A bot is never asked for a forced pass.
``{"type": "end"}``
    The game is over: exit (the referee kills the process group anyway).

A reply ``{"type": "error", "reason": "...", "detail": "..."}`` forfeits with that reason
(the Python host sends ``exception``, ``exit``, ``memory``, ``bad_return``, ``load_error``).
Optional reply fields ``elapsed`` (seconds) and ``printed`` (characters printed) are recorded.

Between the host and the referee only (a bot never sends them): once the sandbox is built and
before any code of the bot runs, the host writes ``{"type": "sandboxed"}``; if it cannot build
it, it writes ``{"type": "error", "reason": "setup", ...}`` instead. That failure is the
referee's: the game is not stored and the tournament stops with one line (see
:mod:`~gamecore.referee.tournament`). A ``setup`` error after ``sandboxed`` is a bot's forgery
and forfeits (``protocol``).

The referee never blocks on a bot: requests are written without blocking and the rest of a
request is written while the reply is awaited, under the same deadline; a reply already in the
pipe is read before a timeout is declared; all seats' start-up is awaited under one deadline.

Submissions, results, reports
-----------------------------
A submission is data (:mod:`~gamecore.referee.bots`): regular files and folders only, never a
link followed, at most 1000 files and folders and 16 MB (``--submission-files``,
``--submission-mb``); a submission that breaks a rule forfeits every game with reason
``refused`` and a line naming the file and the rule. The database (:mod:`~gamecore.referee.db`)
is locked for one referee at a time; a damaged one gives one line naming the file and the
record. Reports escape players' names for HTML (``<``, ``>``, ``&`` also inside the page's
JSON), Markdown and CSV (a leading ``=``, ``+``, ``-``, ``@`` is quoted with ``'``).
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a type checker sees; at run time __getattr__ imports them on first use
    from .check import check_bot
    from .play import play_game
    from .tournament import TournamentConfig, run_tournament

__all__ = ["TournamentConfig", "run_tournament", "play_game", "check_bot"]


def __getattr__(name: str) -> object:  # lazy: the host process imports this package too
    if name in ("TournamentConfig", "run_tournament"):
        from . import tournament  # noqa: PLC0415 (lazy: bot hosts import this package)

        return getattr(tournament, name)
    if name == "play_game":
        from .play import play_game  # noqa: PLC0415 (lazy: bot hosts import this package)

        return play_game
    if name == "check_bot":
        from .check import check_bot  # noqa: PLC0415 (lazy: bot hosts import this package)

        return check_bot
    raise AttributeError(name)
