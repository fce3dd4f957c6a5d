"""A trick family's :class:`~baloot_conformance.family.check.table.RingTable` drawn for the
terminal: 2 to 8 seats in a ring round the trick.

The seats go clockwise round a three-by-three grid whose middle cell holds the trick: the
first seat the table lists at the bottom, then on round by the left, the top and the right
(:mod:`~baloot_conformance.report.ring_layout` places them, for the HTML drawing too). Each
seat is labelled with its name and notes (dealer, to play, folded, the tricks it has won), then its
cards a line per suit in the ruleset's order, strongest first (a folded seat holds none); the
middle lists the trick's cards in the order they were played. Marks as in Baloot's diagram
(:mod:`baloot_conformance.report.diagram`): with colour, hearts and diamonds are red, the legal
cards underlined and the card the picture is about in reverse; without colour the legal cards
are written ``<Q>`` and that card ``Q!``; ``ascii`` writes the suits as letters.

This module is imported only when a trick family's table is drawn: a Baloot run never loads it.
"""

from __future__ import annotations

from baloot_conformance.check.table import Picture
from baloot_conformance.family.check.table import RingTable
from baloot_conformance.report.diagram import RED, SYMBOLS, _pad, _visible
from baloot_conformance.report.ring_layout import caption, label, places, rank

_GAP = 4
"""The spaces between two columns of the grid."""


class _Pen:
    """Colour, or plain marks, for any pack's cards (suits beyond S H D C as their letters)."""

    def __init__(self, color: bool, ascii: bool) -> None:
        self.color, self.ascii = color, ascii

    def suit(self, suit: str) -> str:
        text = suit if self.ascii else SYMBOLS.get(suit, suit)
        return f"\x1b[31m{text}\x1b[0m" if self.color and suit in RED else text

    def card(self, code: str, legal: bool = False, played: bool = False, full: bool = False) -> str:
        text = rank(code)
        if full:
            text += code[-1] if self.ascii else SYMBOLS.get(code[-1], code[-1])
        if not self.color:
            return f"<{text}>" if legal else f"{text}!" if played else text
        codes = ["31"] if code[-1] in RED else []
        codes += ["4"] if legal else []
        codes += ["7"] if played else []
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m" if codes else text


def _seat_block(table: RingTable, index: int, pen: _Pen) -> list[str]:
    """A seat's label, then its cards a line per suit (``-`` for a void); a folded seat
    holds none."""
    seat = table.seats[index]
    lines = [label(table, seat)]
    if seat in table.folded:
        return lines
    cards = table.holdings[index]
    legal = set(table.legal) if table.to_play == seat else set()
    for suit in table.suits:
        held = [pen.card(c, legal=c in legal) for c in cards if c[-1] == suit]
        lines.append(f"{pen.suit(suit)} {' '.join(held) or '-'}")
    return lines


def _trick_block(table: RingTable, pen: _Pen) -> list[str]:
    """The trick's cards in the order they were played, the card the picture is about last;
    a layout's rows instead in a layout (Domino)."""
    if table.layout:
        rows = [
            f"{pen.suit(suit)} {' '.join(rank(c) for c in laid) or '·'}"
            for suit, laid in table.layout
        ]
        if table.played is not None and table.to_play is not None:
            rows.append(f"{table.to_play} {pen.card(table.played, played=True, full=True)}")
        return rows
    shown = [f"{seat} {pen.card(card, full=True)}" for seat, card in table.on_table]
    if table.played is not None and table.to_play is not None:
        shown.append(f"{table.to_play} {pen.card(table.played, played=True, full=True)}")
    return shown or ["·"]


def _grid(table: RingTable, pen: _Pen) -> list[list[list[str]]]:
    """The rows of blocks (each a list of lines), the empty rows left out."""
    seats, middle = places(len(table.seats))
    height = max(row for row, _ in (*seats, middle)) + 1
    grid: list[list[list[str]]] = [[[] for _ in range(3)] for _ in range(height)]
    grid[middle[0]][middle[1]] = _trick_block(table, pen)
    for index, (row, column) in enumerate(seats):
        grid[row][column] = _seat_block(table, index, pen)
    return [row for row in grid if any(row)]


def render_ring(picture: Picture, color: bool = False, ascii: bool = False) -> str:
    """The ring diagram as lines of text (no final newline)."""
    assert isinstance(picture, RingTable), picture
    table = picture
    pen = _Pen(color, ascii)
    first, second = caption(table, pen.suit, lambda code: pen.card(code, full=True))
    lines = [first, second, ""]
    rows = _grid(table, pen)
    used = [c for c in range(3) if any(c < len(row) and row[c] for row in rows)]
    rows = [[row[c] if c < len(row) else [] for c in used] for row in rows]  # no empty column
    columns = max(len(row) for row in rows)
    widths = [
        max((max(map(_visible, row[c]), default=0) for row in rows if c < len(row)), default=0)
        for c in range(columns)
    ]
    for number, row in enumerate(rows):
        if number:
            lines.append("")
        for k in range(max(len(block) for block in row)):
            cells = [block[k] if k < len(block) else "" for block in row]
            lines.append("".join(_pad(cell, widths[c] + _GAP) for c, cell in enumerate(cells)))
    if table.to_play is not None:
        legal = " ".join(pen.card(card, full=True) for card in table.legal) or "none"
        if table.played is not None:
            said = pen.card(table.played, played=True, full=True)
            lines += ["", f"{table.to_play} played {said}; legal: {legal}"]
        else:
            lines += ["", f"{table.to_play} to play; legal: {legal}"]
    return "\n".join(line.rstrip() for line in lines)
