"""The typed shape of a trick ruleset (``format: trick-ruleset/1``): what the family engine
receives.

A trick ruleset has the sections ``table`` (the pack, its orders, the seats, teams, direction,
dealer rotation), ``contracts`` (the contracts a hand may be played in, as records),
``phases`` (the hand as an ordered pipeline of phase *kinds* from a closed library, each kind's
rules under its own keys), ``play`` (the obligations: a tree of named *stages* from a closed
library, see :mod:`.play`), ``scoring`` (card values, outcome, settlement) and ``game`` (a
target, a fixed schedule or an open session). As in ``baloot-ruleset/1``, every rule sits
under a key of its section, its ID is ``section.key`` (``phases.draw.discards``), and it has a
statement, sources, optional notes and, where readings differ, a named ``option``: profiles,
``spec diff --witness`` and the live-option test work on it unchanged.

A new game adds a kind to :data:`PhaseKind`, a stage to :mod:`.play`'s library or an option
value, never an expression language: what no option can express goes under ``unmodelled``.

Conventions every section shares:

- **Cards** are written as in BTN: a rank code (``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A``)
  and a suit letter (``S H D C``). The pack is ``table.deck``'s suits x ranks; its card indices
  run suit by suit in the listed order (:mod:`..engine.deck`).
- **Seats** are listed *clockwise around the table* (``[Seats "P1 P2 P3"]`` in BTN 2, or the
  fixed names of ``table.seats``), and ``table.direction`` says which way the turn passes:
  clockwise, each seat's successor is the next name in the list; counter-clockwise, the
  previous one. Baloot's table is ``N E S W`` clockwise, played counter-clockwise:
  N, W, S, E, as BTN 1 orders it.

This module holds data shapes only: reading YAML is :mod:`.loading`'s job, the mechanisms are
the engine's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from baloot_conformance.rules.defects import Defect
from baloot_conformance.rules.formula import Formula
from baloot_conformance.rules.model import Rule, formula_field, key

#: The format a trick ruleset declares on its first line.
FORMAT = "trick-ruleset/1"

#: The phase kinds of the library, in the order a pipeline may use them. Each has its rules
#: under ``phases.<kind>`` or ``phases.<kind>.<key>``.
PhaseKind = Literal["ante", "deal", "draw", "choose", "wagers", "tricks", "layout", "settle"]

#: The variables of a settlement formula (Bourré's payments): the pot before the payment and
#: the pot limit (0: no limit).
POT_VARIABLES: dict[str, Literal["number", "bool"]] = {"pot": "number", "limit": "number"}

#: The variables of a wager's settlement (Barbu's doubles): the two players' points in the
#: hand, the higher and the lower, and the level of the bet between them (1: one doubled the
#: other; 2: both did, a double and its redouble).
WAGER_VARIABLES: dict[str, Literal["number", "bool"]] = {
    "high": "number",
    "low": "number",
    "level": "number",
}

#: Where a card pattern of a value table or a ban points: a suit letter (``H``: every heart),
#: a rank code (``Q``: every queen) or a card (``QS``). The most specific pattern that matches
#: a card gives its value: a card, then a rank, then a suit.
CardPattern = str


def optional_key(rule_key: str) -> Any:
    """A rule a ruleset may leave out (its phase kind or mechanism is not used): ``None``."""
    return field(default=None, metadata={"key": rule_key})


# --- table ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deck(Rule):
    """The pack: every suit x every rank, one copy of each card."""

    suits: tuple[str, ...]
    """Suit letters, in the order the pack's indices (and a sorted hand) run."""
    ranks: tuple[str, ...]
    """Rank codes, lowest first (the natural order, ``2`` to ``A``)."""


@dataclass(frozen=True, slots=True)
class CardOrder(Rule):
    """The ranks from strongest to weakest, in plain suits or in trump."""

    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Seats(Rule):
    """How many sit at the table and what they are called."""

    min: int
    max: int
    names: tuple[str, ...] = ()
    """Fixed names, clockwise (Baloot ``N E S W``); empty: numbered ``<prefix>1`` ..."""
    prefix: str = "P"
    """Numbered seats are ``P1`` ... ``Pn`` (a transcript lists its own in ``[Seats]``)."""


