"""``gamecore tetralath``: play Tetralath in a terminal, in English or Portuguese.

Human against computer (either one first), human against human, or computer against
computer. The board is drawn as a hexagon with its coordinates, in two colours when the
terminal has them; the computer's last move blinks in reverse video and is also put in
parentheses, so that it shows without colour. Every line exists in English (default)
and Portuguese (``--lang pt``). A bad entry gets a clear message and a new prompt.

Commands at the prompt: a cell (``e5``), ``undo``, ``help``, ``quit`` (Portuguese:
``desfazer``, ``ajuda``, ``sair``), and ``swap`` (``trocar``) when the swap rule is on.

>>> import io
>>> out = io.StringIO()
>>> main(["--white", "computer", "--black", "computer", "--depth", "1", "--color", "never"],
...      stdin=io.StringIO(""), stdout=out)
0
>>> "Game over" in out.getvalue()
True
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from ..errors import GamecoreError, InvalidMoveError, InvalidSquareError
from ..games.base import Termination
from ..games.tetralath import ROW_LENGTHS, ROWS, SWAP, Tetralath, TetralathMove, render_board

__all__ = ["main", "MESSAGES", "DEFAULT_TIME"]

#: Seconds the computer may think per move unless told otherwise.
DEFAULT_TIME = 5.0
MAX_TIME = 600.0

#: Every line the game prints, per language.
MESSAGES = {
    "en": {
        "prog_help": "Play Tetralath (Yavalath without the swap rule) in the terminal.",
        "lang_help": "language of the game: en (English, default) or pt (Portuguese)",
        "white_help": "who plays white, who moves first: human or computer (default human)",
        "black_help": "who plays black: human or computer (default computer)",
        "first_help": "human against computer: who moves first, human or computer (sets --white and --black)",
        "depth_help": "the computer's deepest search (default: as deep as the time allows)",
        "time_help": "the computer's time per move in seconds (default 5)",
        "swap_help": "allow the swap rule: black's first move may take over white's stone",
        "color_help": "colours: auto (default: when the output is a terminal), always or never",
        "backend_help": "cython or python (default: the fastest available)",
        "title": "Tetralath: four in a row wins, three in a row (without four) loses.",
        "players": "White (W): {white}. Black (B): {black}. The computer thinks up to {time} s a move{depth}.",
        "depth_note": ", at most {depth} plies deep",
        "human": "human",
        "computer": "computer",
        "you": "you",
        "swap_on": "The swap rule is on: as black's first move, type 'swap' to take over white's stone.",
        "legend": "(x) marks the computer's last move.",
        "name_white": "White",
        "name_black": "Black",
        "status": "Move {number}: {side} ({who}) to play. Stones: W {white}, B {black}.{score}",
        "score": " Computer's last score: {score:+d} (depth {depth}).",
        "prompt": "{side}, your move (e.g. e5; 'help' for commands): ",
        "help": "Type a cell: a row letter a-i and a number, e.g. e5 (rows a and i have 5 cells, row e has 9). "
        "Commands: undo (take back your last move), quit (leave the game){swap}.",
        "help_swap": ", swap (take over white's first stone)",
        "thinking": "{side} (computer) is thinking...",
        "computer_move": "{side} (computer) plays {move}: depth {depth}, score {score:+d}, {seconds:.1f} s.",
        "forced_win": "The computer has found a forced win.",
        "forced_loss": "The computer sees a forced loss.",
        "human_move": "{side} plays {move}.",
        "swapped": "Black takes over white's stone: it is black now, and white moves again.",
        "bad_cell": "'{text}' is not a cell: type a row letter a-i and a number, e.g. e5.",
        "off_board": "'{text}' is off the board: row {row} has cells 1 to {count}.",
        "occupied": "{cell} is already taken: choose an empty cell.",
        "no_swap": "Swapping is not allowed now.",
        "empty": "Please type a move (e.g. e5), or 'help'.",
        "nothing_to_undo": "There is no move of yours to take back.",
        "undone": "Taken back: {moves}.",
        "game_over": "Game over: {result}",
        "win": "{winner} wins, {reason}.",
        "win_three": "{winner} wins: {loser} made three in a row.",
        "draw": "a draw, the board is full.",
        "reason_four": "four in a row",
        "reason_three": "three in a row",
        "reason_full": "full board",
        "you_won": "Well played, you won!",
        "you_lost": "The computer won this time.",
        "quit": "Game abandoned. Goodbye!",
        "eof": "The input ended: game abandoned.",
        "bad_option": "gamecore tetralath: {error}",
    },
    "pt": {
        "prog_help": "Jogue Tetralath (Yavalath sem a regra de troca) no terminal.",
        "lang_help": "idioma do jogo: en (inglês, padrão) ou pt (português)",
        "white_help": "quem joga com as brancas e começa: human (humano) ou computer (computador); padrão human",
        "black_help": "quem joga com as pretas: human (humano) ou computer (computador); padrão computer",
        "first_help": "humano contra computador: quem começa, human (humano) ou computer (computador) (define --white e --black)",
        "depth_help": "profundidade máxima da busca do computador (padrão: a que o tempo permitir)",
        "time_help": "tempo do computador por jogada, em segundos (padrão 5)",
        "swap_help": "ativa a regra de troca: a primeira jogada das pretas pode tomar a pedra das brancas",
        "color_help": "cores: auto (padrão: quando a saída é um terminal), always (sempre) ou never (nunca)",
        "backend_help": "cython ou python (padrão: o mais rápido disponível)",
        "title": "Tetralath: quatro em linha vence, três em linha (sem quatro) perde.",
        "players": "Brancas (B): {white}. Pretas (P): {black}. O computador pensa até {time} s por jogada{depth}.",
        "depth_note": ", com profundidade máxima {depth}",
        "human": "humano",
        "computer": "computador",
        "you": "você",
        "swap_on": "A regra de troca está ativa: na primeira jogada das pretas, digite 'trocar' para tomar a pedra das brancas.",
        "legend": "(x) marca a última jogada do computador.",
        "name_white": "Brancas",
        "name_black": "Pretas",
        "status": "Jogada {number}: vez das {side} ({who}). Pedras: B {white}, P {black}.{score}",
        "score": " Última avaliação do computador: {score:+d} (profundidade {depth}).",
        "prompt": "{side}, sua jogada (ex.: e5; 'ajuda' mostra os comandos): ",
        "help": "Digite uma casa: a letra da linha, de a a i, e um número, ex.: e5 (as linhas a e i têm 5 casas, a linha e tem 9). "
        "Comandos: desfazer (volta a sua última jogada), sair (abandona o jogo){swap}.",
        "help_swap": ", trocar (toma a primeira pedra das brancas)",
        "thinking": "{side} (computador) pensando...",
        "computer_move": "{side} (computador) jogam {move}: profundidade {depth}, avaliação {score:+d}, {seconds:.1f} s.",
        "forced_win": "O computador encontrou uma vitória forçada.",
        "forced_loss": "O computador prevê uma derrota forçada.",
        "human_move": "{side} jogam {move}.",
        "swapped": "As pretas tomam a pedra das brancas: ela agora é preta, e as brancas jogam de novo.",
        "bad_cell": "'{text}' não é uma casa: digite a letra da linha, de a a i, e um número, ex.: e5.",
        "off_board": "'{text}' está fora do tabuleiro: a linha {row} tem as casas 1 a {count}.",
        "occupied": "A casa {cell} já está ocupada: escolha uma casa vazia.",
        "no_swap": "A troca não é permitida agora.",
        "empty": "Digite uma jogada (ex.: e5) ou 'ajuda'.",
        "nothing_to_undo": "Não há jogada sua para desfazer.",
        "undone": "Desfeito: {moves}.",
        "game_over": "Fim de jogo: {result}",
        "win": "vitória das {winner}, {reason}.",
        "win_three": "vitória das {winner}: as {loser} fizeram três em linha.",
        "draw": "empate, o tabuleiro está cheio.",
        "reason_four": "quatro em linha",
        "reason_three": "três em linha",
        "reason_full": "tabuleiro cheio",
        "you_won": "Parabéns, você venceu!",
        "you_lost": "Desta vez o computador venceu.",
        "quit": "Jogo abandonado. Até logo!",
        "eof": "A entrada terminou: jogo abandonado.",
        "bad_option": "gamecore tetralath: {error}",
    },
}

_COMMANDS = {
    "quit": ("quit", "exit", "q", "sair", "s"),
    "undo": ("undo", "u", "desfazer", "voltar"),
    "help": ("help", "h", "?", "ajuda", "a"),
    "swap": ("swap", "troca", "trocar"),
}
_REASON_KEYS = {
    Termination.FOUR_IN_A_ROW: "reason_four",
    Termination.THREE_IN_A_ROW: "reason_three",
    Termination.FULL_BOARD: "reason_full",
}
_SYMBOLS = {"en": ("W", "B", "."), "pt": ("B", "P", ".")}


def _lang_of(argv: Sequence[str]) -> str:
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1] if argv[i + 1] in MESSAGES else "en"
        if arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
            return value if value in MESSAGES else "en"
    return "en"


def _time(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= MAX_TIME:
        raise argparse.ArgumentTypeError(f"the time per move must be above 0 and at most {MAX_TIME:g} s, got {text}")
    return value


def _depth(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a depth: {text!r}") from None
    if not 1 <= value <= 60:
        raise argparse.ArgumentTypeError(f"the depth must be from 1 to 60, got {text}")
    return value


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The options of ``gamecore tetralath`` (help texts in ``lang``)."""
    m = MESSAGES[lang]
    p = argparse.ArgumentParser(prog="gamecore tetralath", description=m["prog_help"])
    p.add_argument("--lang", choices=tuple(MESSAGES), default="en", help=m["lang_help"])
    p.add_argument("--white", choices=("human", "computer"), default=None, help=m["white_help"])
    p.add_argument("--black", choices=("human", "computer"), default=None, help=m["black_help"])
    p.add_argument("--first", choices=("human", "computer"), default=None, help=m["first_help"])
    p.add_argument("--depth", type=_depth, default=None, help=m["depth_help"])
    p.add_argument("--time", type=_time, default=DEFAULT_TIME, help=m["time_help"])
    p.add_argument("--swap", action="store_true", help=m["swap_help"])
    p.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto", help=m["color_help"])
    p.add_argument("--backend", choices=("cython", "python"), default=None, help=m["backend_help"])
    return p


