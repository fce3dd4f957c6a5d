"""The typed shape of every rule: what the engine receives from a ruleset.

A ruleset is made of sections (``cards``, ``deal``, ``bidding``, ``doubling``, ``play``,
``projects``, ``scoring``, ``claims``, ``game``); each section holds rules under their keys, and
a rule's ID is ``section.key`` (``play.hokum.overruff``). Here each section is a frozen
dataclass whose fields are the rules, typed by the parameters their mechanism takes; the named
options are ``Literal`` strings, so a mistyped option is a type error in the engine.

This module holds data shapes only. Reading YAML is :mod:`~baloot_conformance.rules.loading`'s
job; implementing the mechanisms is the engine's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from baloot_conformance.cards import Rank, Suit
from baloot_conformance.rules.formula import Formula

#: The only ruleset format this version of the kit reads.
FORMAT = "baloot-ruleset/1"

Contract = Literal["sun", "hokum"]
ProjectName = Literal["sira", "fifty", "hundred.sequence", "hundred.four_of_a_kind", "four_hundred"]


#: The variables each kind of formula may use, and their types.
CONVERSION_VARIABLES: dict[str, Literal["number", "bool"]] = {
    "raw": "number",
    "other_raw": "number",
    "is_buyer": "bool",
    "takes_risk": "bool",
}
#: What a hand ended by a claim scores (a wrong Sawa, a foul call): the contract's figures and
#: the side that scores (the innocent side), for a penalty formula.
PENALTY_VARIABLES: dict[str, Literal["number", "bool"]] = {
    "round_value": "number",
    "kaboot_value": "number",
    "level": "number",
    "projects": "number",
    "baloot": "number",
    "offender_tricks": "number",
    "offender_projects": "number",
}
SUN_DOUBLING_VARIABLES: dict[str, Literal["number", "bool"]] = {
    "buyer_total": "number",
    "doubler_total": "number",
}


def key(rule_key: str) -> Any:
    """Declare a section field holding the rule stored under ``rule_key`` in the YAML."""
    return field(metadata={"key": rule_key})


def formula_field(variables: Mapping[str, Literal["number", "bool"]], result: str) -> Any:
    """Declare a formula parameter: the variables it may use and the type it must yield."""
    return field(metadata={"variables": variables, "result": result})


@dataclass(frozen=True, slots=True)
class Rule:
    """What every rule has: its ID, a one-line statement, its sources and optional notes."""

    id: str
    statement: str
    sources: tuple[str, ...]
    notes: str | None


# --- shared parameter shapes -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ContractPoints:
    """A number per contract; ``None`` where the item does not exist in that contract."""

    sun: int | None = None
    hokum: int | None = None

    def for_contract(self, contract: Contract) -> int | None:
        return self.sun if contract == "sun" else self.hokum


@dataclass(frozen=True, slots=True)
class ContractRaw:
    """A project's raw value in each contract (one number in most rulesets)."""

    sun: int
    hokum: int

    def for_contract(self, contract: Contract) -> int:
        return self.sun if contract == "sun" else self.hokum


@dataclass(frozen=True, slots=True)
class ContractRanks:
    """A set of ranks per contract (empty where none apply)."""

    sun: tuple[Rank, ...] = ()
    hokum: tuple[Rank, ...] = ()

    def for_contract(self, contract: Contract) -> tuple[Rank, ...]:
        return self.sun if contract == "sun" else self.hokum


@dataclass(frozen=True, slots=True)
class RaiseLevel:
    """One step of the raise chain: its call word, who may call it, its multiplier."""

    call: str
    by: Literal["opponents", "buyer_team", "buyer", "doubler", "buyer_right"]
    """A side (either of its players may call), or one player: the buyer, the player who
    called the first raise, or the buyer's right-hand opponent."""
    multiplier: int

    @property
    def side(self) -> Literal["opponents", "buyer_team"]:
        """The side the caller belongs to."""
        return "buyer_team" if self.by in ("buyer_team", "buyer") else "opponents"


# --- cards ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deck(Rule):
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]


@dataclass(frozen=True, slots=True)
class CardOrder(Rule):
    """Ranks from highest to lowest."""

    order: tuple[Rank, ...]


@dataclass(frozen=True, slots=True)
class CardPoints(Rule):
    points: Mapping[Rank, int]


@dataclass(frozen=True, slots=True)
class Points(Rule):
    points: int