@dataclass(frozen=True, slots=True)
class Teams(Rule):
    option: Literal["none", "partners"]
    """``none``: every player for himself; ``partners``: two teams, partners opposite (an even
    number of seats)."""


@dataclass(frozen=True, slots=True)
class Direction(Rule):
    option: Literal["clockwise", "counter_clockwise"]
    """Which way the deal, the declarations and the play go round the table."""


@dataclass(frozen=True, slots=True)
class DealerRotation(Rule):
    option: Literal["next", "stay", "declarer_right", "declarer"]
    """``next``: the deal passes to the next seat in the direction of play; ``stay``: the same
    dealer deals again; ``declarer_right``: the seat before the hand's declarer deals (Barbu:
    the declarer's right; the declarer is ``game.declarers``'); ``declarer``: the declarer
    deals."""


@dataclass(frozen=True, slots=True)
class TableSection:
    deck: Deck = key("deck")
    order_plain: CardOrder = key("order.plain")
    seats: Seats = key("seats")
    teams: Teams = key("teams")
    direction: Direction = key("direction")
    dealer_rotation: DealerRotation = key("dealer.rotation")
    order_trump: CardOrder | None = optional_key("order.trump")
    """The trump suit's order; absent where no contract has a trump (Hearts)."""


# --- contracts -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Values:
    """What a contract's hand is worth to each player (Barbu's, Hearts'): the sum of every
    part that applies. Negative values are penalties."""

    per_trick: int = 0
    """Points for each trick a player takes."""
    cards: Mapping[CardPattern, int] = field(default_factory=dict)
    """Points for each card a player takes in his tricks, by pattern (the most specific
    pattern matching a card gives its value: ``AH: -6`` over ``H: -2``)."""
    last_tricks: tuple[int, ...] = ()
    """Points for taking the last tricks, in play order (``[-10, -20]``: the last but one,
    the last)."""
    places: tuple[int, ...] = ()
    """Points by finishing place in a layout contract (first out first)."""


@dataclass(frozen=True, slots=True)
class Contract(Rule):
    """One contract a hand may be played in: what fixes its trump, how it is played, what it
    is worth."""

    trump: Literal["none", "faceup_suit", "named"]
    """``none``: no trump; ``faceup_suit``: the suit of the face-up card (Bourré);
    ``named``: the suit named for the hand (Barbu's trumps, by the declarer's choice;
    Baloot's Hokum, by its auction)."""
    play: Literal["tricks", "layout"] = "tricks"
    """``tricks``: played as tricks; ``layout``: the cards are built into a layout (Barbu's
    Domino: the ``layout`` phase), from a start rank the declarer names."""
    positive: bool = False
    """A positive contract (points to win) rather than a negative one (penalties to avoid):
    ``phases.wagers.positive`` says who may be doubled in it."""
    ends: Literal["last_trick", "scored"] = "last_trick"
    """``scored``: the play ends with the trick that takes the last card its ``values`` score
    (the fourth queen, the King of hearts), the rest of the cards unplayed."""
    values: Values | None = None
    """What the hand is worth to each player (``scoring.outcome`` ``points``)."""


# --- phases ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pipeline(Rule):
    """The phases of a hand, in order. Each kind's rules are under ``phases.<kind>``."""

    kinds: tuple[PhaseKind, ...]


@dataclass(frozen=True, slots=True)
class Ante(Rule):
    """Before the deal, each player pays ``chips`` into the pot, unless exempt."""

    chips: int
    exempt: tuple[Literal["tie_leaders", "bourre"], ...] = ()
    """Who skips this ante after the previous hand: the players tied for most tricks (their
    pot carried), a player who took no trick (he paid into the pot already)."""
    stay: int = 0
    """Chips a player pays, on top, to stay in after declaring play (the double-ante
    variant); 0: none."""


