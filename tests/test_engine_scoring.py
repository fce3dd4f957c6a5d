"""Scoring a played hand (baloot_conformance.engine.scoring) on the shipped rulesets.

The numbers are the rule table's worked numbers (baloot-rules.md section 3), the BTN design's
worked hand and the sources' examples (ARENA's 80, PAGAT's multiplied Kaboot, reverse Kaboot 88).
Options that no shipped profile chooses are built with ``dataclasses.replace``.
"""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baloot_conformance.cards import Suit
from baloot_conformance.engine.model import Contract, ContractKind, Seat, Team
from baloot_conformance.engine.scoring import (
    HandFacts,
    HandScore,
    card_points_to_game_points,
    score_hand,
)
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset

N, W, S, E = 0, 1, 2, 3
NS, EW = 0, 1
TOTALS = {"sun": 130, "hokum": 162}
#: Raisers of a Hokum bought by N at each level: W doubles, N triples, E says four.
HOKUM_RAISERS = {1: (), 2: (W,), 3: (W, N), 4: (W, N, E)}
GAHWA_RAISERS = (W, N, E, N)


@cache
def ruleset(name: str) -> Ruleset:
    return load_ruleset(name)


def variant(base: str, section: str, rule: str, **changes: Any) -> Ruleset:
    """``base`` with one rule's parameters changed (for options no shipped profile has)."""
    rules = ruleset(base)
    holder = getattr(rules, section)
    changed = dataclasses.replace(getattr(holder, rule), **changes)
    return dataclasses.replace(rules, **{section: dataclasses.replace(holder, **{rule: changed})})


def hand(
    kind: ContractKind,
    abnat: tuple[int, int],
    *,
    buyer: Seat = N,
    last: Team = NS,
    tricks: tuple[int, int] | None = None,
    level: int = 1,
    gahwa: bool = False,
    raisers: tuple[Seat, ...] | None = None,
    projects: tuple[Team, int, int] | None = None,
    baloot: Team | None = None,
    ace: bool = False,
    first_seat: bool = False,
) -> HandFacts:
    """Facts for a hand given by its abnat (the last trick's 10 is taken off ``last``'s side)."""
    card_points = (abnat[0] - 10, abnat[1]) if last == NS else (abnat[0], abnat[1] - 10)
    if tricks is None:
        tricks = (8, 0) if abnat[1] == 0 else (0, 8) if abnat[0] == 0 else (4, 4)
    if raisers is None:
        raisers = GAHWA_RAISERS if gahwa else HOKUM_RAISERS[level]
    contract = Contract(
        kind=kind,
        trump=Suit.SPADES if kind == "hokum" else None,
        buyer=buyer,
        receiver=buyer,
        level=level,
        gahwa=gahwa,
        raisers=raisers,
    )
    project_team, project_raw, project_points = projects if projects else (None, 0, 0)
    return HandFacts(
        contract=contract,
        card_points=card_points,
        last_trick_team=last,
        tricks=tricks,
        project_team=project_team,
        project_raw=project_raw,
        project_points=project_points,
        baloot_team=baloot,
        buyer_held_ace=ace,
        buyer_is_first_seat=first_seat,
    )


def score(name: str | Ruleset, facts: HandFacts) -> HandScore:
    return score_hand(ruleset(name) if isinstance(name, str) else name, facts)


# --- scoring.sun.conversion / scoring.hokum.conversion -------------------------------------


@pytest.mark.parametrize(
    ("kind", "raw", "other_raw", "expect"),
    [
        ("sun", 65, 65, 13),
        ("sun", 66, 64, 14),
        ("sun", 64, 66, 12),
        ("sun", 55, 75, 11),
        ("hokum", 85, 77, 8),  # a 5 rounds down
        ("hokum", 86, 74, 9),  # a 6 rounds up (the other side's ones are below 6)
        ("hokum", 86, 76, 8),  # both end in 6: the larger raw gives one back
    ],
)
def test_card_points_convert_through_the_ruleset_formulas(
    kind: ContractKind, raw: int, other_raw: int, expect: int
) -> None:
    contract = Contract(kind=kind, trump=None, buyer=N, receiver=N)
    points = card_points_to_game_points(ruleset("saudi"), contract, 0, (raw, other_raw))
    assert points == expect


