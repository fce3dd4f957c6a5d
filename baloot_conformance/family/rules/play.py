"""The ``play`` section of a trick ruleset: the obligations as a tree of named stages.

Each obligation is a rule of its own (``play.follow_suit``, ``play.hokum.overruff``) naming a
*stage kind* from a closed library (:data:`StageKind`), with the parameters of its kind and,
where readings differ, an ``option``. The rule ``play.obligations`` holds the tree that orders
them. A node names a stage rule, an optional guard (``when``: conditions on the trick and the
contract, all of which must hold; ``contracts``: the contracts it applies in), the nodes to go
on with when the stage narrowed the choice (``then``) and when it could not (``otherwise``).

**Semantics: "prefer X if able".** The candidates start as the whole hand. In a list of nodes
the *first* node whose guard holds is evaluated (a decision tree, not a sequence); its stage
computes, among the candidates, the cards it prefers. The stage then

- *narrows*: the cards it prefers become the candidates, the stage becomes the rule a wrong card
  breaks, and ``then`` is evaluated;
- *is unable* (it prefers cards, but the candidates hold none; or this reading prefers none, as a
  ``beat`` with ``any``): ``otherwise`` is evaluated on the same candidates;
- *frees* the player (an exemption, a free discard, a ``free`` terminal): the whole hand is legal
  and the evaluation ends, citing the stage;
- *does not apply* (``overruff: not_required``; ``exempt: unraised_only`` in a raised contract;
  a ``ruff`` on a trump lead; a ``cinch`` for a player who holds none): the node is passed over
  as if its guard had failed, and the next node of its list is tried;
- *cannot be judged* (the ``cinch`` by ``sure_tricks`` without every active hand): passed over
  too, and the decision says that a stage was not judged, for a checker to list the card as
  unchecked.

The rule cited for the cards left is the last stage that narrowed them; when none did, the last
stage evaluated (the one that left every card free, which a trace counts). After the tree, the
nodes of ``after`` are applied one by one to the cards it left, each one "prefer X if able"
among them (Bourré's cinch refines whatever following suit and trumping allowed).

A profile changes a reading by replacing one stage rule (its option), or the tree as a whole.
The mechanisms are :mod:`..engine.stages`' and :mod:`..engine.obligations`'; this module holds
the data shape only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from baloot_conformance.rules.model import Rule

#: The stages of the library.
StageKind = Literal[
    "follow_suit",
    "beat",
    "ruff",
    "exempt",
    "overruff",
    "underruff",
    "lead_ban",
    "forced_lead",
    "first_trick_ban",
    "cinch",
    "free",
]

#: What a node's guard may test: the trick so far and the contract's state. ``locked`` and
#: ``raised`` are the contract's flags (Baloot's locked and raised Hokum); ``last``: the player
#: is the last to play to the trick.
Condition = Literal[
    "leading",
    "following",
    "trump_led",
    "plain_led",
    "partner_winning",
    "opponent_winning",
    "trump_winning",
    "locked",
    "raised",
    "last",
]

#: Conditions fixed for a whole hand by its contract: resolved when the tree is compiled.
CONTRACT_CONDITIONS: frozenset[str] = frozenset({"locked", "raised"})


@dataclass(frozen=True, slots=True)
class Node:
    """One node of the obligation tree."""

    rule: str
    """The key of a stage rule of this section (``hokum.ruff``)."""
    when: tuple[Condition, ...] = ()
    contracts: tuple[str, ...] = ()
    """The contracts the node applies in; empty: all."""
    then: tuple[Node, ...] = ()
    otherwise: tuple[Node, ...] = ()


@dataclass(frozen=True, slots=True)
class Obligations(Rule):
    """The tree of stages (``play.obligations``), and the refinements applied after it."""

    tree: tuple[Node, ...]
    after: tuple[Node, ...] = ()
    """Nodes applied in order to the cards the tree left, each "prefer X if able" among them."""


# --- the stage library ------------------------------------------------------------------------
# Each stage kind is a rule class with the parameters of its mechanism; ``stage`` names it in
# the YAML (``stage: beat``). Their sentences are the engine's (``engine.obligations``).


@dataclass(frozen=True, slots=True)
class FollowSuit(Rule):
    """Play a card of the suit led if able."""

    stage: Literal["follow_suit"]


@dataclass(frozen=True, slots=True)
class Beat(Rule):
    """Among the candidates, a card that beats ``target`` if able: Bourré's "head the trick",
    Baloot's trump lead. Whether it binds depends on who is winning the trick."""

    stage: Literal["beat"]
    target: Literal["winning", "highest_led"]
    """``winning``: the card winning the trick so far (a trump once someone trumped);
    ``highest_led``: the highest card of the suit led, whoever trumped."""
    opponent_winning: Literal["must_beat", "any"]
    """An opponent's card is winning (without teams: anyone else's): beat it, or any candidate."""
    partner_winning: Literal["must_beat", "any"] = "any"
    """The partner's card is winning (teams only)."""


@dataclass(frozen=True, slots=True)
class Ruff(Rule):
    """Void in a plain suit led: a trump if able."""

    stage: Literal["ruff"]
    option: Literal["required", "optional"]
    """``optional``: any card, a trump or not (and no over-ruff or under-ruff obligation)."""