@dataclass(frozen=True, slots=True)
class Deal(Rule):
    """Every seat is dealt ``cards`` cards, one at a time, from the seat after the dealer."""

    cards: int
    faceup: Literal["none", "dealer_last"]
    """``dealer_last``: the dealer's last card is dealt face up, for all to see."""


@dataclass(frozen=True, slots=True)
class Declare(Rule):
    """Before the draw, each player says whether he plays (and how many he discards) or passes."""

    option: Literal["in_turn", "intent_then_draw", "simultaneous"]
    """``in_turn``: one at a time from the dealer's next seat, each saying play (with how many
    cards he discards, and served at once) or pass; ``intent_then_draw``: every player says
    play or pass first, then those in discard and draw in a second round, in the same order;
    ``simultaneous``: all say play or pass at once (a transcript may list them in any order),
    then draw in turn."""


@dataclass(frozen=True, slots=True)
class DiscardLimit:
    """A lower discard limit at one table size (``{players: 7, max: 3}``)."""

    players: int
    max: int


@dataclass(frozen=True, slots=True)
class Discards(Rule):
    """How many cards a player who plays may discard and draw."""

    max: int
    by_players: tuple[DiscardLimit, ...] = ()
    """Lower limits at some table sizes (seven players: three at most)."""

    def limit(self, players: int) -> int:
        """The most cards a player may discard at a table of ``players``."""
        return next((d.max for d in self.by_players if d.players == players), self.max)


@dataclass(frozen=True, slots=True)
class Refill(Rule):
    """What the dealer deals from once the stock is used up."""

    option: Literal["reshuffle_discards", "folded_first", "none"]
    """``reshuffle_discards``: the discards are gathered, shuffled and dealt on;
    ``folded_first``: the folded hands are gathered, shuffled and dealt on, then (when they too
    run out) the discards; ``none``: a player may discard no more than the stock holds."""
    exclude_own: bool = False
    """The gathered discards leave out those of the player being served."""


@dataclass(frozen=True, slots=True)
class FaceupAce(Rule):
    option: Literal["dealer_plays", "no_effect"]
    """``dealer_plays``: when the face-up card is an Ace, the dealer may not pass."""


@dataclass(frozen=True, slots=True)
class LonePlayer(Rule):
    option: Literal["takes_pot", "plays_out"]
    """When all but one pass: ``takes_pot``: he wins every trick and the pot without play;
    ``plays_out``: the hand is played as usual."""


Offset = Literal["left", "right", "across", "none"]


@dataclass(frozen=True, slots=True)
class PassCards(Rule):
    """The draw as a pass (Hearts): every player passes ``cards`` cards face down to the seat
    the hand's ``cycle`` entry names, and receives as many from the seat on the other side
    (``none``: no pass that hand). Hand ``n`` of the game passes by entry ``(n - 1) mod``
    the cycle's length; ``left`` is the next seat in the direction of play."""

    cards: int
    cycle: tuple[Offset, ...]


@dataclass(frozen=True, slots=True)
class Choose(Rule):
    """The declarer chooses the hand's contract (and, for a ``named`` trump, its suit; for a
    layout, its start rank)."""

    option: Literal["each_once", "any"]
    """``each_once``: each contract once in a declarer's block of hands (``game.declarers``),
    so the last hand of a block has the one left; ``any``: any contract every hand."""


@dataclass(frozen=True, slots=True)
class WagerDeclarer(Rule):
    option: Literal["answer_only", "any"]
    """What the declarer may do in the doubling: ``answer_only``: redouble players who
    doubled him, double nobody; ``any``: double anybody."""


@dataclass(frozen=True, slots=True)
class WagerPositive(Rule):
    option: Literal["declarer_only", "any"]
    """Who may be doubled in a positive contract: ``declarer_only``: the declarer alone;
    ``any``: anybody, as in a negative one."""


@dataclass(frozen=True, slots=True)
class WagerQuota(Rule):
    """Each other player must double the declarer at least ``doubles`` times in the
    declarer's block of hands (``game.declarers``)."""

    doubles: int
    option: Literal["per_block"] = "per_block"