def test_conversion_uses_the_ruleset_not_a_builtin_rule() -> None:
    hokum_formula = ruleset("saudi").scoring.hokum_conversion.formula
    rules = variant("saudi", "scoring", "sun_conversion", formula=hokum_formula)
    sun = Contract(kind="sun", trump=None, buyer=N, receiver=N)
    assert card_points_to_game_points(rules, sun, 0, (65, 65)) == 6
    assert score(rules, hand("sun", (65, 65))).game_points == (6, 6)


@pytest.mark.parametrize(
    ("kind", "abnat", "expect"),
    [
        ("hokum", (86, 76), (8, 8)),
        ("hokum", (96, 66), (9, 7)),
        ("hokum", (106, 56), (10, 6)),
        ("hokum", (85, 77), (8, 8)),
        ("sun", (66, 64), (14, 12)),
        ("sun", (67, 63), (14, 12)),
        ("sun", (77, 53), (16, 10)),
    ],
)
def test_a_made_unraised_hand_scores_each_side_its_converted_points(
    kind: ContractKind, abnat: tuple[int, int], expect: tuple[int, int]
) -> None:
    result = score("saudi", hand(kind, abnat))
    assert (result.outcome, result.game_points) == ("made", expect)
    assert result.decided_by == ("scoring.contract", f"scoring.{kind}.conversion")


def test_the_buyer_on_either_team_gets_the_buyer_side_conversion() -> None:
    result = score("saudi", hand("hokum", (56, 106), buyer=E, last=EW))
    assert (result.outcome, result.game_points) == ("made", (6, 10))


def test_a_made_hand_adds_each_side_its_own_projects_and_baloot() -> None:
    sun = score("saudi", hand("sun", (86, 44), projects=(EW, 20, 4)))
    assert (sun.outcome, sun.game_points, sun.projects) == ("made", (18, 12), (0, 20))
    hokum = score("saudi", hand("hokum", (100, 62), projects=(NS, 50, 5), baloot=EW))
    assert (hokum.game_points, hokum.projects) == ((15, 8), (50, 0))


# --- cards.last_trick ----------------------------------------------------------------------


def test_the_last_trick_adds_ten_to_its_winner() -> None:
    facts = hand("hokum", (92, 70))
    assert facts.card_points == (82, 70)
    assert score("saudi", facts).abnat == (92, 70)
    other = dataclasses.replace(facts, card_points=(92, 60), last_trick_team=EW)
    assert score("saudi", other).abnat == (92, 70)


# --- scoring.contract ----------------------------------------------------------------------


def test_the_btn_worked_hand_fails_the_buyer_on_projects() -> None:
    facts = HandFacts(
        contract=Contract(kind="hokum", trump=Suit.SPADES, buyer=N, receiver=N),
        card_points=(82, 70),
        last_trick_team=NS,
        tricks=(6, 2),
        project_team=EW,
        project_raw=70,  # sira + fifty
        project_points=7,  # 2 + 5
        baloot_team=None,
        buyer_held_ace=False,
        buyer_is_first_seat=True,
    )
    result = score("saudi", facts)
    assert result == HandScore(
        abnat=(92, 70),
        aklat=(82, 70),
        card_scores=(9, 7),  # before the failure: what engines report as cardscore
        project_scores=(0, 7),
        projects=(0, 70),
        outcome="failed",
        kaboot_team=None,
        game_points=(0, 23),
        match_winner=None,
        decided_by=("scoring.contract", "scoring.failure", "scoring.round_value"),
    )


def test_projects_decide_making_the_contract_by_their_raw_value() -> None:
    # 86 + 20 beats 76 + 0 made; the same hand with EW's sira (76 + 20 > 86) fails.
    assert score("saudi", hand("hokum", (86, 76), projects=(NS, 20, 2))).game_points == (10, 8)
    failed = score("saudi", hand("hokum", (86, 76), projects=(EW, 20, 2)))
    assert (failed.outcome, failed.game_points) == ("failed", (0, 18))


