"""What decided a finished trick and a hand's score, counted in a
:class:`~baloot_conformance.engine.trace.Trace` (rule coverage).

The hand calls these only when it is traced: a trick's winner by the card orders, the points
of its cards, the turn that went round the table; the rules the scorer applied, the projects
and their comparison, the Baloot and what may have blocked it. A rule that was merely there
(the trump order in a trick without two trumps) is not counted.
"""

from __future__ import annotations

from collections.abc import Sequence

from baloot_conformance.cards import Rank
from baloot_conformance.cards import card as card_of
from baloot_conformance.engine.model import CardSet, Contract, team
from baloot_conformance.engine.projects import HUNDREDS, Project
from baloot_conformance.engine.scoring import HandScore
from baloot_conformance.engine.trace import Trace
from baloot_conformance.rules.ruleset import Ruleset


def trace_trick(trace: Trace, contract: Contract, trick: tuple[int, ...]) -> None:
    """Count what decided a finished trick (its four card indexes, in order): its winner by
    the card orders, the points of its cards, the team they go to, the turn that went round
    the table."""
    trace.hit("play.trick_winner", "deal.seating", "deal.direction")
    trump = contract.trump_index
    trumps = sum(1 for i in trick if i >> 3 == trump)
    led = sum(1 for i in trick if i >> 3 == trick[0] >> 3)
    if trumps >= 2:
        trace.hit("cards.order.trump")
    if led >= 2 and trick[0] >> 3 != trump:
        trace.hit("cards.order.plain")
    if trumps:
        trace.hit("cards.points.trump")
    if trumps < 4:
        trace.hit("cards.points.plain")


def trace_score(
    trace: Trace,
    rules: Ruleset,
    contract: Contract,
    score: HandScore,
    declared: Sequence[Project],
    dealt: Sequence[CardSet],
) -> None:
    """Count what decided a hand's ``score``: the rules the scorer applied, the ``declared``
    projects and their comparison, the Baloot (from the seats' ``dealt`` cards) and what may
    have blocked it, the card totals."""
    conversion = rules.scoring.sun_conversion
    if contract.kind == "hokum":
        conversion = rules.scoring.hokum_conversion
    # The conversion gives each side's card score even when the outcome sets the points.
    trace.hit("cards.last_trick", "cards.totals", conversion.id, *score.decided_by)
    trace.hit(*(f"projects.{p.name}" for p in declared))
    if any(p.name in ("sira", "fifty", "hundred.sequence") for p in declared):
        trace.hit("cards.order.sequence")
    if declared:
        trace.hit("projects.comparison")
    if len(declared) > 1:
        trace.hit("projects.ranking")
    if len({team(p.seat) for p in declared}) == 2:
        top = max(p.strength for p in declared)
        if len({team(p.seat) for p in declared if p.strength == top}) == 2:
            trace.hit("projects.tie")
    sun = contract.kind == "sun"
    if sun and score.kaboot_team is not None and score.kaboot_team != contract.buyer_team:
        trace.hit("scoring.reverse_kaboot")  # a sweep of the Sun buyer: reverse or not
    trump = contract.trump
    if trump is not None:
        pair = 1 << card_of(Rank.KING, trump).index | 1 << card_of(Rank.QUEEN, trump).index
        seat = next((s for s in range(4) if dealt[s] & pair == pair), None)
        if seat is not None:
            trace.hit("projects.baloot")
            if any(p.seat == seat and p.name in HUNDREDS for p in declared):
                trace.hit("projects.baloot.inside_hundred")
