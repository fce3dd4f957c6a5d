"""The rules of table talk: the completed ``deal.kawesh``, ``play.fouls`` and the ``claims``
section's ``claims.sawa``, as the shipped rulesets state them, with their penalty formulas and
the checks that refuse a bad value at its ``file:line:col``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from baloot_conformance.cards import Rank, Suit
from baloot_conformance.compare.variants import rule_variants
from baloot_conformance.engine.model import Contract
from baloot_conformance.engine.table_talk import penalty_score
from baloot_conformance.errors import SpecError
from baloot_conformance.resources import spec_path
from baloot_conformance.rules import model
from baloot_conformance.rules.formula import Formula
from baloot_conformance.rules.loading import isolate, load_ruleset
from baloot_conformance.rules.ruleset import Ruleset

SAUDI_TEXT = spec_path("rulesets", "saudi.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def saudi() -> Ruleset:
    return load_ruleset("saudi")


def mutated(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    """A copy of saudi.yaml with exactly one textual change, and its text."""
    assert SAUDI_TEXT.count(old) == 1, f"mutation anchor not unique: {old!r}"
    text = SAUDI_TEXT.replace(old, new)
    path = tmp_path / "mine.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def error_of(path: Path) -> SpecError:
    with pytest.raises(SpecError) as caught:
        load_ruleset(path)
    return caught.value


def position(text: str, needle: str) -> tuple[int, int]:
    """The 1-based line and column where ``needle`` starts in ``text`` (it occurs once)."""
    assert text.count(needle) == 1, needle
    before = text[: text.index(needle)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def penalty(formula: Formula, **values: int) -> int:
    """A penalty formula's game points; the variables it does not name are 0 (level 1)."""
    env: dict[str, Any] = {name: 0 for name in model.PENALTY_VARIABLES} | {"level": 1}
    return formula.evaluate_int(env | values)


# --- what the shipped rulesets say ----------------------------------------------------------


def test_the_claims_section_sits_between_scoring_and_game(saudi: Ruleset) -> None:
    sections = list(model.SECTIONS)
    assert sections.index("claims") == sections.index("scoring") + 1
    assert sections.index("game") == sections.index("claims") + 1
    assert saudi.rule("claims.sawa") is saudi.claims.sawa
    ids = [rule.id for rule in saudi.iter_rules()]
    assert ids.index("claims.sawa") == ids.index("scoring.raised") + 1
    assert ids[ids.index("play.trick_winner") + 1] == "play.fouls"


def test_saudi_kawesh_is_off_with_the_parameters_of_its_sources(saudi: Ruleset) -> None:
    kawesh = saudi.deal.kawesh
    assert (kawesh.option, kawesh.hand, kawesh.window, kawesh.turn) == (
        "disabled",
        "five",
        "auction",
        "any_time",
    )
    assert kawesh.ranks == (Rank.SEVEN, Rank.EIGHT, Rank.NINE)
    assert saudi.version == "1.2.0"


def test_saudi_refuses_an_illegal_card_and_states_the_foul_penalty(saudi: Ruleset) -> None:
    fouls = saudi.play.fouls
    assert (fouls.option, fouls.callers, fouls.window) == ("refused", "opponents", "hand_end")
    assert fouls.right_call.source == fouls.wrong_call.source == "round_value * level + projects"
    assert fouls.right_call.variables == {"round_value", "level", "projects"}


def test_saudi_sawa(saudi: Ruleset) -> None:
    sawa = saudi.claims.sawa
    assert (sawa.who, sawa.max_tricks, sawa.forced, sawa.view, sawa.kaboot) == (
        "leader",
        8,
        "own_cards",
        "as_dealt",
        True,
    )
    assert sawa.wrong.source == saudi.play.fouls.right_call.source  # a false Sawa is a foul


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({"round_value": 26, "level": 2, "projects": 10}, 62),  # Sun doubled, a fifty
        ({"round_value": 26, "level": 1, "projects": 20}, 46),  # TZ-DOCS' 26 + a hundred
        ({"round_value": 16, "level": 1, "projects": 0}, 16),
        ({"round_value": 16, "level": 3, "projects": 5}, 53),  # Hokum x3, a fifty
        ({"round_value": 16, "level": 4, "projects": 2, "baloot": 2, "offender_tricks": 3}, 66),
    ],
)
def test_the_saudi_penalties_give_the_worked_numbers(
    saudi: Ruleset, values: dict[str, int], expected: int
) -> None:
    for formula in (
        saudi.play.fouls.right_call,
        saudi.play.fouls.wrong_call,
        saudi.claims.sawa.wrong,
    ):
        assert penalty(formula, **values) == expected