def test_baloot_counts_toward_making_under_saudi_but_not_kammelna() -> None:
    facts = hand("hokum", (72, 90), baloot=NS)  # 72 + 20 > 90, but 72 < 90
    saudi = score("saudi", facts)
    assert (saudi.outcome, saudi.game_points) == ("made", (9, 9))
    kammelna = score("kammelna", facts)
    assert (kammelna.outcome, kammelna.game_points) == ("failed", (0, 18))


# --- scoring.contract.tie ------------------------------------------------------------------


def test_an_exact_hokum_tie_splits_under_saudi_and_fails_the_buyer_under_kammelna() -> None:
    facts = hand("hokum", (81, 81))
    saudi = score("saudi", facts)
    assert (saudi.outcome, saudi.game_points) == ("split", (8, 8))
    assert saudi.decided_by == (
        "scoring.contract",
        "scoring.contract.tie",
        "scoring.hokum.conversion",
    )
    kammelna = score("kammelna", facts)
    assert (kammelna.outcome, kammelna.game_points) == ("failed", (0, 16))


@pytest.mark.parametrize("name", ["saudi", "kammelna"])
def test_an_exact_sun_tie_splits(name: str) -> None:
    result = score(name, hand("sun", (65, 65)))
    assert (result.outcome, result.game_points) == ("split", (13, 13))


def test_a_tie_including_projects_follows_the_tie_rule() -> None:
    facts = hand("sun", (55, 75), projects=(NS, 20, 4))
    assert score("saudi", facts).game_points == (15, 15)
    rules = variant("saudi", "scoring", "contract_tie", sun="buyer_fails")
    failed = score(rules, facts)
    assert (failed.outcome, failed.game_points) == ("failed", (0, 30))


# --- scoring.failure -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "points", "projects"),
    [
        ("saudi", (2, 18), (0, 20)),  # projects transfer, the owner keeps its Baloot
        ("kammelna", (0, 20), (0, 20)),  # projects transfer, Baloot to the winner
        ("majlis", (0, 16), (0, 0)),  # projects forfeited, Baloot lost
    ],
)
def test_failure_allocates_the_failing_sides_projects_and_baloot(
    name: str, points: tuple[int, int], projects: tuple[int, int]
) -> None:
    # NS: 60 + sira 20 + Baloot 20 = 100 against 102.
    result = score(name, hand("hokum", (60, 102), projects=(NS, 20, 2), baloot=NS))
    assert (result.outcome, result.game_points, result.projects) == ("failed", points, projects)


@pytest.mark.parametrize("name", ["saudi", "kammelna", "majlis"])
def test_on_failure_the_opponents_always_keep_their_own_projects_and_baloot(name: str) -> None:
    result = score(name, hand("hokum", (70, 92), projects=(EW, 50, 5), baloot=EW))
    assert (result.outcome, result.game_points, result.projects) == ("failed", (0, 23), (0, 50))


def test_sun_failure_scores_the_sun_round_value() -> None:
    result = score("saudi", hand("sun", (60, 70), projects=(NS, 50, 10)))
    assert (result.outcome, result.game_points) == ("made", (22, 14))
    failed = score("saudi", hand("sun", (40, 90), projects=(NS, 20, 4)))
    assert (failed.outcome, failed.game_points, failed.projects) == ("failed", (0, 30), (0, 20))


# --- scoring.raised, scoring.round_value ---------------------------------------------------


def test_arena_raised_hand_scores_80() -> None:
    # Hokum x3 with a hundred and Baloot: (16 + 10) x 3 + 2 = 80 to the winner.
    result = score("saudi", hand("hokum", (110, 52), level=3, projects=(NS, 100, 10), baloot=NS))
    assert (result.outcome, result.game_points) == ("made", (80, 0))
    assert result.decided_by == ("scoring.contract", "scoring.raised", "scoring.round_value")


