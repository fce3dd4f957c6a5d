"""tazjel 3: the rules its engine follows where tazjel 2 did not say so, on the engine's answers.

``tests/data/tazjel-live/`` holds the hands that tazjel 2.2.0 scored otherwise than the engine
when the suite drove it (examples/adapters/tazjel_adapter.py, engine commit 1c20390d3b21):
two fixtures of tazjel 2 and four of the suite's generated games, each cut to one hand whose
score claim is the engine's. The raise windows keep only a pass that ends them (the engine's
first pass ends its raises, so the hands are written as the engine was driven). Each passes
under tazjel 3, and fails with the rule that decides it read as tazjel 2 read it; the last,
a Gahwa (``gahwa.btn``), is the engine defect its profile lists.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_engine_hand import WORKED_DEAL, WORKED_REST

from baloot_conformance.cards import parse_card
from baloot_conformance.compare.witness import verdicts
from baloot_conformance.engine.actions import Bid, Complete, Lock, Raise
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import IllegalAction
from baloot_conformance.rules.loading import isolate, load_ruleset
from baloot_conformance.rules.ruleset import Ruleset, rule_documents

LIVE = Path(__file__).parent / "data" / "tazjel-live"
TAZJEL = load_ruleset("tazjel")
N, W, S, E = 0, 1, 2, 3


def read_as(ruleset: Ruleset, rule_id: str, **changed: object) -> Ruleset:
    """``ruleset`` with one rule's parameters changed."""
    rule = {**rule_documents(ruleset)[rule_id], **changed}
    derived = isolate(ruleset, {rule_id: rule})
    assert derived is not None
    return derived


def statuses(name: str, ruleset: Ruleset) -> list[tuple[str, str | None]]:
    text = (LIVE / f"{name}.btn").read_text(encoding="utf-8")
    found: list[tuple[str, str | None]] = []
    for verdict in verdicts(text, ruleset):
        root = next((d for d in verdict.divergences if d.root), None)
        found.append((verdict.status, f"{root.position} {root.rule_id}" if root else None))
    return found


@pytest.mark.parametrize(
    "name", ["projects-baloot", "generated-3", "generated-6", "generated-8", "generated-17"]
)
def test_a_raised_hand_the_buyer_makes_keeps_each_sides_points(name: str) -> None:
    assert TAZJEL.scoring.raised.made == "each_side_multiplied"
    assert statuses(name, TAZJEL) == [("pass", None)]
    pooled = read_as(TAZJEL, "scoring.raised", made="winner_takes_all")
    [(status, root)] = statuses(name, pooled)
    assert status == "fail" and root is not None and root.startswith("h1.score ")


def test_game_points_decide_before_card_points() -> None:
    """W's Hokum doubled, with a fifty: 106 card points each side (projects included), but
    11 game points to 10 for the buyer, so the engine scores the hand made, each side's points
    doubled (NS 20, EW 22); compared in card points, the doubled tie goes against the buyer."""
    assert TAZJEL.scoring.contract.compare == "game_points_then_card_points"
    assert statuses("doubling-tie", TAZJEL) == [("pass", None)]
    in_card_points = read_as(TAZJEL, "scoring.contract", compare="card_points")
    [(status, root)] = statuses("doubling-tie", in_card_points)
    assert (status, root) == ("fail", "h1.score scoring.failure")


def test_a_gahwa_both_sides_scored_in_is_a_listed_defect() -> None:
    """The buyer makes a Gahwa (fixture tazjel.doubling.gahwa-2) and each side took points:
    the engine scores it NS 10 EW 6, unraised, where tazjel's Gahwa is 152 to the winner."""
    text = (LIVE / "gahwa.btn").read_text(encoding="utf-8")
    [verdict] = verdicts(text, TAZJEL)
    assert (verdict.status, verdict.defects) == (
        "known-defect",
        ("gahwa-unraised-unless-shut-out",),
    )
    assert {d.rule_id for d in verdict.divergences} == {"doubling.gahwa", "game.target"}
    unraised = text.replace("raise E double\nraise S triple\nraise E four\nraise N gahwa\n", "")
    unraised = unraised.replace("= contract S hokum D x4 open", "= contract S hokum D")
    [plain] = verdicts(unraised, TAZJEL)  # the same points, unraised, are the engine's score
    assert plain.status == "pass"


def worked_hokum() -> Hand:
    """The worked deal, N buying a Hokum: N and S may triple a Double, E and W double."""
    hand = Hand(TAZJEL, E, WORKED_DEAL, parse_card("QS"))
    for bid in [Bid(N, "hokum"), Bid(W, "pass"), Bid(S, "pass"), Bid(E, "pass")]:
        hand.push(bid)
    hand.push(Complete(WORKED_REST))
    return hand


def test_the_first_pass_ends_the_raises_for_everyone() -> None:
    assert TAZJEL.doubling.window.option == "first_pass"
    hand = worked_hokum()
    hand.push(Raise(E, "double"))
    hand.push(Raise(N, "pass"))  # N's pass: S may not triple any more
    for late in (Raise(S, "triple"), Raise(S, "pass")):
        with pytest.raises(IllegalAction) as caught:
            hand.push(late)
        assert caught.value.rule_id == "doubling.window"
    hand.push(Lock(N, True))  # the buyer chooses the lock once the raises are over
    assert hand.contract is not None and (hand.contract.level, hand.contract.locked) == (2, True)


def test_before_any_pass_either_seat_of_the_side_may_raise() -> None:
    hand = worked_hokum()
    hand.push(Raise(W, "double"))
    hand.push(Raise(S, "triple"))  # N has not passed: S triples
    hand.push(Raise(E, "four"))
    assert hand.contract is not None and hand.contract.level == 4
