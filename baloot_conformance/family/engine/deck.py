"""The table of the family engine: any pack as bit masks, and the seats as a ring.

:class:`Pack` turns a ruleset's ``table.deck`` and its two card orders into tables indexed by
card: the card's code (interned: ``KS``), its suit (a table, so that a pack of any size
works, not ``index >> 3``), its strength in a plain suit and in trump, the mask of each suit and
of the whole pack. Card ``i`` is bit ``i`` of a card set (an ``int``); the indices run suit by
suit in the listed order, ranks low to high, so Baloot's 32 cards have the indices of
:data:`baloot_conformance.cards.CARDS`. A pack may hold up to :data:`MAX_CARDS` cards (5 suits
x 12 ranks and more); the bits above it are free for a rule code, as ``engine/play.py`` keeps
its codes above the 32 card bits.

:class:`Ring` holds the seats ``0 .. n-1`` in the order of play (the ruleset lists the names
clockwise; a counter-clockwise table plays them the other way round), the next seat still in
the hand (folded seats are skipped) and each seat's team.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from baloot_conformance.family.rules.model import CardOrder, Deck

#: The most cards a pack may have: the rule codes of a decision sit above bit 64.
MAX_CARDS = 64


@dataclass(frozen=True, slots=True)
class Pack:
    """The cards of a pack and their per-card tables (see the module's docstring)."""

    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    codes: tuple[str, ...]
    """Each card's code, by index: rank code then suit letter."""
    suit_of: tuple[int, ...]
    """Each card's suit, as an index into :attr:`suits`."""
    plain_strength: tuple[int, ...]
    """Each card's strength in a plain suit: 0 for the weakest rank of the plain order."""
    trump_strength: tuple[int, ...]
    """Each card's strength as a trump (0 for the weakest of the trump order)."""
    suit_masks: tuple[int, ...]
    full: int
    index: dict[str, int] = field(repr=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.codes)

    def mask(self, codes: Iterable[str]) -> int:
        """The card set of ``codes`` (``["KS", "4S"]``). Raises KeyError for a card not in it."""
        result = 0
        for code in codes:
            result |= 1 << self.index[code]
        return result

    def parse(self, text: str) -> int:
        """The card set of a space-separated list of codes: ``"KS 4S 9D"``."""
        return self.mask(text.split())

    def matching(self, pattern: str) -> int:
        """The cards a pattern of a value table or a ban names: a suit letter (``H``), a
        rank code (``Q``) or a card (``QS``); 0 for one the pack lacks."""
        if pattern in self.index:
            return 1 << self.index[pattern]
        if pattern in self.suits:
            return self.suit_masks[self.suits.index(pattern)]
        result = 0
        for i, code in enumerate(self.codes):
            if code[:-1] == pattern:
                result |= 1 << i
        return result

    def matching_any(self, patterns: Iterable[str]) -> int:
        """The cards any of ``patterns`` names (see :meth:`matching`)."""
        result = 0
        for pattern in patterns:
            result |= self.matching(pattern)
        return result

    def display_order(self, trump: int | None = None) -> tuple[int, ...]:
        """Every card as a player sorts a hand: by suit in the pack's order, strongest first
        (the trump suit in its trump order)."""
        return _display_order(self, trump)

    def format(self, mask: int, trump: int | None = None, sep: str = " ") -> str:
        """The cards of ``mask`` by suit, strongest first: ``KS 4S 9D``."""
        codes = self.codes
        return sep.join(codes[i] for i in _display_order(self, trump) if mask >> i & 1)


def cards_of(mask: int) -> Iterator[int]:
    """The card indices of a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_DISPLAY: dict[tuple[int, int | None], tuple[object, tuple[int, ...]]] = {}


def _display_order(pack: Pack, trump: int | None) -> tuple[int, ...]:
    entry = _DISPLAY.get((id(pack), trump))
    if entry is None or entry[0] is not pack:
        strengths = pack.trump_strength if trump is not None else pack.plain_strength

        def strength(i: int) -> int:
            if trump is not None and pack.suit_of[i] == trump:
                return strengths[i]
            return pack.plain_strength[i]

        order = tuple(sorted(range(pack.size), key=lambda i: (pack.suit_of[i], -strength(i))))
        entry = _DISPLAY[(id(pack), trump)] = (pack, order)
    return entry[1]


def build_pack(deck: Deck, plain: CardOrder, trump: CardOrder) -> Pack:
    """The :class:`Pack` of a ruleset's ``table.deck`` and ``table.order.plain/trump``.

    Raises ValueError for a pack over :data:`MAX_CARDS` cards or an order that does not list
    every rank once (the loader's semantic checks report these to a user first).
    """
    if len(deck.suits) * len(deck.ranks) > MAX_CARDS:
        raise ValueError(f"a pack has at most {MAX_CARDS} cards")
    for order in (plain, trump):
        if sorted(order.order) != sorted(deck.ranks):
            raise ValueError(f"{order.id} must list every rank of the pack once")
    plain_at = {r: len(plain.order) - 1 - i for i, r in enumerate(plain.order)}
    trump_at = {r: len(trump.order) - 1 - i for i, r in enumerate(trump.order)}
    codes: list[str] = []
    suit_of: list[int] = []
    plain_strength: list[int] = []
    trump_strength: list[int] = []
    for s, suit in enumerate(deck.suits):
        for rank in deck.ranks:
            codes.append(sys.intern(rank + suit))
            suit_of.append(s)
            plain_strength.append(plain_at[rank])
            trump_strength.append(trump_at[rank])
    n = len(deck.ranks)
    masks = tuple(((1 << n) - 1) << (s * n) for s in range(len(deck.suits)))
    return Pack(
        suits=tuple(deck.suits),
        ranks=tuple(deck.ranks),
        codes=tuple(codes),
        suit_of=tuple(suit_of),
        plain_strength=tuple(plain_strength),
        trump_strength=tuple(trump_strength),
        suit_masks=masks,
        full=(1 << len(codes)) - 1,
        index={code: i for i, code in enumerate(codes)},
    )


@dataclass(frozen=True, slots=True)
class Ring:
    """The seats ``0 .. n-1`` in the order of play, their names, and their teams."""

    names: tuple[str, ...]
    """Seat names in the order of play (seat ``i`` is ``names[i]``)."""
    teams: bool = False
    """Two teams on alternate seats (partners opposite at a four-seat table)."""

    @classmethod
    def of_table(cls, clockwise: Sequence[str], direction: str, teams: bool = False) -> Ring:
        """The ring of seats listed clockwise (``N E S W``), played ``clockwise`` or
        ``counter_clockwise`` (Baloot's: ``N W S E``, the seats 0-3 of ``engine/``)."""
        names = tuple(clockwise)
        if direction == "counter_clockwise":
            names = names[:1] + names[:0:-1]
        if teams and len(names) % 2:
            raise ValueError("two teams need an even number of seats")
        return cls(names, teams)

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def everyone(self) -> int:
        """The mask of every seat (bit ``i``: seat ``i`` is still in the hand)."""
        return (1 << len(self.names)) - 1

    def next(self, seat: int, active: int | None = None) -> int:
        """The seat after ``seat`` in the order of play that is still in the hand (its bit is
        set in ``active``; every seat when ``None``). Raises ValueError when none is."""
        n = len(self.names)
        mask = self.everyone if active is None else active
        for step in range(1, n + 1):
            candidate = (seat + step) % n
            if mask >> candidate & 1:
                return candidate
        raise ValueError("no seat is still in the hand")

    def order(self, first: int, active: int | None = None) -> tuple[int, ...]:
        """The seats still in the hand, in the order of play from ``first`` (which is in)."""
        seats = [first]
        seat = self.next(first, active)
        while seat != first:
            seats.append(seat)
            seat = self.next(seat, active)
        return tuple(seats)

    def team_of(self, seat: int) -> int | None:
        """The seat's team (0 or 1), or ``None`` at a table without teams."""
        return seat % 2 if self.teams else None
