"""The data model of BTN transcripts: events, claims and comments, hands, whole transcripts.

Items are plain slotted dataclasses, compared by value, and the reader builds fresh ones for
every hand: a frozen class would make each of them several times slower to build, and the
reader builds a few dozen per hand. Containers (:class:`Hand`, :class:`Transcript`) are frozen.

This module is never compiled by the optional accelerated build (``tools/accelerate.py``): the
reader builds items with ``object.__new__`` (:func:`_maker`), which needs ordinary classes, and
every caller sees the same classes whichever build runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from baloot_conformance.cards import Card, Suit

#: The seats in the order of play, dealing and bidding (counter-clockwise).
SEATS = ("N", "W", "S", "E")
#: The two teams, partners opposite.
TEAMS = ("NS", "EW")
#: Names of the per-team claims (``= abnat NS 92 EW 70``), in canonical spelling.
TEAM_CLAIMS = ("abnat", "aklat", "projects", "cardscore", "projectscore", "score", "total")


# ---------------------------------------------------------------------------------------------
# The data model
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Comment:
    """A whole-line comment; ``text`` is everything after ``#`` (kept so ``fmt`` keeps it)."""

    text: str
    line: int = field(default=0, compare=False)
    column: int = field(default=1, compare=False)


@dataclass(slots=True, kw_only=True)
class Item:
    """Base of events and claims: a stable ``position``, the source ``line``/``column`` and an
    optional end-of-line ``comment`` (the text after ``#``). Line and column are not compared."""

    position: str
    comment: str | None = None
    line: int = field(default=0, compare=False)
    column: int = field(default=1, compare=False)


@dataclass(slots=True, kw_only=True)
class Event(Item):
    """Something that happened at the table."""


@dataclass(slots=True, kw_only=True)
class Claim(Item):
    """Something the engine computed; the kit checks it (lines starting with ``=``)."""


@dataclass(slots=True, kw_only=True)
class Start(Event):
    """``start NS 120 EW 40``: the running totals before this hand (for score-dependent rules)."""

    ns: int | None
    ew: int | None


@dataclass(slots=True, kw_only=True)
class Dealer(Event):
    """``dealer E``."""

    seat: str


@dataclass(slots=True, kw_only=True)
class Deal(Event):
    """``deal N 8S TS 8H 9H 7C``: the first five cards of a seat."""

    seat: str
    cards: tuple[Card, ...]


@dataclass(slots=True, kw_only=True)
class Hold(Event):
    """``hold N ...``: a seat's eight cards, for engines that log only the full hands."""

    seat: str
    cards: tuple[Card, ...]


@dataclass(slots=True, kw_only=True)
class FaceUp(Event):
    """``faceup QS``: the face-up card that is bought."""

    card: Card


@dataclass(slots=True, kw_only=True)
class Call(Event):
    """``bid N hokum`` (``phase`` "bid") or ``raise E double closed`` (``phase`` "raise").

    ``word`` is the call, ``args`` its arguments (suits are given as letters). Which words are
    legal when is the ruleset's business, not the notation's.
    """

    phase: str
    seat: str
    word: str
    args: tuple[str, ...] = ()


@dataclass(slots=True, kw_only=True)
class Rest(Event):
    """``rest N KH JC``: the cards that complete a seat's hand after the auction."""

    seat: str
    cards: tuple[Card, ...]


@dataclass(slots=True, kw_only=True)
class Declare(Event):
    """``declare W sira AD KD QD``: a project, with its cards when the engine gives them."""

    seat: str
    project: str
    cards: tuple[Card, ...] = ()


@dataclass(slots=True, kw_only=True)
class Baloot(Event):
    """``baloot N`` (optionally with the cards): the K and Q of trump announced."""

    seat: str
    cards: tuple[Card, ...] = ()


@dataclass(slots=True, kw_only=True)
class Play(Event):
    """One card played; ``trick`` (1-8) and ``index`` (1-4) give its place in the hand."""

    seat: str
    card: Card
    trick: int
    index: int


@dataclass(slots=True, kw_only=True)
class Foul(Event):
    """``foul E t3.p2 revoke``: a foul call (qayd) by ``seat`` on an earlier play; ``foul E -``
    names no card (a call made before any card is down)."""

    seat: str
    target: str
    words: tuple[str, ...] = ()

    @property
    def play(self) -> int | None:
        """The card called, as its index among the hand's cards (``t3.p2`` is 9), or ``None``
        for a call that names no card (target ``-``)."""
        if self.target == NO_TARGET:
            return None
        trick, _, place = self.target.removeprefix("t").partition(".p")
        return (int(trick) - 1) * 4 + int(place) - 1


#: The target of a foul call that names no card.
NO_TARGET = "-"


def play_target(play: int | None) -> str:
    """The target a foul call writes for the hand's card ``play`` (0 = trick 1's first card):
    ``t3.p2``; ``-`` for none."""
    return NO_TARGET if play is None else f"t{play // 4 + 1}.p{play % 4 + 1}"


@dataclass(slots=True, kw_only=True)
class Sawa(Event):
    """``sawa N``: a Sawa claim (سوا) by ``seat``: its side takes every remaining trick, and
    the hand stops there (whether the claim is right is the rules' business)."""

    seat: str


@dataclass(slots=True, kw_only=True)
class Kawesh(Event):
    """``kawesh N``: a Kawesh call (كوش) by ``seat``, which asks for a new deal because its
    cards hold no scoring card (whether it may be called then is the rules' business)."""

    seat: str


