"""Table talk judged: what players *say* at the table, each under its rule.

- ``claims.sawa``: a Sawa (سوا) claims every remaining trick for the claimant's side and ends
  the hand. Who may claim and when (``who``, ``max_tricks``) is checked here; whether the
  claim is right is decided exactly by :func:`~baloot_conformance.engine.sawa.judge_sawa`
  with every card known (``view: as_dealt``, ``forced``). A right Sawa gives the claimant's
  side the remaining tricks, their card points and the last trick, and the hand is scored as
  played (a Kaboot where ``kaboot`` says so); a wrong one scores ``wrong`` for the opponents.
- ``play.fouls``: a card against the play rules is refused, or stands as a latent foul until
  a foul call (قيد) names it (``option``). A call is right when the card it names broke a
  play rule; ``callers`` and ``window`` say who may call and until when. A right call scores
  ``right_call`` for the offender's opponents, a wrong one ``wrong_call`` for the accused side;
  either ends the hand.
- ``deal.kawesh``: a Kawesh (كوش) voids the hand of a player whose cards hold only the
  ``ranks`` the rule lists, in its ``window`` and ``turn``, with the first five cards or all
  eight (``hand``).

A hand a penalty ends is scored here (:func:`penalty_score`): the scoring side takes what the
rule's formula gives, the other side nothing. The functions take the hand's state as
arguments, so that :mod:`~baloot_conformance.engine.hand` can call them without a cycle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from baloot_conformance.cards import CARDS, Card
from baloot_conformance.engine import projects as projects_
from baloot_conformance.engine.actions import (
    Action,
    Bid,
    FoulCall,
    KaweshCall,
    Play,
    SawaClaim,
    TableTalk,
    target_name,
)
from baloot_conformance.engine.auction import Auction
from baloot_conformance.engine.deal import first_seat
from baloot_conformance.engine.declarations import Declarations
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    CardSet,
    Contract,
    IllegalAction,
    Seat,
    Team,
    cards_of,
    format_cards,
    team,
)
from baloot_conformance.engine.play import PlayRules
from baloot_conformance.engine.sawa import judge_sawa, line_words
from baloot_conformance.engine.scoring import TRICKS_PER_HAND, HandScore
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import FormulaError
from baloot_conformance.rules.formula import Formula
from baloot_conformance.rules.ruleset import Ruleset

Phase = Literal["auction", "completion", "raises", "play", "over"]


@dataclass(frozen=True, slots=True)
class LatentFoul:
    """A card played against the play rules that the hand went on with."""

    play: int
    """Its index among the hand's cards (0 = trick 1's first card)."""
    seat: Seat
    rule_id: str
    reason: str
    escaped: CardSet = 0
    """The legal cards the offender kept back: playing one of them later proves the foul
    (``window: proved``)."""

    @property
    def target(self) -> str:
        """The notation's name of the card: ``t3.p2``."""
        return target_name(self.play)


@dataclass(frozen=True, slots=True)
class Judged:
    """A claim that ended the hand, as the kit judged it."""

    kind: Literal["sawa", "foul"]
    seat: Seat
    right: bool
    reason: str
    """Why, in a player's words (a Sawa's forcing order or its refutation line)."""

    @property
    def what(self) -> str:
        """``N's Sawa``, ``W's foul call``."""
        return f"{SEAT_NAMES[self.seat]}'s {'Sawa' if self.kind == 'sawa' else 'foul call'}"


# --- Kawesh --------------------------------------------------------------------------------


def kawesh_hand(rules: Ruleset, cards: CardSet) -> bool:
    """Whether ``cards`` hold only the ranks a Kawesh hand may hold [deal.kawesh]."""
    ranks = rules.deal.kawesh.ranks
    return all(card.rank in ranks for card in CARDS if cards >> card.index & 1)