@dataclass(frozen=True, slots=True)
class Layout(Rule):
    """A layout contract (Domino): from ``first`` on, in turn, a player adds a card to the
    layout if he can, and knocks only when he cannot: a card of the start rank opens its
    suit's row, a card one rank above or below a row's end extends it. A player who has
    played his last card is out, and takes the next place; play goes on until one player is
    left, who takes the last."""

    first: Literal["declarer", "declarer_left"]
    """Who plays the first card."""


@dataclass(frozen=True, slots=True)
class Tricks(Rule):
    """The play: ``count`` tricks, one card from each seat still in. The first seat after the
    dealer still in the hand leads the first trick (no reading differs: a folded seat cannot
    lead, so "the seat after the dealer" and "the first active one" name the same seat), and
    the winner of each trick leads the next."""

    count: int
    first_lead: Literal["dealer_next", "declarer", "holder"] = "dealer_next"
    """Who leads the first trick: the first seat after the dealer still in (Bourré), the
    declarer (Barbu), or the seat holding ``holder`` (Hearts: the two of clubs)."""
    holder: str | None = None
    """The card whose holder leads first (``first_lead: holder``)."""


@dataclass(frozen=True, slots=True)
class PhasesSection:
    pipeline: Pipeline = key("pipeline")
    deal: Deal = key("deal")
    tricks: Tricks = key("tricks")
    ante: Ante | None = optional_key("ante")
    declare: Declare | None = optional_key("draw.declare")
    discards: Discards | None = optional_key("draw.discards")
    refill: Refill | None = optional_key("draw.refill")
    faceup_ace: FaceupAce | None = optional_key("draw.faceup_ace")
    lone_player: LonePlayer | None = optional_key("draw.lone_player")
    pass_cards: PassCards | None = optional_key("draw.pass")
    choose: Choose | None = optional_key("choose")
    wager_declarer: WagerDeclarer | None = optional_key("wagers.declarer")
    wager_positive: WagerPositive | None = optional_key("wagers.positive")
    wager_quota: WagerQuota | None = optional_key("wagers.quota")
    layout: Layout | None = optional_key("layout")


# --- scoring --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardPoints(Rule):
    """Card points by rank, counted in the tricks a side takes (Baloot's tables)."""

    points: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Outcome(Rule):
    option: Literal["most_tricks", "card_points", "points"]
    """``most_tricks``: the player with strictly more tricks than any other wins (a tie: no
    winner); ``card_points``: the sides' card points are the result; ``points``: each player
    scores the ``values`` of the hand's contract (then the wagers settle between pairs)."""


@dataclass(frozen=True, slots=True)
class PotTie(Rule):
    option: Literal["carry"]
    """No strict winner: ``carry``: the pot stays for the next hand, the antes are added to it
    (who antes: :class:`Ante`'s ``exempt``). Every source read carries the pot (a "replay"
    among the tied players alone is none's reading)."""


@dataclass(frozen=True, slots=True)
class Payment(Rule):
    """What a player pays into the next pot (a bourré, a renege), by formula."""

    pays: Formula = formula_field(POT_VARIABLES, "number")


@dataclass(frozen=True, slots=True)
class PotLimit(Rule):
    chips: int
    """The most a payment into the pot may be; 0: no limit."""
    caps: Literal["payments", "payments_and_winnings"] = "payments"
    """``payments``: the limit caps the bourré and renege payments; ``payments_and_winnings``:
    the winner too takes at most the limit, the rest of the pot carrying to the next hand."""


@dataclass(frozen=True, slots=True)
class WagerSettlement(Rule):
    """What a wager between two players moves: the formula's amount goes from the one with
    fewer points in the hand to the one with more (nothing when they are level)."""

    pays: Formula = formula_field(WAGER_VARIABLES, "number")


@dataclass(frozen=True, slots=True)
class Moon(Rule):
    """A player who takes every card that scores (Hearts: shooting the moon)."""

    option: Literal["others_score", "shooter_subtracts", "none"]
    """``others_score``: he scores nothing and every other player scores the total he took;
    ``shooter_subtracts``: he scores the total with its sign turned; ``none``: no effect."""