@dataclass(frozen=True, slots=True)
class Totals(Rule):
    sun: int
    hokum: int


@dataclass(frozen=True, slots=True)
class CardsSection:
    deck: Deck = key("deck")
    order_plain: CardOrder = key("order.plain")
    order_trump: CardOrder = key("order.trump")
    order_sequence: CardOrder = key("order.sequence")
    points_plain: CardPoints = key("points.plain")
    points_trump: CardPoints = key("points.trump")
    last_trick: Points = key("last_trick")
    totals: Totals = key("totals")


# --- deal ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Direction(Rule):
    option: Literal["counter_clockwise"]


@dataclass(frozen=True, slots=True)
class DealerRotation(Rule):
    after_all_pass: Literal["rotate", "same_dealer"]


@dataclass(frozen=True, slots=True)
class FirstRound(Rule):
    packets: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Completion(Rule):
    buyer: int
    others: int


@dataclass(frozen=True, slots=True)
class ExposedAce(Rule):
    option: Literal["no_redeal", "redeal"]


@dataclass(frozen=True, slots=True)
class Kawesh(Rule):
    """The redeal claim for a hand without scoring cards (كوش)."""

    option: Literal["disabled", "same_dealer", "next_dealer"]
    """``disabled``, or who deals the new hand."""
    hand: Literal["five", "eight"]
    """Which cards must qualify: the first five (claimed in the auction), or all eight
    (claimed after the completion, before the first card)."""
    ranks: tuple[Rank, ...]
    """The ranks a qualifying hand may hold (7, 8 and 9: no scoring card)."""
    window: Literal["before_first_bid", "before_own_call", "auction"]
    """Until when a five-card Kawesh may be claimed: in round 1 until somebody bids (a pass
    does not close it), before the claimant's own first call, or while the auction lasts."""
    turn: Literal["own_turn", "any_time"]
    """Who may claim: only the player whose turn it is to call, or the holder at any moment
    of the window."""


@dataclass(frozen=True, slots=True)
class DealSection:
    seating: Rule = key("seating")
    direction: Direction = key("direction")
    dealer_rotation: DealerRotation = key("dealer.rotation")
    first_round: FirstRound = key("first_round")
    faceup: Rule = key("faceup")
    completion: Completion = key("completion")
    exposed_ace: ExposedAce = key("exposed_ace")
    kawesh: Kawesh = key("kawesh")


# --- bidding -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BiddingOrder(Rule):
    """Who calls first; the others follow counter-clockwise."""

    first: Literal["dealer_right", "dealer"] = "dealer_right"
    """The first seat of a hand: dealt first, first to call and, under ``play.first_lead``
    ``first_seat``, first to lead: the dealer's right (the dealer calls last), or the dealer
    (a house rule)."""


@dataclass(frozen=True, slots=True)
class Rounds(Rule):
    count: int


@dataclass(frozen=True, slots=True)
class Round2HokumSuit(Rule):
    option: Literal["other_than_faceup", "any"]
    named: Literal["at_bid", "at_confirmation"]


@dataclass(frozen=True, slots=True)
class HokumOverHokum(Rule):
    option: Literal["forbidden", "priority_hijack", "said"]
    """``said``: a later Hokum is a call of its seat's turn that changes nothing."""


@dataclass(frozen=True, slots=True)
class HokumConfirmation(Rule):
    option: Literal["confirm_or_switch", "confirm_only"]
    ace_faceup_switch: Literal["first_seat_only", "allowed", "forbidden"]


@dataclass(frozen=True, slots=True)
class Ashkal(Rule):
    buyer: Literal["caller", "partner"]


@dataclass(frozen=True, slots=True)
class AshkalEligibility(Rule):
    seats: tuple[int, ...]
    """Bidding positions (1 = the dealer's right ... 4 = the dealer) that may say Ashkal."""
    rounds: tuple[int, ...]
    when: Literal["any_time", "vs_opposing_hokum", "not_vs_partner_hokum"]
    ace_faceup: Literal["forbidden", "allowed"]
    ineligible: Literal["refused", "counts_as_sun"]
    """What an Ashkal said by a player who may not say it is: an illegal call, or a Sun."""
    after_pass: tuple[int, ...] = ()
    """Bidding rounds in which a seat that has passed may not say Ashkal later in the round
    (in answer to a later Hokum); absent: a pass bars nothing."""