def test_a_penalty_may_give_the_scoring_side_the_offenders_projects() -> None:
    # BLOOT7 match log: seed 10, hand 9: a wrong Sawa in Hokum, the claimant's side's sira
    # goes to the other side (16 + 4); seed 8, hand 6: at the Gahwa, x4 and the fifty unmultiplied.
    saudi = load_ruleset("saudi")
    formula = "round_value * level + (projects + offender_projects) * (if level == 2 then 2 else 1)"
    rule = {**saudi.document["claims"]["sawa"], "wrong": formula, "examples": []}
    derived = isolate(saudi, {"claims.sawa": rule})
    assert derived is not None
    sawa = derived.claims.sawa
    assert penalty(sawa.wrong, round_value=16, offender_projects=4) == 20
    assert penalty(sawa.wrong, round_value=16, level=4, offender_projects=5) == 69
    assert penalty(sawa.wrong, round_value=26, level=2, projects=10) == 72
    assert penalty(saudi.claims.sawa.wrong, round_value=16, offender_projects=4) == 16
    # The engine gives the variable the offending side's counted projects: NS's sira, EW scoring.
    contract = Contract("hokum", Suit.SPADES, 0, 0)
    args = (sawa.id, 1, (40, 20), (3, 2), 0, 4, None)
    assert penalty_score(derived, contract, sawa.wrong, *args).game_points == (0, 20)
    assert penalty_score(saudi, contract, saudi.claims.sawa.wrong, *args).game_points == (0, 16)


def test_tazjel_takes_a_sawa_on_lead_with_four_cards_and_penalises_a_wrong_one_as_a_qayd() -> None:
    tazjel = load_ruleset("tazjel")
    sawa = tazjel.claims.sawa
    assert (sawa.who, sawa.max_tricks, sawa.forced, tazjel.version) == (
        "leader",
        4,
        "own_cards",
        "3.0.0",
    )
    # 16 x 2 + 10: Hokum doubled, a hundred of the opponents (its game points; the engine adds 100)
    assert penalty(sawa.wrong, round_value=16, level=2, projects=10) == 42
    assert penalty(sawa.wrong, round_value=26) == 26
    unmodelled = {gap["rule"] for gap in tazjel.document["unmodelled"]}
    assert {"deal.kawesh", "claims.sawa", "play.fouls"} <= unmodelled
    assert tazjel.play.fouls.option == "refused"  # the engine's Game plays in strict mode


def test_wikipedia_ja_kawesh_keeps_its_meaning_in_the_new_parameters() -> None:
    ja = load_ruleset("wikipedia-ja")
    kawesh = ja.deal.kawesh
    assert (kawesh.option, kawesh.hand, kawesh.window, kawesh.turn) == (
        "same_dealer",
        "five",
        "before_first_bid",
        "own_turn",
    )
    assert kawesh.ranks == (Rank.SEVEN, Rank.EIGHT, Rank.NINE)
    assert ja.version == "1.1.0"
    assert {"play.fouls", "claims.sawa"} <= set(ja.document["silent"])
    assert any(gap["rule"] == "deal.kawesh" for gap in ja.document["unmodelled"])


@pytest.mark.parametrize(
    ("name", "silent", "unmodelled"),
    [
        ("gamerules", {"play.fouls", "claims.sawa"}, set()),
        ("cardgames-zone", {"claims.sawa"}, {"play.fouls"}),
        ("saudi-federation", set(), {"bidding.sun_over_hokum"}),
    ],
)
def test_source_texts_say_what_they_leave_unsaid(
    name: str, silent: set[str], unmodelled: set[str]
) -> None:
    document = load_ruleset(name).document
    assert silent <= set(document.get("silent", []))
    assert unmodelled <= {gap["rule"] for gap in document.get("unmodelled", [])}


@pytest.mark.parametrize("name", ["majlis", "baloothub"])
def test_engines_without_a_sawa_say_so(name: str) -> None:
    assert load_ruleset(name).claims.sawa.who == "nobody"


def test_kawesh_parameters_are_compared_with_kawesh_on_both_sides(saudi: Ruleset) -> None:
    variants = {v.label: v for v in rule_variants(saudi) if v.rule_id == "deal.kawesh"}
    for label in (
        "deal.kawesh.window=before_first_bid",
        "deal.kawesh.turn=own_turn",
        "deal.kawesh.hand=eight",
    ):
        variant = variants[label]
        assert variant.changes["deal.kawesh"]["option"] == "same_dealer"
        assert variant.reference["deal.kawesh"]["option"] == "same_dealer"
        assert variant.reference["deal.kawesh"][variant.parameter] != variant.value


