"""A :class:`~baloot_conformance.check.table.Table` drawn for the terminal.

N at the top, S at the bottom, W on the left, E on the right (the notation's seats; play
goes N, W, S, E, counter-clockwise), each seat's cards by suit, the trick on the table in
the middle. With colour, hearts and diamonds are red, the cards the ruleset allows are
underlined and the card the picture is about is shown in reverse; without colour the legal
cards are written ``<Q>`` and that card is marked with ``!``. ``ascii`` writes the suits
as letters (S H D C) instead of ``♠ ♥ ♦ ♣``. At table talk the seat that talks is labelled
(``N (to play, claims Sawa)``), a card a foul call names is marked as the card played, and
the verdict goes under the picture with a Sawa's line, its cards written as the picture
writes them, wrapped at the width of a terminal.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable

from baloot_conformance.check.table import Table

SUITS = ("S", "H", "D", "C")
SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED = frozenset({"H", "D"})
RANK_ORDER = "AKQJT987"
_SEAT_INDEX = {"N": 0, "W": 1, "S": 2, "E": 3}
_SIDE = 22
"""The width of the W column and of the table in the middle."""
_WIDTH = 76
"""The width the lines under the picture are wrapped at (the picture is about 64 wide)."""
_CARD_WORD = re.compile(r"\b(?:10|[AKQJT987])[SHDC]\b")
"""A card as words about the table write it (``TH``, or ``10H`` in a list of held cards)."""
_SEAT_CARD = re.compile(r"\b([NWSE]) (?=(?:10|[AKQJT987])[SHDC]\b)")


def _rank(card: str) -> str:
    return "10" if card[0] == "T" else card[0]


def _suit(suit: str, ascii: bool) -> str:
    return suit if ascii else SYMBOLS[suit]


class _Pen:
    """Colour, or plain marks, for the parts of a diagram."""

    def __init__(self, color: bool, ascii: bool) -> None:
        self.color, self.ascii = color, ascii

    def card(self, card: str, legal: bool = False, played: bool = False) -> str:
        text = _rank(card)
        return self._mark(text, card[1], legal, played)

    def full(self, card: str, played: bool = False) -> str:
        text = _rank(card) + _suit(card[1], self.ascii)
        return self._mark(text, card[1], False, played)

    def suit(self, suit: str) -> str:
        text = _suit(suit, self.ascii)
        return f"\x1b[31m{text}\x1b[0m" if self.color and suit in RED else text

    def _mark(self, text: str, suit: str, legal: bool, played: bool) -> str:
        if not self.color:
            return f"<{text}>" if legal else f"{text}!" if played else text
        codes = ["31"] if suit in RED else []
        codes += ["4"] if legal else []
        codes += ["7"] if played else []
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m" if codes else text


def card_words(text: str, write: Callable[[str], str]) -> str:
    """``text`` with each card it names written by ``write``, given the card's code."""
    return _CARD_WORD.sub(lambda word: write(word.group().replace("10", "T", 1)), text)


def _visible(text: str) -> int:
    """The width of ``text`` on a terminal (escape sequences take none)."""
    width, escape = 0, False
    for char in text:
        if char == "\x1b":
            escape = True
        elif escape:
            escape = char != "m"
        else:
            width += 1
    return width


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _visible(text))


def _hand_lines(table: Table, seat: str, pen: _Pen) -> list[str]:
    """A seat's cards, a line per suit, highest first; ``-`` for a void."""
    cards = table.holdings[_SEAT_INDEX[seat]]
    legal = set(table.legal) if table.to_play == seat else set()
    lines = []
    for suit in SUITS:
        held = sorted((c for c in cards if c[1] == suit), key=lambda c: RANK_ORDER.index(c[0]))
        ranks = " ".join(pen.card(c, legal=c in legal) for c in held) or "-"
        lines.append(f"{pen.suit(suit)} {ranks}")
    return lines


def _on_table(table: Table, pen: _Pen) -> dict[str, str]:
    shown = {seat: pen.full(card, played=card == table.called) for seat, card in table.on_table}
    if table.played is not None and table.to_play is not None:
        shown[table.to_play] = pen.full(table.played, played=True)
    return shown


def render(table: Table, color: bool = False, ascii: bool = False) -> str:
    """The diagram as lines of text (no final newline)."""
    pen = _Pen(color, ascii)
    trump = f" {pen.suit(table.trump)}" if table.trump else ""
    head = f"hand {table.hand}"
    if table.trick:
        head += f", trick {table.trick}"
    contract = table.contract
    if table.trump:  # the suit as a symbol, once
        contract = contract.replace(f" {table.trump}", trump, 1)
    lines = [
        f"{head} · {contract} · dealer {table.dealer}",
        f"card points NS {table.points[0]} EW {table.points[1]} · "
        f"game NS {table.totals[0]} EW {table.totals[1]}",
        "",
    ]
    indent = " " * _SIDE
    north, south = _hand_lines(table, "N", pen), _hand_lines(table, "S", pen)
    west, east = _hand_lines(table, "W", pen), _hand_lines(table, "E", pen)

    def label(seat: str) -> str:
        notes = ["to play"] if table.to_play == seat else []
        if table.talk is not None and table.talk[0] == seat:
            notes.append(table.talk[1])
        return seat + (f" ({', '.join(notes)})" if notes else "")

    lines.append(indent + label("N"))
    lines += [indent + line for line in north]
    shown = _on_table(table, pen)
    middle = [
        "",
        f"{'N':>8} {shown.get('N', '·')}",
        f"W {_pad(shown.get('W', '·'), 7)}   E {shown.get('E', '·')}",
        f"{'S':>8} {shown.get('S', '·')}",
    ]
    lines.append(_pad(label("W"), 2 * _SIDE) + label("E"))
    for left, centre, right in zip(west, middle, east, strict=True):
        lines.append(_pad(left, _SIDE) + _pad(centre, _SIDE) + right)
    lines.append(indent + label("S"))
    lines += [indent + line for line in south]
    if table.played is not None and table.to_play is not None:
        legal = " ".join(pen.full(card) for card in table.legal) or "none"
        lines += [
            "",
            f"{table.to_play} played {pen.full(table.played, played=True)}; legal: {legal}",
        ]
    if table.claim:
        lines.append("")
    for said in table.claim:  # a seat and its card kept on one line
        said = _SEAT_CARD.sub("\\1\xa0", said)
        for line in textwrap.wrap(said, _WIDTH, subsequent_indent="  ", break_on_hyphens=False):
            line = line.replace("\xa0", " ")
            lines.append(card_words(line, pen.full))
    return "\n".join(line.rstrip() for line in lines)