SunClaimants = Literal[
    "live_only", "passed_may_claim", "all_earlier", "all_earlier_if_live", "none"
]


@dataclass(frozen=True, slots=True)
class SunPriority(Rule):
    option: SunClaimants
    claims: Literal["called", "lapse"] = "called"
    """``called``: each seat entitled answers (claims or passes); ``lapse``: the window closes
    by itself at the next event that is not a claim (the seats' passes are not logged)."""
    round2: SunClaimants | None = None
    """Round 2's option when it differs from round 1's."""

    def in_round(self, round_: int) -> SunClaimants:
        return self.round2 if round_ == 2 and self.round2 is not None else self.option


@dataclass(frozen=True, slots=True)
class HokumResponses(Rule):
    option: Literal["later_seats", "all_others"]
    round2: Literal["later_seats", "all_others"] | None = None
    """Round 2's option when it differs from round 1's."""

    def in_round(self, round_: int) -> Literal["later_seats", "all_others"]:
        return self.round2 if round_ == 2 and self.round2 is not None else self.option


@dataclass(frozen=True, slots=True)
class CallWords(Rule):
    aliases: Mapping[str, str]
    """An engine's own call words and the calls they mean (``confirm_sun: sun``)."""


@dataclass(frozen=True, slots=True)
class BiddingSection:
    order: BiddingOrder = key("order")
    rounds: Rounds = key("rounds")
    round1_calls: Rule = key("round1.calls")
    round2_hokum_suit: Round2HokumSuit = key("round2.hokum_suit")
    sun_over_hokum: Rule = key("sun_over_hokum")
    hokum_over_hokum: HokumOverHokum = key("hokum_over_hokum")
    hokum_responses: HokumResponses = key("hokum_responses")
    hokum_confirmation: HokumConfirmation = key("hokum_confirmation")
    ashkal: Ashkal = key("ashkal")
    ashkal_eligibility: AshkalEligibility = key("ashkal.eligibility")
    sun_priority: SunPriority = key("sun_priority")
    all_pass: Rule = key("all_pass")
    call_words: CallWords = key("call_words")


# --- doubling ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Chain(Rule):
    levels: tuple[RaiseLevel, ...]


@dataclass(frozen=True, slots=True)
class Window(Rule):
    option: Literal["before_first_lead", "in_turn", "in_turn_from_buyer", "first_pass"]


@dataclass(frozen=True, slots=True)
class SunDoubling(Rule):
    max_call: str
    """The highest call of the chain a Sun may take, or ``none``."""
    condition: Formula = formula_field(SUN_DOUBLING_VARIABLES, "bool")
    """Boolean formula over ``buyer_total`` and ``doubler_total`` (the game totals)."""


@dataclass(frozen=True, slots=True)
class Lock(Rule):
    option: Literal[
        "doubler_at_double",
        "each_raiser",
        "buyer_after_raises",
        "four_only",
        "at_double_and_four",
        "automatic",
        "none",
    ]
    gahwa_open: bool


@dataclass(frozen=True, slots=True)
class Gahwa(Rule):
    option: Literal["match_win", "fixed_points"]
    points: int


@dataclass(frozen=True, slots=True)
class RaisedTie(Rule):
    option: Literal["last_raiser", "initial_doubler", "buyer"]


@dataclass(frozen=True, slots=True)
class DoublingSection:
    chain: Chain = key("chain")
    window: Window = key("window")
    sun: SunDoubling = key("sun")
    lock: Lock = key("lock")
    gahwa: Gahwa = key("gahwa")
    tie: RaisedTie = key("tie")


# --- play ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FirstLead(Rule):
    option: Literal["first_seat", "buyer"]


@dataclass(frozen=True, slots=True)
class Ruff(Rule):
    option: Literal["required", "optional"]


@dataclass(frozen=True, slots=True)
class PartnerWinning(Rule):
    option: Literal["any_seat", "fourth_or_certain_top", "never", "unraised_only"]
    """``unraised_only``: any seat in an unraised Hokum, and never once it is raised."""
    certain_tops: tuple[Literal["plain_ace", "trump_jack"], ...]


@dataclass(frozen=True, slots=True)
class Overruff(Rule):
    option: Literal["required", "not_required"]


@dataclass(frozen=True, slots=True)
class Underruff(Rule):
    option: Literal["forced", "free"]


