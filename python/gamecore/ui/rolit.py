"""Rolit for 2 to 4 players in the terminal, as the course handout draws it.

One loop (``ui/play.py``, the one of every game) with :class:`RolitUI`, and two ways in:

- ``gamecore play rolit`` (and ``gamecore game rolit``, a quick computer game) with every
  game's player vocabulary: ``--red human --blue mcts --yellow engine:depth=3 --green random``;
- ``gamecore rolit``, the handout's short form, an alias: ``gamecore rolit Y B --algorithm
  maxn`` is ``gamecore play rolit --red maxn --blue human --yellow human --green maxn``.

The colours named on the command line (``gamecore rolit Y B``) or in Python
(``gamecore.rolit("Y", "B")``) are played by people at the keyboard, the others by the
computer; with no colour named the computer plays a whole game by itself. The board is
drawn as the handout draws it -- ``.`` empty, the colour's initial for a ball, the 1-based
row and column numbers at both ends, the last move's ball in lower case -- before every
human move, and after the last move of every round when nobody at the keyboard plays. The
humans are asked in the order of play (red, blue, yellow, green unless ``colours`` says
otherwise).

A person types a move as row and column (``4 6``, the handout's way) or as a square name
(``f4``). A bad entry gets one line that says what is wrong in the form the player used,
and the question again. Commands: ``undo`` (take back your last move and every move after
it: back to your own turn), ``help`` (the rules and your legal moves), ``quit``.

>>> import io
>>> out = io.StringIO()
>>> game = play(algorithm="random", seed=1, output=out, input=io.StringIO(""))
>>> game.is_game_over(), len(game.move_stack)
(True, 60)
>>> "Game over" in out.getvalue()
True
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from .._cli_types import MAX_SECONDS, add_backend, add_seed, add_time
from ..errors import GamecoreError, InvalidLimitError, InvalidOptionError, InvalidPositionError
from ..games.base import Color, Outcome, Position, renamed
from ..games.othello import _PASS_WORDS
from ..games.rolit import Rolit, RolitColor, RolitMove, parse_colour
from ..players import Player, make_player
from ..search import engine
from .play import GameUI, Session, add_play_options, start

__all__ = [
    "main",
    "play",
    "make_engine",
    "handout_spec",
    "play_arguments",
    "bad_entry",
    "RolitUI",
    "ENGINE_ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "DEFAULT_TIME",
]

#: Seconds the computer thinks per move unless told otherwise.
DEFAULT_TIME = 1.0
#: The computer's algorithm unless told otherwise: multi-player MCTS (the reward of every
#: player kept in every node, each player maximising its own; the last moves by an exact
#: Max^n search: ``Engine(endgame_empties=...)``).
DEFAULT_ALGORITHM = "mcts"
#: The handout's names ``--algorithm`` accepts. ``maxn``, ``maxn-plain``, ``paranoid`` and ``brs``
#: are the n-player searches of ``gamecore.search``; ``alphabeta`` is the two-player negamax
#: (two colours only: each maximises its balls less the other's); ``random`` and ``greedy``
#: are the simple players of ``gamecore.players``. Besides these, ``--algorithm`` takes any
#: player spec of Rolit (:func:`gamecore.players.make_player`: ``engine:depth=3``, ``mcts:iterations=500``).
ENGINE_ALGORITHMS = ("mcts", "maxn", "maxn-plain", "paranoid", "brs", "alphabeta", "random", "greedy")
#: The handout's names that say more than the player spec of the same name: its ``mcts`` is the
#: engine's MCTS (ending each game with an exact Max^n search), ``alphabeta`` and ``maxn-plain``
#: engines running those searches.
_HANDOUT_SPECS = {name: f"engine:algorithm={name}" for name in ("mcts", "maxn-plain", "alphabeta")}

# at most 78 columns a line: a terminal of 80 shows it without breaking a word
HELP = """Rolit: put a ball on an empty square. If you can capture -- bracket balls of
other colours in a line (across, down or diagonally) between the new ball and
one of your own -- you must, and every bracketed line turns your colour. If you
cannot, put the ball on any empty square next to a ball. The game ends when the
board is full; most balls wins{tie}.
Type a move as row and column, e.g. 4 6 (row 4, column 6), or as a square name,
e.g. f4. Commands: undo (take back your last move), help, quit."""


# -- the computer's players ----------------------------------------------------------------


def handout_spec(algorithm: str) -> str:
    """The player spec of one of the handout's ``--algorithm`` names (its ``mcts``: the engine's
    MCTS, ending each game with an exact Max^n search); any other spec as it is."""
    return _HANDOUT_SPECS.get(algorithm, algorithm)


def make_engine(algorithm: str = DEFAULT_ALGORITHM, time: float = DEFAULT_TIME, seed: int = 0) -> Player:
    """The computer player the terminal game uses for one colour (a player of
    :mod:`gamecore.players`); a bad option fails here, not at its first move."""
    return make_player(handout_spec(algorithm), game=Rolit.name, time=time, seed=seed)


# -- the game --------------------------------------------------------------------------------


def _name(colour: Color) -> str:
    return colour.name.capitalize()


def _square(move: RolitMove) -> str:
    return f"{move.row_col} ({move.name})"


_NAME_FORM = re.compile(r"^[a-z][0-9]+$", re.I)
_ROW_COL_FORM = re.compile(r"^[0-9]+[\s,]+[0-9]+$")


def bad_entry(position: Rolit, text: str, error: Exception | None) -> str:
    """One line for an entry that is not a legal move here, in the form the player used:
    ``error`` is why it could not be read (``None``: read, but the rules forbid it)."""
    entry = text.strip()
    as_name = bool(_NAME_FORM.match(entry))
    if error is not None:
        if entry.lower() in _PASS_WORDS:
            return "There is no passing in Rolit: every turn puts a ball on the board."
        if _ROW_COL_FORM.match(entry):
            return f"{entry!r} is off the board: rows and columns go from 1 to 8."
        if as_name:
            return f"{entry!r} is off the board: columns a to h, rows 1 to 8."
        return f"Cannot read {entry!r}: type a row and a column (e.g. 4 6) or a square name (e.g. f4)."
    say: Callable[[RolitMove], str] = (lambda m: m.name) if as_name else (lambda m: m.row_col)
    move = position.parse_move(entry)
    try:
        position.copy().push(move)
    except GamecoreError as exc:
        reason = str(exc)
    else:  # pragma: no cover - legal moves are exactly the pushable ones
        reason = "the rules forbid it"
    if "compulsory" in reason:
        reason = "you can capture, so you must: " + ", ".join(say(m) for m in position.legal_moves())
    return f"{say(move)} is not a legal move: {reason}."


def result_text(outcome: Outcome) -> str:
    """The result in words: the winner, or the level colours and who won on the tie rule."""
    scores = ", ".join(f"{_name(RolitColor(c))} {n}" for c, n in outcome.scores.items())
    if not outcome.tied:
        assert outcome.winner is not None  # one colour alone at the top
        return f"{_name(RolitColor(outcome.winner))} wins with the most balls ({scores})"
    tied = [RolitColor(c) for c in outcome.tied]
    level = " and ".join(_name(c) for c in tied)
    top = outcome.scores[tied[0]]
    if outcome.winner is None:
        return f"a draw: {level} share the top with {top} balls ({scores})"
    winner = RolitColor(outcome.winner)
    return f"{level} are level at {top} balls; {_name(winner)} reached {top} first and wins on the tie rule ({scores})"


class RolitUI(GameUI):
    """Rolit in the shared loop (``gamecore play rolit``): the handout's board, moves said as
    row and column, the colours in their order of play, the tie rule in the result."""

    game = Rolit
    summary = "Rolit (Othello for 2-4 players), as the course handout draws it"
    default_players = {"red": "human", "blue": "mcts", "yellow": "mcts", "green": "mcts"}
    quick_players = {"red": "engine:depth=2", "blue": "random", "yellow": "mcts:iterations=200", "green": "random"}
    default_time = DEFAULT_TIME

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        _add_rule_options(parser)

    def position(self, args: argparse.Namespace) -> Position[Any]:
        return Rolit(
            args.colours,
            first=args.first,
            tie_rule=not args.no_tie_rule,
            compulsory_capture=not args.free_placement,
            backend=args.backend,
        )

    def title(self, position: Position[Any], args: argparse.Namespace) -> str:
        assert isinstance(position, Rolit)
        order = ", ".join(_name(c) for c in position.colours)
        first = "" if position.turn == position.colours[0] else f"; {_name(position.turn)} moves first"
        return (
            f"Rolit, {position.num_players} players in this order: {order}{first} ({position.backend} backend).\n"
            "Capture when you can; otherwise put the ball next to any ball. Most balls wins."
        )

    def draw(self, position: Any, args: argparse.Namespace, last_move: Any = None) -> str:
        assert isinstance(position, Rolit)
        return position.render(last_move)  # the last move's ball in lower case

    def colour_name(self, colour: Color, lang: str) -> str:
        return _name(colour)

    def move_text(self, move: RolitMove) -> str:
        return move.row_col

    def played_text(self, move: RolitMove) -> str:
        return f"{move.row_col} ({move.name})"

    def human_texts(self, position: Position[Any], lang: str) -> dict[str, str]:
        tie = (
            ",\na tie going to the colour that reached that score first" if getattr(position, "tie_rule", False) else ""
        )
        return {
            "prompt": "{side}, your move as row column ({moves}; 'help'): ",
            "help": HELP.format(tie=tie) + "\nYour legal moves: {moves}",
        }

    def session(
        self,
        position: Position[Any],
        players: Mapping[Any, Player],
        args: argparse.Namespace,
        *,
        out: TextIO,
        lang: str,
        boards: bool,
    ) -> Session:
        return _Session(self, position, players, args, out=out, lang=lang, boards=boards)

    def explain(self, position: Any, text: str, error: Exception | None, lang: str) -> str | None:
        return bad_entry(position, text, error)

    def result_text(self, outcome: Outcome, lang: str) -> str | None:
        return result_text(outcome)


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    """The options of the game itself, the same for ``gamecore rolit`` and ``play rolit``."""
    parser.add_argument(
        "--colours",
        "--colors",
        default=None,
        metavar="RBYG",
        help="the colours that play, in their order of play (default RBYG: red, blue, yellow, green, "
        "the handout's order; RG for two players, RYG for three)",
    )
    parser.add_argument(
        "--first", default=None, metavar="COLOUR", help="the colour that moves first (default: the first of --colours)"
    )
    parser.add_argument(
        "--no-tie-rule",
        action="store_true",
        help="a tie at the top stays a draw (default: the colour that reached it first wins)",
    )
    parser.add_argument(
        "--free-placement",
        action="store_true",
        help="variant: a capture is never compulsory (any empty square next to a ball)",
    )


class _Session(Session):
    """The shared loop with the handout's boards: before every human move, or after every
    round when nobody at the keyboard plays; the balls of every colour beside the turn."""

    def __init__(self, ui: GameUI, position: Position[Any], players: Mapping[Any, Player], *args: Any, **kw: Any):
        super().__init__(ui, position, players, *args, **kw)
        self.first = position.turn  # a round ends when this colour is to move again

    def balls(self) -> str:
        return "  ".join(f"{c.initial} {n}" for c, n in self.position.score().items())

    def run(self) -> int:
        if self.boards and not any(self.humans.values()):
            self.say("No human player: the board is shown after every round.")
        return super().run()

    def show(self, last_move: Any = None) -> None:
        game = self.position
        over = game.is_game_over()
        if any(self.humans.values()):
            if over or self.humans[game.turn]:
                self.say()
                self.say(self.ui.draw(game, self.args, last_move))
                if not over:
                    number = len(game.move_stack) + 1
                    who = self.m["you"] if list(self.humans.values()).count(True) == 1 else self.player_name(game.turn)
                    status = self.m["status"].format(number=number, side=self.name(game.turn), who=who)
                    self.say(f"{status}   {self.balls()}")
            return
        if last_move is None or over or game.turn == self.first:
            self.say()
            self.say(self.ui.draw(game, self.args, last_move))
            if last_move is not None:
                self.say(f"After move {len(game.move_stack)}:   {self.balls()}")


def play(
    *humans: Any,
    algorithm: str = DEFAULT_ALGORITHM,
    time: float = DEFAULT_TIME,
    seed: int = 0,
    colors: Any = None,
    first: Any = None,
    tie_rule: bool = True,
    compulsory_capture: bool = True,
    backend: str | None = None,
    input: TextIO | None = None,
    output: TextIO | None = None,
    colours: Any = None,
) -> Rolit:
    """Play Rolit in the terminal; returns the position reached (over, or where it was left).

    `gamecore.rolit("Y", "B")` is `gamecore rolit Y B`: the same loop as `gamecore play rolit`.

    Args:
        humans: the colours people play (`"Y"`, `"yellow"`, `Rolit.YELLOW` or `"YB"`);
            none: the computer plays a whole game.
        algorithm: the computer's algorithm (see `ENGINE_ALGORITHMS`).
        time: the computer's seconds per move.
        seed: seed of the computer's random choices (each engine colour adds its number).
        colors: the colours that play (default all four; see `gamecore.Rolit`);
            `colours=` is its older name, still accepted.
        first: the colour that moves first.
        tie_rule: a tie at the top goes to the colour that reached it first.
        compulsory_capture: `False` lifts the rule that a capture must be played.
        input: where the moves are read (default standard input).
        output: where the game is written (default standard output).
    """
    colors = renamed(colors, colours, "colors", "colours")
    args = play_arguments(humans, algorithm, time, seed, colors, first, tie_rule, compulsory_capture, backend)
    session = start(RolitUI(), args, input or sys.stdin, output or sys.stdout)
    session.run()
    position = session.position
    assert isinstance(position, Rolit)
    return position


def _human_colours(items: Sequence[Any]) -> list[RolitColor]:
    """Colours from ``"Y"``, ``"yellow"``, ``Rolit.YELLOW`` or several initials at once (``"YB"``)."""
    names = {c.name for c in RolitColor}
    out: list[RolitColor] = []
    for item in items:
        if isinstance(item, str) and len(item.strip()) > 1 and item.strip().upper() not in names:
            out.extend(parse_colour(ch) for ch in item.strip())
        else:
            out.append(parse_colour(item))
    return out


def play_arguments(
    humans: Sequence[Any],
    algorithm: str,
    time_limit: float,
    seed: int,
    colours: Any,
    first: Any,
    tie_rule: bool,
    compulsory_capture: bool,
    backend: str | None,
) -> argparse.Namespace:
    """The options of ``gamecore play rolit`` that the handout's form means: ``human`` for the
    colours named, the computer's player (:func:`handout_spec`) for the others. Bad settings
    raise the game's errors here."""
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)) or not 0 < time_limit <= MAX_SECONDS:
        raise InvalidLimitError(f"the time per move must be above 0 and at most {MAX_SECONDS:g} s, got {time_limit!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError(f"seed must be an int, got {seed!r}")
    game = Rolit(colours, first=first, tie_rule=tie_rule, compulsory_capture=compulsory_capture, backend=backend)
    if algorithm in engine.TWO_PLAYER_ALGORITHMS and game.num_players != 2:
        raise InvalidOptionError(
            f"{algorithm} searches two-player games only; this game has {game.num_players} players"
        )
    people = set()
    for colour in _human_colours(humans):
        if colour not in game.colours:
            playing = ", ".join(_name(c) for c in game.colours)
            raise InvalidOptionError(f"{_name(colour)} does not play in this game ({playing})")
        people.add(colour)
    ui = RolitUI()
    parser = argparse.ArgumentParser(prog="gamecore play rolit")
    ui.add_options(parser)
    add_play_options(parser, ui, list(RolitColor))
    args = parser.parse_args([])  # the defaults of play rolit, then the handout's settings
    args.colours, args.first, args.backend = colours, first, backend
    args.no_tie_rule, args.free_placement = not tie_rule, not compulsory_capture
    args.time, args.seed = time_limit, seed
    for colour in RolitColor:
        setattr(args, colour.name.lower(), "human" if colour in people else handout_spec(algorithm))
    return args


# -- the command line ------------------------------------------------------------------------


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``gamecore rolit`` (the subcommand, and :func:`build_parser` for :func:`main`)."""
    p.add_argument("humans", nargs="*", metavar="COLOUR", help="colours played by people: R B Y G (or red, blue...)")
    _add_rule_options(p)
    p.add_argument(
        "--algorithm",
        type=_algorithm,
        default=DEFAULT_ALGORITHM,
        metavar="SPEC",
        help=f"the computer's player: {', '.join(ENGINE_ALGORITHMS)} or any player spec of Rolit, as "
        f"'gamecore play rolit' takes them (engine:depth=3, mcts:iterations=500; default {DEFAULT_ALGORITHM})",
    )
    add_time(p, default=DEFAULT_TIME, what="a move of the computer")
    add_seed(p, of="the computer's random choices")
    add_backend(p)


def _algorithm(text: str) -> str:
    """An ``--algorithm`` the computer can play (checked now: an argparse error, not a traceback)."""
    try:
        make_engine(text, time=DEFAULT_TIME)
    except GamecoreError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gamecore rolit", **PARSER_TEXTS)
    add_options(p)
    return p


#: The description and epilog of ``gamecore rolit``.
PARSER_TEXTS: dict[str, Any] = {
    "description": "Play Rolit (Othello for 2 to 4 players) in the terminal. The colours named are played by "
    "people, the others by the computer; name none to watch the computer play. An alias of 'gamecore play "
    "rolit': 'gamecore rolit Y B --algorithm maxn' is 'play rolit --red maxn --blue human --yellow human "
    "--green maxn' (the handout's mcts is the engine's, engine:algorithm=mcts).",
    "epilog": "Example: gamecore rolit Y B --time 2   (you play yellow and blue against red and green)",
}


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run parsed ``gamecore rolit`` options, the alias of ``gamecore play rolit``
    (:func:`play_arguments`); the exit status: 0 the game ended or was left, 1 the input ended
    mid-game or an error, 2 bad settings."""
    stdout = sys.stdout if stdout is None else stdout
    try:
        play_args = play_arguments(
            args.humans,
            args.algorithm,
            args.time,
            args.seed,
            args.colours,
            args.first,
            not args.no_tie_rule,
            not args.free_placement,
            args.backend,
        )
        return start(RolitUI(), play_args, stdin or sys.stdin, stdout).run()
    except KeyboardInterrupt:
        stdout.write("\nGame stopped.\n")
        return 130
    except (GamecoreError, ValueError) as exc:
        sys.stderr.write(f"gamecore rolit: {exc}\n")
        return 2 if isinstance(exc, (InvalidPositionError, InvalidOptionError, InvalidLimitError)) else 1


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run ``gamecore rolit`` (see :func:`run`)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    return run(args, stdin, stdout)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