def test_a_made_raised_hand_can_keep_each_sides_share_multiplied() -> None:
    # scoring.raised made: each_side_multiplied (mohamed352/bloot, tazjel's engine): each side
    # its own game points and projects times the level, Baloot after; a failure stays whole.
    rules = variant("saudi", "scoring", "raised", made="each_side_multiplied")
    facts = hand("hokum", (110, 52), level=2, projects=(EW, 20, 2), baloot=EW)
    assert score("saudi", facts).game_points == (36, 2)
    result = score(rules, facts)
    assert (result.outcome, result.game_points) == ("made", (11 * 2, (5 + 2) * 2 + 2))
    assert result.decided_by == ("scoring.contract", "scoring.raised", "scoring.hokum.conversion")
    tripled = score(rules, hand("hokum", (110, 52), level=3, projects=(NS, 100, 10)))
    assert tripled.game_points == ((11 + 10) * 3, 5 * 3)
    failed = hand("hokum", (70, 92), level=2, projects=(NS, 20, 2))
    assert score(rules, failed).game_points == score("saudi", failed).game_points == (0, 36)


@pytest.mark.parametrize(
    ("name", "by_level"),
    [
        ("saudi", {2: 52, 3: 78, 4: 104}),  # level: x level
        ("majlis", {2: 52, 3: 68, 4: 84}),  # capped_at_double: x min(level, 2)
        ("saudi-federation", {2: 52, 3: 58, 4: 74}),  # double_only: x2 at Double, else x1
    ],
)
def test_the_project_multiplier_of_a_raised_hand(name: str, by_level: dict[int, int]) -> None:
    for level, expect in by_level.items():
        result = score(name, hand("hokum", (110, 52), level=level, projects=(NS, 100, 10)))
        assert result.game_points == (expect, 0), level


def test_a_raised_failure_gives_the_opponents_everything() -> None:
    result = score("saudi", hand("hokum", (70, 92), level=2, projects=(NS, 20, 2)))
    assert (result.outcome, result.game_points, result.projects) == ("failed", (0, 36), (0, 20))
    sun = score("saudi", hand("sun", (70, 60), level=2, raisers=(E,)))
    assert (sun.outcome, sun.game_points) == ("made", (52, 0))


@pytest.mark.parametrize(("name", "points", "projects"), [("saudi", 36, 20), ("majlis", 32, 0)])
def test_a_raised_hand_allocates_the_losers_projects_as_on_failure(
    name: str, points: int, projects: int
) -> None:
    result = score(name, hand("hokum", (110, 52), level=2, projects=(EW, 20, 2)))
    assert (result.outcome, result.game_points, result.projects) == (
        "made",
        (points, 0),
        (projects, 0),
    )


@pytest.mark.parametrize(
    ("name", "points"),
    [("saudi", (32, 2)), ("kammelna", (32, 2)), ("majlis", (32, 0))],
)
def test_the_opponents_keep_their_baloot_when_a_raised_buyer_makes_it(
    name: str, points: tuple[int, int]
) -> None:
    result = score(name, hand("hokum", (120, 42), level=2, baloot=EW))
    assert result.game_points == points


@pytest.mark.parametrize(
    ("name", "points"),
    [("saudi", (2, 32)), ("kammelna", (0, 34)), ("majlis", (0, 32))],
)
def test_a_failed_raised_buyers_baloot_follows_the_failure_rule(
    name: str, points: tuple[int, int]
) -> None:
    result = score(name, hand("hokum", (50, 112), level=2, baloot=NS))
    assert (result.outcome, result.game_points) == ("failed", points)


# --- doubling.tie --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "outcome", "points"),
    [
        ("saudi", "failed", (0, 48)),  # last_raiser: N said Three
        ("kammelna", "made", (48, 0)),  # initial_doubler: W doubled
        ("tazjel", "failed", (0, 48)),  # buyer
    ],
)
def test_a_raised_tie_is_lost_by_the_side_the_tie_rule_names(
    name: str, outcome: str, points: tuple[int, int]
) -> None:
    result = score(name, hand("hokum", (81, 81), level=3))
    assert (result.outcome, result.game_points) == (outcome, points)
    assert "doubling.tie" in result.decided_by
    assert "scoring.contract.tie" not in result.decided_by