@dataclass(frozen=True, slots=True)
class TrumpLead(Rule):
    opponent_winning: Literal["must_beat", "any_trump"]
    partner_winning: Literal["any_trump", "must_beat"]


@dataclass(frozen=True, slots=True)
class Fouls(Rule):
    """An illegal card, and the foul call (قيد) that names one."""

    option: Literal["refused", "stand_until_called"]
    """``refused``: an illegal card is a divergence at once; ``stand_until_called``: it stands
    (a latent foul) until a player calls it."""
    callers: Literal["opponents", "anyone"]
    """Who may call a foul: the offender's opponents, or any player."""
    window: Literal["next_card", "trick_end", "hand_end", "proved"]
    """Until when a card may be called: before the next card, until the next trick begins, or
    to the hand's end (after its last card too); ``proved``: from the card that proves it (its
    offender plays a card it kept back) to that trick's end, any other call heard and wrong."""
    right_call: Formula = formula_field(PENALTY_VARIABLES, "number")
    """What the offender's opponents score for a right call (the offender's side 0)."""
    wrong_call: Formula = formula_field(PENALTY_VARIABLES, "number")
    """What the caller's opponents (the accused side, when an opponent calls) score for a
    wrong call; the caller's side scores 0."""


@dataclass(frozen=True, slots=True)
class PlaySection:
    first_lead: FirstLead = key("first_lead")
    follow_suit: Rule = key("follow_suit")
    sun_void: Rule = key("sun.void")
    hokum_ruff: Ruff = key("hokum.ruff")
    hokum_partner_winning: PartnerWinning = key("hokum.partner_winning")
    hokum_overruff: Overruff = key("hokum.overruff")
    hokum_underruff: Underruff = key("hokum.underruff")
    hokum_trump_lead: TrumpLead = key("hokum.trump_lead")
    hokum_locked_lead: Rule = key("hokum.locked_lead")
    trick_winner: Rule = key("trick_winner")
    fouls: Fouls = key("fouls")


# --- projects ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SequenceProject(Rule):
    length: int
    """The shortest run that makes this project."""
    raw: int | ContractRaw
    game_points: ContractPoints


@dataclass(frozen=True, slots=True)
class HundredSequence(SequenceProject):
    longer: Literal["one_project", "top_and_rest"] = "one_project"


@dataclass(frozen=True, slots=True)
class FourOfAKindProject(Rule):
    ranks: ContractRanks
    raw: int | ContractRaw
    game_points: ContractPoints


@dataclass(frozen=True, slots=True)
class BalootProject(Rule):
    raw: int
    game_points: int
    announce: Literal["second_card", "first_card"]
    counts: Literal["held", "consecutive_tricks"] = "held"
    penalised: Literal["lost", "kept"] = "lost"


@dataclass(frozen=True, slots=True)
class BalootInsideHundred(Rule):
    option: Literal[
        "blocked_by_any_hundred",
        "blocked_by_four_kings_or_queens",
        "never_blocked",
        "blocked_by_hundred_or_four_kings_queens",
    ]


@dataclass(frozen=True, slots=True)
class ProjectRanking(Rule):
    order: tuple[tuple[ProjectName, ...], ...]
    """Best first; projects in one inner tuple rank equal (their top cards decide)."""


@dataclass(frozen=True, slots=True)
class ProjectTie(Rule):
    option: Literal["earlier_seat", "buyer_team", "cancel"]


@dataclass(frozen=True, slots=True)
class ProjectLimits(Rule):
    per_player: int
    shared_cards: Literal["none", "across_kinds", "four_first"]
    """``across_kinds``: a four of a kind and a sequence may share a card."""


@dataclass(frozen=True, slots=True)
class Declaration(Rule):
    option: Literal["explicit", "explicit_by_kind", "automatic_all", "automatic_best_two", "none"]


@dataclass(frozen=True, slots=True)
class ProjectsSection:
    sira: SequenceProject = key("sira")
    fifty: SequenceProject = key("fifty")
    hundred_sequence: HundredSequence = key("hundred.sequence")
    hundred_four_of_a_kind: FourOfAKindProject = key("hundred.four_of_a_kind")
    four_hundred: FourOfAKindProject = key("four_hundred")
    baloot: BalootProject = key("baloot")
    baloot_inside_hundred: BalootInsideHundred = key("baloot.inside_hundred")
    ranking: ProjectRanking = key("ranking")
    comparison: Rule = key("comparison")
    tie: ProjectTie = key("tie")
    limits: ProjectLimits = key("limits")
    declaration: Declaration = key("declaration")


