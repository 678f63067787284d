"""``gamecore play GAME``: one terminal loop for every game.

The loop knows only the position protocol (``legal_moves``, ``push``, ``pop``, ``turn``,
``outcome``, ``move_stack``) and the players' ``choose_move``. What differs between games
is a small :class:`GameUI` in ``ui/<game>.py``: its command-line options, how to build
the position, how to draw it, its record format and its own messages for a bad move.
Every game of :data:`gamecore.games.GAMES` is in :data:`GAME_UIS`: with the plain
:class:`GameUI`, or with a subclass that sets ``game`` (it registers itself); no new loop.

At the prompt every game takes a move, ``help``, ``undo`` and ``quit`` (with
``--lang pt``: ``ajuda``, ``desfazer``, ``sair``).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TextIO

from .._cli_types import MAX_SECONDS, add_backend, add_seed, add_time, count
from ..errors import GamecoreError
from ..games import GAMES
from ..games.base import Color, Outcome, Position, Termination
from ..games.othello import MAX_RECORD_CHARS
from ..players import HUMAN_COMMANDS, HumanPlayer, Player, QuitGame, UndoMove, make_player, player_names

__all__ = [
    "GameUI",
    "MESSAGES",
    "COMMANDS",
    "Session",
    "describe_score",
    "evaluation_scale",
    "result_line",
    "GAME_UIS",
    "start",
    "run",
]

#: Every line of the loop, per language.
MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "players": "{players}.\nType a move like {example}; 'help' lists the commands.",
        "versus": "{side} ({player})",
        "status": "Move {number}: {side} ({who}) to play.",
        "you": "you",
        "passes": "{side} ({player}) has no legal move and passes.",
        "plays": "{number}. {side} ({player}) plays {move}",
        "thinking_note": " in {seconds:.2f} s ({note})",
        "depth": "depth {depth}",
        "nodes": "{nodes} nodes",
        "iterations": "{iterations} iterations",
        "win_rate": "{rate:.0f}% wins expected for {side}",
        "ahead": "{score:+d} for {side}",
        "level": "level",
        "proven_win": "{side} wins by {margin}",
        "proven_forced": "a forced win for {side}",
        "nothing_to_undo": "There is no move of yours to take back.",
        "undone": "Taken back: {moves}.",
        "stopped": "Game stopped.",
        "input_ended": "Game stopped (input ended).",
        "record_saved": "Record saved to {path}: {record}",
        "loaded": "Loaded {count} moves from {path}.",
        "game_over": "Game over: {result}.",
        "wins": "{winner} wins",
        "draw": "a draw",
        "three": "{loser} made three in a row",
        "you_won": "Well played, you won!",
        "you_lost": "The computer won this time.",
    },
    "pt": {
        "players": "{players}.\nDigite uma jogada como {example}; 'ajuda' mostra os comandos.",
        "versus": "{side} ({player})",
        "status": "Jogada {number}: vez das {side} ({who}).",
        "you": "você",
        "passes": "{side} ({player}) não têm jogada e passam.",
        "plays": "{number}. {side} ({player}) jogam {move}",
        "thinking_note": " em {seconds:.2f} s ({note})",
        "depth": "profundidade {depth}",
        "nodes": "{nodes} nós",
        "iterations": "{iterations} iterações",
        "win_rate": "{rate:.0f}% de vitórias esperadas para as {side}",
        "ahead": "{score:+d} para as {side}",
        "level": "equilíbrio",
        "proven_win": "vitória das {side} por {margin}",
        "proven_forced": "vitória forçada das {side}",
        "nothing_to_undo": "Não há jogada sua para desfazer.",
        "undone": "Desfeito: {moves}.",
        "stopped": "Jogo abandonado.",
        "input_ended": "A entrada terminou: jogo abandonado.",
        "record_saved": "Partida salva em {path}: {record}",
        "loaded": "{count} jogadas lidas de {path}.",
        "game_over": "Fim de jogo: {result}.",
        "wins": "vitória das {winner}",
        "draw": "empate",
        "three": "as {loser} fizeram três em linha",
        "you_won": "Parabéns, você venceu!",
        "you_lost": "Desta vez o computador venceu.",
    },
}

#: The words of the prompt commands, per language (English words work in every language).
COMMANDS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": HUMAN_COMMANDS,
    "pt": {
        "help": HUMAN_COMMANDS["help"] + ("ajuda", "a"),
        "undo": HUMAN_COMMANDS["undo"] + ("desfazer", "voltar"),
        "quit": HUMAN_COMMANDS["quit"] + ("sair", "s"),
    },
}

#: The human player's own lines in Portuguese (English: ``gamecore.players.HUMAN_TEXTS``).
HUMAN_TEXTS_PT = {
    "prompt": "{side}, sua jogada ({moves}): ",
    "many_moves": "ex.: {example}",
    "help": "Digite uma jogada como {example}. Comandos: desfazer (volta sua jogada), sair, ajuda.",
    "help_moves": "Jogadas legais: {moves}",
    "cannot_read": "Não entendi {text!r}: {error}.",
    "must_pass": "{move} não é legal: você não tem jogada e deve passar ('pass').",
    "illegal": "{move} não é uma jogada legal aqui: {reason}.",
}

#: Player names as the Portuguese lines say them.
_PLAYER_NAMES_PT = {"human": "humano", "engine": "computador", "random": "aleatório"}

_TERMINATIONS_PT = {
    Termination.NO_MOVES: "nenhum lado pode jogar",
    Termination.FULL_BOARD: "o tabuleiro está cheio",
    Termination.FOUR_IN_A_ROW: "quatro em linha",
    Termination.THREE_IN_A_ROW: "três em linha",
}


class GameUI:
    """What the loop needs to know of one game. Every game has one: this plain one (drawn by
    ``str(position)``, moves read by the game's ``parse_move``), or a subclass in
    ``ui/<game>.py`` that sets :attr:`game` and registers itself for that game class."""

    #: The position class.
    game: type[Position[Any]] = Position
    #: Default seconds per move of the thinking players.
    default_time = 1.0
    #: Transposition table of the engine players, in MB.
    tt_mb = 16
    #: Whether the result line shows the counts of ``Outcome.scores`` (discs, balls).
    show_scores = True
    #: A proven search result is worth saying as a margin ("black wins by 12").
    proven_margin = True

    def __init__(self, game: type[Position[Any]] | None = None) -> None:
        if game is not None:
            self.game = game

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "game" in cls.__dict__:
            _UI_CLASSES[cls.game] = cls

    @property
    def name(self) -> str:
        """The name after ``gamecore play``: the game's (``Position.name``)."""
        return self.game.name

    @property
    def summary(self) -> str:
        """One line for ``gamecore play --help``: the first line of the game's docstring."""
        return (self.game.__doc__ or self.game.__name__).strip().splitlines()[0].rstrip(".")

    @property
    def default_players(self) -> dict[str, str]:
        """Default player per colour name (``{"black": "human", "white": "engine"}``): a person
        moves first, the engine plays the others."""
        return {c.name.lower(): "human" if i == 0 else "engine" for i, c in enumerate(self.game.Color)}

    @property
    def quick_players(self) -> dict[str, str]:
        """The players of ``gamecore game GAME`` (a quick computer game), per colour name."""
        return {c.name.lower(): "random" for c in self.game.Color}

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        """Add the game's own options (board size, style, ...): here ``--size`` when the game
        has several."""
        if len(self.game.sizes) > 1:
            sizes = ", ".join(map(str, self.game.sizes))
            parser.add_argument(
                "--size",
                type=count,
                choices=self.game.sizes,
                default=self.game.default_size,
                metavar="N",
                help=f"board size: {sizes} (default {self.game.default_size})",
            )

    def position(self, args: argparse.Namespace) -> Position[Any]:
        return self.game.for_size(getattr(args, "size", None), backend=args.backend)

    def title(self, position: Position[Any], args: argparse.Namespace) -> str:
        return f"{type(position).__name__} ({position.backend} backend)"

    def draw(self, position: Position[Any], args: argparse.Namespace, last_move: Any = None) -> str:
        return str(position)

    def colour_name(self, colour: Color, lang: str) -> str:
        return str(colour)

    def move_text(self, move: Any) -> str:
        """A move as the game's lines say it (Rolit: row and column, the handout's way)."""
        return str(move)

    def played_text(self, move: Any) -> str:
        """A move as the line that reports it says it (default :meth:`move_text`; Rolit adds
        the square's name: ``6 6 (f6)``)."""
        return self.move_text(move)

    def human_texts(self, position: Position[Any], lang: str) -> dict[str, str] | None:
        """The lines of a person's prompt and help (keys of ``gamecore.players.HUMAN_TEXTS``)
        in ``lang``; ``None``: the English ones."""
        return HUMAN_TEXTS_PT if lang == "pt" else None

    #: The languages of the game's lines, its first the default (Tetralath: English and Portuguese).
    languages: tuple[str, ...] = ("en",)

    def option_help(self, lang: str) -> dict[str, str]:
        """The game's own options' help in ``lang``, by ``dest`` (the loop's are in
        :data:`OPTION_HELP`)."""
        return {}

    def ask_settings(self, args: argparse.Namespace, read: Callable[[str], str], lang: str) -> None:
        """Ask a person at a terminal what the command line left open (Tetralath: who moves
        first); ``read(prompt)`` returns a line or raises ``EOFError``. Nothing by default."""

    def session(
        self,
        position: Position[Any],
        players: Mapping[Color, Player],
        args: argparse.Namespace,
        *,
        out: TextIO,
        lang: str,
        boards: bool,
    ) -> Session:
        """The loop that plays this game: :class:`Session`, or a game's own subclass (Rolit's
        draws the board as its handout says)."""
        return Session(self, position, players, args, out=out, lang=lang, boards=boards)

    def explain(self, position: Position[Any], text: str, error: Exception | None, lang: str) -> str | None:
        """The game's own message for a move it cannot read (``error``) or play; ``None``: generic."""
        return None

    def result_text(self, outcome: Outcome, lang: str) -> str | None:
        """The game's own words for the result (Rolit's tie rule); ``None``: the loop's."""
        return None

    def format_record(self, position: Position[Any]) -> str:
        """The moves played, as the record file holds them."""
        return " ".join(str(m) for m in position.move_stack)

    def load_record(self, position: Position[Any], text: str) -> int:
        """Play a record's moves on ``position``; returns how many were read."""
        moves = " ".join(line.split("#", 1)[0] for line in text.splitlines()).replace(",", " ").split()
        trial = position.copy()
        for move in moves:
            trial.push(move)
        for move in trial.move_stack[len(position.move_stack) :]:
            position.push(move)
        return len(moves)


def evaluation_scale(position: Position[Any], player: Any) -> int:
    """What one unit of ``player``'s evaluation scores is worth in the game's counts: 100
    for Othello's learned evaluation (hundredths of a disc), else 1 (Rolit's evaluation
    is in balls; the others have no count to say)."""
    evaluation = getattr(player, "evaluation", None)
    if evaluation == "default":
        evaluation = position.default_evaluation()
    return 100 if evaluation == "learned" else 1


def describe_score(
    result: Any, mover: Color, names: Callable[[Color], str], m: dict[str, str], margin: bool, scale: int = 1
) -> str:
    """A search score as people say it: ``+11 for white``, ``black wins by 64`` (a proven
    result), ``55% wins expected for black`` (MCTS). An evaluation (not a proven margin) is
    divided by ``scale`` (:func:`evaluation_scale`) and rounded: ``+1110`` hundredths of a
    disc is ``+11 for white``."""
    score = getattr(result, "score", None)
    if score is None:
        return ""
    if getattr(result, "iterations", None):  # MCTS: the win rate, in tenths of a percent
        return m["win_rate"].format(rate=score / 10, side=names(mover))
    others = [c for c in type(mover) if c != mover]
    other = others[0] if len(others) == 1 else None
    winner = mover if score > 0 else other
    if getattr(result, "proven", None) in ("win", "loss") and winner is not None:
        if margin:
            return m["proven_win"].format(side=names(winner), margin=abs(score))
        return m["proven_forced"].format(side=names(winner))
    if getattr(result, "exact", False) and winner is not None and score:
        return m["proven_win"].format(side=names(winner), margin=abs(score))
    if scale != 1:
        score = round(score / scale)
    if score == 0 or winner is None:
        return m["level"] if score == 0 else m["ahead"].format(score=score, side=names(mover))
    return m["ahead"].format(score=abs(score), side=names(winner))


def result_line(
    ui: GameUI, outcome: Outcome, lang: str, label: Callable[[Color], str], *, counts: bool | None = None
) -> str:
    """The result as people say it: ``black (engine) wins 40-24: full board``; the game's own
    words where it has them (Rolit's tie rule). ``label(colour)`` names a side; ``counts``
    (default: the game's ``show_scores``) adds the discs."""
    own = ui.result_text(outcome, lang)
    if own is not None:
        return own
    m = MESSAGES[lang]
    head = m["draw"] if outcome.winner is None else m["wins"].format(winner=label(outcome.winner))
    if (ui.show_scores and bool(outcome.scores)) if counts is None else counts:
        values = list(outcome.scores.values())
        if len(values) == 2 and outcome.winner is not None:
            values.sort(reverse=True)
        head += " " + "-".join(str(v) for v in values)
    if outcome.termination is Termination.THREE_IN_A_ROW and len(outcome.losers) == 1:
        reason = m["three"].format(loser=ui.colour_name(outcome.losers[0], lang))
    elif lang == "pt":
        reason = _TERMINATIONS_PT[outcome.termination]
    else:
        reason = outcome.termination.value
    return f"{head}: {reason}"


class Session:
    """One game at the terminal: the position, a player per colour, the output."""

    def __init__(
        self,
        ui: GameUI,
        position: Position[Any],
        players: Mapping[Color, Player],
        args: argparse.Namespace,
        *,
        out: TextIO,
        lang: str = "en",
        boards: bool = True,
    ) -> None:
        self.ui = ui
        self.position = position
        self.players = dict(players)
        self.args = args
        self.out = out
        self.lang = lang
        self.m = MESSAGES[lang]
        self.boards = boards
        self.record_path: str | None = getattr(args, "record", None)
        self.humans = {colour: isinstance(p, HumanPlayer) for colour, p in self.players.items()}

    # -- output ---------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        try:
            self.out.write(text + "\n")
        except UnicodeEncodeError:  # a terminal that cannot show the board's symbols
            encoding = getattr(self.out, "encoding", None) or "ascii"
            self.out.write(text.encode(encoding, "replace").decode(encoding) + "\n")
        self.out.flush()

    def name(self, colour: Color) -> str:
        return self.ui.colour_name(colour, self.lang)

    def player_name(self, colour: Color) -> str:
        name = self.players[colour].name
        return _PLAYER_NAMES_PT.get(name, name) if self.lang == "pt" else name

    def label(self, colour: Color) -> str:
        return self.m["versus"].format(side=self.name(colour), player=self.player_name(colour))

    def save(self) -> None:
        if self.record_path:
            with open(self.record_path, "w", encoding="utf-8") as fh:
                fh.write(self.ui.format_record(self.position) + "\n")

    def show(self, last_move: Any = None) -> None:
        self.say(self.ui.draw(self.position, self.args, last_move))
        if not self.position.is_game_over() and not _must_pass(self.position):  # a pass is played at once
            colour = self.position.turn
            alone = self.humans[colour] and list(self.humans.values()).count(True) == 1
            who = self.m["you"] if alone else self.player_name(colour)
            number = len(self.position.move_stack) + 1
            self.say(self.m["status"].format(number=number, side=self.name(colour), who=who))

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> int:
        """Play to the end; the exit status: 0 the game ended or a human quit, 1 the input ended."""
        position = self.position
        if self.boards:
            self.show()
        while not position.is_game_over():
            colour = position.turn
            legal = position.legal_moves()
            if _must_pass(position):
                self.say(self.m["passes"].format(side=self.name(colour), player=self.player_name(colour)))
                position.push(legal[0])
                self.save()
                continue
            player = self.players[colour]
            start = time.perf_counter()
            try:
                move = player.choose_move(position)
            except UndoMove:
                self.undo(colour)
                continue
            except QuitGame:
                return self.stop("stopped", 0)
            except (EOFError, KeyboardInterrupt) as exc:
                self.say()
                return self.stop("input_ended" if isinstance(exc, EOFError) else "stopped", 1)
            elapsed = time.perf_counter() - start
            position.push(move)
            self.save()
            self.say(self.move_line(colour, player, move, elapsed))
            if self.boards:
                self.show(move)
        if not self.boards:
            self.say(self.ui.draw(position, self.args))
        outcome = position.outcome()
        assert outcome is not None
        self.say(self.m["game_over"].format(result=self.result_text(outcome)))
        if self.record_path:
            self.say(self.m["record_saved"].format(path=self.record_path, record=self.ui.format_record(position)))
        if outcome.winner is not None and list(self.humans.values()).count(True) == 1:
            self.say(self.m["you_won"] if self.humans[outcome.winner] else self.m["you_lost"])
        return 0

    def move_line(self, colour: Color, player: Player, move: Any, elapsed: float) -> str:
        number = len(self.position.move_stack)
        line = self.m["plays"].format(
            number=number, side=self.name(colour), player=self.player_name(colour), move=self.ui.played_text(move)
        )
        result = getattr(player, "last_result", None)
        if result is None:
            return line
        parts = []
        if getattr(result, "iterations", None):
            parts.append(self.m["iterations"].format(iterations=self.grouped(result.iterations)))
        elif getattr(result, "depth", None) is not None:
            parts.append(self.m["depth"].format(depth=result.depth))
        scale = evaluation_scale(self.position, player)
        score = describe_score(result, colour, self.name, self.m, self.ui.proven_margin, scale)
        if score:
            parts.append(score)
        if getattr(result, "nodes", None) and not getattr(result, "iterations", None):  # MCTS: its iterations say it
            parts.append(self.m["nodes"].format(nodes=self.grouped(result.nodes)))
        return line + self.m["thinking_note"].format(seconds=elapsed, note=", ".join(parts))

    def grouped(self, number: int) -> str:
        """``8,518,656``; in Portuguese ``8.518.656``."""
        text = f"{number:,}"
        return text.replace(",", ".") if self.lang == "pt" else text

    def result_text(self, outcome: Outcome) -> str:
        return result_line(self.ui, outcome, self.lang, self.label, counts=self.show_counts(outcome))

    def show_counts(self, outcome: Outcome) -> bool:
        return self.ui.show_scores and bool(outcome.scores)

    def undo(self, colour: Color) -> None:
        """Take back this human's last move and every move played after it."""
        stack = self.position.move_stack
        mine = [i for i in range(len(stack)) if self._mover(i) == colour]
        if not mine:
            self.say(self.m["nothing_to_undo"])
            return
        taken = []
        while len(self.position.move_stack) > mine[-1]:
            taken.append(self.ui.move_text(self.position.pop()))
        self.save()
        self.say(self.m["undone"].format(moves=", ".join(reversed(taken))))
        if self.boards:
            self.show()

    def _mover(self, ply: int) -> Color:
        # Who made move number ``ply``: replay the turns on a copy (passes and swaps included).
        trial = self.position.copy()
        while len(trial.move_stack) > ply:
            trial.pop()
        return trial.turn

    def stop(self, key: str, status: int) -> int:
        self.say(self.m[key])
        if self.record_path:
            self.save()
            record = self.ui.format_record(self.position) or "-"
            self.say(self.m["record_saved"].format(path=self.record_path, record=record))
        return status


# -- building a session from the command line ----------------------------------------------


def playing_colours(position: Position[Any]) -> tuple[Color, ...]:
    """The colours in this game: ``position.colours`` when the game has it (Rolit with 2-4
    players), else every colour of the game."""
    return tuple(getattr(position, "colours", None) or position.Color)


def build_players(
    ui: GameUI, position: Position[Any], args: argparse.Namespace, stdin: TextIO, out: TextIO, lang: str
) -> dict[Color, Player]:
    """A player per colour from ``--<colour> SPEC`` (``human``, ``engine:depth=6``, ...)."""

    read = reader(stdin, out)
    players: dict[Color, Player] = {}
    for colour in playing_colours(position):
        spec = getattr(args, colour.name.lower())
        if spec.strip().lower() == "human":
            players[colour] = HumanPlayer(
                read,
                out,
                commands=COMMANDS[lang],
                texts=ui.human_texts(position, lang),
                explain=lambda pos, text, error: ui.explain(pos, text, error, lang),
                side_name=lambda c: ui.colour_name(c, lang),
                move_name=ui.move_text,
            )
            continue
        players[colour] = make_player(
            spec,
            game=ui.name,
            size=getattr(args, "size", None),
            seed=(args.seed or 0) + int(colour),
            depth=args.depth,
            time=args.time,
            evaluation=args.eval,
            iterations=args.iterations,
            backend=args.backend,
            tt_mb=ui.tt_mb,
            weights=getattr(args, "weights", None),
        )
    return players


def reader(stdin: TextIO, out: TextIO) -> Callable[[str], str]:
    """``read(prompt)``: write the prompt, return the line typed; ``EOFError`` at the end of input."""

    def read(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = stdin.readline()
        if not line:
            raise EOFError
        return line

    return read


def _at_a_terminal(stdin: TextIO) -> bool:
    isatty = getattr(stdin, "isatty", None)
    return bool(isatty and isatty())


def _read_record(path: str) -> str:
    """A saved record's text, read no further than a record may be long (``--load /dev/zero``
    ends at once, in one error line)."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read(MAX_RECORD_CHARS + 1)
    if len(text) > MAX_RECORD_CHARS:
        raise GamecoreError(f"{path} is longer than a game record may be ({MAX_RECORD_CHARS} characters)")
    return text


def start(ui: GameUI, args: argparse.Namespace, stdin: TextIO, out: TextIO, *, boards: bool = True) -> Session:
    """Build the position (``--load`` played on it) and the players of ``gamecore play <game>``,
    say the title and who plays; the session is ready to :meth:`~Session.run`."""
    lang = getattr(args, "lang", "en")
    if _at_a_terminal(stdin):  # a person types: ask what the options left open (scripts are never asked)
        ui.ask_settings(args, reader(stdin, out), lang)
    position = ui.position(args)
    if args.load:
        count = ui.load_record(position, _read_record(args.load))
        print(MESSAGES[lang]["loaded"].format(count=count, path=args.load), file=out)
    players = build_players(ui, position, args, stdin, out, lang)
    session = ui.session(position, players, args, out=out, lang=lang, boards=boards)
    session.say(ui.title(position, args))
    versus = ", ".join(session.label(c) for c in playing_colours(position))
    squares = [move for move in position.legal_moves() if not move.is_pass]
    if not squares and _must_pass(position):  # the example is a square, as typed after the pass
        squares = position.play(position.legal_moves()[0]).legal_moves()
    example = ui.move_text(squares[len(squares) // 2]) if squares else "-"
    introduction = MESSAGES[lang]["players"].format(players=versus, example=example)
    if not any(session.humans.values()):  # nobody types: no input hint
        introduction = introduction.split("\n", 1)[0]
    session.say(introduction)
    return session


def run(ui: GameUI, args: argparse.Namespace, stdin: TextIO, out: TextIO, *, boards: bool = True) -> int:
    """``gamecore play <game>``: build the position and the players, play, return the exit status."""
    return start(ui, args, stdin, out, boards=boards).run()


def _must_pass(position: Position[Any]) -> bool:
    """The side to move has one legal move, a pass (Othello): the loop plays it at once."""
    legal = position.legal_moves()
    return len(legal) == 1 and bool(legal[0].is_pass)


def add_play_options(parser: argparse.ArgumentParser, ui: GameUI, colours: Sequence[Color]) -> None:
    """The options every game takes: a player per colour, search limits, record, backend."""
    names = ", ".join(player_names(ui.name))
    for colour in colours:
        name = colour.name.lower()
        default = ui.default_players[name]
        parser.add_argument(
            f"--{name}", default=default, metavar="PLAYER", help=f"who plays {name}: {names} (default {default})"
        )
    add_time(parser, default=ui.default_time, what="a move of engine and mcts players")
    parser.add_argument(
        "--depth",
        type=count,
        metavar="N",
        help="search depth of engine players (default: as deep as --time allows)",
    )
    evaluations = ["default", *sorted(ui.game.EVALUATIONS)]
    parser.add_argument(
        "--eval",
        choices=evaluations,
        metavar="NAME",
        help=f"evaluation of engine players: {', '.join(evaluations)} "
        f"(default: default, {ui.game.default_evaluation_help})",
    )
    if "learned" in ui.game.EVALUATIONS:  # a game with learned weights takes a file of one's own
        parser.add_argument(
            "--weights",
            metavar="PATH",
            help="learned weights of engine players (a .patterns file from gamecore train othello; "
            "default: the shipped ones)",
        )
    parser.add_argument(
        "--iterations",
        type=count,
        metavar="N",
        help="MCTS iterations per move (default: as many as --time allows)",
    )
    add_seed(parser, of="the random and mcts players")
    parser.add_argument("--record", metavar="FILE", help="save the moves to FILE after every move (default: no file)")
    parser.add_argument("--load", metavar="FILE", help="start from the moves in FILE (a saved record)")
    add_backend(parser)


#: The help of the options every game's ``play`` takes, per language other than English, by
#: ``dest`` (a colour's option: ``colour``); a game's own options: :meth:`GameUI.option_help`.
OPTION_HELP: dict[str, dict[str, str]] = {
    "pt": {
        "help": "mostra esta ajuda e sai",
        "colour": "quem joga com as {colour}: {names} (padrão {default})",
        "time": "segundos por jogada dos jogadores engine e mcts, no máximo {max:g} (padrão {default:g})",
        "depth": "profundidade da busca dos jogadores engine (padrão: a que --time permitir)",
        "eval": "avaliação dos jogadores engine: {evaluations} (padrão: default, {default})",
        "iterations": "iterações do MCTS por jogada (padrão: as que --time permitir)",
        "seed": "semente dos jogadores random e mcts (padrão 0)",
        "record": "salva as jogadas em FILE depois de cada jogada (padrão: nenhum arquivo)",
        "load": "começa das jogadas em FILE (uma partida salva)",
        "backend": "cython ou python (padrão: o mais rápido instalado)",
        "boards": "mostra só o tabuleiro final (padrão: depois de cada jogada)",
        "description": "{summary}. No prompt: uma jogada, ajuda, desfazer, sair.",
        "epilog": "PLAYER: {names} (opções depois de dois-pontos: engine:depth=6,time=2).",
        "usage": "uso: ",
        "options": "opções",
    }
}


def translate_help(parser: argparse.ArgumentParser, ui: GameUI, lang: str) -> None:
    """Put the help of ``gamecore play <game>`` (built in English) into ``lang``, when the game
    speaks it: ``gamecore tetralath --lang pt --help``."""
    if lang not in ui.languages or lang not in OPTION_HELP:
        return
    texts = {**OPTION_HELP[lang], **ui.option_help(lang)}
    names = ", ".join(player_names(ui.name))
    colour_names = {f"--{c.name.lower()}": ui.colour_name(c, lang) for c in ui.game.Color}
    evaluations = ", ".join(["default", *sorted(ui.game.EVALUATIONS)])
    for action in parser._actions:
        option = action.option_strings[-1] if action.option_strings else ""
        if action.help == argparse.SUPPRESS:
            continue
        key = option.lstrip("-").replace("-", "_")  # the option's own name, else its dest
        key = key if key in texts else action.dest
        if option in colour_names:
            action.help = texts["colour"].format(colour=colour_names[option], names=names, default=action.default)
        elif key in texts:
            default = ui.game().default_evaluation() if key == "eval" else action.default
            action.help = texts[key].format(max=MAX_SECONDS, default=default, evaluations=evaluations, names=names)
    parser.description = texts["description"].format(summary=ui.option_help(lang).get("summary", ui.summary))
    parser.epilog = texts["epilog"].format(names=names)
    parser._optionals.title = texts["options"]
    usage = texts["usage"]

    class Formatter(argparse.HelpFormatter):
        def add_usage(self, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("prefix", usage)
            super().add_usage(*args, **kwargs)

    parser.formatter_class = Formatter


def help_language(argv: Sequence[str]) -> str:
    """The ``--lang`` of a command line (``--lang pt``, ``--lang=pt``), for its ``--help``; else ``en``."""
    for i, word in enumerate(argv):
        if word.startswith("--lang="):
            return word.split("=", 1)[1]
        if word == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
    return "en"


def want_colour(choice: str, out: TextIO) -> bool:
    """ANSI colours: ``always``, ``never``, or ``auto`` (a terminal, and no ``NO_COLOR``)."""
    if choice != "auto":
        return choice == "always"
    isatty = getattr(out, "isatty", None)
    return bool(isatty and isatty()) and not os.environ.get("NO_COLOR")


#: The game classes with a UI of their own (``ui/<game>.py``), filled as each is defined.
_UI_CLASSES: dict[type[Position[Any]], type[GameUI]] = {}


class _GameUIs(Mapping[str, GameUI]):
    """Every game's terminal UI by game name, read from :data:`gamecore.games.GAMES` each time:
    the game's own :class:`GameUI` subclass, or the plain one."""

    def __getitem__(self, name: str) -> GameUI:
        game = GAMES[name]
        return _UI_CLASSES.get(game, GameUI)(game)

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


#: Every game's terminal UI by name (``gamecore play NAME``).
GAME_UIS: Mapping[str, GameUI] = _GameUIs()