def test_the_last_raiser_is_whoever_raised_last() -> None:
    # W doubles (EW last: NS win), N triples (NS last: EW win), E says Four (EW last).
    assert score("saudi", hand("hokum", (81, 81), level=2)).game_points == (32, 0)
    assert score("saudi", hand("hokum", (81, 81), level=3)).game_points == (0, 48)
    assert score("saudi", hand("hokum", (81, 81), level=4)).game_points == (64, 0)


def test_a_raised_tie_needs_the_raisers() -> None:
    with pytest.raises(ValueError, match=r"doubling\.tie"):
        score("saudi", hand("hokum", (81, 81), level=2, raisers=()))
    assert score("tazjel", hand("hokum", (81, 81), level=2, raisers=())).game_points == (0, 32)


# --- doubling.gahwa ------------------------------------------------------------------------


def test_gahwa_match_win_ends_the_game_and_records_a_level_4_hand() -> None:
    facts = hand("hokum", (100, 62), level=4, gahwa=True, projects=(NS, 20, 2), baloot=NS)
    result = score("saudi", facts)
    assert (result.outcome, result.match_winner, result.game_points) == ("made", NS, (74, 0))
    assert result.decided_by[-3:] == ("doubling.gahwa", "scoring.raised", "scoring.round_value")
    failed = score("saudi", hand("hokum", (60, 102), level=4, gahwa=True))
    assert (failed.outcome, failed.match_winner, failed.game_points) == ("failed", EW, (0, 64))


@pytest.mark.parametrize("name", ["kammelna", "tazjel"])
def test_gahwa_fixed_points_scores_152_and_nothing_else(name: str) -> None:
    facts = hand("hokum", (100, 62), level=4, gahwa=True, projects=(NS, 20, 2), baloot=NS)
    result = score(name, facts)
    assert (result.match_winner, result.game_points, result.projects) == (None, (152, 0), (0, 0))
    failed = score(name, hand("hokum", (60, 102), level=4, gahwa=True))
    assert failed.game_points == (0, 152)


def test_gahwa_overrides_kaboot() -> None:
    facts = hand("hokum", (162, 0), level=4, gahwa=True)
    saudi = score("saudi", facts)
    assert (saudi.outcome, saudi.kaboot_team, saudi.match_winner) == ("kaboot", NS, NS)
    assert saudi.game_points == (64, 0)
    assert score("kammelna", facts).game_points == (152, 0)


# --- scoring.kaboot ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind", "level", "expect"),
    [
        ("saudi", "hokum", 1, 25),
        ("saudi", "sun", 1, 44),
        ("saudi", "hokum", 2, 25),  # flat
        ("saudi", "hokum", 3, 25),
        ("saudi", "hokum", 4, 25),
        ("saudi", "sun", 2, 44),
        ("pagat", "hokum", 1, 25),  # multiplied
        ("pagat", "hokum", 2, 50),
        ("pagat", "hokum", 3, 75),
        ("pagat", "hokum", 4, 100),
        ("pagat", "sun", 2, 88),
        ("tazjel", "hokum", 3, 75),
    ],
)
def test_kaboot_value_flat_or_multiplied(
    name: str, kind: ContractKind, level: int, expect: int
) -> None:
    raisers = (W,) if kind == "sun" and level == 2 else None
    result = score(name, hand(kind, (TOTALS[kind], 0), level=level, raisers=raisers))
    assert (result.outcome, result.kaboot_team, result.game_points) == ("kaboot", NS, (expect, 0))
    assert result.decided_by == ("scoring.kaboot",)


def test_the_buyers_opponents_can_sweep_too() -> None:
    result = score("saudi", hand("hokum", (0, 162), last=EW))
    assert (result.outcome, result.kaboot_team, result.game_points) == ("kaboot", EW, (0, 25))


def test_kaboot_projects_added_or_ignored() -> None:
    facts = hand("hokum", (162, 0), projects=(NS, 50, 5), baloot=NS)
    added = score("saudi", facts)
    assert (added.game_points, added.projects) == ((32, 0), (50, 0))
    rules = variant("saudi", "scoring", "kaboot", projects="ignored")
    ignored = score(rules, facts)
    assert (ignored.game_points, ignored.projects) == ((27, 0), (0, 0))  # Baloot still scores


