"""Projects and Baloot (baloot_conformance.engine.projects).

Hands are written as card tokens; rulesets are the shipped ones and variants built with
``dataclasses.replace`` on one rule. Seats: 0 N, 1 W, 2 S, 3 E (teams NS = 0, EW = 1).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from baloot_conformance.cards import Suit, parse_card
from baloot_conformance.engine.model import CardSet, Contract, ContractKind, IllegalAction, card_set
from baloot_conformance.engine.projects import (
    Project,
    automatic_declarations,
    baloot_holder,
    check_declarations,
    counted_projects,
    declared_project,
    find_projects,
)
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset

SAUDI = load_ruleset("saudi")
MAJLIS = load_ruleset("majlis")
TAZJEL = load_ruleset("tazjel")
KAMMELNA = load_ruleset("kammelna")

HOKUM_S = Contract("hokum", Suit.SPADES, buyer=0, receiver=0)
SUN = Contract("sun", None, buyer=0, receiver=0)


def projects_rule(rs: Ruleset, name: str, **fields: Any) -> Ruleset:
    """``rs`` with one projects rule's parameters replaced."""
    section = rs.projects
    return replace(
        rs, projects=replace(section, **{name: replace(getattr(section, name), **fields)})
    )


def cards(text: str) -> CardSet:
    return card_set(parse_card(t) for t in text.split())


def found(rs: Ruleset, kind: ContractKind, hand: str, seat: int = 0) -> list[tuple[str, CardSet]]:
    return [(p.name, p.cards) for p in find_projects(rs, kind, seat, cards(hand))]


def declare(rs: Ruleset, kind: ContractKind, seat: int, hand: str, name: str, what: str) -> Project:
    return declared_project(rs, kind, seat, cards(hand), name, cards(what))


def declaration_error(
    rs: Ruleset, kind: ContractKind, hand: str, name: str, what: str
) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        declare(rs, kind, 1, hand, name, what)
    return caught.value


# --- find_projects: sequences -------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["sun", "hokum"])
def test_sira(kind: ContractKind) -> None:
    (project,) = find_projects(SAUDI, kind, 1, cards("KS JH QH 7D QD KD AD TC"))
    assert (project.name, project.cards, project.raw) == ("sira", cards("AD KD QD"), 20)
    assert project.game_points == {"sun": 4, "hokum": 2}[kind]
    assert project.seat == 1
    assert str(project) == "W sira AD KD QD"


@pytest.mark.parametrize("kind", ["sun", "hokum"])
def test_fifty(kind: ContractKind) -> None:
    (project,) = find_projects(SAUDI, kind, 3, cards("JS TH AH 8D 9D TD JD AC"))
    assert (project.name, project.cards, project.raw) == ("fifty", cards("JD TD 9D 8D"), 50)
    assert project.game_points == {"sun": 10, "hokum": 5}[kind]


def test_hundred_sequence_and_a_sira() -> None:
    assert found(SAUDI, "hokum", "9S TS JS QS KS 7H 8H 9H") == [
        ("hundred.sequence", cards("9S TS JS QS KS")),
        ("sira", cards("7H 8H 9H")),
    ]
    (hundred, _) = find_projects(SAUDI, "sun", 0, cards("9S TS JS QS KS 7H 8H 9H"))
    assert (hundred.raw, hundred.game_points) == (100, 20)


def test_eight_card_run_is_one_hundred() -> None:
    hand = "AS KS QS JS TS 9S 8S 7S"
    assert found(SAUDI, "hokum", hand) == [("hundred.sequence", cards(hand))]


def test_a_longer_run_may_split_into_a_hundred_of_its_top_and_the_rest() -> None:
    # projects.hundred.sequence longer: top_and_rest (mohamed352/bloot's findProjects).
    split = projects_rule(SAUDI, "hundred_sequence", longer="top_and_rest")
    assert sorted(found(split, "hokum", "AS KS QS JS TS 9S 8S 7S")) == [
        ("hundred.sequence", cards("AS KS QS JS TS")),
        ("sira", cards("9S 8S 7S")),
    ]
    assert found(split, "sun", "KH QH JH TH 9H 8H 7S AD") == [
        ("hundred.sequence", cards("KH QH JH TH 9H"))
    ]
    assert found(SAUDI, "sun", "KH QH JH TH 9H 8H 7S AD") == [
        ("hundred.sequence", cards("KH QH JH TH 9H 8H"))
    ]
    whole = declaration_error(split, "sun", "KH QH JH TH 9H 8H 7S AD", "hundred.sequence",
                              "KH QH JH TH 9H 8H")  # fmt: skip
    assert "a hundred of its top cards and the rest apart" in whole.reason