@dataclass(slots=True, kw_only=True)
class ContractClaim(Claim):
    """``= contract N hokum S x2 closed`` or ``= contract none`` (``buyer`` is then None)."""

    buyer: str | None
    kind: str | None = None
    trump: Suit | None = None
    multiplier: int | None = None
    lock: str | None = None


@dataclass(slots=True, kw_only=True)
class TrickClaim(Claim):
    """The winner of a trick (``... = E`` on a trick line, or ``= trick 3 E 20``)."""

    trick: int
    winner: str
    points: int | None = None


@dataclass(slots=True, kw_only=True)
class LegalClaim(Claim):
    """``= legal W KS QS``: the cards the engine offered as legal for the next play."""

    seat: str
    cards: tuple[Card, ...]


@dataclass(slots=True, kw_only=True)
class LegalCallsClaim(Claim):
    """The calls an engine offers as legal to ``seat`` before its call event of ``phase``
    (``bid`` or ``raise``), written as the notation writes them (``pass``, ``hokum S``,
    ``double``). It has no text form: ``suite`` builds it from an engine's answer to a
    ``legal`` request, at the position of the call it precedes."""

    seat: str
    phase: str
    calls: tuple[str, ...]


@dataclass(slots=True, kw_only=True)
class TeamClaim(Claim):
    """``= abnat NS 92 EW 70`` and the other per-team numbers (see :data:`TEAM_CLAIMS`)."""

    name: str
    ns: int | None
    ew: int | None


@dataclass(slots=True, kw_only=True)
class ResultClaim(Claim):
    """``= result failed``: the outcome for the buyer (made, failed, ...)."""

    outcome: str


@dataclass(slots=True, kw_only=True)
class CallVerdictClaim(Claim):
    """``= sawa right``, ``= foul wrong``: what the engine decided about the hand's latest
    ``call`` (a Sawa claim or a foul call); its position is that call's with ``.verdict``."""

    call: Literal["sawa", "foul"]
    verdict: Literal["right", "wrong"]


@dataclass(slots=True, kw_only=True)
class KabootClaim(Claim):
    """``= kaboot EW``: the team that took every trick."""

    team: str


@dataclass(slots=True, kw_only=True)
class WinnerClaim(Claim):
    """``= winner NS``: the team that won the game (after its last hand)."""

    team: str


def _maker(cls: type[Any]) -> Callable[..., Any]:
    """A positional constructor for an item class: the same object as ``cls(**kw)``, built
    without the keyword-argument overhead (the reader creates millions of them). Arguments in
    field order: position, comment, line, column, then the class's own fields."""
    names = [f.name for f in fields(cls)]
    body = "".join(f"    o.{n} = {n}\n" for n in names)
    source = f"def make({', '.join(names)}):\n    o = new(cls)\n{body}    return o\n"
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec(source, scope)  # the same technique dataclasses use for __init__
    return scope["make"]  # type: ignore[no-any-return]


#: What a hand holds, in source order.
HandItem = Event | Claim | Comment


_MAKE_PLAY = _maker(Play)
_MAKE_DEAL = _maker(Deal)
_MAKE_REST = _maker(Rest)
_MAKE_HOLD = _maker(Hold)
_MAKE_DEALER = _maker(Dealer)
_MAKE_START = _maker(Start)
_MAKE_FACEUP = _maker(FaceUp)
_MAKE_CALL = _maker(Call)
_MAKE_DECLARE = _maker(Declare)
_MAKE_BALOOT = _maker(Baloot)
_MAKE_FOUL = _maker(Foul)
_MAKE_SAWA = _maker(Sawa)
_MAKE_KAWESH = _maker(Kawesh)
_MAKE_VERDICT = _maker(CallVerdictClaim)
_MAKE_CONTRACT = _maker(ContractClaim)
_MAKE_TRICK = _maker(TrickClaim)
_MAKE_LEGAL = _maker(LegalClaim)
_MAKE_TEAM = _maker(TeamClaim)
_MAKE_CLOSING = {
    "=result": _maker(ResultClaim),
    "=kaboot": _maker(KabootClaim),
    "=winner": _maker(WinnerClaim),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Hand:
    """One hand: its number and its events, claims and comments in order."""

    number: int
    items: tuple[HandItem, ...]
    comment: str | None = None
    line: int = field(default=0, compare=False)
    column: int = field(default=1, compare=False)

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
        """The cards of trick ``number`` (position ``h<hand>.t<number>``), in play order."""
        return tuple(i for i in self.items if isinstance(i, Play) and i.trick == number)


@dataclass(frozen=True, slots=True, kw_only=True)
class Tag:
    """A header tag ``[Name "value"]``."""

    name: str
    value: str
    comment: str | None = None
    line: int = field(default=0, compare=False)
    column: int = field(default=1, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Transcript:
    """A whole transcript: version, optional fixture metadata, header, hands.

    ``metadata`` is the YAML mapping of the fixture metadata block and ``metadata_text`` its
    source (kept so that ``fmt`` does not rewrite hand-written YAML).
    """

    version: str
    header: tuple[Tag | Comment, ...]
    hands: tuple[Hand, ...]
    metadata: Mapping[str, Any] | None = None
    metadata_text: str | None = None

    @property
    def tags(self) -> dict[str, str]:
        """The header tags by name, in file order."""
        return {t.name: t.value for t in self.header if isinstance(t, Tag)}