def test_a_multiplied_kaboot_multiplies_its_projects_like_a_raised_hand() -> None:
    facts = hand("hokum", (162, 0), level=2, projects=(NS, 50, 5), baloot=NS)
    assert score("pagat", facts).game_points == (50 + 10 + 2, 0)
    assert score("saudi", facts).game_points == (25 + 5 + 2, 0)


def test_the_swept_sides_projects_score_for_nobody() -> None:
    result = score("saudi", hand("hokum", (162, 0), projects=(EW, 100, 10)))
    assert (result.game_points, result.projects) == ((25, 0), (0, 0))


@pytest.mark.parametrize(
    ("name", "points"),
    [("saudi", (2, 25)), ("kammelna", (0, 27)), ("majlis", (0, 25))],
)
def test_a_swept_buyers_baloot_follows_the_failure_rule(name: str, points: tuple[int, int]) -> None:
    assert score(name, hand("hokum", (0, 162), last=EW, baloot=NS)).game_points == points


@pytest.mark.parametrize(
    ("name", "points"), [("saudi", (25, 2)), ("tazjel", (25, 2)), ("majlis", (25, 0))]
)
def test_swept_opponents_keep_their_baloot_unless_the_ruleset_drops_it(
    name: str, points: tuple[int, int]
) -> None:
    # majlis: scoring.kaboot.swept_baloot: lost (and scoring.raised.loser_baloot: lost above).
    assert score(name, hand("hokum", (162, 0), baloot=EW)).game_points == points


def test_the_swept_side_keeps_its_projects_under_tazjel() -> None:
    # scoring.kaboot.projects: each_side; saudi: the swept side's projects score for nobody.
    facts = hand("hokum", (162, 0), projects=(EW, 100, 10))
    assert score("tazjel", facts).game_points == (25, 10)
    assert score("saudi", facts).game_points == (25, 0)


def test_a_raised_kaboot_multiplies_only_its_projects_under_majlis() -> None:
    # scoring.kaboot.raised: projects_multiplied (x2 at most: capped_at_double).
    facts = hand("hokum", (162, 0), level=3, projects=(NS, 50, 5))
    assert score("majlis", facts).game_points == (25 + 5 * 2, 0)
    assert score("saudi", facts).game_points == (25 + 5, 0)  # flat


def test_an_exact_tie_is_made_under_majlis() -> None:
    # scoring.contract.tie: made gives the points of a split and the buyer's contract.
    facts = hand("sun", (65, 65))
    majlis, saudi = score("majlis", facts), score("saudi", facts)
    assert majlis.game_points == saudi.game_points == (13, 13)
    assert (majlis.outcome, saudi.outcome) == ("made", "split")


def test_the_risk_takers_pile_is_the_one_majlis_converts_last() -> None:
    # scoring.hokum.conversion with takes_risk: the doubler takes the risk at x2.
    unraised = hand("hokum", (46, 116), last=EW)
    doubled = hand("hokum", (46, 116), last=EW, level=2, raisers=(W,))
    assert score("majlis", unraised).card_scores == (4, 12)
    assert score("majlis", doubled).card_scores == (5, 11)
    assert score("saudi", doubled).card_scores == (5, 11)  # the pair rule rounds each pile


# --- scoring.reverse_kaboot ----------------------------------------------------------------


def reverse(**changes: Any) -> HandFacts:
    """A Sun bought by N (the first seat, holding an Ace) in which NS take no trick."""
    return hand("sun", (0, 130), last=EW, ace=True, first_seat=True, **changes)


def test_reverse_kaboot_scores_88_to_the_opponents() -> None:
    result = score("saudi", reverse())
    assert (result.outcome, result.kaboot_team, result.game_points) == (
        "reverse_kaboot",
        EW,
        (0, 88),
    )
    assert result.decided_by == ("scoring.reverse_kaboot",)