# --- bad values, refused at their file:line:col -------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "at", "words"),
    [
        ("    option: refused", "    option: refuse", "refuse", "play.fouls.option: 'refuse'"),
        ("    callers: opponents", "    callers: partner", "partner", "play.fouls.callers"),
        ("    window: hand_end", "    window: hand", "hand", "play.fouls.window: 'hand'"),
        ("    who: leader", "    who: anyone", "anyone", "claims.sawa.who: 'anyone' is not"),
        ("    forced: own_cards", "    forced: own", "own", "claims.sawa.forced"),
        ("    view: as_dealt", "    view: as_seen", "as_seen", "claims.sawa.view"),
        ("    kaboot: true\n    wrong", "    kaboot: 1\n    wrong", "1", "boolean"),
        ("    max_tricks: 8", "    max_tricks: 0", "0", "claims.sawa.max_tricks: 0 is less"),
        ("    max_tricks: 8", "    max_tricks: 9", "9", "claims.sawa.max_tricks: 9 is greater"),
        ("    hand: five", "    hand: ten", "ten", "deal.kawesh.hand: 'ten' is not"),
        ("    window: auction", "    window: round1", "round1", "deal.kawesh.window"),
        ("    turn: any_time", "    turn: anytime", "anytime", "deal.kawesh.turn"),
        ("    option: disabled", "    option: same_dealer_before_bid", "same_dealer_before",
         "deal.kawesh.option: 'same_dealer_before_bid' is not one of: disabled, same_dealer"),
        ('    ranks: ["7", "8", "9"]\n    window', '    ranks: ["7", "8", "X"]\n    window', '"X"',
         "deal.kawesh.ranks[2]"),
        ('    ranks: ["7", "8", "9"]\n    window', "    ranks: []\n    window", "[]",
         "deal.kawesh.ranks: 0 entries; at least 1"),
    ],
)  # fmt: skip
def test_a_bad_value_is_refused_where_it_is_written(
    tmp_path: Path, old: str, new: str, at: str, words: str
) -> None:
    path, text = mutated(tmp_path, old, new)
    error = error_of(path)
    assert words in error.message, error.message
    assert error.location is not None and error.location.path == str(path)
    line, column = position(text, new)
    assert (error.location.line, error.location.column) == (line, column + new.index(at))