# --- scoring -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundValue(Rule):
    sun: int
    hokum: int


@dataclass(frozen=True, slots=True)
class Conversion(Rule):
    formula: Formula = formula_field(CONVERSION_VARIABLES, "number")
    """Game points of one side from ``raw``, ``other_raw`` (card points), ``is_buyer`` and
    ``takes_risk`` (the side that raised last, or the buyer's side when nobody raised)."""


@dataclass(frozen=True, slots=True)
class ContractRule(Rule):
    baloot_counts: bool
    compare: Literal["card_points", "game_points", "game_points_then_card_points"]


@dataclass(frozen=True, slots=True)
class ContractTie(Rule):
    sun: Literal["split", "buyer_fails", "made"]
    hokum: Literal["split", "buyer_fails", "made"]


@dataclass(frozen=True, slots=True)
class Failure(Rule):
    projects: Literal["transfer", "forfeit"]
    baloot: Literal["owner_keeps", "to_winner", "lost"]


@dataclass(frozen=True, slots=True)
class Kaboot(Rule):
    sun: int
    hokum: int
    projects: Literal["added", "ignored", "each_side", "to_sweeper"]
    raised: Literal["flat", "multiplied", "projects_multiplied"]
    swept_baloot: Literal["kept", "lost"]
    faceup_ace: int | None
    """The Kaboot's value instead when the face-up card was an Ace (``None``: no difference)."""


@dataclass(frozen=True, slots=True)
class ReverseKaboot(Rule):
    option: Literal["disabled", "first_seat_with_ace", "any_sun_buyer"]
    points: int


@dataclass(frozen=True, slots=True)
class Raised(Rule):
    project_multiplier: Literal["level", "capped_at_double", "double_only"]
    loser_baloot: Literal["kept", "lost"]
    made: Literal["winner_takes_all", "each_side_multiplied"] = "winner_takes_all"
    """A raised hand the buyer makes: the buyer's side takes everything, or each side keeps
    its own game points and projects, times the level."""


@dataclass(frozen=True, slots=True)
class ScoringSection:
    round_value: RoundValue = key("round_value")
    sun_conversion: Conversion = key("sun.conversion")
    hokum_conversion: Conversion = key("hokum.conversion")
    contract: ContractRule = key("contract")
    contract_tie: ContractTie = key("contract.tie")
    failure: Failure = key("failure")
    kaboot: Kaboot = key("kaboot")
    reverse_kaboot: ReverseKaboot = key("reverse_kaboot")
    raised: Raised = key("raised")


# --- game ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BothOverTarget(Rule):
    exact_tie: Literal["extra_hand"]


@dataclass(frozen=True, slots=True)
class GameSection:
    target: Points = key("target")
    both_over_target: BothOverTarget = key("both_over_target")


# --- claims ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sawa(Rule):
    """The claim of every remaining trick (سوا)."""

    who: Literal["on_turn", "leader", "nobody"]
    """Who may claim: the player to play, only the player to lead a trick, or nobody."""
    max_tricks: int
    """The most tricks that may remain (the current one counted) when a Sawa is claimed."""
    forced: Literal["side", "own_cards", "own_cards_partner_helps"]
    """What must be forced: the claimant's side wins every remaining trick, or the
    claimant's own cards win each of them."""
    view: Literal["as_dealt"]
    """A claim is judged against the cards as dealt (the referee's view: every card known),
    the only view a transcript has."""
    kaboot: bool
    """Whether a right Sawa that leaves the claimant's side every trick of the hand is a
    Kaboot."""
    wrong: Formula = formula_field(PENALTY_VARIABLES, "number")
    """What the claimant's opponents score for a wrong Sawa (the claimant's side scores 0)."""


@dataclass(frozen=True, slots=True)
class ClaimsSection:
    sawa: Sawa = key("sawa")


#: The sections of a ruleset, in document order.
SECTIONS: dict[str, type[Any]] = {
    "cards": CardsSection,
    "deal": DealSection,
    "bidding": BiddingSection,
    "doubling": DoublingSection,
    "play": PlaySection,
    "projects": ProjectsSection,
    "scoring": ScoringSection,
    "claims": ClaimsSection,
    "game": GameSection,
}
