"""The engine's vocabulary: seats, teams, card sets, contracts and the illegal-action error.

Seats are the integers 0-3 in play order, which is counter-clockwise at the table:
``0 = N, 1 = W, 2 = S, 3 = E`` (the notation's order N -> W -> S -> E), so the next player is
``(seat + 1) % 4``, the partner ``(seat + 2) % 4`` and the team ``seat % 2`` (``0 = NS``,
``1 = EW``). Sets of cards are ``int`` bit masks over :attr:`Card.index` (bit ``i`` set means
``CARDS[i]`` is in the set): cheap to copy, hash and intersect, which the search in later issues
needs.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal, TypeVar

from baloot_conformance.cards import CARDS, Card, Suit

Seat = int
Team = int
CardSet = int
ContractKind = Literal["sun", "hokum"]

SEAT_NAMES = ("N", "W", "S", "E")
_SEAT_INDEX = {name: seat for seat, name in enumerate(SEAT_NAMES)}
TEAM_NAMES = ("NS", "EW")
ALL_CARDS: CardSet = (1 << 32) - 1
SUIT_INDEX = {suit: i for i, suit in enumerate(Suit)}
#: The mask of each suit's eight cards, by suit index (``Suit`` order: S H D C).
SUIT_MASKS: tuple[CardSet, ...] = tuple(0xFF << (8 * i) for i in range(4))


def next_seat(seat: Seat) -> Seat:
    """The player to the right of ``seat``: the next to deal, bid and play."""
    return (seat + 1) % 4


def partner(seat: Seat) -> Seat:
    return (seat + 2) % 4


def team(seat: Seat) -> Team:
    return seat % 2


def seat_from_name(name: str) -> Seat:
    """``"N"`` -> 0 ... ``"E"`` -> 3. Raises ValueError for anything else."""
    seat = _SEAT_INDEX.get(name)
    if seat is None:
        raise ValueError(f"{name!r} is not a seat: expected N, W, S or E")
    return seat


def card_set(cards: Iterable[Card]) -> CardSet:
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def cards_of(mask: CardSet) -> Iterator[Card]:
    """The cards of a set, in :data:`CARDS` order (by suit, then rank low to high)."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def format_cards(mask: CardSet) -> str:
    """The cards of a set as tokens, e.g. ``"7S JS KC"``."""
    return " ".join(card.code for card in cards_of(mask))


@dataclass(frozen=True, slots=True)
class Contract:
    """The contract of a hand once the auction and the raises are over."""

    kind: ContractKind
    trump: Suit | None
    """The trump suit in Hokum; ``None`` in Sun."""
    buyer: Seat
    """The buyer for every buyer-relative rule (see ``bidding.ashkal.buyer``)."""
    receiver: Seat
    """The seat that took the face-up card (the Ashkal caller's partner, else the buyer)."""
    ashkal: bool = False
    level: int = 1
    """The multiplier of the last raise (1 when unraised)."""
    gahwa: bool = False
    locked: bool = False
    raisers: tuple[Seat, ...] = ()
    """Who called each raise, in order (double first)."""

    @property
    def buyer_team(self) -> Team:
        return team(self.buyer)

    @property
    def trump_index(self) -> int | None:
        """The trump suit's index (``Suit`` order), or ``None`` in Sun."""
        return None if self.trump is None else SUIT_INDEX[self.trump]


class IllegalAction(ValueError):
    """An action that the ruleset does not allow at this point.

    ``rule_id`` names the rule that forbids it (``play.hokum.overruff``); the message says why
    in a sentence a player understands, naming the cards that made it illegal.
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.reason = message


_T = TypeVar("_T")
_MEMO: dict[tuple[int, Hashable], tuple[object, object]] = {}


def per_ruleset(ruleset: object, key: Hashable, build: Callable[[], _T]) -> _T:
    """``build()`` computed once per ruleset object and ``key``: tables derived from a ruleset.

    Rulesets are immutable but not hashable, so identity keys them; each entry keeps its
    ruleset alive, so an id is never reused while its entry exists.
    """
    entry = _MEMO.get((id(ruleset), key))
    if entry is None:
        entry = (ruleset, build())
        _MEMO[(id(ruleset), key)] = entry
    return entry[1]  # type: ignore[return-value]
