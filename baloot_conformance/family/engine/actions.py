"""The actions a trick-family hand is made of, and the face the hand needs of the obligations.

Every action names the seat that takes it (a :class:`Deal` is the dealer's); cards are pack
indices (:mod:`.pack`). They are small frozen records, as in the Baloot engine, so that a
checker builds them from a transcript's statements and a playout from ``legal_actions``.

:class:`PlayRules` is what the hand asks of the obligation engine for one contract and trump:
the legal cards, the rule a wrong card breaks, and a trick's winner. :class:`TrickContext`
carries what a stage may need beyond the hand and the trick: the Bourré cinch needs every
active hand (the referee's view).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from baloot_conformance.family.engine.ledger import Seat
from baloot_conformance.family.engine.pack import Pack, Ring
from baloot_conformance.family.rules.model import TrickRuleset

# --- actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ante:
    """A seat puts ``chips`` into the pot: the ante, or the stay of the double-ante variant."""

    seat: Seat
    chips: int


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards each seat is dealt (index = seat), in the order dealt; ``()`` for a seat not
    dealt in. With a face-up card it is the last card of the last seat dealt (the dealer)."""

    hands: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Declare:
    """Pass (``play=False``: fold) or play and discard ``discards`` cards."""

    seat: Seat
    play: bool
    discards: int = 0


@dataclass(frozen=True, slots=True)
class Discard:
    seat: Seat
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """The dealer serves ``seat`` these cards from the stock."""

    seat: Seat
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """The stock is used up: the dealer gathers and shuffles the discards and folded hands
    (not ``seat``'s own discards under ``exclude_own``) to serve ``seat``."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Play:
    seat: Seat
    card: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """A reneger pays ``chips`` into the next pot (``scoring.pot.renege``)."""

    seat: Seat
    chips: int


Action = Ante | Deal | Declare | Discard | Draw | Reshuffle | Play | Penalty


def describe(action: Action, names: Sequence[str], pack: Pack) -> str:
    """An action in words, for messages: ``P2 plays 5S``, ``P3 passes``."""
    name = names[action.seat] if hasattr(action, "seat") and 0 <= action.seat < len(names) else ""
    if isinstance(action, Ante):
        return f"{name} antes {action.chips}"
    if isinstance(action, Deal):
        return "the deal"
    if isinstance(action, Declare):
        if not action.play:
            return f"{name} passes"
        return f"{name} plays, discarding {action.discards}"
    if isinstance(action, Discard):
        return f"{name} discards {_codes(pack, action.cards)}"
    if isinstance(action, Draw):
        return f"{name} is served {_codes(pack, action.cards)}"
    if isinstance(action, Reshuffle):
        return f"a reshuffle to serve {name}"
    if isinstance(action, Play):
        return f"{name} plays {_codes(pack, (action.card,))}"
    return f"{name} pays a penalty of {action.chips}"


def _codes(pack: Pack, cards: Sequence[int]) -> str:
    return " ".join(pack.codes[c] if 0 <= c < pack.size else f"card {c}" for c in cards)


# --- the obligation engine's face -----------------------------------------------------------


class TrickContext(NamedTuple):
    """What a card's legality may depend on beyond the hand and the trick's cards (a named
    tuple: one is made for every card). The fields are those of the generic engine's
    ``obligations.Context``, which replaces it at the merge."""

    seats: tuple[Seat, ...]
    """The seat of each card of the trick, in order, then the player's seat."""
    ring: Ring
    active: int | None = None
    """The seats still in the hand (bit ``i`` for seat ``i``); ``None``: every seat."""
    hands: tuple[int | None, ...] | None = None
    """Every seat's cards (the referee's view, which the cinch needs); ``None``: unknown."""
    gone: int = 0
    """The cards played in the tricks before this one."""
    won: int = 0
    """How many tricks the player has taken so far."""

    @property
    def player(self) -> Seat:
        return self.seats[-1]


class PlayRules(Protocol):
    """The obligations of one contract and trump (the generic engine's ``PlayTable``)."""

    def legal(self, hand: int, trick: tuple[int, ...], context: TrickContext) -> int:
        """The cards of ``hand`` that may be played to ``trick`` (the cards so far)."""
        ...

    def check(self, hand: int, trick: tuple[int, ...], context: TrickContext, card: int) -> bool:
        """Raise :class:`IllegalAction` citing the stage a wrong ``card`` breaks; whether the
        card was judged in full (``False``: a stage lacked a hand it needs)."""
        ...

    def winner(self, trick: tuple[int, ...]) -> int:
        """The place (0 = the lead) of the card that wins a full trick."""
        ...


PlayCompiler = Callable[[TrickRuleset, str, "int | None"], PlayRules]
"""``compile(ruleset, contract, trump)``: the obligations for a hand (at the merge, the generic
engine's ``play_table(ruleset.play, pack, ContractKey(contract, trump))``)."""