def test_runs_are_maximal_and_broken_by_a_gap() -> None:
    # No JS or TS: A-K-Q and 9-8-7 are two siras, not one run.
    assert sorted(found(SAUDI, "sun", "AS KS QS 9S 8S 7S AH KC")) == [
        ("sira", cards("9S 8S 7S")),
        ("sira", cards("AS KS QS")),
    ]
    assert found(SAUDI, "sun", "7S 8S AH KH 9D TD 7C 8C") == []


def test_runs_follow_the_sequence_order_not_the_plain_order() -> None:
    # A-10-K are neighbours in the plain order (A > 10 > K) but not in the natural order.
    assert found(SAUDI, "sun", "AS TS KS 7H 9D JC 8H QD") == []
    assert found(SAUDI, "sun", "TS JS QS 7H 9D 7C 8C AD") == [("sira", cards("TS JS QS"))]


def test_sequence_lengths_come_from_the_ruleset() -> None:
    longer = projects_rule(SAUDI, "hundred_sequence", length=6)
    assert found(longer, "sun", "9S TS JS QS KS 7H 8D 9C") == [("fifty", cards("9S TS JS QS KS"))]
    assert found(longer, "sun", "8S 9S TS JS QS KS 7H 9C")[0][0] == "hundred.sequence"


# --- find_projects: four of a kind --------------------------------------------------------------


@pytest.mark.parametrize("rank", ["T", "J", "Q", "K"])
@pytest.mark.parametrize("kind", ["sun", "hokum"])
def test_four_of_a_kind_hundred(rank: str, kind: ContractKind) -> None:
    four = " ".join(rank + s for s in "SHDC")
    projects = find_projects(SAUDI, kind, 2, cards(four + " 7S 9H 8D 7C"))
    assert [(p.name, p.cards, p.raw) for p in projects] == [
        ("hundred.four_of_a_kind", cards(four), 100)
    ]
    assert projects[0].game_points == {"sun": 20, "hokum": 10}[kind]


def test_four_aces() -> None:
    hand = "AS AH AD AC 7S 9H 8D 7C"
    (sun,) = find_projects(SAUDI, "sun", 0, cards(hand))
    assert (sun.name, sun.raw, sun.game_points) == ("four_hundred", 200, 40)
    (hokum,) = find_projects(SAUDI, "hokum", 0, cards(hand))
    assert (hokum.name, hokum.raw, hokum.game_points) == ("hundred.four_of_a_kind", 100, 10)
    (logged,) = find_projects(KAMMELNA, "sun", 0, cards(hand))
    assert (logged.name, logged.raw, logged.game_points) == ("four_hundred", 400, 40)


@pytest.mark.parametrize("rank", ["9", "8", "7"])
@pytest.mark.parametrize("kind", ["sun", "hokum"])
def test_no_four_of_nines_eights_sevens(rank: str, kind: ContractKind) -> None:
    assert found(SAUDI, kind, " ".join(rank + s for s in "SHDC") + " AS KH QD JC") == []


def test_four_of_a_kind_and_run_may_share_a_card() -> None:
    assert found(SAUDI, "hokum", "AS KS QS JS TS KH KD KC") == [
        ("hundred.sequence", cards("AS KS QS JS TS")),
        ("hundred.four_of_a_kind", cards("KS KH KD KC")),
    ]


def test_a_four_of_a_kind_may_take_its_cards_first() -> None:
    # projects.limits shared_cards four_first (mohamed352/bloot's findProjects): the four
    # Kings take KH, so QH KH AH is no sira; without KS, AS KS QS JS TS leaves AS alone and
    # QS JS TS a sira.
    first = projects_rule(SAUDI, "limits", shared_cards="four_first")
    hand = "QH KH AH KS KD KC 7S 8D"
    assert sorted(found(SAUDI, "sun", hand)) == [
        ("hundred.four_of_a_kind", cards("KS KH KD KC")),
        ("sira", cards("AH KH QH")),
    ]
    assert found(first, "sun", hand) == [("hundred.four_of_a_kind", cards("KS KH KD KC"))]
    assert sorted(found(first, "hokum", "AS KS QS JS TS KH KD KC")) == [
        ("hundred.four_of_a_kind", cards("KS KH KD KC")),
        ("sira", cards("QS JS TS")),
    ]
    error = declaration_error(first, "sun", hand, "sira", "AH KH QH")
    assert error.reason.endswith("KH is part of a four of a kind, which takes its cards first")