def check_kawesh(
    rules: Ruleset,
    seat: Seat,
    cards: CardSet,
    in_auction: bool,
    before_first_card: bool,
    has_called: bool,
    anyone_bid: bool,
    on_turn: bool,
) -> None:
    """Raise :class:`IllegalAction` [deal.kawesh] unless ``seat`` may claim Kawesh now with
    ``cards`` (its first five, or its eight for ``hand: eight``)."""
    rule = rules.deal.kawesh
    who = SEAT_NAMES[seat]
    if rule.option == "disabled":
        raise IllegalAction(rule.id, "this ruleset has no Kawesh redeal")
    if rule.hand == "five" and not in_auction:
        raise IllegalAction(
            rule.id, f"{who} claimed Kawesh after the auction; it is claimed during it"
        )
    if rule.hand == "eight" and (in_auction or not before_first_card):
        when = "before the deal is complete" if in_auction else "after the first card"
        raise IllegalAction(
            rule.id,
            f"{who} claimed Kawesh {when}; it is claimed on all eight cards, before the first card",
        )
    if rule.hand == "five":
        if rule.window == "before_first_bid" and anyone_bid:
            raise IllegalAction(
                rule.id, f"{who} claimed Kawesh after the first bid; it comes before any bid"
            )
        if rule.window == "before_own_call" and has_called:
            raise IllegalAction(rule.id, f"{who} claimed Kawesh after its own first call")
    if rule.turn == "own_turn" and not on_turn:
        raise IllegalAction(
            rule.id, f"{who} claimed Kawesh out of turn; it is claimed on one's own turn"
        )
    if not kawesh_hand(rules, cards):
        allowed = ", ".join(r.value for r in rule.ranks)
        raise IllegalAction(
            rule.id,
            f"{who} holds {format_cards(cards)}: a Kawesh hand holds only {allowed}",
        )


# --- Sawa ----------------------------------------------------------------------------------


def check_sawa(
    rules: Ruleset, seat: Seat, to_play: Seat, leading: bool, tricks_done: int, trick: int
) -> None:
    """Raise :class:`IllegalAction` [claims.sawa] unless ``seat`` may claim Sawa now:
    ``to_play`` is the seat whose card comes next, ``leading`` whether it leads a trick,
    ``trick`` the number of the current trick."""
    rule = rules.claims.sawa
    who = SEAT_NAMES[seat]
    if rule.who == "nobody":
        raise IllegalAction(rule.id, "this ruleset has no Sawa claim")
    if seat != to_play:
        raise IllegalAction(
            rule.id, f"{who} claimed Sawa out of turn: it is {SEAT_NAMES[to_play]}'s card"
        )
    if rule.who == "leader" and not leading:
        raise IllegalAction(
            rule.id,
            f"{who} claimed Sawa in the middle of trick {trick}; only the player to lead may",
        )
    left = TRICKS_PER_HAND - tricks_done
    if left > rule.max_tricks:
        raise IllegalAction(
            rule.id,
            f"{who} claimed Sawa with {left} tricks left; at most {rule.max_tricks} may remain",
        )


def sawa_words(
    seat: Seat, right: bool, line: str, own_cards: bool, partner_helps: bool = False
) -> str:
    """A judged Sawa in a player's words: the claim, the verdict and the solver's line."""
    who = SEAT_NAMES[seat]
    helping = " (its partner playing along)" if partner_helps else ""
    if right:
        claim = "its own cards win" if own_cards else "its side wins"
        return (
            f"{who}'s Sawa is right: {claim} every trick left{helping} against any defence; {line}"
        )
    denial = "its own cards do not win" if own_cards else "its side does not win"
    return f"{who}'s Sawa is wrong: {denial} every trick left{helping}; {line}"


# --- fouls ---------------------------------------------------------------------------------


