"""Tetralath at the terminal (``gamecore play tetralath``, short form ``gamecore tetralath``).

The hexagon is drawn with its coordinates, in two colours when the terminal has them; the
last move is put in parentheses (and blinks in reverse video with colours), so it shows
without colour. Every line exists in English (default) and Portuguese (``--lang pt``:
``B`` brancas, ``P`` pretas on the board, and the commands ``ajuda``, ``desfazer``,
``sair``, ``trocar``).

>>> import io
>>> from gamecore.cli import main
>>> out = io.StringIO()
>>> main(["tetralath", "--white", "engine", "--black", "engine", "--depth", "1", "--ansi", "never"], out=out)
0
>>> "Game over" in out.getvalue()
True
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from .._cli_types import DeprecatedAlias
from ..games.base import Color, Position
from ..games.tetralath import ROW_LENGTHS, ROWS, SYMBOLS, Tetralath, render_board
from .play import GameUI, want_colour

__all__ = ["TetralathUI", "MESSAGES", "DEFAULT_TIME"]

#: What ``--ansi`` takes.
ANSI_CHOICES = ("auto", "always", "never")

#: Seconds the computer may think per move unless told otherwise.
DEFAULT_TIME = 5.0

#: The game's own lines, per language (the loop's are in ``gamecore.ui.play.MESSAGES``).
MESSAGES = {
    "en": {
        "title": "Tetralath: four in a row wins, three in a row (without four) loses.",
        "white": "white",
        "black": "black",
        "swap_on": "The swap rule is on: as black's first move,\ntype 'swap' to take over white's stone.",
        "bad_cell": "'{text}' is not a cell: type a row letter a-i and a number, e.g. e5.",
        "off_board": "'{text}' is off the board: row {row} has cells 1 to {count}.",
        "occupied": "{cell} is already taken: choose an empty cell.",
        "no_swap": "Swapping is not allowed now.",
        "who_first": "Who moves first, you or the computer? (you/computer, Enter: you) ",
        "who_first_again": "Please answer 'you' or 'computer'.",
    },
    "pt": {
        "title": "Tetralath: quatro em linha vence, três em linha (sem quatro) perde.",
        "white": "brancas",
        "black": "pretas",
        "swap_on": "A regra de troca está ativa: na primeira jogada das pretas,\ndigite 'trocar' para tomar a pedra das brancas.",
        "bad_cell": "'{text}' não é uma casa: digite a letra da linha, de a a i, e um número, ex.: e5.",
        "off_board": "'{text}' está fora do tabuleiro: a linha {row} tem as casas 1 a {count}.",
        "occupied": "A casa {cell} já está ocupada: escolha uma casa vazia.",
        "no_swap": "A troca não é permitida agora.",
        "who_first": "Quem começa, você ou o computador? (você/computador, Enter: você) ",
        "who_first_again": "Responda 'você' ou 'computador'.",
    },
}


#: The answers to "who moves first?" in either language.
_ANSWERS = {
    "you": ("you", "y", "me", "human", "h", "você", "voce", "v", "eu", "humano"),
    "computer": ("computer", "c", "engine", "computador", "pc"),
}

#: The help of Tetralath's own options in Portuguese (``gamecore tetralath --lang pt --help``).
OPTION_HELP = {
    "pt": {
        "summary": "Tetralath (as regras do Yavalath em 61 casas): quatro em linha vence, três perde",
        "computer_first": "humano contra o computador: o computador fica com as brancas e começa (troca --white "
        "e --black; padrão: perguntado num terminal, senão o humano começa)",
        "human_first": "humano contra o computador: o humano começa, sem perguntar",
        "swap": "permite a regra de troca (padrão: não)",
        "lang": "idioma: en (inglês, padrão) ou pt (português)",
        "ansi": "cores ANSI: auto (padrão: quando a saída é um terminal), always ou never",
    }
}


class TetralathUI(GameUI):
    game = Tetralath
    summary = "Tetralath (Yavalath's rules on 61 cells): four in a row wins, three loses"
    default_players = {"white": "human", "black": "engine"}
    quick_players = {"white": "random", "black": "engine:depth=2"}
    default_time = DEFAULT_TIME
    # A 64 MB table: Tetralath is a placement game, full of transpositions, and the larger
    # table is what lets the first move finish depth 8 within 5 s.
    tt_mb = 64
    show_scores = False
    proven_margin = False  # a proven margin counts empty cells: say "a forced win"

    languages = tuple(MESSAGES)

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--computer-first",
            action="store_const",
            const=True,
            default=None,
            help="human against the engine: the engine takes white and moves first (swaps --white and --black; "
            "default: asked at a terminal, else the human)",
        )
        parser.add_argument(
            "--human-first",
            dest="computer_first",
            action="store_const",
            const=False,
            help="human against the engine: the human moves first, without asking",
        )
        # --first is a colour in every other command (Rolit's --first B): here it was who moves first.
        parser.add_argument(
            "--first",
            dest="computer_first",
            action=DeprecatedAlias,
            new="--computer-first",
            choices=("human", "computer"),
            convert=lambda who: who == "computer",
        )
        parser.add_argument("--swap", action="store_true", help="allow the swap rule (default off)")
        parser.add_argument(
            "--lang", choices=tuple(MESSAGES), default="en", help="language: en (English, default) or pt (Portuguese)"
        )
        parser.add_argument(
            "--ansi",
            choices=ANSI_CHOICES,
            default="auto",
            help="ANSI colours: auto (default: when the output is a terminal), always or never",
        )
        # --colours says which colours play (Rolit); ANSI output was --color before.
        for old in ("--color", "--colour"):
            parser.add_argument(old, dest="ansi", action=DeprecatedAlias, new="--ansi", choices=ANSI_CHOICES)

    def option_help(self, lang: str) -> dict[str, str]:
        return OPTION_HELP.get(lang, {})

    def ask_settings(self, args: argparse.Namespace, read: Callable[[str], str], lang: str) -> None:
        """Who moves first, when a person plays the engine and no option said (the course asks
        to let the player choose): a blank answer is the person."""
        if args.computer_first is not None or args.white != "human" or args.black == "human":
            return
        m = MESSAGES[lang]
        prompt = m["who_first"]
        while True:
            try:
                answer = read(prompt).strip().lower()
            except EOFError:
                return  # no answer: the default, the person first
            if answer in _ANSWERS["computer"]:
                args.computer_first = True
                return
            if not answer or answer in _ANSWERS["you"]:
                args.computer_first = False
                return
            prompt = m["who_first_again"] + "\n" + m["who_first"]

    def position(self, args: argparse.Namespace) -> Position[Any]:
        if args.computer_first and args.white == "human":
            args.white, args.black = args.black, "human"
        return Tetralath(swap=args.swap, backend=args.backend)

    def title(self, position: Position[Any], args: argparse.Namespace) -> str:
        title = MESSAGES[args.lang]["title"]
        if getattr(position, "swap_rule", False):
            title += "\n" + MESSAGES[args.lang]["swap_on"]
        return title

    def colour_name(self, colour: Color, lang: str) -> str:
        return MESSAGES[lang][colour.name.lower()]

    def draw(self, position: Position[Any], args: argparse.Namespace, last_move: Any = None) -> str:
        assert isinstance(position, Tetralath)
        if last_move is None:
            last_move = position.peek()
        mark = -1 if last_move is None or last_move.is_swap else last_move.index
        colour = want_colour(args.ansi, args.out)
        return render_board(position.cells(), position.turn, mark=mark, colour=colour, symbols=SYMBOLS[args.lang])

    def explain(self, position: Position[Any], text: str, error: Exception | None, lang: str) -> str | None:
        m = MESSAGES[lang]
        compact = text.replace(" ", "").lower()
        if compact in ("swap", "troca", "trocar"):
            return m["no_swap"]
        if error is None:
            return m["occupied"].format(cell=position.parse_move(text))
        if len(compact) >= 2 and compact[0] in ROWS and compact[1:].isdigit():
            row = ROWS.index(compact[0])
            return m["off_board"].format(text=text, row=compact[0], count=ROW_LENGTHS[row])
        return m["bad_cell"].format(text=text)