# --- declared_project --------------------------------------------------------------------------

HAND = "AD KD QD JD AS AH AC 9S"


def test_declaration_accepted() -> None:
    project = declare(SAUDI, "hokum", 1, HAND, "fifty", "AD KD QD JD")
    assert project in find_projects(SAUDI, "hokum", 1, cards(HAND))


def test_declaration_not_held() -> None:
    error = declaration_error(SAUDI, "hokum", HAND, "sira", "KS QS JS")
    assert error.rule_id == "projects.declaration"
    assert error.reason == "W declares sira KS QS JS but does not hold KS QS JS"


def test_declaration_unknown_name() -> None:
    error = declaration_error(SAUDI, "hokum", HAND, "hundred", "AD KD QD JD")
    assert error.rule_id == "projects.declaration"
    assert "'hundred' is not a project" in error.reason


def test_declaration_wrong_name() -> None:
    error = declaration_error(SAUDI, "hokum", HAND, "sira", "AD KD QD JD")
    assert error.rule_id == "projects.sira"
    assert error.reason.endswith("these cards form a fifty")


def test_declaration_part_of_a_longer_run() -> None:
    error = declaration_error(SAUDI, "hokum", HAND, "sira", "AD KD QD")
    assert error.rule_id == "projects.sira"
    assert "part of the longer run AD KD QD JD (a fifty)" in error.reason


def test_declaration_not_consecutive_or_mixed() -> None:
    assert "not consecutive" in declaration_error(SAUDI, "sun", HAND, "sira", "AD KD JD").reason
    mixed = declaration_error(SAUDI, "sun", HAND, "sira", "AD KD AS")
    assert "neither of one suit nor of one rank" in mixed.reason


def test_four_hundred_does_not_exist_in_hokum() -> None:
    hand = "AS AH AD AC 7S 9H 8D 7C"
    error = declaration_error(SAUDI, "hokum", hand, "four_hundred", "AS AH AD AC")
    assert error.rule_id == "projects.four_hundred"
    assert "no four_hundred in Hokum" in error.reason
    assert declare(SAUDI, "hokum", 1, hand, "hundred.four_of_a_kind", "AS AH AD AC").raw == 100
    sun = declaration_error(SAUDI, "sun", hand, "hundred.four_of_a_kind", "AS AH AD AC")
    assert sun.rule_id == "projects.hundred.four_of_a_kind"
    assert sun.reason.endswith("form a four_hundred")


def test_four_nines_is_no_project() -> None:
    hand = "9S 9H 9D 9C AS KH QD JC"
    error = declaration_error(SAUDI, "hokum", hand, "hundred.four_of_a_kind", "9S 9H 9D 9C")
    assert error.rule_id == "projects.hundred.four_of_a_kind"
    assert "four 9s are no project in Hokum" in error.reason


def test_short_run_is_no_project() -> None:
    error = declaration_error(SAUDI, "sun", "AD KD 9S 7H 8C TC QH JS", "sira", "AD KD")
    assert error.rule_id == "projects.sira" and "a run of 2 is no project" in error.reason


# --- projects.limits ---------------------------------------------------------------------------


def test_limits() -> None:
    hand = "9S TS JS QS KS 7H 8H 9H"
    hundred, sira = find_projects(SAUDI, "hokum", 1, cards(hand))
    check_declarations(SAUDI, "hokum", 1, [hundred, sira])
    one = projects_rule(SAUDI, "limits", per_player=1)
    with pytest.raises(IllegalAction) as caught:
        check_declarations(one, "hokum", 1, [hundred, sira])
    assert caught.value.rule_id == "projects.limits" and "at most 1" in caught.value.reason


def test_no_card_in_two_projects() -> None:
    run, kings = find_projects(SAUDI, "hokum", 0, cards("AS KS QS JS TS KH KD KC"))
    check_declarations(SAUDI, "hokum", 0, [run])
    with pytest.raises(IllegalAction) as caught:
        check_declarations(SAUDI, "hokum", 0, [run, kings])
    assert caught.value.rule_id == "projects.limits"
    assert "uses KS in two projects" in caught.value.reason