def test_a_missing_claims_section_is_refused(tmp_path: Path) -> None:
    start = SAUDI_TEXT.index("\nclaims:\n")
    end = SAUDI_TEXT.index("\ngame:\n")
    path, _ = mutated(tmp_path, SAUDI_TEXT[start:end], "")
    error = error_of(path)
    assert "'claims' is a required property" in error.message
    assert error.location is not None  # the document itself, where its first key starts
    assert (error.location.line, error.location.column) == position(SAUDI_TEXT, "format: ")


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ('    right_call: "round_value * level + projects"',
         '    right_call: "round_value * levle + projects"',
         "unknown variable 'levle'"),
        ('    wrong: "round_value * level + projects"',
         '    wrong: "round_value * level + project"',
         "unknown variable 'project'"),
        ('    wrong_call: "round_value * level + projects"',
         '    wrong_call: "raw * level"',
         "unknown variable 'raw'"),
    ],
)  # fmt: skip
def test_a_penalty_with_an_unknown_variable_points_into_the_formula(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    path, text = mutated(tmp_path, old, new)
    error = error_of(path)
    assert words in error.message, error.message
    assert error.location is not None
    bad = words.split("'")[1]
    line, _ = position(text, new)
    assert error.location.line == line
    source_line = text.splitlines()[line - 1]
    assert source_line[error.location.column - 1 :].startswith(bad)


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ('    wrong: "round_value * level + projects"',
         '    wrong: "round_value * level - 30"',
         "claims.sawa.wrong: the formula gives -4 for round_value=26, level=1: a penalty is a "
         "whole number of game points, 0 or more"),
        ('    right_call: "round_value * level + projects"',
         '    right_call: "projects - offender_tricks"',
         "play.fouls.right_call: the formula gives -1 for projects=0, offender_tricks=1"),
        ('    wrong_call: "round_value * level + projects"',
         '    wrong_call: "round_value - kaboot_value + baloot"',
         "play.fouls.wrong_call: the formula gives -18 for round_value=26, kaboot_value=44"),
        ('    wrong_call: "round_value * level + projects"',
         '    wrong_call: "round_value // (level - 1)"',
         "play.fouls.wrong_call: the formula can divide by zero: round_value=26, level=1"),
    ],
)  # fmt: skip
def test_a_penalty_below_zero_on_some_input_is_refused(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    path, text = mutated(tmp_path, old, new)
    error = error_of(path)
    assert error.message.startswith(words), error.message
    assert error.location is not None
    line, column = position(text, new)
    assert (error.location.line, error.location.column) == (line, column + new.index('"'))


def test_penalties_are_tried_with_the_rulesets_own_figures(tmp_path: Path) -> None:
    """Projects up to four times the contract's largest project (4 x 40 in Sun), and the
    ruleset's own round values (a Hokum worth 10 makes 10 - 12 negative)."""
    start = SAUDI_TEXT.index('    wrong: "round_value')
    sawa = SAUDI_TEXT[start : SAUDI_TEXT.index("    notes:", start)]  # the formula, its examples
    path, _ = mutated(tmp_path, sawa, '    wrong: "max(0, 160 - projects)"\n')
    assert load_ruleset(path).claims.sawa.wrong.source == "max(0, 160 - projects)"
    path, _ = mutated(tmp_path, sawa, '    wrong: "159 - projects"\n')
    assert error_of(path).message.startswith(
        "claims.sawa.wrong: the formula gives -1 for projects=160"
    )
    text = SAUDI_TEXT.replace("    sun: 26\n    hokum: 16", "    sun: 26\n    hokum: 10", 1)
    path = tmp_path / "hokum10.yaml"
    path.write_text(text.replace(sawa, '    wrong: "round_value - 12"\n'), encoding="utf-8")
    assert error_of(path).message.startswith(
        "claims.sawa.wrong: the formula gives -2 for round_value=10"
    )


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("- {of: right_call, round_value: 26, level: 2, projects: 10, expect: 62}",
         "- {of: right_call, round_value: 26, level: 2, projects: 10, expect: 61}",
         "play.fouls.examples[0]: the formula gives 62 for round_value=26, level=2, projects=10, "
         "the example expects 61"),
        ("- {of: right_call, round_value: 26, level: 2, projects: 10, expect: 62}",
         "- {round_value: 26, level: 2, projects: 10, expect: 62}",
         "play.fouls.examples[0]: this rule has 2 formulas (right_call, wrong_call)"),
        ("- {of: right_call, round_value: 26, level: 2, projects: 10, expect: 62}",
         "- {of: rigth_call, round_value: 26, level: 2, projects: 10, expect: 62}",
         "play.fouls.examples[0].of: 'rigth_call' is not a formula of this rule"),
        ("- {round_value: 16, level: 2, projects: 10, expect: 42}",
         "- {round_value: 16, level: 2, project: 10, expect: 42}",
         "claims.sawa.examples[1]: unknown variable(s) project"),
    ],
)  # fmt: skip
def test_penalty_examples_are_checked(tmp_path: Path, old: str, new: str, words: str) -> None:
    path, text = mutated(tmp_path, old, new)
    error = error_of(path)
    assert error.message.startswith(words), error.message
    assert error.location is not None
    line, _ = position(text, new)
    assert error.location.line == line


def test_a_kawesh_of_every_rank_is_refused(tmp_path: Path) -> None:
    path, text = mutated(
        tmp_path,
        '    ranks: ["7", "8", "9"]\n    window',
        '    ranks: ["7", "8", "9", T, J, Q, K, A]\n    window',
    )
    error = error_of(path)
    assert error.message.startswith("deal.kawesh.ranks: must be some of the deck's ranks")
    assert error.hint is not None and "a Kawesh hand holds none of the others" in error.hint
    assert error.location is not None
    line, column = position(text, '["7", "8", "9", T, J, Q, K, A]\n    window')
    assert (error.location.line, error.location.column) == (line, column)


def test_silent_and_unmodelled_may_name_a_claims_rule(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        'format: baloot-ruleset/1\nid: mine\nversion: "1.0.0"\nextends: saudi@1\n'
        "silent: [claims.sawa]\nunmodelled:\n  - rule: claims.sawa\n    says: a\n    why: b\n",
        encoding="utf-8",
    )
    assert load_ruleset(path).document["silent"] == ["claims.sawa"]
    path.write_text(path.read_text(encoding="utf-8").replace("[claims.sawa]", "[claims.sava]"))
    error = error_of(path)
    assert "'claims.sava' is not a rule ID" in error.message
    assert error.hint == "did you mean 'claims.sawa'?"
