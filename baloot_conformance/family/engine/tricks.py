"""Trick resolution over any pack: strengths per contract, the trick winner, card points.

:class:`TrickTable` is built once per pack and trump suit (or none): each card's strength
(a trump above every plain card), the same-suit cards that beat it, and the cards that would
take a trick from it. :meth:`TrickTable.winner` is rule ``play.trick_winner``: the highest trump
if any was played, else the highest card of the suit led; a card of another plain suit never
wins. Card points (``scoring.points.plain`` / ``points.trump``) are a table by card,
:func:`card_points`, and a trick's points their sum.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, TypeVar

from baloot_conformance.family.engine.deck import Pack

_T = TypeVar("_T")
_MEMO: dict[tuple[Hashable, ...], tuple[tuple[object, ...], Any]] = {}


def memo(owners: tuple[object, ...], key: Hashable, build: Callable[[], _T]) -> _T:
    """``build()`` once per set of owner objects (by identity) and ``key``: tables derived
    from immutable rulesets and packs. Each entry keeps its owners alive, so their ids are never
    reused while it exists."""
    full = (*(id(o) for o in owners), key)
    entry = _MEMO.get(full)
    if entry is None:
        entry = _MEMO[full] = (owners, build())
    return entry[1]


class TrickTable:
    """Strengths and trick winners for one pack and one trump suit (``None``: no trump)."""

    __slots__ = ("beats", "pack", "plain", "strength", "takes", "trump", "trump_base", "trumps")

    def __init__(self, pack: Pack, trump: int | None) -> None:
        self.pack = pack
        self.trump = trump
        base = len(pack.ranks)
        self.trump_base = base
        """Strengths of trumps start here, above every plain card."""
        suit_of = pack.suit_of
        self.strength: tuple[int, ...] = tuple(
            base + pack.trump_strength[i] if suit_of[i] == trump else pack.plain_strength[i]
            for i in range(pack.size)
        )
        self.trumps: int = pack.suit_masks[trump] if trump is not None else 0
        """The mask of the trump suit (0 without trump)."""
        self.plain: int = pack.full & ~self.trumps
        strength = self.strength
        by_suit = [[i for i in range(pack.size) if suit_of[i] == s] for s in range(len(pack.suits))]
        self.beats: tuple[int, ...] = tuple(
            sum(1 << j for j in by_suit[suit_of[i]] if strength[j] > strength[i])
            for i in range(pack.size)
        )
        """For each card, the cards of its suit that beat it."""
        self.takes: tuple[int, ...] = tuple(
            self.beats[i] | (0 if self.trumps >> i & 1 else self.trumps) for i in range(pack.size)
        )
        """For each card, the cards that would take a trick it is winning: a higher card of its
        suit, or any trump when it is not one."""

    def winner(self, trick: tuple[int, ...]) -> int:
        """The place in ``trick`` (card indices in the order played, not empty) of the card
        winning it so far (rule ``play.trick_winner``)."""
        strength = self.strength
        suit_of = self.pack.suit_of
        base = self.trump_base
        led_suit = suit_of[trick[0]]
        best = strength[trick[0]]
        place = 0
        for i in range(1, len(trick)):
            card = trick[i]
            s = strength[card]
            if s > best and (s >= base or suit_of[card] == led_suit):
                best = s
                place = i
        return place

    def is_trump(self, card: int) -> bool:
        return bool(self.trumps >> card & 1)


def trick_table(pack: Pack, trump: int | None) -> TrickTable:
    """The :class:`TrickTable` of a pack and trump, built once."""
    table: TrickTable = memo((pack,), ("tricks", trump), lambda: TrickTable(pack, trump))
    return table


def card_points(
    pack: Pack,
    trump: int | None,
    plain: Mapping[str, int] | None,
    in_trump: Mapping[str, int] | None,
) -> tuple[int, ...]:
    """Each card's points by index: the trump table for the trump suit, else the plain one
    (``scoring.points.plain`` / ``points.trump``; a missing table or rank counts 0)."""
    points: list[int] = []
    for i in range(pack.size):
        table = in_trump if trump is not None and pack.suit_of[i] == trump else plain
        points.append(0 if table is None else table.get(pack.ranks[i % len(pack.ranks)], 0))
    return tuple(points)


def trick_points(points: tuple[int, ...], trick: Iterable[int]) -> int:
    """The card points of a trick's cards."""
    return sum(points[card] for card in trick)


def hand_points(
    points: tuple[int, ...],
    tricks: Iterable[tuple[tuple[int, ...], int]],
    sides: int,
    last_trick: int = 0,
) -> list[int]:
    """Card points per side of a hand's tricks, each as (its cards, the side that took it):
    the sum of the cards taken, and ``last_trick`` more for the side that took the last."""
    totals = [0] * sides
    side = -1
    for cards, side in tricks:
        totals[side] += trick_points(points, cards)
    if side >= 0:
        totals[side] += last_trick
    return totals