@dataclass(frozen=True, slots=True)
class NoTricks(Rule):
    """A player who takes no trick scores ``points`` (OpenSpiel's ``avoid_all_tricks_bonus``);
    0: nothing."""

    points: int


@dataclass(frozen=True, slots=True)
class ScoringSection:
    outcome: Outcome = key("outcome")
    points_plain: CardPoints | None = optional_key("points.plain")
    points_trump: CardPoints | None = optional_key("points.trump")
    tie: PotTie | None = optional_key("pot.tie")
    bourre: Payment | None = optional_key("pot.bourre")
    renege: Payment | None = optional_key("pot.renege")
    limit: PotLimit | None = optional_key("pot.limit")
    wagers: WagerSettlement | None = optional_key("wagers")
    moon: Moon | None = optional_key("moon")
    no_tricks: NoTricks | None = optional_key("no_tricks")


# --- game -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameKind(Rule):
    option: Literal["session", "target", "schedule"]
    """``session``: hands follow one another with no end (Bourré's pot carries); ``target``:
    first to ``target`` points; ``schedule``: a fixed number of ``hands``."""
    target: int | None = None
    hands: int | None = None


@dataclass(frozen=True, slots=True)
class Declarers(Rule):
    """Who declares each hand (Barbu): the first declarer is drawn at random."""

    option: Literal["block", "rotate"]
    """``block``: one declarer for ``hands`` hands in a row, then the next seat in the
    direction of play; ``rotate``: the next seat declares each hand."""
    hands: int
    """How many hands each player declares in a game (one block under ``block``)."""


@dataclass(frozen=True, slots=True)
class GameSection:
    kind: GameKind = key("kind")
    declarers: Declarers | None = optional_key("declarers")


# --- the ruleset ----------------------------------------------------------------------------


#: The sections of a trick ruleset, in document order, and their typed shapes (``play`` is
#: :class:`.play.PlaySection`, added by :mod:`.loading`).
SECTIONS: dict[str, type] = {
    "table": TableSection,
    "phases": PhasesSection,
    "scoring": ScoringSection,
    "game": GameSection,
}


@dataclass(frozen=True)
class TrickRuleset:
    """A resolved, validated trick ruleset: what the family engine runs on.

    The same face as the Baloot :class:`~baloot_conformance.rules.ruleset.Ruleset` where the
    tools need one (``id``, ``version``, ``digest``, ``lineage``, ``document``, ``rule``,
    ``iter_rules``), so reports, ``spec`` and the comparisons treat both alike.
    """

    id: str
    version: str
    title: str
    description: str
    path: str
    lineage: tuple[str, ...]
    table: TableSection
    contracts: Mapping[str, Contract]
    phases: PhasesSection
    play: Any
    """The :class:`.play.PlaySection` (typed there; the obligation stages and their tree)."""
    scoring: ScoringSection
    game: GameSection
    sources: Mapping[str, str]
    digest: str
    document: Mapping[str, Any] = field(repr=False, compare=False)
    defects: tuple[Defect, ...] = ()
    format: str = FORMAT

    @property
    def major(self) -> int:
        return int(self.version.split(".")[0])

    def iter_rules(self) -> Iterator[Rule]:
        """Every rule that is present, section by section in document order."""
        import dataclasses

        for name in ("table", "contracts", "phases", "play", "scoring", "game"):
            holder = getattr(self, name)
            if isinstance(holder, Mapping):  # the contracts (the play section's stand-in)
                yield from (v for v in holder.values() if isinstance(v, Rule))
                continue
            for f in dataclasses.fields(holder):
                value = getattr(holder, f.name)
                if isinstance(value, Rule):
                    yield value
                elif isinstance(value, Mapping):
                    yield from (v for v in value.values() if isinstance(v, Rule))

    def rule(self, rule_id: str) -> Rule:
        """The rule with this ID. Raises KeyError for an unknown ID."""
        for candidate in self.iter_rules():
            if candidate.id == rule_id:
                return candidate
        raise KeyError(rule_id)
