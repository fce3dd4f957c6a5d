"""Which rules decided something during a family replay: the measure behind the Bourré
fixtures' rule coverage.

The counter is Baloot's :class:`~baloot_conformance.engine.trace.Trace` (rule IDs and how many
decisions each took); this module says, for the trick family's :class:`~.hand.TrickHand`,
which rule took each decision. :class:`TracedHand` is the hand with a trace: it calls
:func:`note_action` after every action it accepts, :func:`note_card` before each card is
played, :func:`note_trick` when a trick is won and :func:`note_settlement` once it is
settled:

- an ante or a stay: ``phases.ante`` (its amount checked against who is exempt);
- the deal: ``phases.deal``, ``table.deck`` (every card in the pack, none twice) and the
  contract's rule (``contracts.*``: the trump it takes from the face-up card);
- a declaration: ``phases.draw.declare`` (its turn), with ``phases.draw.faceup_ace`` when the
  dealer holds a face-up Ace the rule keeps him in with, and ``phases.draw.discards`` when it
  says how many cards go; a discard and a draw: ``phases.draw.discards``; a reshuffle:
  ``phases.draw.refill``; a draw left with one player: ``phases.draw.lone_player``;
- the table: ``table.seats`` (its size, checked when the hand is set up);
- a card: ``phases.tricks`` and ``table.direction`` (whose turn), ``table.teams`` for a card
  that follows (whether the seat winning the trick is a partner), the obligation stage that
  narrowed the choice (:func:`note_card`, when some card of the hand was refused), or the stage
  that freed the player when every card is free (an under-trump that is no obligation; a
  stage that merely found nothing to narrow decided nothing), and at the trick's last card
  ``play.trick_winner`` with the card order it compared (``table.order.trump`` when a trump is
  in the trick, else ``table.order.plain``);
- the settlement: ``scoring.outcome``, ``scoring.pot.tie`` on a tie, ``scoring.pot.bourre``
  for a player who took no trick, ``scoring.pot.renege`` for a penalty paid,
  ``scoring.pot.limit`` when the limit cut a payment or the winnings (or, set to none, let a
  payment be the whole pot), ``phases.pipeline``,
  ``table.dealer.rotation`` and ``game.kind`` (the ledger carried to the next hand).

The hooks are in a subclass, so the plain :class:`~.hand.TrickHand` pays nothing at all:
checking a transcript is not slowed by coverage it does not measure
(``bench/bench_family_trace.py`` measures both).
"""

from __future__ import annotations

from collections.abc import Sequence

from baloot_conformance.engine.trace import Trace
from baloot_conformance.family.engine.actions import (
    Action,
    Ante,
    Choose,
    Deal,
    Declare,
    Discard,
    Draw,
    Knock,
    Penalty,
    Play,
    Reshuffle,
    Wager,
)
from baloot_conformance.family.engine.deck import MAX_CARDS
from baloot_conformance.family.engine.hand import PlayCompiler, TrickHand
from baloot_conformance.family.engine.ledger import Ledger, pot_limit
from baloot_conformance.family.engine.obligations import PlayTable
from baloot_conformance.family.engine.points import PointsSettlement
from baloot_conformance.family.engine.stages import FREE, SKIP, UNABLE, CompiledNode
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.family.rules.play import Beat, FirstTrickBan, LeadBan, Overruff, Ruff

__all__ = ["Trace", "TracedHand", "note_action", "note_card", "note_settlement", "note_trick"]

_CARD_BITS = (1 << MAX_CARDS) - 1


class TracedHand(TrickHand):
    """A :class:`~.hand.TrickHand` that counts, in ``trace``, the rules that decide."""

    __slots__ = ("trace",)

    def __init__(
        self,
        rules: TrickRuleset,
        ledger: Ledger,
        compile: PlayCompiler | None = None,
        *,
        names: Sequence[str] | None = None,
        trace: Trace | None = None,
    ) -> None:
        self.trace = Trace() if trace is None else trace
        super().__init__(rules, ledger, compile, names=names)
        self.trace.hit(rules.table.seats.id)  # the table's size was checked

    def push(self, action: Action) -> None:
        phase = self.phase
        owed = phase == "wagers" and self._owes_declarer(self.wager_seat())
        super().push(action)
        if phase != "tricks":
            note_action(self.trace, self, action, phase)
        if owed:  # the quota made this player double the declarer
            self.trace.hit("phases.wagers.quota")

    def _apply_play(self, action: Play) -> None:
        trick = (*self.trick, action.card)
        note_card(self.trace, self, action.card)
        super()._apply_play(action)
        if not self.trick:
            note_trick(self.trace, self, trick)

    def _finish(self) -> None:
        super()._finish()
        note_settlement(self.trace, self)