def test_a_four_of_a_kind_and_a_sequence_share_a_card_under_tazjel() -> None:
    # projects.limits.shared_cards: across_kinds (tazjel, match seed 18, hand 5).
    hand = "TS TH TD TC 9H 8H 7C 8C"
    tens = declare(TAZJEL, "hokum", 3, hand, "hundred.four_of_a_kind", "TS TH TD TC")
    sira = declare(TAZJEL, "hokum", 3, hand, "sira", "TH 9H 8H")
    check_declarations(TAZJEL, "hokum", 3, [tens, sira])
    with pytest.raises(IllegalAction, match="uses TH in two projects"):
        check_declarations(SAUDI, "hokum", 3, [tens, sira])


def test_limits_reject_another_seats_project() -> None:
    (sira,) = find_projects(SAUDI, "hokum", 1, cards("KS JH QH 7D QD KD AD TC"))
    with pytest.raises(ValueError, match="another seat"):
        check_declarations(SAUDI, "hokum", 2, [sira])


# --- projects.declaration: automatic modes -------------------------------------------------------

AUTO_ALL = projects_rule(SAUDI, "declaration", option="automatic_all")


def auto(rs: Ruleset, hand: str, kind: ContractKind = "hokum") -> list[tuple[str, CardSet]]:
    return [(p.name, p.cards) for p in automatic_declarations(rs, kind, 0, cards(hand))]


def test_automatic_explicit_is_an_error() -> None:
    with pytest.raises(ValueError, match="explicit"):
        automatic_declarations(SAUDI, "hokum", 0, cards("AS KS QS 7H 8D 9C TC JC"))


@pytest.mark.parametrize("rs", [AUTO_ALL, MAJLIS])
def test_automatic_takes_every_disjoint_project(rs: Ruleset) -> None:
    assert auto(rs, "9S TS JS QS KS 7H 8H 9H") == [
        ("hundred.sequence", cards("9S TS JS QS KS")),
        ("sira", cards("7H 8H 9H")),
    ]
    assert auto(rs, "7H 8D 9C TC QC AS AH KD") == []


@pytest.mark.parametrize("rs", [AUTO_ALL, MAJLIS])
def test_automatic_best_scoring_set(rs: Ruleset) -> None:
    # Four Kings (100) beat the two siras they overlap (20 + 20).
    assert auto(rs, "KS QS JS KH QH JH KD KC") == [("hundred.four_of_a_kind", cards("KS KH KD KC"))]
    # Two hundreds overlapping at KS: equal points, the sequence ranks higher (saudi).
    assert auto(rs, "AS KS QS JS TS KH KD KC") == [("hundred.sequence", cards("AS KS QS JS TS"))]


def test_automatic_respects_per_player() -> None:
    for option in ("automatic_all", "automatic_best_two"):
        one = projects_rule(
            projects_rule(SAUDI, "limits", per_player=1), "declaration", option=option
        )
        assert auto(one, "9S TS JS QS KS 7H 8H 9H") == [
            ("hundred.sequence", cards("9S TS JS QS KS"))
        ]


# --- projects.ranking, comparison and tie -------------------------------------------------------


def test_worked_example_of_btn_md() -> None:
    # Hokum, trump spades: W declares sira AD KD QD, E fifty JD TD 9D 8D; the dealer is E.
    w = declare(SAUDI, "hokum", 1, "KS JH QH 7D QD KD AD TC", "sira", "AD KD QD")
    e = declare(SAUDI, "hokum", 3, "JS TH AH 8D 9D TD JD AC", "fifty", "JD TD 9D 8D")
    winner, counted = counted_projects(SAUDI, HOKUM_S, [w, e], first_seat=0)
    assert winner == 1
    assert counted == (w, e)
    assert sum(p.raw for p in counted) == 70
    assert sum(p.game_points for p in counted) == 7


def test_only_the_best_team_counts() -> None:
    n = declare(SAUDI, "hokum", 0, "AS KS QS 7H 8D 9C TC JC", "sira", "AS KS QS")
    s = declare(SAUDI, "hokum", 2, "9H TH JH QH 7S 8S AD KC", "fifty", "9H TH JH QH")
    e = declare(SAUDI, "hokum", 3, "7D 8D 9D AH KH 9S TS JS", "sira", "7D 8D 9D")
    assert counted_projects(SAUDI, HOKUM_S, [n, e, s], 0) == (0, (n, s))
    assert counted_projects(SAUDI, HOKUM_S, [], 0) == (None, ())
    assert counted_projects(SAUDI, HOKUM_S, [e], 0) == (1, (e,))