def check_foul_call(
    rules: Ruleset, caller: Seat, play: int | None, offender: Seat, plays_done: int
) -> None:
    """Raise :class:`IllegalAction` [play.fouls] unless ``caller`` may call the card ``play``
    (played by ``offender``) when ``plays_done`` cards are down. A call that names no card
    (``play`` ``None``) is heard, and judged wrong, only under the window ``proved``, where
    any call is heard."""
    rule = rules.play.fouls
    who, target = SEAT_NAMES[caller], target_name(play)
    if play is None:
        if rule.window != "proved":
            raise IllegalAction(rule.id, f"{who}'s foul call names no card: a call names one")
        return
    if play >= plays_done:
        raise IllegalAction(rule.id, f"{who} called a foul on {target}, which is not played yet")
    if rule.window == "proved":  # any call is heard and judged: one off its window is wrong
        return
    if rule.callers == "opponents" and team(caller) == team(offender):
        raise IllegalAction(
            rule.id, f"{who} called a foul on its own side's card ({target}); only opponents may"
        )
    last = {
        "proved": TRICKS_PER_HAND * 4,
        "next_card": play + 1,
        "trick_end": (play // 4 + 1) * 4,
        "hand_end": TRICKS_PER_HAND * 4,
    }[rule.window]
    if plays_done > last:
        when = {
            "proved": "before the hand ends",
            "next_card": "before the next card",
            "trick_end": "before the next trick's first card",
            "hand_end": "before the hand ends",
        }[rule.window]
        raise IllegalAction(
            rule.id, f"{who}'s call on {target} comes too late: a card is called {when}"
        )


def foul_words(caller: Seat, play: int | None, foul: LatentFoul | None, why: str = "") -> str:
    who, target = SEAT_NAMES[caller], target_name(play)
    if play is None:
        return f"{who}'s foul call names no card: it is wrong"
    if foul is None:
        return f"{who}'s foul call on {target} is wrong: {why or 'that card was legal'}"
    return f"{who}'s foul call on {target} is right: {foul.reason} ({foul.rule_id})"


def standing_foul(
    fouls: Sequence[LatentFoul], plays: Sequence[Play], done: int
) -> LatentFoul | None:
    """The foul that stands to be called when ``done`` cards are down [play.fouls, window
    proved]: a foul is proved by the first later card its offender plays of those it kept
    back, and stands from that card to the end of its trick; of two proved in one trick the
    later proof stands, of two proved by one card the later foul."""
    if done % 4 == 0:
        return None  # a trick just ended (or none began): nothing stands
    best: tuple[int, int, LatentFoul] | None = None
    for foul in fouls:
        proof = next(
            (
                index
                for index in range(foul.play + 1, done)
                if plays[index].seat == foul.seat and foul.escaped >> plays[index].card.index & 1
            ),
            None,
        )
        in_trick = proof is not None and proof // 4 == done // 4
        if proof is not None and in_trick and (best is None or (proof, foul.play) > best[:2]):
            best = (proof, foul.play, foul)
    return None if best is None else best[2]


# --- a hand a penalty ends -------------------------------------------------------------------


def penalty_score(
    rules: Ruleset,
    contract: Contract,
    formula: Formula,
    rule_id: str,
    scorer: Team,
    points: Sequence[int],
    tricks: Sequence[int],
    project_team: Team | None,
    project_points: int,
    baloot_team: Team | None,
) -> HandScore:
    """The score of a hand a penalty ends: ``scorer`` takes what ``formula`` gives, the other
    side nothing but, under ``projects.baloot`` ``penalised: kept``, its Baloot; the card
    points are those of the tricks taken so far."""
    kind = contract.kind
    env = {
        "round_value": rules.scoring.round_value.sun
        if kind == "sun"
        else rules.scoring.round_value.hokum,
        "kaboot_value": rules.scoring.kaboot.sun if kind == "sun" else rules.scoring.kaboot.hokum,
        "level": contract.level,
        "projects": project_points if project_team == scorer else 0,
        "baloot": rules.projects.baloot.game_points if baloot_team == scorer else 0,
        "offender_tricks": tricks[1 - scorer],
        "offender_projects": project_points if project_team == 1 - scorer else 0,
    }
    try:
        value = formula.evaluate_int(env)
    except FormulaError as exc:  # validation tries every input; this is a last guard
        raise FormulaError(f"{rule_id}: {exc.message} (for {env})", hint=exc.hint) from None
    game_points = [0, 0]
    game_points[scorer] = value
    decided: tuple[str, ...] = (rule_id,)
    if baloot_team == 1 - scorer and rules.projects.baloot.penalised == "kept":
        game_points[baloot_team] = rules.projects.baloot.game_points
        decided = (rule_id, rules.projects.baloot.id)
    gahwa_wins = contract.gahwa and rules.doubling.gahwa.option == "match_win"
    card_points = (points[0], points[1])
    return HandScore(
        abnat=card_points,
        aklat=card_points,
        card_scores=(0, 0),
        project_scores=(0, 0),
        projects=(0, 0),
        outcome="penalty",
        kaboot_team=None,
        game_points=(game_points[0], game_points[1]),
        match_winner=scorer if gahwa_wins else None,
        decided_by=decided,
        penalty_team=scorer,
    )


# --- the hand's side of it -------------------------------------------------------------------


class HandState(Protocol):
    """What these functions read and change of a :class:`~baloot_conformance.engine.hand.Hand`
    (a protocol, so that the hand module imports this one and not the other way round)."""

    rules: Ruleset
    trace: Trace | None
    dealer: Seat
    first_five: tuple[CardSet, CardSet, CardSet, CardSet]
    phase: Phase
    auction: Auction
    contract: Contract | None
    history: list[Action]
    declarations: Declarations
    play_rules: PlayRules | None
    hands: list[CardSet]
    initial: tuple[CardSet, ...]
    leader: Seat
    trick: tuple[int, ...]
    tricks_done: int
    tricks: list[int]
    points: list[int]
    last_trick_team: Team
    fouls: list[LatentFoul]
    claim: Judged | None
    _score_result: HandScore | None

    def to_play(self) -> Seat: ...
    def _before_first_card(self) -> bool: ...
    def _void(self, reason: str) -> None: ...
    def _score(self, sweep_scores: bool = True) -> None: ...


def illegal_card(hand: HandState, held: CardSet, card: Card) -> None:
    """A card against the play rules [play.fouls]: recorded as a latent foul, then refused
    (raises :class:`IllegalAction`) unless the ruleset lets it stand until called."""
    rules = hand.play_rules
    assert rules is not None
    try:
        rules.check(held, hand.trick, hand.leader, card)
    except IllegalAction as exc:
        play = plays_done(hand)
        if not hand.fouls or hand.fouls[-1].play != play:  # refused, then forced: once
            escaped = rules.legal(held, hand.trick, hand.leader)
            hand.fouls.append(LatentFoul(play, hand.to_play(), exc.rule_id, exc.reason, escaped))
        if hand.trace is not None:
            hand.trace.hit(hand.rules.play.fouls.id)
        if hand.rules.play.fouls.option == "refused":
            raise
        return
    raise AssertionError("check() must reject what legal() excludes")  # pragma: no cover


def played_out(hand: HandState) -> bool:
    """The hand's eight tricks are played and no claim ended it: a foul may still be called
    (``window: hand_end``), and the call's penalty replaces the score."""
    return hand.phase == "over" and hand.tricks_done == TRICKS_PER_HAND and hand.claim is None


def plays_done(hand: HandState) -> int:
    """How many cards of the hand are down."""
    return hand.tricks_done * 4 + len(hand.trick)


def played(hand: HandState) -> list[Card]:
    """The cards of the hand played so far, in order."""
    return [a.card for a in hand.history if isinstance(a, Play)]


def check_talk(hand: HandState, action: TableTalk) -> None:
    """Raise :class:`IllegalAction` unless the claim or call may be made now."""
    seat = action.seat
    if isinstance(action, KaweshCall):
        eight = hand.rules.deal.kawesh.hand == "eight" and bool(hand.initial)
        bids = [a for a in hand.history if isinstance(a, Bid)]
        called = {a.seat for a in bids}
        # The first bid: round 1's first call that is not a pass (a pass keeps the window).
        bid = hand.auction.round > 1 or any(a.call != "pass" for a in bids)
        in_auction = hand.phase == "auction"
        turn = hand.auction.to_call() if in_auction else hand.to_play()
        check_kawesh(
            hand.rules, seat, hand.initial[seat] if eight else hand.first_five[seat],
            in_auction, hand._before_first_card(), seat in called, bid, seat == turn,
        )  # fmt: skip
        return
    if hand.phase not in ("raises", "play") and not (
        isinstance(action, FoulCall) and played_out(hand)
    ):
        rule = (
            hand.rules.claims.sawa.id if isinstance(action, SawaClaim) else hand.rules.play.fouls.id
        )
        raise IllegalAction(rule, f"{action} comes before the play")
    if isinstance(action, SawaClaim):
        check_sawa(
            hand.rules, seat, hand.to_play(), not hand.trick, hand.tricks_done,
            hand.tricks_done + 1,
        )  # fmt: skip
        return
    offender = player_of(hand, action.play)
    check_foul_call(hand.rules, seat, action.play, offender, plays_done(hand))


def player_of(hand: HandState, play: int | None) -> Seat:
    """Who played the hand's card ``play``; -1 for a card not played or none."""
    plays = [a for a in hand.history if isinstance(a, Play)]
    return plays[play].seat if play is not None and play < len(plays) else -1


def force_claim(hand: HandState, action: TableTalk) -> bool:
    """Apply a claim or call as a transcript records it, without checking who may make it
    when (replay goes on after reporting that): a Kawesh voids the hand; a Sawa or a foul
    call is judged and ends it. ``False`` (nothing changes) when it cannot apply at all."""
    if isinstance(action, KaweshCall):
        if hand.phase not in ("auction", "completion", "raises") or not hand._before_first_card():
            return False
        if hand.trace is not None:
            hand.trace.hit(hand.rules.deal.kawesh.id)
        hand.history.append(action)
        hand._void("kawesh")
        return True
    late = isinstance(action, FoulCall) and played_out(hand)
    if (hand.phase not in ("raises", "play") and not late) or hand.contract is None:
        return False
    play = action.play if isinstance(action, FoulCall) else None  # None: no card named
    if play is not None and not 0 <= play < plays_done(hand):
        return False
    hand.history.append(action)
    if isinstance(action, SawaClaim):
        _judge_sawa(hand, action.seat)
    else:
        _judge_foul(hand, action)
    return True


def _judge_sawa(hand: HandState, seat: Seat) -> None:
    rule = hand.rules.claims.sawa
    rules = hand.play_rules
    assert rules is not None
    own, helps = rule.forced != "side", rule.forced == "own_cards_partner_helps"
    judged = judge_sawa(
        rules, hand.hands, hand.trick, hand.leader, hand.tricks_done, seat, own, helps
    )
    words = line_words(judged, hand.tricks_done, hand.trick, hand.leader)
    reason = sawa_words(seat, judged.right, words, own, helps)
    hand.claim = Judged("sawa", seat, judged.right, reason)
    if hand.trace is not None:
        hand.trace.hit(rule.id)
    side = team(seat)
    if not judged.right:
        _penalty(hand, rule.wrong, rule.id, 1 - side)
        return
    # The claimant's side takes every trick left, with its cards and the last trick.
    left = TRICKS_PER_HAND - hand.tricks_done
    rest = sum(hand.hands) | sum(1 << c for c in hand.trick)
    hand.points[side] += sum(rules.card_points[c.index] for c in cards_of(rest))
    hand.tricks[side] += left
    hand.tricks_done, hand.trick, hand.last_trick_team = TRICKS_PER_HAND, (), side
    hand._score(sweep_scores=rule.kaboot)


def _judge_foul(hand: HandState, call: FoulCall) -> None:
    rule = hand.rules.play.fouls
    foul = next((f for f in hand.fouls if f.play == call.play), None)  # none for no card
    offender = player_of(hand, call.play)
    why = ""
    if rule.window == "proved" and foul is not None:
        plays = [a for a in hand.history if isinstance(a, Play)]
        standing = standing_foul(hand.fouls, plays, plays_done(hand))
        if team(call.seat) == team(offender):
            foul, why = None, "it names its own side's card"
        elif standing is not foul:
            foul, why = (
                None,
                "that foul does not stand now (it stands from its proof to that trick's end)",
            )
    elif rule.window == "proved":
        why = "no foul stands on that card"
    hand.claim = Judged(
        "foul", call.seat, foul is not None, foul_words(call.seat, call.play, foul, why)
    )
    if hand.trace is not None:
        hand.trace.hit(rule.id)
    if foul is not None:  # the offender's opponents score; else the caller's opponents
        _penalty(hand, rule.right_call, rule.id, 1 - team(offender))
    else:
        _penalty(hand, rule.wrong_call, rule.id, 1 - team(call.seat))


def _penalty(hand: HandState, formula: Formula, rule_id: str, scorer: Team) -> None:
    contract = hand.contract
    assert contract is not None
    project_team, counted = projects_.counted_projects(
        hand.rules, contract, hand.declarations.projects, first_seat(hand.rules, hand.dealer)
    )
    holder = projects_.baloot_holder(
        hand.rules, contract, hand.initial, hand.declarations.projects, played(hand)
    )
    if hand.trace is not None:
        if projects_.baloot_seat(contract, hand.initial) is not None:
            hand.trace.hit(hand.rules.projects.baloot.id)  # whether it counts, and for whom
        declared = hand.declarations.projects  # the penalty adds the scorer's, compared
        hand.trace.hit(*(f"projects.{p.name}" for p in declared))
        if declared:
            hand.trace.hit("projects.comparison")
    hand._score_result = penalty_score(
        hand.rules, contract, formula, rule_id, scorer, hand.points, hand.tricks,
        project_team, sum(p.game_points for p in counted),
        None if holder is None else team(holder),
    )  # fmt: skip
    hand.phase = "over"