def note_action(trace: Trace, hand: TrickHand, action: Action, phase: str) -> None:
    """The rules that decided an accepted action other than a card (``phase``: the hand's
    phase before it)."""
    if isinstance(action, Ante):
        trace.hit("phases.ante")
    elif isinstance(action, Deal):
        trace.hit("phases.deal", "table.deck", hand.rules.contracts[hand.contract].id)
    elif isinstance(action, Declare):
        trace.hit("phases.draw.declare")
        rule = hand.rules.phases.faceup_ace
        if (
            rule is not None
            and hand.faceup is not None
            and action.seat == hand.ledger.dealer
            and hand.pack.codes[hand.faceup][:-1] == "A"
        ):
            trace.hit(rule.id)
        if action.play and hand.rules.phases.declare is not None and action.discards:
            trace.hit("phases.draw.discards")
        if phase == "draw" and hand.phase != "draw":
            _end_of_draw(trace, hand)
    elif isinstance(action, Choose):
        rules = hand.rules
        trace.hit("phases.choose", rules.contracts[action.contract].id)
        if rules.game.declarers is not None:
            trace.hit(rules.game.declarers.id, rules.table.dealer_rotation.id)
    elif isinstance(action, Wager):
        trace.hit("phases.wagers.declarer")
        if hand.rules.contracts[hand.contract].positive and hand.rules.phases.wager_positive:
            trace.hit(hand.rules.phases.wager_positive.id)
    elif isinstance(action, (Play, Knock)):  # a layout's move
        trace.hit("phases.layout")
    elif isinstance(action, (Discard, Draw)) and hand.rules.phases.pass_cards is not None:
        trace.hit("phases.draw.pass")
    elif isinstance(action, (Discard, Draw)):
        trace.hit("phases.draw.discards")
        if phase == "draw" and hand.phase != "draw":
            _end_of_draw(trace, hand)
    elif isinstance(action, Reshuffle):
        trace.hit("phases.draw.refill")
    elif isinstance(action, Penalty):
        trace.hit("scoring.pot.renege")


def _end_of_draw(trace: Trace, hand: TrickHand) -> None:
    rule = hand.rules.phases.lone_player
    if rule is not None and len(hand.active) == 1:
        trace.hit(rule.id)


def note_card(trace: Trace, hand: TrickHand, card: int) -> None:
    """Before ``card`` is played: whose turn it is, and the stage that narrowed the legal
    cards (when one did)."""
    trace.hit("phases.tricks", "table.direction")
    if hand.trick:  # who is winning the trick, and whether a partner: the teams' say
        trace.hit(hand.rules.table.teams.id)
    rules = hand.play_rules
    if not isinstance(rules, PlayTable):  # another engine's obligations: not traced
        return
    held = hand.hands[hand.turns[len(hand.trick)]]
    decided = rules.decide(held, hand.trick, hand.context())
    if decided & _CARD_BITS != held:
        rule = rules.rule_of(decided)
        if rule is not None:
            trace.hit(rules.section.obligations.id, rule)
        _looser_readings(trace, rules, held, hand)
        return
    # every card free: only a stage that freed the player (an exemption, an under-trump that
    # is no obligation) decided, where the stages before it would have narrowed the choice
    path: list[tuple[CompiledNode, int]] = []
    rules._decide(held, hand.trick, hand.context(), path)
    for node, outcome in path:
        if outcome == FREE:
            trace.hit(rules.section.obligations.id, node.rule.id)
    _looser_readings(trace, rules, held, hand)


def _looser_readings(trace: Trace, rules: PlayTable, held: int, hand: TrickHand) -> None:
    """A stage whose reading lifts a duty (no need to beat, to over-ruff, to trump; a ban not
    binding) decides when the tree reaches it: the player was spared that duty there."""
    path: list[tuple[CompiledNode, int]] = []
    rules._decide(held, hand.trick, hand.context(), path)
    for node, outcome in path:
        if outcome in (UNABLE, SKIP) and _looser(node.rule):
            trace.hit(node.rule.id)


def _looser(rule: object) -> bool:
    if isinstance(rule, Beat):
        return rule.opponent_winning == "any"
    if isinstance(rule, Overruff | Ruff):
        return rule.option in ("not_required", "optional")
    if isinstance(rule, LeadBan | FirstTrickBan):
        return rule.option == "not_binding"
    return False


def note_trick(trace: Trace, hand: TrickHand, trick: tuple[int, ...]) -> None:
    """A trick's winner found by the card orders."""
    trumps = 0 if hand.trump is None else hand.pack.suit_masks[hand.trump]
    order = "table.order.trump" if any(trumps >> c & 1 for c in trick) else "table.order.plain"
    trace.hit("play.trick_winner", order)


def note_settlement(trace: Trace, hand: TrickHand) -> None:
    """The settlement's rules, from what it did."""
    settlement = hand.settlement
    assert settlement is not None
    rules = hand.rules
    trace.hit("phases.pipeline", "scoring.outcome", "table.dealer.rotation", rules.game.kind.id)
    if isinstance(settlement, PointsSettlement):
        trace.hit(f"contracts.{hand.contract}")
        scoring = rules.scoring
        if scoring.moon is not None and settlement.moon is not None:
            trace.hit(scoring.moon.id)
        if scoring.no_tricks is not None and len(set(hand.winners)) < len(hand.active):
            trace.hit(scoring.no_tricks.id)
        if rules.game.declarers is not None:
            trace.hit(rules.game.declarers.id)
        if scoring.wagers is not None and any(hand.doubles):
            trace.hit(scoring.wagers.id)
        return
    if settlement.tie:
        trace.hit("scoring.pot.tie")
    if settlement.bourre:
        trace.hit("scoring.pot.bourre")
    limit = pot_limit(rules)
    if not limit and rules.scoring.limit is not None and (settlement.bourre or settlement.reneges):
        trace.hit(rules.scoring.limit.id)  # no limit: the payment is the whole pot
    if limit and rules.scoring.limit is not None:
        capped = hand.pot > limit and (
            settlement.bourre
            or settlement.reneges
            or (settlement.winner is not None and settlement.won < hand.pot)
        )
        if capped:
            trace.hit(rules.scoring.limit.id)
