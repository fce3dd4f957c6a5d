"""The data model of BTN 2 transcripts: events, claims and comments, hands, whole transcripts.

Every item is a frozen dataclass with its stable ``position`` (``h3.t5.p7``), its source
``location`` (``file:line:col``, not compared: two items are equal when their content and
position are) and its end-of-line ``comment``. Seats are the names of the table (``P1`` ...,
or a ruleset's fixed names), cards their canonical codes (``TH``, never ``10H`` or ``T♥``).
The reader builds them with :func:`maker`'s constructors, which fill the slots directly:
a frozen class's own ``__init__`` is several times slower, and a hand has a few dozen items.

The cards of a set (a deal, an exchange, a legal-set claim) are kept in the pack's order and
the values of a per-seat claim in the table's order, so that an item read from any accepted
spelling equals the one read from its canonical line.

:class:`Table` holds what the reader took from the ruleset: the seats, the pack, the size of a
hand and the number of tricks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from baloot_conformance.errors import Location

#: Where an item read from no file sits (built in code, or from the JSON form's items).
NOWHERE = Location("<items>", 0, 0)

#: The per-seat claims of a hand, in the order the documentation lists them.
SIDE_CLAIMS = ("tricks", "pot", "pays", "score", "points", "total")

#: The per-seat claims whose values may be negative (a points game's).
SIGNED_CLAIMS = ("score", "points", "total")


@dataclass(frozen=True, slots=True)
class Table:
    """The table facts a transcript is read against: what its ruleset (and ``[Seats]``) say."""

    ruleset: str
    """The ``[Ruleset]`` reference, as written (``bourre@1``)."""
    seats: tuple[str, ...]
    """The seats, clockwise around the table (``[Seats]``, or the ruleset's fixed names)."""
    pack: tuple[str, ...]
    """Every card of the pack, in the pack's order (suit by suit, ranks lowest first)."""
    hand_size: int
    """The cards dealt to each seat (``phases.deal.cards``)."""
    tricks: int
    """The tricks of a hand (``phases.tricks.count``)."""
    numbered: bool = True
    """The seats are numbered (``P1`` ...), so a transcript lists them in ``[Seats]``."""
    passing: bool = False
    """The draw is a pass (``phases.draw.pass``, Hearts): the cards an ``exchange`` line
    receives come from another seat's hand, not from the stock."""
    points: bool = False
    """A points game (``scoring.outcome`` ``points``): its ``start`` line states the hand's
    number and totals, a pot game's the pot."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Comment:
    """A whole-line comment; ``text`` is everything after ``#``."""

    text: str
    location: Location = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Item:
    """Base of events and claims."""

    position: str
    comment: str | None = None
    location: Location = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Event(Item):
    """Something that happened at the table."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim(Item):
    """Something the engine computed (a line starting with ``=``); the kit checks it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Start(Event):
    """The state carried into this hand, for a hand read on its own. A pot game's: ``start
    pot 6 exempt P2 P4``, the chips in the pot and the seats that owe no ante this time. A
    points game's (``hand`` set): ``start hand 9, score N -30 E 12 S 0 W 18, doubled N 1 S 2
    W 0, chosen no_hearts trumps``, the hand's number in the game, the totals so far, and
    the declarer's block so far: how often each seat has doubled him, the contracts he has
    chosen (``None``: not stated)."""

    pot: int = 0
    exempt: tuple[str, ...] = ()
    hand: int | None = None
    scores: tuple[tuple[str, int], ...] = ()
    doubled: tuple[tuple[str, int], ...] = ()
    chosen: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Dealer(Event):
    """``dealer P3``."""

    seat: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Ante(Event):
    """``ante P1 1 P2 1``: chips paid into the pot, per seat (one line for all, or several)."""

    chips: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal(Event):
    """``deal P1 7H 2C KS 4D 9S``: the cards dealt to a seat."""

    seat: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class FaceUp(Event):
    """``faceup P3 7H``: a seat's card dealt face up (Bourré: the dealer's last, the trump)."""

    seat: str
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Call(Event):
    """``bid P2 play 2``, ``bid P4 pass``: a declaration or a contract call.

    ``word`` is the call and ``args`` its arguments as written (words, numbers, suit letters);
    which calls are legal when, and what they mean, is the ruleset's business.
    """

    seat: str
    word: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Wager(Event):
    """``raise S double E W``, ``raise W double N, redouble S``, ``raise N pass``: a seat's
    turn in the doubling: the seats it doubles, the seats it redoubles (both empty: it
    passes)."""

    seat: str
    doubles: tuple[str, ...] = ()
    redoubles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Exchange(Event):
    """``exchange P1 7H 2C : 5H TC``: the cards a seat discards, then the cards it receives."""

    seat: str
    discards: tuple[str, ...]
    received: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Reshuffle(Event):
    """``reshuffle``: the stock is used up; the gathered cards are shuffled and dealt on."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty(Event):
    """``penalty P3 renege``: an offence penalised (what it costs is the ruleset's)."""

    seat: str
    offence: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(Event):
    """One card played; ``trick`` and ``index`` (1 up to the number of seats) place it."""

    seat: str
    card: str
    trick: int
    index: int


@dataclass(frozen=True, slots=True, kw_only=True)
class CardRun(Event):
    """The cards of one trick line as ``check``'s fast lane reads them: (seat, card) pairs,
    without a :class:`Play` item each. Only :meth:`~.reader.Btn2Reader.build` with
    ``lane=True`` makes it, and only the fast lane replays it; no transcript holds it."""

    trick: int
    plays: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class LayoutPlay(Event):
    """``play W 7H``: a card added to a layout (Domino); ``move`` numbers the layout's moves,
    cards and knocks, from 1."""

    seat: str
    card: str
    move: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Knock(Event):
    """``knock S``: a seat that cannot add a card to the layout passes its turn."""

    seat: str
    move: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TrickClaim(Claim):
    """The winner of a trick (``... = P1`` on a trick line, or ``= trick 3 P1``), with its
    card points where the game counts them."""

    trick: int
    winner: str
    points: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LegalClaim(Claim):
    """``= legal P5 KS 4S``: the cards the engine offered as legal for the next play."""

    seat: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class SidesClaim(Claim):
    """A per-seat claim about the hand: ``= tricks P1 3 P3 0``, ``= pot P1 6``, ``= pays P3
    6``, ``= score P1 5 P2 -1``; a points game's ``= points`` (before the wagers), ``=
    score`` (after them) and ``= total`` (the game's totals after the hand). A seat left out
    is not claimed about."""

    name: Literal["tricks", "pot", "pays", "score", "points", "total"]
    values: tuple[tuple[str, int], ...]

    def value(self, seat: str) -> int | None:
        """The value claimed for ``seat``, or ``None``."""
        for name, number in self.values:
            if name == seat:
                return number
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class OrderClaim(Claim):
    """``= order W E N S``: a layout's finishing order, first out first."""

    seats: tuple[str, ...]


#: What a hand holds, in source order.
HandItem = Event | Claim | Comment


@dataclass(frozen=True, slots=True, kw_only=True)
class Hand:
    """One hand: its number and its events, claims and comments in order."""

    number: int
    items: tuple[HandItem, ...]
    comment: str | None = None
    location: Location = field(default=NOWHERE, compare=False)

    @property
    def position(self) -> str:
        return f"h{self.number}"

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(i for i in self.items if isinstance(i, Event))

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(i for i in self.items if isinstance(i, Claim))

    def trick(self, number: int) -> tuple[Play, ...]:
        """The cards of trick ``number``, in play order."""
        return tuple(i for i in self.items if isinstance(i, Play) and i.trick == number)


@dataclass(frozen=True, slots=True, kw_only=True)
class Tag:
    """A header tag ``[Name "value"]``."""

    name: str
    value: str
    comment: str | None = None
    location: Location = field(default=NOWHERE, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Transcript:
    """A whole BTN 2 transcript: version, optional fixture metadata, header, hands, and the
    :class:`Table` it was read against."""

    version: str
    header: tuple[Tag | Comment, ...]
    hands: tuple[Hand, ...]
    table: Table
    metadata: Mapping[str, Any] | None = None
    metadata_text: str | None = None

    @property
    def tags(self) -> dict[str, str]:
        """The header tags by name, in file order."""
        return {t.name: t.value for t in self.header if isinstance(t, Tag)}


def maker(cls: type[Any]) -> Callable[..., Any]:
    """A positional constructor for a frozen, slotted dataclass: the same object as
    ``cls(**kw)``, its slots filled through their descriptors (which a frozen class's
    ``__setattr__`` does not stand in the way of) instead of one ``object.__setattr__`` a
    field. Arguments in field order (for an item: position, comment, location, then its own)."""
    names = [f.name for f in fields(cls)]
    body = "".join(f"    set_{n}(o, {n})\n" for n in names)
    source = f"def make({', '.join(names)}):\n    o = new(cls)\n{body}    return o\n"
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    scope.update({f"set_{n}": getattr(cls, n).__set__ for n in names})
    exec(source, scope)  # the technique dataclasses use for __init__
    return scope["make"]  # type: ignore[no-any-return]


MAKE_LOCATION = maker(Location)
MAKE_PLAY = maker(Play)
MAKE_CARD_RUN = maker(CardRun)
MAKE_DEAL = maker(Deal)
MAKE_CALL = maker(Call)
MAKE_TRICK = maker(TrickClaim)
MAKE_SIDES = maker(SidesClaim)
MAKE_ANTE = maker(Ante)
MAKE_EXCHANGE = maker(Exchange)