class _Game:
    """One game in the terminal: the position, who plays each side, and the output."""

    def __init__(self, args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> None:
        self.m = MESSAGES[args.lang]
        self.lang = args.lang
        self.stdin = stdin
        self.stdout = stdout
        self.players = self._players(args)
        self.depth = args.depth
        self.time = args.time
        if args.color == "auto":
            isatty = getattr(stdout, "isatty", None)
            self.colour = bool(isatty and isatty()) and not os.environ.get("NO_COLOR")
        else:
            self.colour = args.color == "always"
        self.game = Tetralath(swap=args.swap, backend=args.backend)
        self.engine = None
        self.engine_last: TetralathMove | None = None
        self.last_score: tuple[int, int] | None = None

    @staticmethod
    def _players(args: argparse.Namespace) -> list[str]:
        white, black = "human", "computer"
        if args.first == "computer":
            white, black = "computer", "human"
        if args.white:
            white = args.white
        if args.black:
            black = args.black
        return [white, black]

    # -- output ----------------------------------------------------------------

    def say(self, key: str, **params: object) -> None:
        self.write(self.m[key].format(**params))

    def write(self, text: str) -> None:
        try:
            self.stdout.write(text + "\n")
        except UnicodeEncodeError:
            encoding = getattr(self.stdout, "encoding", None) or "ascii"
            self.stdout.write(text.encode(encoding, "replace").decode(encoding) + "\n")
        self.stdout.flush()

    def side(self, player: int) -> str:
        return self.m["name_white" if player == 0 else "name_black"]

    def who(self, player: int) -> str:
        kind = self.players[player]
        if kind == "human" and self.players[1 - player] == "computer":
            return self.m["you"]
        return self.m[kind]

    def show(self) -> None:
        mark = self.engine_last.index if self.engine_last is not None and not self.engine_last.is_swap else -1
        if "computer" not in self.players:
            last = self.game.peek()
            mark = last.index if last is not None and not last.is_swap else -1
        self.write("")
        self.write(
            render_board(self.game.cells(), self.game.turn, mark=mark, colour=self.colour, symbols=_SYMBOLS[self.lang])
        )
        if self.game.is_game_over():
            return
        white, black = self.game.counts()
        score = ""
        if self.last_score is not None:
            score = self.m["score"].format(score=self.last_score[0], depth=self.last_score[1])
        turn = self.game.turn
        self.say(
            "status",
            number=len(self.game.move_stack) + 1,
            side=self.side(turn),
            who=self.who(turn),
            white=white,
            black=black,
            score=score,
        )

    def result_line(self) -> str:
        outcome = self.game.outcome()
        assert outcome is not None
        if outcome.winner is None:
            return self.m["draw"]
        if outcome.termination is Termination.THREE_IN_A_ROW:
            return self.m["win_three"].format(winner=self.side(outcome.winner), loser=self.side(1 - outcome.winner))
        return self.m["win"].format(winner=self.side(outcome.winner), reason=self.m[_REASON_KEYS[outcome.termination]])

    # -- the game ----------------------------------------------------------------

    def run(self) -> int:
        self.say("title")
        depth_note = self.m["depth_note"].format(depth=self.depth) if self.depth else ""
        self.say(
            "players",
            white=self.m[self.players[0]],
            black=self.m[self.players[1]],
            time=f"{self.time:g}",
            depth=depth_note,
        )
        if self.game.swap_rule:
            self.say("swap_on")
        if "computer" in self.players:
            self.say("legend")
        while not self.game.is_game_over():
            self.show()
            if self.players[self.game.turn] == "computer":
                self.computer_move()
                continue
            status = self.human_move()
            if status is not None:
                return status
        self.show()
        self.say("game_over", result=self.result_line())
        outcome = self.game.outcome()
        if outcome is not None and outcome.winner is not None and self.players.count("human") == 1:
            human = self.players.index("human")
            self.say("you_won" if outcome.winner == human else "you_lost")
        return 0

    def computer_move(self) -> None:
        from ..search.engine import Engine

        if self.engine is None:
            # A 64 MB table: Tetralath is a placement game, full of transpositions, and the
            # larger table is what lets the first move finish depth 8 within 5 s.
            self.engine = Engine("standard", tt_mb=64)
        turn = self.game.turn
        self.say("thinking", side=self.side(turn))
        result = self.engine.search(self.game, depth=self.depth, time_limit=self.time)
        move = result.move
        self.game.push(move)
        self.engine_last = move
        self.last_score = (result.score, result.depth)
        name = self._move_name(move)
        self.say(
            "computer_move",
            side=self.side(turn),
            move=name,
            depth=result.depth,
            score=result.score,
            seconds=result.elapsed,
        )
        if result.proven == "win":
            self.say("forced_win")
        elif result.proven == "loss":
            self.say("forced_loss")

    def _move_name(self, move: TetralathMove) -> str:
        if move.is_swap:
            return "trocar" if self.lang == "pt" else "swap"
        return move.name

    def human_move(self) -> int | None:
        """Read commands until a move is played (None), or the game is left (exit status)."""
        turn = self.game.turn
        while True:
            self.stdout.write(self.m["prompt"].format(side=self.side(turn)))
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.write("")
                self.say("eof")
                return 1
            text = line.strip()
            word = text.lower()
            if not text:
                self.say("empty")
                continue
            if word in _COMMANDS["quit"]:
                self.say("quit")
                return 0
            if word in _COMMANDS["help"]:
                swap = self.m["help_swap"] if self.game.swap_rule else ""
                self.say("help", swap=swap)
                continue
            if word in _COMMANDS["undo"]:
                if self.undo():
                    self.show()
                continue
            move = self.parse(text, word)
            if move is None:
                continue
            self.game.push(move)
            if move.is_swap:
                self.say("swapped")
            else:
                self.say("human_move", side=self.side(turn), move=move.name)
            return None

    def parse(self, text: str, word: str) -> TetralathMove | None:
        """The move typed, or None after saying what is wrong with it."""
        if word in _COMMANDS["swap"]:
            move = SWAP
            if not self.game.is_legal(move):
                self.say("no_swap")
                return None
            return move
        try:
            move = self.game.parse_move(text)
        except (InvalidSquareError, InvalidMoveError):
            self._explain_bad_cell(text)
            return None
        if move.is_swap:  # "61" typed as an index
            self.say("bad_cell", text=text)
            return None
        if not self.game.is_legal(move):
            self.say("occupied", cell=move.name)
            return None
        return move

    def _explain_bad_cell(self, text: str) -> None:
        compact = text.replace(" ", "").lower()
        if len(compact) >= 2 and compact[0] in ROWS and compact[1:].isdigit():
            row = ROWS.index(compact[0])
            self.say("off_board", text=text, row=compact[0], count=ROW_LENGTHS[row])
        else:
            self.say("bad_cell", text=text)

    def undo(self) -> bool:
        """Take back the last human move (and the computer's replies after it)."""
        history = self.game.move_stack
        humans = [i for i in range(len(history)) if self.players[i % 2] == "human"]
        if not humans:
            self.say("nothing_to_undo")
            return False
        taken = []
        while len(self.game.move_stack) > humans[-1]:
            taken.append(self._move_name(self.game.pop()))
        history = self.game.move_stack
        computer = [i for i in range(len(history)) if self.players[i % 2] == "computer"]
        self.engine_last = history[computer[-1]] if computer else None
        self.say("undone", moves=", ".join(reversed(taken)))
        return True


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the terminal game; returns the exit status (0 the game ended or was left, 1 the
    input ended mid-game, 2 bad options)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    lang = _lang_of(argv)
    parser = build_parser(lang)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    try:
        game = _Game(args, stdin, stdout)
        return game.run()
    except KeyboardInterrupt:
        stdout.write("\n" + MESSAGES[lang]["quit"] + "\n")
        return 130
    except (GamecoreError, ValueError) as exc:  # e.g. an unavailable backend
        sys.stderr.write(MESSAGES[lang]["bad_option"].format(error=exc) + "\n")
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