def test_reverse_kaboot_first_seat_with_ace_needs_both() -> None:
    for facts in (
        dataclasses.replace(reverse(), buyer_held_ace=False),
        dataclasses.replace(reverse(), buyer_is_first_seat=False),
    ):
        result = score("saudi", facts)
        assert (result.outcome, result.game_points) == ("kaboot", (0, 44))


def test_reverse_kaboot_any_sun_buyer_and_disabled() -> None:
    plain = dataclasses.replace(reverse(), buyer_held_ace=False, buyer_is_first_seat=False)
    any_buyer = variant("saudi", "scoring", "reverse_kaboot", option="any_sun_buyer")
    assert score(any_buyer, plain).game_points == (0, 88)
    disabled = variant("saudi", "scoring", "reverse_kaboot", option="disabled")
    result = score(disabled, reverse())
    assert (result.outcome, result.game_points) == ("kaboot", (0, 44))


def test_reverse_kaboot_is_never_doubled_and_adds_projects() -> None:
    assert score("saudi", reverse(level=2, raisers=(W,))).game_points == (0, 88)
    assert score("pagat", reverse(level=2, raisers=(W,))).game_points == (0, 88)
    with_fifty = score("saudi", reverse(level=2, raisers=(W,), projects=(EW, 50, 10)))
    assert (with_fifty.game_points, with_fifty.projects) == ((0, 98), (0, 50))
    # Even where a raise multiplies a Kaboot and its projects, a reverse Kaboot stays flat.
    pagat = score("pagat", reverse(level=2, raisers=(W,), projects=(EW, 50, 10)))
    assert pagat.game_points == (0, 98)


def test_reverse_kaboot_is_sun_only_and_only_against_the_buyer() -> None:
    hokum = hand("hokum", (0, 162), last=EW, ace=True, first_seat=True)
    assert score("saudi", hokum).game_points == (0, 25)
    buyer_sweeps = hand("sun", (130, 0), ace=True, first_seat=True)
    assert score("saudi", buyer_sweeps).outcome == "kaboot"


# --- inconsistent facts --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"tricks": (5, 4)}, "sum to 8"),
        ({"card_points": (80, 70)}, "sum to 152"),
        ({"tricks": (8, 0)}, "no trick"),
        ({"last_trick_team": 2}, "last_trick_team"),
        ({"project_raw": 20}, "no team's projects"),
        ({"project_team": NS, "project_points": -2}, "negative"),
    ],
)
def test_inconsistent_facts_are_refused(changes: dict[str, Any], message: str) -> None:
    facts = dataclasses.replace(hand("hokum", (92, 70)), **changes)
    with pytest.raises(ValueError, match=message):
        score("saudi", facts)


def test_baloot_in_sun_is_refused() -> None:
    with pytest.raises(ValueError, match="only in Hokum"):
        score("saudi", hand("sun", (70, 60), baloot=NS))


# --- properties ----------------------------------------------------------------------------

PROFILES = ("saudi", "kammelna", "majlis", "pagat", "saudi-federation", "tazjel")
PROJECTS: dict[ContractKind, tuple[tuple[int, int], ...]] = {
    "sun": ((20, 4), (50, 10), (70, 14), (100, 20), (200, 40)),
    "hokum": ((20, 2), (50, 5), (70, 7), (100, 10), (150, 15)),
}


@st.composite
def card_split(draw: st.DrawFn, kind: ContractKind, sweep: bool) -> dict[str, Any]:
    """Tricks, card points and the last trick of a consistent hand (optionally a sweep)."""
    cards = TOTALS[kind] - 10
    ns_tricks = draw(st.sampled_from((0, 8)) if sweep else st.integers(1, 7))
    if ns_tricks in (0, 8):
        last = NS if ns_tricks == 8 else EW
        ns_points = cards if ns_tricks == 8 else 0
    else:
        last = draw(st.sampled_from((NS, EW)))
        ns_points = draw(st.integers(0, cards))
    return {
        "tricks": (ns_tricks, 8 - ns_tricks),
        "card_points": (ns_points, cards - ns_points),
        "last_trick_team": last,
    }


