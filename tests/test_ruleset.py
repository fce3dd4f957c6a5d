"""Loading, resolving and validating rulesets (baloot_conformance.rules.loading)."""

from __future__ import annotations

import dataclasses
import json
import typing
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from baloot_conformance.cards import Rank
from baloot_conformance.errors import SpecError, UnreadableInputError
from baloot_conformance.resources import spec_path
from baloot_conformance.rules import model
from baloot_conformance.rules.loading import load_ruleset, resolved_yaml, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.rules.validation import ruleset_schema

SAUDI_TEXT = spec_path("rulesets", "saudi.yaml").read_text(encoding="utf-8")
SHIPPED = sorted(shipped_rulesets())


@pytest.fixture(scope="module")
def saudi() -> Ruleset:
    return load_ruleset("saudi")


def write(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def mutated(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of saudi.yaml with exactly one textual change."""
    assert SAUDI_TEXT.count(old) == 1, f"mutation anchor not unique: {old!r}"
    return write(tmp_path, SAUDI_TEXT.replace(old, new))


def profile(body: str, extends: str = "saudi") -> str:
    head = f'format: baloot-ruleset/1\nid: mine\nversion: "1.0.0"\nextends: {extends}\n'
    return head + body


def error_of(path: Path | str) -> SpecError:
    with pytest.raises(SpecError) as caught:
        load_ruleset(path)
    return caught.value


# --- the shipped rulesets ------------------------------------------------------------------


def test_the_shipped_set_holds_the_default_and_the_profiles() -> None:
    assert {"saudi", "kammelna", "saudi-federation", "majlis", "tazjel", "kuwait"} <= set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_loads(name: str) -> None:
    ruleset = load_ruleset(name)
    assert ruleset.id == name
    assert ruleset.lineage[0] == name
    assert ruleset.lineage[-1] == "saudi"
    assert ruleset.digest.startswith("sha256:") and len(ruleset.digest) == 7 + 64


@pytest.mark.parametrize("name", SHIPPED)
def test_every_rule_has_a_statement_and_cited_sources(name: str) -> None:
    ruleset = load_ruleset(name)
    ids = [rule.id for rule in ruleset.iter_rules()]
    assert len(ids) == len(set(ids))
    for rule in ruleset.iter_rules():
        assert rule.statement.strip()
        assert rule.sources
        for source in rule.sources:
            assert source.split()[0] in ruleset.sources


def test_rule_ids_are_section_dot_key(saudi: Ruleset) -> None:
    assert saudi.play.hokum_overruff.id == "play.hokum.overruff"
    assert saudi.rule("play.hokum.overruff") is saudi.play.hokum_overruff
    assert saudi.rule("cards.order.trump").id == "cards.order.trump"
    with pytest.raises(KeyError):
        saudi.rule("play.hokum.overtrump")


def test_typed_values(saudi: Ruleset) -> None:
    assert saudi.cards.order_trump.order[:3] == (Rank.JACK, Rank.NINE, Rank.ACE)
    assert saudi.cards.points_trump.points[Rank.JACK] == 20
    assert saudi.cards.points_plain.points[Rank.ACE] == 11
    assert saudi.doubling.chain.levels[0].call == "double"
    assert saudi.doubling.chain.levels[1].by == "buyer_team"
    assert saudi.projects.ranking.order[1] == ("hundred.sequence",)
    assert saudi.projects.four_hundred.game_points.for_contract("sun") == 40
    assert saudi.projects.four_hundred.game_points.for_contract("hokum") is None
    assert saudi.projects.hundred_four_of_a_kind.ranks.for_contract("hokum")[0] == Rank.ACE
    assert saudi.bidding.ashkal_eligibility.seats == (3, 4)
    assert saudi.game.target.points == 152


def test_defaults_follow_the_rule_table(saudi: Ruleset) -> None:
    """The D choices of reference/baloot-model.md (or the majority where it marks none)."""
    assert saudi.play.hokum_partner_winning.option == "any_seat"  # D4 V1
    assert saudi.play.hokum_underruff.option == "forced"  # D5 V1
    assert saudi.play.hokum_trump_lead.partner_winning == "any_trump"  # D6 V1
    assert saudi.bidding.sun_priority.option == "live_only"  # B7 V2
    assert saudi.bidding.ashkal.buyer == "caller"  # B3
    assert saudi.bidding.ashkal_eligibility.rounds == (1, 2)  # B4
    assert saudi.doubling.lock.option == "doubler_at_double"  # C5 V1
    assert saudi.doubling.gahwa.option == "match_win"  # C7 V1
    assert saudi.doubling.tie.option == "last_raiser"  # C8 V1
    assert saudi.scoring.raised.project_multiplier == "level"  # C6 V1
    assert saudi.scoring.failure.projects == "transfer"  # G8 V1
    assert saudi.scoring.failure.baloot == "owner_keeps"  # G11 V2
    assert saudi.projects.baloot_inside_hundred.option == "blocked_by_any_hundred"  # G10 V3
    assert saudi.scoring.kaboot.raised == "flat"  # I3 V1
    assert (saudi.scoring.kaboot.sun, saudi.scoring.kaboot.hokum) == (44, 25)  # I1
    assert saudi.scoring.reverse_kaboot.points == 88  # I4


# --- worked numbers (reference/baloot-model.md §3) ------------------------------------------


def sun_gp(ruleset: Ruleset, raw: int, other: int) -> int:
    env = {"raw": raw, "other_raw": other, "is_buyer": True}
    return ruleset.scoring.sun_conversion.formula.evaluate_int(env)


def hokum_gp(ruleset: Ruleset, raw: int, other: int) -> int:
    env = {"raw": raw, "other_raw": other, "is_buyer": True}
    return ruleset.scoring.hokum_conversion.formula.evaluate_int(env)


@pytest.mark.parametrize(
    ("raw", "expected"), [(65, 13), (66, 14), (64, 12), (55, 11), (67, 14), (75, 15)]
)
def test_sun_conversion_worked_numbers(saudi: Ruleset, raw: int, expected: int) -> None:
    assert sun_gp(saudi, raw, 130 - raw) == expected


@pytest.mark.parametrize(
    ("buyer", "expected"),
    [(53, (10, 16)), (54, (10, 16)), (56, (12, 14)), (57, (12, 14)), (63, (12, 14)),
     (64, (12, 14)), (66, (14, 12)), (67, (14, 12)), (73, (14, 12)), (74, (14, 12)),
     (76, (16, 10)), (77, (16, 10))],
)  # fmt: skip
def test_sun_splits_where_default_and_naive_differ(
    saudi: Ruleset, buyer: int, expected: tuple[int, int]
) -> None:
    other = 130 - buyer
    assert (sun_gp(saudi, buyer, other), sun_gp(saudi, other, buyer)) == expected


def test_sun_sides_always_total_26(saudi: Ruleset) -> None:
    for raw in range(131):
        assert sun_gp(saudi, raw, 130 - raw) + sun_gp(saudi, 130 - raw, raw) == 26


@pytest.mark.parametrize(
    ("raw", "other", "expected"),
    [(85, 77, 8), (86, 76, 8), (76, 86, 8), (96, 66, 9), (66, 96, 7), (106, 56, 10),
     (56, 106, 6), (81, 81, 8), (75, 87, 7)],
)  # fmt: skip
def test_hokum_conversion_worked_numbers(
    saudi: Ruleset, raw: int, other: int, expected: int
) -> None:
    assert hokum_gp(saudi, raw, other) == expected


def test_hokum_individual_rounding_sends_a_five_down(saudi: Ruleset) -> None:
    # 85 -> 8 and 86 -> 9 when the other side does not also end in 6.
    assert hokum_gp(saudi, 85, 77) == 8
    assert hokum_gp(saudi, 86, 70) == 9


def test_hokum_sides_always_total_16(saudi: Ruleset) -> None:
    for raw in range(163):
        assert hokum_gp(saudi, raw, 162 - raw) + hokum_gp(saudi, 162 - raw, raw) == 16


def test_project_values_in_game_points(saudi: Ruleset) -> None:
    projects = saudi.projects
    table: dict[str, tuple[model.SequenceProject | model.FourOfAKindProject, int, int]] = {
        "sira": (projects.sira, 4, 2),
        "fifty": (projects.fifty, 10, 5),
        "hundred": (projects.hundred_sequence, 20, 10),
        "four": (projects.hundred_four_of_a_kind, 20, 10),
    }
    for project, sun, hokum in table.values():
        assert project.game_points.sun == sun
        assert project.game_points.hokum == hokum
    assert projects.four_hundred.game_points.sun == 40
    assert projects.baloot.game_points == 2


def test_sun_doubling_condition(saudi: Ruleset) -> None:
    condition = saudi.doubling.sun.condition
    assert condition.evaluate({"buyer_total": 100, "doubler_total": 99}) is True
    assert condition.evaluate({"buyer_total": 100, "doubler_total": 100}) is False
    federation = load_ruleset("saudi-federation").doubling.sun.condition
    assert federation.evaluate({"buyer_total": 100, "doubler_total": 99}) is False
    assert federation.evaluate({"buyer_total": 101, "doubler_total": 100}) is True


# --- profiles and overlays -----------------------------------------------------------------


def test_a_profile_replaces_only_what_it_names(saudi: Ruleset) -> None:
    kammelna = load_ruleset("kammelna")
    assert kammelna.lineage == ("kammelna", "saudi")
    assert kammelna.scoring.contract_tie.hokum == "buyer_fails"
    assert kammelna.scoring.contract_tie.sun == "split"
    assert kammelna.doubling.gahwa.option == "fixed_points"
    assert kammelna.play == saudi.play
    assert kammelna.cards == saudi.cards
    assert kammelna.sources == saudi.sources
    assert kammelna.digest != saudi.digest


def test_kuwait_plays_to_151() -> None:
    assert load_ruleset("kuwait").game.target.points == 151


def test_digest_is_stable_and_tracks_content(saudi: Ruleset, tmp_path: Path) -> None:
    assert load_ruleset("saudi").digest == saudi.digest
    assert load_ruleset(spec_path("rulesets", "saudi.yaml")).digest == saudi.digest
    changed = mutated(tmp_path, "title: Common Saudi rules", "title: Common Saudi rules (copy)")
    assert load_ruleset(changed).digest != saudi.digest


def test_reference_by_major_version() -> None:
    assert load_ruleset("saudi@1").id == "saudi"


def test_spec_show_output_reloads_to_the_same_ruleset(tmp_path: Path) -> None:
    for name in ("saudi", "tazjel"):
        ruleset = load_ruleset(name)
        again = load_ruleset(write(tmp_path, resolved_yaml(ruleset), f"{name}.yaml"))
        assert again.digest == ruleset.digest
        assert again.lineage == (name,)


def test_profile_chain_of_three_by_relative_path(tmp_path: Path) -> None:
    rule = "game:\n  target:\n    statement: Play to {n}.\n    sources: [GEA]\n    points: {n}\n"
    write(tmp_path, profile(rule.format(n=200)).replace("id: mine", "id: middle"), "mid.yaml")
    top = write(tmp_path, profile(rule.format(n=300), extends="mid.yaml"), "top.yaml")
    ruleset = load_ruleset(top)
    assert ruleset.lineage == ("mine", "middle", "saudi")
    assert ruleset.game.target.points == 300


def test_extends_cycle_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, profile("", extends="b.yaml").replace("id: mine", "id: a"), "a.yaml")
    write(tmp_path, profile("", extends="./a.yaml").replace("id: mine", "id: b"), "b.yaml")
    error = error_of(tmp_path / "a.yaml")
    assert "cycle" in error.message
    assert error.location is not None and error.location.line == 4


def test_missing_base_is_an_error_with_a_suggestion(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, profile("", extends="saudy")))
    assert error.location is not None
    assert (error.location.line, error.location.column) == (4, 10)
    assert "saudi" in (error.hint or "")


def test_missing_base_file_is_an_error(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, profile("", extends="./nowhere.yaml")))
    assert "does not exist" in error.message


def test_wrong_major_version_of_the_base(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, profile("", extends="saudi@2")))
    assert "asks for saudi 2.x, but this kit has saudi 1.2.0 only" in error.message


def test_unknown_rule_in_a_profile_points_into_the_profile(tmp_path: Path) -> None:
    body = "play:\n  hokum.overruf:\n    statement: x\n    sources: [VIP]\n    option: required\n"
    path = write(tmp_path, profile(body))
    error = error_of(path)
    assert error.location is not None
    assert (error.location.path, error.location.line, error.location.column) == (str(path), 6, 3)
    assert "hokum.overruf" in error.message
    assert error.hint == "did you mean 'hokum.overruff'?"


def test_a_profile_must_restate_a_whole_rule(tmp_path: Path) -> None:
    body = "play:\n  hokum.overruff:\n    option: not_required\n"
    error = error_of(write(tmp_path, profile(body)))
    assert "statement" in str(error) and "sources" in str(error)


def test_unknown_ids_and_files_are_unreadable_input(tmp_path: Path) -> None:
    with pytest.raises(UnreadableInputError, match="no ruleset named 'saudy'"):
        load_ruleset("saudy")
    with pytest.raises(UnreadableInputError, match="no such file"):
        load_ruleset(tmp_path / "nothing.yaml")


# --- strict YAML ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("format: baloot-ruleset/1\nid: a\nid: b\n", 3, 1, "duplicate key 'id'"),
        ("format: baloot-ruleset/1\nversion: 1.10\n", 2, 10, "decimal number"),
        ("format: baloot-ruleset/1\nx: on\n", 2, 4, "ambiguous"),
        ("format: baloot-ruleset/1\nx: yes\n", 2, 4, "ambiguous"),
        ("format: baloot-ruleset/1\nx: 08\n", 2, 4, "looks like a number"),
        ("format: baloot-ruleset/1\nx: 010\n", 2, 4, "ambiguous integer"),
        ("format: baloot-ruleset/1\nx: 0x1F\n", 2, 4, "ambiguous integer"),
        ("format: baloot-ruleset/1\nx: 2026-11-29\n", 2, 4, "date"),
        ("format: baloot-ruleset/1\n10: ten\n", 2, 1, "key must be text"),
        ("format: baloot-ruleset/1\nx: !!python/object:os.system {}\n", 2, 4, "tag"),
        ("format: baloot-ruleset/1\na: &x {k: 1}\nb:\n  <<: *x\n", 4, 3, "merge keys"),
        ("format: baloot-ruleset/1\na: &x {k: 1}\nb: *x\n", 3, 1, "aliases"),
        ("format: baloot-ruleset/1\nid: [unclosed\n", 3, 1, "invalid YAML"),
        ("format: baloot-ruleset/1\n  bad: indent\n", 2, 6, "invalid YAML"),
        ("", 1, 1, "empty"),
        ("- a list\n", 1, 1, "mapping"),
        ("format: baloot-ruleset/9\n", 1, 9, "is not supported"),
    ],
)
def test_strict_yaml(tmp_path: Path, text: str, line: int, column: int, words: str) -> None:
    error = error_of(write(tmp_path, text))
    assert words in error.message
    assert error.location is not None
    assert (error.location.line, error.location.column) == (line, column)


def test_billion_laughs_is_refused_at_the_first_alias(tmp_path: Path) -> None:
    lines = ["format: baloot-ruleset/1", 'a0: &a0 ["lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12)]
    error = error_of(write(tmp_path, "\n".join(lines) + "\n"))
    assert "aliases" in error.message
    assert error.location is not None and error.location.line == 3


def test_a_huge_file_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as handle:
        handle.truncate(1 << 30)  # a sparse 1 GB file
    error = error_of(path)
    assert "1,073,741,824 bytes" in error.message


def test_invalid_utf8_is_located(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"format: baloot-ruleset/1\ntitle: caf\xe9\n")
    error = error_of(path)
    assert "UTF-8" in error.message
    assert error.location is not None
    assert (error.location.line, error.location.column) == (2, 11)


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    error = error_of(write(tmp_path, "format: baloot-ruleset/1\nx: " + "[" * 5000 + "]" * 5000))
    assert "nested too deeply" in error.message


# --- the schema: one negative test per top-level section ------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "path", "words"),
    [
        ("format: baloot-ruleset/1\nid: saudi", "id: saudi", "format", "missing"),
        ("id: saudi\n", "id: Saudi Rules\n", "id", "does not match"),
        ('version: "1.2.0"', 'version: "1.0"', "version", "does not match"),
        ('version: "1.2.0"', "version: 1", "version", "expected string"),
        ("title: Common Saudi rules", "title: [a, b]", "title", "expected string"),
        ("description: >-", "description: 7\nx-description: >-", "", "unknown key"),
        ('  GEA: "gea', '  gea: "gea', "sources", "does not match"),
        ("    last_trick:\n", "    last_trick:\n", "cards", ""),  # placeholder replaced below
        ("    packets: [3, 2]", "    packets: [3, 0]", "deal.first_round.packets[1]", "minimum"),
        ("    seats: [3, 4]", "    seats: [3, 5]", "bidding.ashkal.eligibility.seats[1]", "5"),
        ("    option: doubler_at_double", "    option: doubler", "doubling.lock.option", "not one"),
        ("    option: forced", "    option: force", "play.hokum.underruff.option", "not one"),
        ("    per_player: 2", "    per_player: two", "projects.limits.per_player", "integer"),
        ("    baloot_counts: true", "    baloot_counts: 1", "scoring.contract.baloot_counts", ""),
        (
            '    points: 152\n    notes: "KOUTBO6',
            '    points: 0\n    notes: "KOUTBO6',
            "game.target.points",
            "minimum",
        ),
    ],
)
def test_schema_negative_per_section(
    tmp_path: Path, old: str, new: str, path: str, words: str
) -> None:
    if path == "cards":
        old, new = "    points: 10\n", "    points: 10\n    bonus: 10\n"
        path, words = "cards.last_trick", "unknown key 'bonus'"
    text = SAUDI_TEXT.replace(old, new, 1)
    assert text != SAUDI_TEXT
    error = error_of(write(tmp_path, text))
    assert error.location is not None and error.location.path.endswith("mine.yaml")
    assert error.message.startswith(f"{path}: " if path else "")
    assert words in error.message
    changed_line = next(
        i
        for i, (a, b) in enumerate(zip(SAUDI_TEXT.splitlines(), text.splitlines(), strict=False), 1)
        if a != b
    )
    assert error.location.line in (changed_line, changed_line + 1)


def test_every_problem_is_reported(tmp_path: Path) -> None:
    text = SAUDI_TEXT.replace("    option: forced", "    option: force").replace(
        "    per_player: 2", "    per_player: two"
    )
    error = error_of(write(tmp_path, text))
    assert len(error.problems) == 2
    assert "2 more problem" not in str(error) and "1 more problem(s)" in str(error)


def test_schema_and_typed_model_agree() -> None:
    """Every rule key and every option of model.py is in the schema, and nothing else."""
    schema = ruleset_schema()
    for section, section_cls in model.SECTIONS.items():
        section_schema = schema["properties"][section]
        keys = {f.metadata["key"] for f in dataclasses.fields(section_cls)}
        assert keys == set(section_schema["properties"]), section
        hints = typing.get_type_hints(section_cls)
        for f in dataclasses.fields(section_cls):
            rule_schema = section_schema["properties"][f.metadata["key"]]
            rule_hints = typing.get_type_hints(hints[f.name])
            params = set(rule_hints) - {"id", "statement", "sources", "notes"}
            documentation = {"statement", "sources", "notes", "examples"}
            assert params == set(rule_schema["properties"]) - documentation
            for name in params:
                if typing.get_origin(rule_hints[name]) is typing.Literal:
                    options = list(typing.get_args(rule_hints[name]))
                    assert rule_schema["properties"][name]["enum"] == options, (section, name)


def test_the_schema_is_strict_everywhere() -> None:
    def walk(node: object, where: str) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "additionalProperties" not in node:
                pytest.fail(f"{where} accepts unknown keys")
            for name, value in node.get("properties", {}).items():
                if "description" not in value and "$ref" not in value:
                    pytest.fail(f"{where}.{name} has no description")
            for name, value in node.items():
                walk(value, f"{where}.{name}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}[{i}]")

    schema = ruleset_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "urn:baloot-conformance:schema:ruleset:1"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    walk(schema, "$")
    json.dumps(schema)  # plain JSON


# --- semantic checks -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("    order: [J, \"9\", A, T, K, Q, \"8\", \"7\"]",
         "    order: [J, \"9\", A, T, K, Q, \"8\", \"8\"]", "each rank of the deck exactly once"),
        ("{J: 20, \"9\": 14,", "{J: 21, \"9\": 14,", "give 163 in Hokum, not 162"),
        ("    points: 10\n", "    points: 20\n", "give 140 in Sun, not 130"),
        ("    buyer: 2\n", "    buyer: 3\n", "the deal hands out 33 of 32 cards"),
        ("      - {call: triple, by: buyer_team, multiplier: 3}",
         "      - {call: triple, by: opponents, multiplier: 3}", "must be called by buyer_team"),
        ("    max_call: double", "    max_call: redouble", "not a call of doubling.chain"),
        ("    rounds: [1, 2]", "    rounds: [1, 3]", "names a round that is not played"),
        ("hundred.four_of_a_kind, fifty, sira]", "hundred.four_of_a_kind, fifty]",
         "every project exactly once"),
        ("    game_points: {sun: 40}", "    game_points: {hokum: 40}", "no game points for Sun"),
        ("    sources: [PAGAT, SAKKAH, KAM]\n    sun: 130",
         "    sources: [PAGATT, SAKKAH, KAM]\n    sun: 130", "cites 'PAGATT'"),
        ("- {raw: 65, other_raw: 65, is_buyer: true, expect: 13}",
         "- {raw: 65, other_raw: 65, is_buyer: true, expect: 14}",
         "the formula gives 13 for raw=65, other_raw=65, is_buyer=True, the example expects 14"),
        ("- {raw: 85, other_raw: 77, is_buyer: true, expect: 8}",
         "- {raw: 85, other_rw: 77, is_buyer: true, expect: 8}", "unknown variable(s) other_rw"),
        ('condition: "buyer_total >= 100 and doubler_total < 100"',
         'condition: "buyer_total - doubler_total"', "gives a number, but this rule needs a bool"),
        ('formula: "raw // 5 +', 'formula: "raw / 5 +', "division"),
        ('formula: "raw // 5 +', 'formula: "rw // 5 +', "unknown variable 'rw'"),
    ],
)  # fmt: skip
def test_semantic_checks(tmp_path: Path, old: str, new: str, words: str) -> None:
    error = error_of(mutated(tmp_path, old, new))
    assert words in str(error)
    assert error.location is not None and error.location.path.endswith("mine.yaml")


def test_formula_error_column_points_into_the_formula(tmp_path: Path) -> None:
    path = mutated(tmp_path, 'formula: "raw // 5 +', 'formula: "rw // 5 +')
    error = error_of(path)
    line = path.read_text(encoding="utf-8").splitlines()[error.location.line - 1]  # type: ignore[union-attr]
    assert error.location is not None
    assert line[error.location.column - 1 :].startswith("rw // 5")