def test_higher_top_card_wins_within_a_type() -> None:
    low = declare(SAUDI, "sun", 0, "KS QS JS 7H 8D 9C TC AC", "sira", "KS QS JS")
    high = declare(SAUDI, "sun", 3, "AH KH QH 7S 8C 9D TD JD", "sira", "AH KH QH")
    assert counted_projects(SAUDI, SUN, [low, high], 0) == (1, (high,))


def test_longer_hundred_wins_on_an_equal_top() -> None:
    six = declare(
        SAUDI, "sun", 1, "AS KS QS JS TS 9S 7H 8D", "hundred.sequence", "AS KS QS JS TS 9S"
    )
    five = declare(SAUDI, "sun", 0, "AH KH QH JH TH 7S 8C 9D", "hundred.sequence", "AH KH QH JH TH")
    assert counted_projects(SAUDI, SUN, [five, six], 0) == (1, (six,))


def test_sequence_hundred_against_four_of_a_kind() -> None:
    # N: a hundred topped by the King; E: four Aces, a hundred in Hokum.
    run = declare(
        SAUDI, "hokum", 0, "9S TS JS QS KS 7H 8D 7C", "hundred.sequence", "9S TS JS QS KS"
    )
    aces = declare(
        SAUDI, "hokum", 3, "AS AH AD AC 8S 9H 9D 8C", "hundred.four_of_a_kind", "AS AH AD AC"
    )
    assert counted_projects(SAUDI, HOKUM_S, [run, aces], 0)[0] == 0  # sequence ranks first
    run_t = declare(
        TAZJEL, "hokum", 0, "9S TS JS QS KS 7H 8D 7C", "hundred.sequence", "9S TS JS QS KS"
    )
    aces_t = declare(
        TAZJEL, "hokum", 3, "AS AH AD AC 8S 9H 9D 8C", "hundred.four_of_a_kind", "AS AH AD AC"
    )
    assert run_t.strength[0] == aces_t.strength[0]  # one group under tazjel
    assert counted_projects(TAZJEL, HOKUM_S, [run_t, aces_t], 0)[0] == 1  # the Ace beats the King


def test_four_hundred_beats_every_hundred() -> None:
    aces = declare(SAUDI, "sun", 3, "AS AH AD AC 8S 9H 9D 8C", "four_hundred", "AS AH AD AC")
    run = declare(
        SAUDI, "sun", 0, "KS QS JS TS 9S 8S 7S KH", "hundred.sequence", "KS QS JS TS 9S 8S 7S"
    )
    assert counted_projects(SAUDI, SUN, [run, aces], 0) == (1, (aces,))


TIED_N = "KD QD JD 7S 8S AH 9C TC"
TIED_W = "KH QH JH 7C 8C AS 9D TD"


@pytest.mark.parametrize(
    ("option", "first_seat", "buyer", "expected"),
    [
        ("earlier_seat", 0, 0, 0),  # N plays before W
        ("earlier_seat", 1, 0, 1),  # from W: W, S, E, N
        ("earlier_seat", 2, 3, 0),  # from S: S, E, N, W
        ("buyer_team", 0, 1, 1),
        ("buyer_team", 1, 2, 0),
        ("cancel", 0, 0, None),
    ],
)
def test_tie(option: str, first_seat: int, buyer: int, expected: int | None) -> None:
    rs = projects_rule(SAUDI, "tie", option=option)
    n = declare(rs, "sun", 0, TIED_N, "sira", "KD QD JD")
    w = declare(rs, "sun", 1, TIED_W, "sira", "KH QH JH")
    s_low = declare(rs, "sun", 2, "7D 8D 9D AS KS 7H 8H 7C", "sira", "7D 8D 9D")
    contract = Contract("sun", None, buyer=buyer, receiver=buyer)
    winner, counted = counted_projects(rs, contract, [n, w, s_low], first_seat)
    assert winner == expected
    assert counted == {0: (n, s_low), 1: (w,), None: ()}[expected]


# --- projects.baloot and projects.baloot.inside_hundred -----------------------------------------

NEVER_BLOCKED = projects_rule(SAUDI, "baloot_inside_hundred", option="never_blocked")