@given(
    kind=st.sampled_from(("sun", "hokum")),
    partner=st.booleans(),
    data=st.data(),
    name=st.sampled_from(PROFILES),
)
def test_a_made_unraised_hand_without_projects_shares_the_round_value(
    kind: ContractKind, partner: bool, data: st.DataObject, name: str
) -> None:
    split = data.draw(card_split(kind, sweep=False))
    facts = dataclasses.replace(hand(kind, (65, 65) if kind == "sun" else (81, 81)), **split)
    abnat = score(name, facts).abnat
    leader = NS if abnat[0] >= abnat[1] else EW  # the buyer's side makes it (or ties)
    buyer = leader + 2 * partner
    facts = dataclasses.replace(facts, contract=dataclasses.replace(facts.contract, buyer=buyer))
    result = score(name, facts)
    tie = ruleset(name).scoring.contract_tie
    if abnat[0] == abnat[1] and (tie.sun if kind == "sun" else tie.hokum) == "buyer_fails":
        assert result.outcome == "failed"
        return
    option = tie.sun if kind == "sun" else tie.hokum
    tied = "made" if option == "made" else "split"  # made: a split that counts as made
    assert result.outcome == (tied if abnat[0] == abnat[1] else "made")
    assert sum(result.game_points) == (26 if kind == "sun" else 16)
    assert result.game_points[leader] >= result.game_points[1 - leader]


@st.composite
def raised_hands(draw: st.DrawFn) -> HandFacts:
    """Any consistent raised hand: any buyer, raise, projects, Baloot, sweep or not."""
    kind: ContractKind = draw(st.sampled_from(("sun", "hokum")))
    buyer = draw(st.integers(0, 3))
    opponents = ((buyer + 1) % 4, (buyer + 3) % 4)
    own = (buyer, (buyer + 2) % 4)
    gahwa = kind == "hokum" and draw(st.booleans())
    level = 4 if gahwa else 2 if kind == "sun" else draw(st.integers(2, 4))
    steps = 4 if gahwa else level - 1
    raisers = tuple(draw(st.sampled_from(opponents if i % 2 == 0 else own)) for i in range(steps))
    split = draw(card_split(kind, sweep=draw(st.booleans())))
    project_team = draw(st.sampled_from((None, NS, EW)))
    project_raw, project_points = draw(st.sampled_from(PROJECTS[kind]))
    return HandFacts(
        contract=Contract(
            kind=kind,
            trump=Suit.HEARTS if kind == "hokum" else None,
            buyer=buyer,
            receiver=buyer,
            level=level,
            gahwa=gahwa,
            raisers=raisers,
        ),
        project_team=project_team,
        project_raw=project_raw if project_team is not None else 0,
        project_points=project_points if project_team is not None else 0,
        baloot_team=draw(st.sampled_from((None, NS, EW))) if kind == "hokum" else None,
        buyer_held_ace=draw(st.booleans()),
        buyer_is_first_seat=draw(st.booleans()),
        **split,
    )


@given(facts=raised_hands(), name=st.sampled_from(PROFILES))
def test_the_loser_of_a_raised_hand_scores_nothing_but_baloot(facts: HandFacts, name: str) -> None:
    result = score(name, facts)
    buyer = facts.contract.buyer_team
    if result.kaboot_team is not None:
        winner = result.kaboot_team
    else:
        assert result.outcome in ("made", "failed")  # never split when raised
        winner = buyer if result.outcome == "made" else 1 - buyer
    loser = 1 - winner
    baloot = ruleset(name).projects.baloot.game_points
    assert result.game_points[winner] > 0
    kept = 0  # tazjel: the swept side keeps the projects it won the comparison with
    each_side = ruleset(name).scoring.kaboot.projects == "each_side"
    if result.kaboot_team is not None and each_side and not facts.contract.gahwa:
        kept = facts.project_points * facts.contract.level if facts.project_team == loser else 0
    assert result.game_points[loser] - kept in (0, baloot)
    if result.game_points[loser] - kept:
        assert facts.baloot_team == loser
    assert (result.match_winner is not None) == (
        facts.contract.gahwa and ruleset(name).doubling.gahwa.option == "match_win"
    )
