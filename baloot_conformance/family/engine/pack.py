"""The pack of a trick ruleset as card indices and bit masks, and the seats as a ring.

A card is an index of ``table.deck``'s pack, which runs suit by suit in the listed order, ranks
lowest first (``model.py``'s convention); a set of cards is an ``int`` bit mask. The seats are
``0 .. n-1`` in the order of play.

A stand-in: this is the subset of the generic engine's :mod:`.deck` (``Pack``, ``build_pack``,
``cards_of``, ``Ring``) that the hand uses, with the same names and shapes, so that at the merge
the hand's modules import them from :mod:`.deck` and this module goes.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from baloot_conformance.family.rules.model import CardOrder, Deck, TrickRuleset

# --- the pack -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pack:
    """The cards of ``table.deck``: index ``suit * len(ranks) + rank``, ranks lowest first."""

    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    codes: tuple[str, ...]
    """Each card's code, by index: rank code then suit letter (``QS``, ``TH``)."""
    suit_of: tuple[int, ...]
    """Each card's suit, as an index into :attr:`suits`."""
    suit_masks: tuple[int, ...]
    full: int
    index: dict[str, int] = field(repr=False, compare=False)

    @property
    def size(self) -> int:
        return len(self.codes)

    def mask(self, codes: Iterable[str]) -> int:
        """The card set of ``codes``. Raises KeyError for a card not in the pack."""
        result = 0
        for code in codes:
            result |= 1 << self.index[code]
        return result

    def parse(self, text: str) -> int:
        """The card set of a space-separated list of codes: ``"KS 4S 9D"``."""
        return self.mask(text.split())

    def format(self, mask: int, trump: int | None = None, sep: str = " ") -> str:
        """The cards of ``mask`` by suit, highest rank first: ``KS 4S 9D``."""
        n = len(self.ranks)
        order = sorted(cards_of(mask), key=lambda c: (c // n, -c))
        return sep.join(self.codes[c] for c in order)


def build_pack(deck: Deck, plain: CardOrder, trump: CardOrder) -> Pack:
    """The :class:`Pack` of a ruleset's ``table.deck`` (the orders are the tricks' business)."""
    pack = _PACKS.get((deck.suits, deck.ranks))
    if pack is None:
        codes = tuple(sys.intern(r + s) for s in deck.suits for r in deck.ranks)
        n = len(deck.ranks)
        pack = _PACKS[(deck.suits, deck.ranks)] = Pack(
            suits=tuple(deck.suits),
            ranks=tuple(deck.ranks),
            codes=codes,
            suit_of=tuple(i // n for i in range(len(codes))),
            suit_masks=tuple(((1 << n) - 1) << (s * n) for s in range(len(deck.suits))),
            full=(1 << len(codes)) - 1,
            index={code: i for i, code in enumerate(codes)},
        )
    return pack


_PACKS: dict[tuple[tuple[str, ...], tuple[str, ...]], Pack] = {}


def pack_of(rules: TrickRuleset) -> Pack:
    """The pack of a ruleset's table."""
    table = rules.table
    return build_pack(table.deck, table.order_plain, table.order_trump)


def cards_of(mask: int) -> Iterator[int]:
    """The card indices of a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[int]) -> int:
    """The set of these card indices."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# --- the seats ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ring:
    """The seats ``0 .. n-1`` in the order of play and their names."""

    names: tuple[str, ...]
    """Seat names in the order of play (seat ``i`` is ``names[i]``)."""
    teams: bool = False

    @classmethod
    def of_table(cls, clockwise: Sequence[str], direction: str, teams: bool = False) -> Ring:
        """The ring of seats listed clockwise, played ``clockwise`` or ``counter_clockwise``
        (the names read the other way round from the first: ``N E S W`` plays N, W, S, E)."""
        names = tuple(clockwise)
        if direction == "counter_clockwise":
            names = names[:1] + names[:0:-1]
        return cls(names, teams)

    @property
    def size(self) -> int:
        return len(self.names)


def ring_of(ruleset: TrickRuleset, players: int) -> Ring:
    """The table's ring: ``table.seats``' names (or ``P1`` .. ``Pn``), ``table.direction``."""
    seats = ruleset.table.seats
    listed = seats.names or tuple(f"{seats.prefix}{k + 1}" for k in range(players))
    teams = ruleset.table.teams.option == "partners"
    return Ring.of_table(listed, ruleset.table.direction.option, teams)