def deal(mine: str, seat: int = 0) -> list[CardSet]:
    """A whole deal: ``mine`` to ``seat``, the other 24 cards in pack order to the others."""
    rest = [i for i in range(32) if not cards(mine) >> i & 1]
    others = [sum(1 << i for i in rest[8 * k : 8 * k + 8]) for k in range(3)]
    others.insert(seat, cards(mine))
    return others


def test_baloot_holder() -> None:
    hands = deal("KS QS 7S 9S TS JS AS 8H", seat=2)
    assert baloot_holder(SAUDI, HOKUM_S, hands, [], ()) == 2
    assert baloot_holder(SAUDI, SUN, hands, [], ()) is None  # Hokum only
    hearts = Contract("hokum", Suit.HEARTS, buyer=0, receiver=0)
    # The trump suit decides: with hearts trump, W holds KH QH (8S 7H ... KH in pack order).
    assert baloot_holder(SAUDI, hearts, deal("KS QS 7S 9S TS JS AS 8C"), [], ()) == 1


def test_baloot_played_in_consecutive_tricks() -> None:
    # projects.baloot counts: consecutive_tricks (mohamed352/bloot): held is not enough.
    rules = projects_rule(SAUDI, "baloot", counts="consecutive_tricks")
    hands = deal("KS QS 7S 9S TS JS AS 8H")
    k, q, x = parse_card("KS"), parse_card("QS"), parse_card("7H")
    assert baloot_holder(rules, HOKUM_S, hands, [], [x, x, x, x, x, k, x, x, q]) == 0
    assert baloot_holder(rules, HOKUM_S, hands, [], [q, x, x, x, k]) == 0  # either order
    assert baloot_holder(rules, HOKUM_S, hands, [], [k, x, x, x, x, x, x, x, q]) is None
    assert baloot_holder(rules, HOKUM_S, hands, [], [k, x, x, q]) is None  # one trick
    assert baloot_holder(rules, HOKUM_S, hands, [], [k]) is None  # not played yet
    assert baloot_holder(SAUDI, HOKUM_S, hands, [], [k]) == 0


def test_no_baloot_when_king_and_queen_are_split() -> None:
    hands = [
        cards("KS 7H 8H 9H TH 7D 8D 9D"),
        cards("QS JH QH KH AH JD QD KD"),
        cards("AD TD 7C 8C 9C TC JC QC"),
        cards("AC 7S 8S 9S TS JS AS KC"),
    ]
    assert baloot_holder(SAUDI, HOKUM_S, hands, [], ()) is None


BLOCKING = [
    # (what the holder N declares, hand, saudi, majlis, never_blocked)
    ("hundred.sequence", "AS KS QS JS TS 7H 8D 7C", None, 0, 0),
    ("fifty", "KS QS JS TS 8H 7H 8D 7C", 0, 0, 0),
    ("hundred.four_of_a_kind", "KS KH KD KC QS 7H 8D 7C", 0, None, 0),
    ("hundred.four_of_a_kind", "QS QH QD QC KS 7H 8D 7C", 0, None, 0),
]


@pytest.mark.parametrize(("name", "hand", "saudi", "majlis", "never"), BLOCKING)
def test_baloot_inside_a_project(
    name: str, hand: str, saudi: int | None, majlis: int | None, never: int | None
) -> None:
    for rs, expected in ((SAUDI, saudi), (MAJLIS, majlis), (NEVER_BLOCKED, never)):
        (project,) = [p for p in find_projects(rs, "hokum", 0, cards(hand)) if p.name == name]
        hands = deal(hand)
        assert baloot_holder(rs, HOKUM_S, hands, [project], ()) == expected, rs.id
        assert baloot_holder(rs, HOKUM_S, hands, [], ()) == 0, rs.id  # held but not declared


def test_baloot_not_blocked_by_another_seats_hundred() -> None:
    other = declare(
        SAUDI, "hokum", 1, "AH KH QH JH TH 9D TD JD", "hundred.sequence", "AH KH QH JH TH"
    )
    assert baloot_holder(SAUDI, HOKUM_S, deal("KS QS 7S 9S 8H 7H 8D 7C"), [other], ()) == 0


def test_baloot_not_blocked_by_a_hundred_of_another_suit() -> None:
    hand = "KS QS AH KH QH JH TH 7C"
    (hundred,) = find_projects(SAUDI, "hokum", 0, cards(hand))
    assert hundred.name == "hundred.sequence"
    assert baloot_holder(SAUDI, HOKUM_S, deal(hand), [hundred], ()) == 0
