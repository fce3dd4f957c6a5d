"""The actions a trick-family hand is made of, and the face the hand needs of the obligations.

Every action names the seat that takes it (a :class:`Deal` is the dealer's); cards are pack
indices (:mod:`.pack`). They are small frozen records, as in the Baloot engine, so that a
checker builds them from a transcript's statements and a playout from ``legal_actions``.

:class:`PlayRules` is what the hand asks of the obligation engine for one contract and trump:
the legal cards, the rule a wrong card breaks, and a trick's winner; ``TrickContext`` is the
obligations' ``Context``, what a stage may need beyond the hand and the trick (the Bourré cinch
needs every active hand: the referee's view).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from baloot_conformance.family.engine.deck import Pack
from baloot_conformance.family.engine.ledger import Seat
from baloot_conformance.family.engine.obligations import Context as TrickContext
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


@dataclass(frozen=True, slots=True)
class Choose:
    """The declarer chooses ``contract``; ``arg`` is the suit it names (a trump: an index of
    the pack's suits) or the rank (a layout's start: an index of its ranks), else ``None``."""

    seat: Seat
    contract: str
    arg: int | None = None


@dataclass(frozen=True, slots=True)
class Wager:
    """A player's turn in the doubling: the seats he doubles and the seats he redoubles (those
    who doubled him), as masks of seats (bit ``i`` for seat ``i``); both 0: he passes."""

    seat: Seat
    doubles: int = 0
    redoubles: int = 0


@dataclass(frozen=True, slots=True)
class Knock:
    """A player who cannot add a card to the layout passes his turn."""

    seat: Seat


Action = (
    Ante | Deal | Declare | Discard | Draw | Reshuffle | Play | Penalty | Choose | Wager | Knock
)


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
    if isinstance(action, Choose):
        return f"{name} chooses {action.contract}"
    if isinstance(action, Wager):
        if not action.doubles | action.redoubles:
            return f"{name} doubles nobody"
        return f"{name} doubles " + " ".join(
            names[s] for s in range(len(names)) if (action.doubles | action.redoubles) >> s & 1
        )
    if isinstance(action, Knock):
        return f"{name} knocks"
    return f"{name} pays a penalty of {action.chips}"


def _codes(pack: Pack, cards: Sequence[int]) -> str:
    return " ".join(pack.codes[c] if 0 <= c < pack.size else f"card {c}" for c in cards)


# --- the obligation engine's face -----------------------------------------------------------


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
