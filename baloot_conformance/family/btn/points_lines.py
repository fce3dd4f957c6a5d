"""Reading BTN 2, the statements of a points game (Barbu, Hearts) to their items.

The game form of ``start`` (``start hand 9, score N -30 E 12 S 0 W 18, doubled N 1 S 2 W 0,
chosen no_hearts trumps``), the doubling (``raise S double E W``, ``raise W double N,
redouble S``, ``raise N pass``: one line per seat), a layout's moves (``play W 7H``, ``knock
S``; positions ``h14.m1`` ...) and the finishing order (``= order W E N S``). The structural
checks are :class:`~.builder.HandBuilder`'s, as for every statement: seats of the table,
cards of the pack, each statement in its stage of the hand.
"""

from __future__ import annotations

from typing import Protocol

from baloot_conformance.errors import Location, TranscriptSyntaxError
from baloot_conformance.family.btn.grammar import Stmt
from baloot_conformance.family.btn.items import (
    HandItem,
    Knock,
    LayoutPlay,
    OrderClaim,
    Start,
    Wager,
)


class HandBuilder(Protocol):
    """What these statements need of :class:`~.builder.HandBuilder` (which registers them)."""

    prefix: str
    items: list[HandItem]
    seat_rank: dict[str, int]
    stage_line: dict[int, tuple[int, str]]
    played: dict[str, int]
    trick: int
    moves: int

    def fail(
        self, message: str, stmt: Stmt, hint: str | None = None, token: str | None = None
    ) -> TranscriptSyntaxError: ...

    def at(self, stmt: Stmt, column: int | None = None) -> Location: ...

    def once(self, position: str, what: str, stmt: Stmt) -> None: ...

    def seat(self, seat: str, stmt: Stmt, locate: bool = True) -> str: ...

    def card(self, card: str, stmt: Stmt) -> str: ...

    def sides(
        self, pairs: tuple[tuple[str, int], ...], stmt: Stmt
    ) -> tuple[tuple[str, int], ...]: ...

    def enter(self, stage: int, stmt: Stmt, what: str) -> None: ...


#: The words of a ``raise`` line.
WAGER_WORDS = ("double", "redouble", "pass")


def game_start(builder: HandBuilder, stmt: Stmt, position: str) -> Start:
    """The item of a ``start`` line's game form."""
    _, _, hand, scores, doubled, chosen = stmt[1]
    if hand is None:
        raise builder.fail(
            "a points game's 'start' names the hand's number first: 'start hand 9, ...'",
            stmt,
        )
    if hand < 1:
        raise builder.fail("the hands of a game are numbered from 1: 'start hand 1'", stmt)
    return Start(
        position=position,
        comment=stmt[4],
        location=builder.at(stmt),
        hand=hand,
        scores=builder.sides(scores or (), stmt),
        doubled=builder.sides(doubled or (), stmt),
        chosen=None if chosen is None else tuple(chosen),
    )


def wager(builder: HandBuilder, stmt: Stmt) -> None:
    """``raise SEAT double ..., redouble ...`` or ``raise SEAT pass``."""
    builder.enter(2, stmt, "a 'raise' line")
    seat, parts = stmt[1]
    builder.seat(seat, stmt)
    position = f"{builder.prefix}.raise.{seat}"
    builder.once(position, f"'raise {seat}' line", stmt)
    doubles: list[str] = []
    redoubles: list[str] = []
    words = [word for word, _ in parts]
    for word, targets in parts:
        if word not in WAGER_WORDS:
            raise builder.fail(
                f"'{word}' in a 'raise' line: the words are double, redouble and pass",
                stmt,
                token=word,
            )
        if word == "pass":
            if targets or len(parts) > 1:
                raise builder.fail("'pass' stands alone: 'raise SEAT pass'", stmt, token=word)
            continue
        if not targets:
            raise builder.fail(f"'{word}' names the seats it doubles", stmt, token=word)
        if words.count(word) > 1:
            raise builder.fail(f"'{word}' twice on one line", stmt, token=word)
        for target in targets:
            builder.seat(target, stmt)
            if target == seat:
                raise builder.fail(f"{seat} cannot double itself", stmt, token=target)
            if target in doubles or target in redoubles:
                raise builder.fail(f"{target} is listed twice on this line", stmt, token=target)
            (doubles if word == "double" else redoubles).append(target)
    order = builder.seat_rank.__getitem__
    builder.items.append(
        Wager(
            position=position,
            comment=stmt[4],
            location=builder.at(stmt),
            seat=seat,
            doubles=tuple(sorted(doubles, key=order)),
            redoubles=tuple(sorted(redoubles, key=order)),
        )
    )


def layout_move(builder: HandBuilder, stmt: Stmt) -> None:
    """``play SEAT CARD`` or ``knock SEAT``: the next move of a layout."""
    builder.enter(4, stmt, "a layout move")
    if builder.trick:
        raise builder.fail(
            f"a layout move in a hand played as tricks (trick 1 is on line "
            f"{builder.stage_line.get(4, (stmt[2], ''))[0]})",
            stmt,
            hint="a hand is played as tricks or as a layout (Domino), not both",
        )
    builder.moves += 1
    position = f"{builder.prefix}.m{builder.moves}"
    seat = builder.seat(stmt[1][0], stmt)
    if stmt[0] == "knock":
        item: LayoutPlay | Knock = Knock(
            position=position,
            comment=stmt[4],
            location=builder.at(stmt),
            seat=seat,
            move=builder.moves,
        )
    else:
        card = builder.card(stmt[1][1], stmt)
        if card in builder.played:
            raise builder.fail(
                f"{card} is already in the layout (move {builder.played[card]})", stmt
            )
        builder.played[card] = builder.moves
        item = LayoutPlay(
            position=position,
            comment=stmt[4],
            location=builder.at(stmt),
            seat=seat,
            card=card,
            move=builder.moves,
        )
    builder.items.append(item)


def order_claim(builder: HandBuilder, stmt: Stmt) -> None:
    """``= order SEAT ...``: a layout's finishing order."""
    builder.enter(5, stmt, "a claim")
    position = f"{builder.prefix}.order"
    builder.once(position, "'= order' claim", stmt)
    seats = stmt[1][0]
    seen: set[str] = set()
    for seat in seats:
        builder.seat(seat, stmt)
        if seat in seen:
            raise builder.fail(f"{seat} is listed twice on this line", stmt, token=seat)
        seen.add(seat)
    builder.items.append(
        OrderClaim(
            position=position, comment=stmt[4], location=builder.at(stmt), seats=tuple(seats)
        )
    )
