"""Where the seats of a ring table go, for the terminal and the HTML drawings alike.

The seats go clockwise round a three-by-three grid whose middle cell holds the trick: the
first seat the table lists at the bottom, then on round by the left, the top and the right.
:data:`LAYOUTS` gives, for each number of seats, the cells they take, so that the ring stays
balanced (two face each other; five sit bottom, left, top left, top right, right; eight take
every cell). A table with more seats than it knows is drawn three seats to a row, the trick
under them. The labels' notes (dealer, to play, folded, tricks won) are worded here once.

This module knows the table's fields only by name: it imports nothing of the trick family, so
that Baloot's HTML report may load it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The grid's cells round the trick, clockwise from the bottom: (row, column), from 0.
CELLS = ((2, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2), (1, 2), (2, 2))

#: The trick's cell, in the middle of the ring.
MIDDLE = (1, 1)

#: For each number of seats, the cells (indices of :data:`CELLS`) the seats take, in order.
LAYOUTS: dict[int, tuple[int, ...]] = {
    2: (0, 4),
    3: (0, 3, 5),
    4: (0, 2, 4, 6),
    5: (0, 2, 3, 5, 6),
    6: (0, 1, 3, 4, 5, 7),
    7: (0, 1, 2, 3, 5, 6, 7),
    8: (0, 1, 2, 3, 4, 5, 6, 7),
}


def rank(code: str) -> str:
    """A card's rank as a player writes it (``10`` for the code's ``T``)."""
    text = code[:-1]
    return "10" if text == "T" else text


def places(count: int) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """The (row, column) of each of ``count`` seats in the order the table lists them, and
    the trick's."""
    layout = LAYOUTS.get(count)
    if layout is None:
        return [(k // 3, k % 3) for k in range(count)], ((count + 2) // 3, 0)
    return [CELLS[cell] for cell in layout], MIDDLE


def seat_notes(table: Any, seat: str) -> list[str]:
    """What a seat's label says of it besides its name: ``dealer``, ``to play``, ``folded``,
    ``2 tricks`` (the tricks it has won, once the play has begun)."""
    notes = ["dealer"] if table.dealer == seat else []
    if table.to_play == seat:
        notes.append("to play")
    if seat in table.folded:
        notes.append("folded")
    won = dict(table.tricks).get(seat)
    if won is not None:
        notes.append(f"{won} trick{'s' if won != 1 else ''}")
    return notes


def label(table: Any, seat: str) -> str:
    """A seat's label: ``P5 (dealer, to play, 0 tricks)``."""
    notes = seat_notes(table, seat)
    return seat + (f" ({', '.join(notes)})" if notes else "")


def caption(table: Any, suit: Any, card: Any) -> tuple[str, str]:
    """The two head lines of a ring table: the hand, its trick, trump and dealer; the pot and
    the way play goes. ``suit`` and ``card`` write a suit letter and a card code."""
    head = f"hand {table.hand}"
    if table.trick:
        head += f", trick {table.trick}"
    if table.trump is not None:
        head += f" · trump {suit(table.trump)}"
        if table.faceup is not None:
            head += f" (face-up {card(table.faceup)})"
    way = str(table.direction).replace("_", "-")
    seats: Sequence[str] = table.seats
    what = f"pot {table.pot}" if getattr(table, "contract", None) is None else table.contract
    return (
        f"{head} · dealer {table.dealer}",
        f"{what} · {len(seats)} seats, play goes {way}",
    )
