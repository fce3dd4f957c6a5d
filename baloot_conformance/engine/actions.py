"""The actions a hand is made of, in the order they happen.

Every action names the seat that takes it (the completion of the deal is the dealer's). Calls
are words plus arguments, as in the notation, so that the ruleset, not this module, decides
which words are legal when.
"""

from __future__ import annotations

from dataclasses import dataclass

from baloot_conformance.cards import CARDS, Card, Suit
from baloot_conformance.engine.model import SEAT_NAMES, CardSet, Seat, format_cards


@dataclass(frozen=True, slots=True)
class Bid:
    """An auction call: ``pass``, ``hokum`` (with a suit in round 2), ``sun``, ``ashkal``; in
    the claim and confirmation windows ``sun`` claims or switches and ``hokum``
    confirms or takes over."""

    seat: Seat
    call: str
    suit: Suit | None = None

    def __str__(self) -> str:
        suit = f" {self.suit.value}" if self.suit else ""
        return f"bid {SEAT_NAMES[self.seat]} {self.call}{suit}"


@dataclass(frozen=True, slots=True)
class Raise:
    """A raise call of the chain (``double``, ``triple``, ``four``, ``gahwa``) or ``pass``."""

    seat: Seat
    call: str

    def __str__(self) -> str:
        return f"raise {SEAT_NAMES[self.seat]} {self.call}"


@dataclass(frozen=True, slots=True)
class Lock:
    """The locked (مقفول) or open choice for a raised Hokum."""

    seat: Seat
    locked: bool

    def __str__(self) -> str:
        return f"lock {SEAT_NAMES[self.seat]} {'closed' if self.locked else 'open'}"


@dataclass(frozen=True, slots=True)
class Complete:
    """The completion of the deal: the cards each seat receives (index = seat)."""

    rest: tuple[CardSet, CardSet, CardSet, CardSet]

    def __str__(self) -> str:
        return "; ".join(
            f"rest {SEAT_NAMES[seat]} {format_cards(cards)}" for seat, cards in enumerate(self.rest)
        )


@dataclass(frozen=True, slots=True)
class Declare:
    """A project declaration in trick 1: its name and its cards."""

    seat: Seat
    name: str
    cards: CardSet

    def __str__(self) -> str:
        return f"declare {SEAT_NAMES[self.seat]} {self.name} {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Announce:
    """The Baloot announcement (بلوت) when its King or Queen is played."""

    seat: Seat
    what: str = "baloot"

    def __str__(self) -> str:
        return f"{self.what} {SEAT_NAMES[self.seat]}"


@dataclass(frozen=True, slots=True)
class Play:
    """One card played to the current trick."""

    seat: Seat
    card: Card

    def __str__(self) -> str:
        return f"play {SEAT_NAMES[self.seat]} {self.card}"


@dataclass(frozen=True, slots=True)
class SawaClaim:
    """A Sawa (سوا): the claim that the seat's side takes every remaining trick."""

    seat: Seat

    def __str__(self) -> str:
        return f"sawa {SEAT_NAMES[self.seat]}"


@dataclass(frozen=True, slots=True)
class FoulCall:
    """A foul call (قيد) on an earlier card of the hand, or on none."""

    seat: Seat
    play: int | None
    """The card called: its index among the hand's cards (0 = trick 1's first card), or
    ``None`` for a call that names no card (one made before any card is down)."""

    def __str__(self) -> str:
        return f"foul {SEAT_NAMES[self.seat]} {target_name(self.play)}"


@dataclass(frozen=True, slots=True)
class KaweshCall:
    """A Kawesh (كوش): the claim of a new deal for a hand without scoring cards."""

    seat: Seat

    def __str__(self) -> str:
        return f"kawesh {SEAT_NAMES[self.seat]}"


def target_name(play: int | None) -> str:
    """The name of the hand's card ``play`` (0 = trick 1's first card): ``t3.p2``; ``-`` for
    none."""
    return "-" if play is None else f"t{play // 4 + 1}.p{play % 4 + 1}"


TableTalk = SawaClaim | FoulCall | KaweshCall
Action = Bid | Raise | Lock | Complete | Declare | Announce | Play | TableTalk

#: Every possible card play, by seat and card index: actions are immutable, so replay and
#: random play share these instead of building a new object per card.
PLAYS: tuple[tuple[Play, ...], ...] = tuple(
    tuple(Play(seat, card) for card in CARDS) for seat in range(4)
)


def call_word(action: Bid | Raise | Lock) -> str:
    """A call as the notation writes it after the seat: ``pass``, ``hokum S``, ``double``,
    ``closed``."""
    if isinstance(action, Lock):
        return "closed" if action.locked else "open"
    if isinstance(action, Bid) and action.suit is not None:
        return f"{action.call} {action.suit.value}"
    return action.call


def call_action(seat: Seat, phase: str, words: str) -> Bid | Raise | Lock:
    """The action a call written as :func:`call_word` writes it stands for, in ``phase``
    (``bid`` or ``raise``); a word it does not know is still a call (the rules refuse it)."""
    word, _, arg = words.partition(" ")
    if phase == "bid":
        suit = next((s for s in Suit if s.value == arg), None)
        return Bid(seat, word, suit)
    if word in ("closed", "open"):
        return Lock(seat, word == "closed")
    return Raise(seat, word)
