"""The pack of a trick ruleset as card indices and bit masks, and the seats' names.

A card is an index of ``table.deck``'s pack, which runs suit by suit in the listed order, ranks
lowest first (``model.py``'s convention); a set of cards is an ``int`` bit mask. This is the
hand's own small view of the pack until the generic engine's :mod:`.deck` replaces it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from baloot_conformance.family.rules.model import TrickRuleset

# --- the pack -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pack:
    """The cards of ``table.deck``: index ``suit * len(ranks) + rank``, ranks lowest first."""

    suits: tuple[str, ...]
    ranks: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)

    def suit(self, card: int) -> int:
        return card // len(self.ranks)

    def rank(self, card: int) -> str:
        return self.ranks[card % len(self.ranks)]

    def code(self, card: int) -> str:
        """The card as BTN writes it: ``QS``, ``TH``."""
        return self.rank(card) + self.suits[self.suit(card)]

    def codes(self, mask: int) -> str:
        return " ".join(self.code(c) for c in cards_of(mask)) or "nothing"

    def card(self, code: str) -> int:
        """The index of ``QS``; ``ValueError`` for a card not in the pack."""
        rank, suit = code[:-1], code[-1:]
        if rank not in self.ranks or suit not in self.suits:
            raise ValueError(f"{code} is not a card of the pack")
        return self.suits.index(suit) * len(self.ranks) + self.ranks.index(rank)


def cards_of(mask: int) -> list[int]:
    """The indices of a set's cards, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def seat_names(ruleset: TrickRuleset, players: int) -> tuple[str, ...]:
    """The seats' names in play order: ``table.seats``' clockwise list (or ``P1`` .. ``Pn``),
    read the other way round when ``table.direction`` is counter-clockwise."""
    seats = ruleset.table.seats
    listed = seats.names or tuple(f"{seats.prefix}{k + 1}" for k in range(players))
    if ruleset.table.direction.option == "clockwise":
        return tuple(listed)
    return (listed[0], *reversed(listed[1:]))


_PACKS: dict[tuple[tuple[str, ...], tuple[str, ...]], Pack] = {}


def pack_of(rules: TrickRuleset) -> Pack:
    deck = rules.table.deck
    key = (deck.suits, deck.ranks)
    pack = _PACKS.get(key)
    if pack is None:
        pack = _PACKS[key] = Pack(deck.suits, deck.ranks)
    return pack