@dataclass(frozen=True, slots=True)
class Exempt(Rule):
    """The partner is winning the trick: the player is freed from what follows (trumping)."""

    stage: Literal["exempt"]
    option: Literal["any_seat", "last_or_certain_top", "never", "unraised_only"]
    """``any_seat``: always; ``last_or_certain_top``: as the last to play, or when the card led
    is a certain top; ``never``; ``unraised_only``: any seat in an unraised contract, and in a
    raised one the partner's winning card binds as an opponent's (the node is passed over)."""
    certain_tops: tuple[Literal["plain_top"], ...] = ()
    """The led cards that count as certain tops: ``plain_top``, the highest card of a plain
    suit. (A led trump is a trump lead, followed with trump before any exemption is reached, so
    the library has no trump value: Baloot's ``trump_jack`` decides nothing.)"""


@dataclass(frozen=True, slots=True)
class Overruff(Rule):
    """An opponent's trump is winning: a higher trump if able."""

    stage: Literal["overruff"]
    option: Literal["required", "not_required"]


@dataclass(frozen=True, slots=True)
class Underruff(Rule):
    """Bound to over-ruff but unable: a lower trump (``forced``) or any card (``free``)."""

    stage: Literal["underruff"]
    option: Literal["forced", "free"]


@dataclass(frozen=True, slots=True)
class LeadBan(Rule):
    """No lead of the banned cards unless the hand holds nothing else (a guard such as
    ``locked`` says when); with ``broken_by``, only until one of those cards has been played
    (Hearts: hearts are "broken")."""

    stage: Literal["lead_ban"]
    suits: tuple[str, ...] = ()
    """Suit letters, or ``trump`` for the contract's trump suit."""
    cards: tuple[str, ...] = ()
    """Cards banned besides the suits (Barbu's King of hearts: ``KH``)."""
    broken_by: tuple[str, ...] = ()
    """Card patterns (a suit letter, a card) whose play in an earlier trick lifts the ban;
    empty: it holds all hand."""
    unless_only: tuple[str, ...] = ()
    """Cards that lift the ban when they are all the player could lead instead (OpenSpiel's
    ``can_lead_hearts_instead_of_qs``: holding only hearts and the Queen of spades, a heart
    may be led)."""
    option: Literal["binding", "not_binding"] = "binding"
    """``not_binding``: no ban (the node is passed over): OpenSpiel's ``must_break_hearts``
    false."""


@dataclass(frozen=True, slots=True)
class ForcedLead(Rule):
    """The first lead of the hand must be ``card`` (Hearts' two of clubs; its holder leads,
    ``phases.tricks.first_lead``)."""

    stage: Literal["forced_lead"]
    card: str
    option: Literal["card", "suit"] = "card"
    """``card``: that card; ``suit``: any card of its suit (OpenSpiel's
    ``can_lead_any_club``)."""


@dataclass(frozen=True, slots=True)
class FirstTrickBan(Rule):
    """On the first trick a player who cannot follow suit may not play a banned card unless
    he holds nothing else (Hearts: no points on the first trick)."""

    stage: Literal["first_trick_ban"]
    cards: tuple[str, ...]
    """Card patterns (a suit letter, a card)."""
    option: Literal["binding", "not_binding"] = "binding"
    """``not_binding``: no ban (OpenSpiel's ``no_pts_on_first_trick`` false)."""


@dataclass(frozen=True, slots=True)
class Free(Rule):
    """A terminal that leaves every card free, cited (Baloot's Sun, void in the suit led)."""

    stage: Literal["free"]


CinchEffect = Literal["lead_top_trump", "play_top_trump", "win_if_last"]


@dataclass(frozen=True, slots=True)
class Cinch(Rule):
    """A player sure of ``tricks`` tricks (a cinch) must play to take them (Bourré)."""

    stage: Literal["cinch"]
    definition: Literal["sure_tricks", "top_three_trumps"]
    """``sure_tricks``: the tricks already taken and the trumps held above every trump of the
    other active hands make ``tricks`` (judged with every hand known: the referee's view; a
    partial transcript leaves it unchecked); ``top_three_trumps``: the tricks taken and the
    trumps held above every trump not yet played make ``tricks`` (A-K-Q of trump, judged from
    the player's own hand). A trump above every other one wins whichever trick it is played
    to, so each is a sure trick; plain cards are not counted (an Ace may be trumped, or thrown
    away when void), which makes ``sure_tricks`` the certain count, not a search."""
    effects: tuple[CinchEffect, ...]
    """``lead_top_trump``: when leading, lead the top trump; ``play_top_trump``: when following
    (not last), play the top trump if the candidates hold it; ``win_if_last``: as the last to
    play, win the trick if able."""
    touching_equivalent: bool = False
    """A lower trump touching the top one (every trump between them held or already played)
    counts as the top trump."""
    tricks: int = 3


#: Every stage rule class, by the ``stage`` its YAML names.
STAGE_CLASSES: Mapping[str, type[Rule]] = {
    "follow_suit": FollowSuit,
    "beat": Beat,
    "ruff": Ruff,
    "exempt": Exempt,
    "overruff": Overruff,
    "underruff": Underruff,
    "lead_ban": LeadBan,
    "forced_lead": ForcedLead,
    "first_trick_ban": FirstTrickBan,
    "free": Free,
    "cinch": Cinch,
}

StageRule = (
    FollowSuit
    | Beat
    | Ruff
    | Exempt
    | Overruff
    | Underruff
    | LeadBan
    | ForcedLead
    | FirstTrickBan
    | Free
    | Cinch
)


@dataclass(frozen=True, slots=True)
class PlaySection:
    obligations: Obligations
    stages: Mapping[str, StageRule]
    """Every stage rule, by key (its ID is ``play.<key>``)."""
    trick_winner: Rule
    """The highest trump, else the highest card of the suit led."""
