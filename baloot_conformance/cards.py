"""Suits, ranks and cards, and the card tokens of the notation (``TS``, ``7H``, ``10♠``).

Cards are interned: :func:`parse_card` and :data:`CARDS` give the same object for the same card,
so comparisons are cheap. Card *orders* and *points* are not here: they belong to the ruleset.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Suit(enum.Enum):
    """The four suits; the value is the canonical one-letter code."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]


class Rank(enum.Enum):
    """The eight ranks of the 32-card pack; the value is the canonical code (``T`` is the ten)."""

    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "T"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}

#: Accepted spellings of a suit: the canonical letter and the Unicode symbol.
SUIT_CODES: dict[str, Suit] = {s.value: s for s in Suit} | {v: k for k, v in _SUIT_SYMBOLS.items()}
#: Accepted spellings of a rank: the canonical code and ``10`` for the ten.
RANK_CODES: dict[str, Rank] = {r.value: r for r in Rank} | {"10": Rank.TEN}


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``index`` is its place in :data:`CARDS` (0-31), handy for bit sets."""

    rank: Rank
    suit: Suit
    index: int

    @property
    def code(self) -> str:
        """The canonical token, e.g. ``TS``."""
        return self.rank.value + self.suit.value

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.from_code({self.code!r})"

    @classmethod
    def from_code(cls, token: str) -> Card:
        """Parse a card token; see :func:`parse_card`."""
        return parse_card(token)


#: Every card of the pack, suit by suit in ``Suit`` order, ranks low to high in ``Rank`` order.
CARDS: tuple[Card, ...] = tuple(
    Card(rank, suit, i * 8 + j) for i, suit in enumerate(Suit) for j, rank in enumerate(Rank)
)

_BY_TOKEN: dict[str, Card] = {
    rank_code + suit_code: CARDS[list(Suit).index(suit) * 8 + list(Rank).index(rank)]
    for rank_code, rank in RANK_CODES.items()
    for suit_code, suit in SUIT_CODES.items()
}


def card(rank: Rank, suit: Suit) -> Card:
    """The interned card of ``rank`` and ``suit``."""
    return _BY_TOKEN[rank.value + suit.value]


def parse_card(token: str) -> Card:
    """Parse ``TS``, ``10S``, ``T♠`` or ``10♠`` (the accepted alternates) into a card.

    Raises:
        ValueError: the token is not a card; the message says what a card looks like.
    """
    found = _BY_TOKEN.get(token)
    if found is None:
        raise ValueError(
            f"{token!r} is not a card: expected a rank (7 8 9 T J Q K A, or 10) "
            f"followed by a suit (S H D C, or ♠ ♥ ♦ ♣), e.g. 'TS' or 'AH'"
        )
    return found
