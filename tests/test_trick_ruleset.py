"""Loading, resolving and validating trick rulesets (``trick-ruleset/1``,
baloot_conformance.family.rules.loading), and the dispatch that keeps them out of Baloot's
tools: the shipped Bourré files, their overlays, their digests, and one bad file per check
with the place and words of its error."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from baloot_conformance.errors import SpecError, UnreadableInputError
from baloot_conformance.family.rules import loading
from baloot_conformance.family.rules.loading import (
    load_trick_ruleset,
    resolved_trick_yaml,
    shipped_trick_rulesets,
)
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.family.rules.validation import trick_schema
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import canonical_json

BOURRE_TEXT = spec_path("rulesets", "bourre.yaml").read_text(encoding="utf-8")
BOURRE_PROFILES = ["cajun", "cpusonicatt", "eighty", "hoyle", "jorisl", "seed", "wikipedia", "wkc"]
#: The other games of the family, with their profiles.
FAMILY_GAMES = ["barbu", "barbu-app", "barbu-seed", "barbu-trictrac", "barbu-wikipedia", "hearts"]
#: Each game's common rules, which its profiles extend.
GAMES = ("bourre", "barbu", "hearts")
#: Baloot's shipped rulesets, exactly: the trick family's files must not join them.
BALOOT_IDS = [
    "saudi",
    "baloot-ui-flutter",
    "baloothub",
    "bloot352",
    "bloot7",
    "cardgames-zone",
    "gamerules",
    "jawaker",
    "kammelna",
    "kuwait",
    "majlis",
    "pagat",
    "qusaigazz-balote",
    "saudi-federation",
    "tazjel",
    "vip-baloot",
    "wikipedia-ja",
]


@pytest.fixture(scope="module")
def bourre() -> TrickRuleset:
    return load_trick_ruleset("bourre")


def write(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def mutated(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of bourre.yaml with exactly one textual change."""
    assert BOURRE_TEXT.count(old) == 1, f"mutation anchor not unique: {old!r}"
    return write(tmp_path, BOURRE_TEXT.replace(old, new))


def profile(body: str, extends: str = "bourre@1", id: str = "mine") -> str:
    return f'format: trick-ruleset/1\nid: {id}\nversion: "1.0.0"\nextends: {extends}\n' + body


def error_of(reference: Path | str) -> SpecError:
    with pytest.raises(SpecError) as caught:
        load_trick_ruleset(reference)
    return caught.value


def line_of(text: str, anchor: str) -> int:
    """The line (from 1) where ``anchor`` starts in ``text``."""
    assert text.count(anchor) == 1, anchor
    return text[: text.index(anchor)].count("\n") + 1


# --- the shipped files and the dispatch ----------------------------------------------------


def test_the_shipped_trick_rulesets_are_bourre_barbu_hearts_and_their_profiles() -> None:
    assert sorted(shipped_trick_rulesets()) == sorted(
        ["bourre", *(f"bourre-{p}" for p in BOURRE_PROFILES), *FAMILY_GAMES]
    )


@pytest.mark.parametrize("name", sorted(shipped_trick_rulesets()))
def test_every_shipped_trick_ruleset_loads(name: str) -> None:
    ruleset = load_trick_ruleset(name)
    assert ruleset.id == name and ruleset.format == "trick-ruleset/1"
    game = name.split("-")[0]
    assert game in GAMES
    assert ruleset.lineage == ((name,) if name == game else (name, game))
    assert load_trick_ruleset(f"{name}@1").digest == ruleset.digest
    for rule in ruleset.iter_rules():
        assert rule.statement and rule.sources, rule.id
        assert all(s.split()[0] in ruleset.sources for s in rule.sources), rule.id


def test_baloot_s_shipped_rulesets_are_unchanged() -> None:
    assert list(shipped_rulesets()) == BALOOT_IDS


def test_the_format_sniff_reads_the_first_key_line(tmp_path: Path) -> None:
    from baloot_conformance.rules.loading import _declares_trick, _shipped_file

    cases = {
        "a.yaml": "# a comment\n\n#format: trick-ruleset/1\nformat: trick-ruleset/1\n",
        "b.yaml": "format: 'trick-ruleset/1'  # quoted\nid: b\n",
        "c.yaml": "id: c\nformat: trick-ruleset/1\n",
        "d.yaml": "format: baloot-ruleset/1\n",
        "e.yaml": "formats: trick-ruleset/1\n",
    }
    found = {name: _declares_trick(write(tmp_path, text, name)) for name, text in cases.items()}
    assert _shipped_file("saudi") == spec_path("rulesets", "saudi.yaml")
    assert _shipped_file("bourre") is None and _shipped_file("x" * 300) is None
    assert found == {
        "a.yaml": True,
        "b.yaml": True,
        "c.yaml": False,
        "d.yaml": False,
        "e.yaml": False,
    }


def test_a_baloot_load_imports_nothing_of_the_family() -> None:
    code = (
        "import sys\n"
        "from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets\n"
        "load_ruleset('saudi'); shipped_rulesets()\n"
        "print(sorted(m for m in sys.modules if '.family' in m or 'shared_loading' in m))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "[]"


def test_a_baloot_load_of_bourre_names_its_format() -> None:
    with pytest.raises(UnreadableInputError) as by_id:
        load_ruleset("bourre")
    assert str(by_id.value.message).startswith("bourre is a trick-ruleset/1 ruleset")
    assert "load_trick_ruleset" in str(by_id.value.hint)
    with pytest.raises(SpecError) as by_path:
        load_ruleset(spec_path("rulesets", "bourre.yaml"))
    assert by_path.value.message.startswith("bourre is a trick-ruleset/1 ruleset")
    where = by_path.value.location
    assert where is not None and where.line == line_of(BOURRE_TEXT, "format: trick")


def test_a_baloot_profile_cannot_extend_bourre(tmp_path: Path) -> None:
    text = 'format: baloot-ruleset/1\nid: mine\nversion: "1.0.0"\nextends: bourre@1\n'
    with pytest.raises(SpecError) as caught:
        load_ruleset(write(tmp_path, text))
    assert "trick-ruleset/1" in caught.value.message
    assert str(caught.value.location).endswith("mine.yaml:4:10")


def test_a_trick_load_of_a_baloot_ruleset_names_its_format() -> None:
    with pytest.raises(UnreadableInputError, match="saudi is a Baloot ruleset"):
        load_trick_ruleset("saudi")
    error = error_of(spec_path("rulesets", "saudi.yaml"))
    assert "is not a trick ruleset" in error.message


def test_an_unknown_id_suggests_a_shipped_one() -> None:
    with pytest.raises(UnreadableInputError) as caught:
        load_trick_ruleset("bourre-sed")
    assert "did you mean 'bourre-seed'?" in str(caught.value.hint)


# --- typed values, digests, overlays -------------------------------------------------------


def test_typed_values(bourre: TrickRuleset) -> None:
    assert len(bourre.table.deck.ranks) * len(bourre.table.deck.suits) == 52
    assert bourre.table.order_trump is not None and bourre.table.order_trump.order[0] == "A"
    assert bourre.table.seats.max == 8
    assert bourre.phases.pipeline.kinds == ("ante", "deal", "draw", "tricks", "settle")
    assert bourre.contracts["bourre"].trump == "faceup_suit"
    assert bourre.phases.ante is not None and bourre.phases.ante.exempt == ("tie_leaders", "bourre")
    assert bourre.scoring.bourre is not None
    assert bourre.scoring.bourre.pays.evaluate({"pot": 9, "limit": 5}) == 5
    assert bourre.rule("phases.draw.discards") is bourre.phases.discards
    assert bourre.game.kind.option == "session"


def test_rule_ids_are_section_dot_key(bourre: TrickRuleset) -> None:
    ids = [rule.id for rule in bourre.iter_rules()]
    assert len(ids) == len(set(ids))
    expected = {
        f"{section}.{key}"
        for section in ("table", "contracts", "phases", "play", "scoring", "game")
        for key in bourre.document[section]
    }
    assert set(ids) == expected


def test_discard_limits_by_table_size() -> None:
    wikipedia = load_trick_ruleset("bourre-wikipedia").phases.discards
    jorisl = load_trick_ruleset("bourre-jorisl").phases.discards
    assert wikipedia is not None and jorisl is not None
    assert [wikipedia.limit(n) for n in (6, 7, 8)] == [5, 3, 5]
    assert [jorisl.limit(n) for n in (6, 7, 8)] == [5, 3, 3]


#: The digests of the shipped trick rulesets (their first 16 hex digits), as reports print
#: them. A change of a file's rules changes its digest: change its version too (MAJOR when a
#: verdict can change), then the figure here.
DIGESTS = {
    "bourre": "fa515d7616632192",
    "bourre-cajun": "a30905cbb44e0bdf",
    "bourre-cpusonicatt": "d8583f81e1ca012e",
    "bourre-eighty": "fe5233350997cd8d",
    "bourre-hoyle": "45826823a628f2e0",
    "bourre-jorisl": "487ed424714af9a9",
    "bourre-seed": "f6f9e943694a6b93",
    "bourre-wikipedia": "34eeaf4fcbf7c1f0",
    "bourre-wkc": "3d3f33b1ff9b2907",
    "barbu": "c0a1055a73d5f2b0",
    "barbu-app": "97401e3c0ec8f40a",
    "barbu-seed": "1ce4cb253ad2795b",
    "barbu-trictrac": "941325e028a72fe5",
    "barbu-wikipedia": "041269728a7c4e06",
    "hearts": "295b73a53432d717",
}


def test_the_shipped_digests_are_pinned() -> None:
    found = {name: load_trick_ruleset(name).digest[7:23] for name in shipped_trick_rulesets()}
    assert found == DIGESTS


def test_the_digest_hashes_the_resolved_document(bourre: TrickRuleset, tmp_path: Path) -> None:
    text = canonical_json(bourre.document).encode("utf-8")
    assert bourre.digest == "sha256:" + hashlib.sha256(text).hexdigest()
    assert load_trick_ruleset(write(tmp_path, BOURRE_TEXT)).digest == bourre.digest
    retitled = mutated(tmp_path, "title: Bourré, the common rules", "title: Bourré (copy)")
    assert load_trick_ruleset(retitled).digest != bourre.digest


@pytest.mark.parametrize("name", sorted(shipped_trick_rulesets()))
def test_the_resolved_yaml_loads_back_to_the_same_ruleset(name: str, tmp_path: Path) -> None:
    ruleset = load_trick_ruleset(name)
    again = load_trick_ruleset(write(tmp_path, resolved_trick_yaml(ruleset), f"{name}.yaml"))
    assert again.digest == ruleset.digest and again.lineage == (name,)


def test_a_profile_replaces_only_what_it_names(bourre: TrickRuleset) -> None:
    wkc = load_trick_ruleset("bourre-wkc")
    differ = [
        f"{section}.{key}"
        for section in ("table", "contracts", "phases", "play", "scoring", "game")
        for key in set(bourre.document[section]) | set(wkc.document[section])
        if bourre.document[section].get(key) != wkc.document[section].get(key)
    ]
    assert differ == ["phases.draw.refill"]
    assert wkc.phases.refill is not None and wkc.phases.refill.exclude_own
    assert wkc.sources == bourre.sources
    # a file's unmodelled readings are its own: the base's are not the profile's
    unmodelled = [entry["rule"] for entry in bourre.document["unmodelled"]]
    assert unmodelled == ["table.dealer.rotation", "scoring.pot.renege"]
    assert [entry["rule"] for entry in wkc.document["unmodelled"]] == [
        "phases.draw.refill",
        "phases.ante",
    ]
    seed = load_trick_ruleset("bourre-seed")
    underruff = seed.play.stages["underruff"]
    assert underruff.option == "free" and "silent" not in seed.document


def test_a_derived_ruleset_changes_one_rule_and_is_validated(bourre: TrickRuleset) -> None:
    seed = load_trick_ruleset("bourre-seed")
    derived = loading.derive_trick_ruleset(
        bourre, {"play.underruff": seed.document["play"]["underruff"]}, "bourre-free"
    )
    assert (
        derived.lineage == ("bourre-free", "bourre")
        and derived.document["play"]["underruff"] == seed.document["play"]["underruff"]
        and derived.play.stages["underruff"].option == "free"
    )
    assert derived.digest not in (bourre.digest, seed.digest)
    too_many = dict(bourre.document["phases"]["draw.discards"], max=6)
    assert loading.isolate_trick(bourre, {"phases.draw.discards": too_many}) is None
    with pytest.raises(KeyError):
        loading.derive_trick_ruleset(bourre, {"play.nothing": {}}, "x")


def test_a_chain_of_three_by_relative_path(tmp_path: Path) -> None:
    rule = "scoring:\n  pot.limit:\n    statement: A limit.\n    sources: [JORISL]\n"
    write(tmp_path, profile(rule + "    chips: 10\n", id="mid"), "mid.yaml")
    top = write(tmp_path, profile(rule + "    chips: 30\n", extends="mid.yaml"), "top.yaml")
    ruleset = load_trick_ruleset(top)
    assert ruleset.lineage == ("mine", "mid", "bourre")
    assert ruleset.scoring.limit is not None and ruleset.scoring.limit.chips == 30


def test_an_extends_cycle_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, profile("", extends="b.yaml", id="a"), "a.yaml")
    write(tmp_path, profile("", extends="./a.yaml", id="b"), "b.yaml")
    assert (
        "'extends' forms a cycle: a.yaml -> b.yaml -> a.yaml"
        in error_of(tmp_path / "a.yaml").message
    )


@pytest.mark.parametrize(
    ("extends", "words"),
    [
        ("bourre@2", "asks for bourre 2.x, but this kit has bourre 1.1.0 only"),
        ("bourree", "no trick ruleset named 'bourree'"),
        ("saudi@1", "saudi is a Baloot ruleset"),
        ("./nowhere.yaml", "the base ruleset './nowhere.yaml' does not exist"),
    ],
)
def test_a_bad_base_is_an_error_at_extends(tmp_path: Path, extends: str, words: str) -> None:
    error = error_of(write(tmp_path, profile("", extends=extends)))
    assert words in error.message
    assert str(error.location).endswith("mine.yaml:4:10")


def test_a_rule_restated_unchanged_is_refused(tmp_path: Path) -> None:
    body = (
        "game:\n  kind:\n    statement: Hands follow one another.\n"
        "    sources: [JORISL]\n    option: session\n"
    )
    error = error_of(write(tmp_path, profile(body)))
    assert error.message == "game.kind is restated with the same parameters as its base"
    assert str(error.location).endswith("mine.yaml:6:3")


def test_a_ruleset_validated_once_is_not_validated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = load_trick_ruleset("bourre-jorisl")
    assert list((tmp_path / "baloot-conformance" / "valid-trick-rulesets").iterdir())

    def refuse(doc: object) -> list[object]:
        raise AssertionError("validated again")

    monkeypatch.setattr(loading, "schema_problems", refuse)
    monkeypatch.setattr(loading, "semantic_problems", refuse)
    assert load_trick_ruleset("bourre-jorisl").digest == first.digest


# --- the schema ----------------------------------------------------------------------------


def test_the_schema_is_valid_and_strict_everywhere() -> None:
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

    schema = trick_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "urn:baloot-conformance:schema:trick-ruleset:1"
    own = {k: v for k, v in schema.items() if k != "$defs"}
    walk(own, "$")
    walk(schema["$defs"], "$.$defs")
    refs = [r for r in json.dumps(schema).split('"$ref": "')[1:] if r.startswith("urn:")]
    play = "urn:baloot-conformance:schema:trick-play:1"
    assert refs and all(
        r.startswith(("urn:baloot-conformance:schema:ruleset:1#", play)) for r in refs
    )


# --- one bad file per check ----------------------------------------------------------------

#: (old text, new text, words of the message, the text the location points at). The location
#: is asserted as the line of ``at`` in the mutated file and the column where ``at`` starts.
BAD = [
    # strict YAML
    ("  teams:\n", "  teams:\n  teams:\n", "duplicate key", "  teams:\n  ^teams:"),
    ('version: "1.1.0"', "version: 1.0", "is a decimal number", "version: ^1.0"),
    # the schema
    ("  draw.discards:\n", "  draw.discard:\n", "did you mean 'draw.discards'?", "draw.discard:"),
    ("    option: none\n", "    option: pairs\n", "'pairs' is not one of: none, partners", "pairs"),
    ("    min: 2\n", "    min: two\n", "table.seats.min: expected integer", "min: ^two"),
    # the semantic checks
    (
        '"3", "2"]\n    notes: >-\n      Wikipedia',
        '"3"]\n    notes: >-\n      Wikipedia',
        "table.order.trump.order: must list each rank of the deck exactly once",
        'order: ^[A, K, Q, J, T, "9", "8", "7", "6", "5", "4", "3"]\n    notes',
    ),
    ("    min: 2\n", "    min: 9\n", "9 is greater than the maximum of 8", "min: ^9"),
    (
        "    cards: 5\n",
        "    cards: 7\n",
        "8 players of 7 cards need 56 cards; the pack has 52",
        "cards: ^7",
    ),
    ("    option: none\n", "    option: partners\n", "partners sit opposite", "option: ^partners"),
    (
        "kinds: [ante, deal, draw, tricks, settle]",
        "kinds: [deal, ante, draw, tricks, settle]",
        "phases.pipeline.kinds: the phases run deal, ante",
        "[deal, ante",
    ),
    (
        "kinds: [ante, deal, draw, tricks, settle]",
        "kinds: [ante, deal, tricks, settle]",
        "phases.draw.declare: phases.draw.declare is a rule of the draw phase",
        "  draw.declare:\n    ^statement",
    ),
    ("    max: 5\n", "    max: 6\n", "up to 6 discards from a hand of 5", "max: ^6"),
    ("    count: 5\n", "    count: 6\n", "6 tricks of one card from each", "count: ^6"),
    ("    faceup: dealer_last\n", "    faceup: none\n", "a rule for a face-up Ace", None),
    (
        "      - {pot: 9, limit: 5, expect: 5}",
        "      - {pot: 9, limit: 5, expect: 9}",
        "the formula gives 5 for pot=9, limit=5, the example expects 9",
        "{pot: 9, limit: 5, expect: 9}",
    ),
    (
        'pays: "if limit > 0 and pot > limit then limit else pot"\n    examples:\n      - {pot: 6',
        'pays: "if limit > 0 and pot > limit then limit else pott"\n    examples:\n      - {pot: 6',
        "pott",
        "pott",
    ),
    (
        'pays: "if limit > 0 and pot > limit then limit else pot"\n    examples:\n      - {pot: 6',
        'pays: "pot - 1"\n    examples:\n      - {pot: 6',
        "the formula gives -1 for pot=0, limit=0",
        '"pot - 1"',
    ),
    (
        "    sources: [SEED-003, JORISL, CPUSONICATT]\n    option: session",
        "    sources: [SEED-003, JORIS, CPUSONICATT]\n    option: session",
        "cites 'JORIS', which is not in the ruleset's 'sources'",
        "JORIS,",
    ),
    ("      - rule: head\n", "      - rule: haed\n", "'haed' is not a stage rule", "haed"),
    (
        "        when: [following]\n",
        "        when: [folowing]\n",
        "'folowing' is not one of",
        "folowing",
    ),
    (
        "    after:\n      - rule: cinch\n",
        "",
        "a stage rule that no node",
        "  cinch:\n    ^statement",
    ),
]


@pytest.mark.parametrize(("old", "new", "words", "at"), BAD, ids=[b[2] for b in BAD])
def test_a_bad_file_is_refused_at_its_place(
    tmp_path: Path, old: str, new: str, words: str, at: str | None
) -> None:
    path = mutated(tmp_path, old, new)
    error = error_of(path)
    shown = " ".join(f"{p.message} {p.hint}" for p in (error, *error.problems))
    assert words in shown
    if at is not None:  # the location is where the "^" is in "at" (its start without one)
        text = path.read_text(encoding="utf-8")
        where = text.index(at.replace("^", "")) + max(at.find("^"), 0)
        line = text[:where].count("\n") + 1
        column = where - (text.rfind("\n", 0, where) + 1) + 1
        locations = [error.location, *(p.location for p in error.problems)]
        assert any(str(loc) == f"{path}:{line}:{column}" for loc in locations if loc is not None), (
            locations,
            line,
            column,
        )


#: The rule phases.draw.faceup_ace of bourre.yaml, whole.
FACEUP_ACE_RULE = BOURRE_TEXT[
    BOURRE_TEXT.index("  draw.faceup_ace:\n") : BOURRE_TEXT.index("  draw.lone_player:\n")
]
#: Problems of the phases, the scoring and the game: (old, new, words of one of the problems).
BAD_SECTIONS = [
    ("    option: session\n", "    option: target\n", "a target game needs its target"),
    ("    option: session\n", "    option: session\n    hands: 4\n", "hands is not a parameter"),
    ("    option: most_tricks\n", "    option: card_points\n", "there is no scoring.points.plain"),
    ("kinds: [ante, deal, draw", "kinds: [deal, draw", "the pipeline has no pot"),
    (
        FACEUP_ACE_RULE,
        "",
        "no phases.draw.faceup_ace says what an Ace does",
    ),
    ("    faceup: dealer_last\n", "    faceup: none\n", "trump is the face-up card's suit"),
]


@pytest.mark.parametrize(("old", "new", "words"), BAD_SECTIONS, ids=[b[2] for b in BAD_SECTIONS])
def test_the_sections_agree_with_each_other(tmp_path: Path, old: str, new: str, words: str) -> None:
    error = error_of(mutated(tmp_path, old, new))
    assert any(words in p.message for p in (error, *error.problems)), error.problems


def test_discard_limits_by_table_size_are_checked(tmp_path: Path) -> None:
    body = (
        "phases:\n  draw.discards:\n    statement: Limits.\n    sources: [JORISL]\n"
        "    max: 4\n    by_players:\n      - {players: 7, max: 5}\n"
        "      - {players: 7, max: 3}\n"
        "table:\n  seats:\n    statement: Two to six.\n    sources: [JORISL]\n"
        "    min: 2\n    max: 6\n"
    )
    error = error_of(write(tmp_path, profile(body)))
    found = [(str(p.location).rpartition("mine.yaml:")[2], p.message) for p in error.problems]
    assert found == [
        (
            "11:19",
            "phases.draw.discards.by_players[0].players: a limit for 7 players, at a "
            "table of 2 to 6",
        ),
        ("11:27", "phases.draw.discards.by_players[0].max: 5 discards, above the general limit 4"),
        (
            "12:19",
            "phases.draw.discards.by_players[1].players: a limit for 7 players, at a "
            "table of 2 to 6",
        ),
        ("12:19", "phases.draw.discards.by_players[1].players: a second limit for 7 players"),
    ]


def test_fixed_seat_names_are_as_many_as_the_seats(tmp_path: Path) -> None:
    body = (
        "table:\n  seats:\n    statement: Four named seats.\n    sources: [JORISL]\n"
        '    min: 2\n    max: 8\n    names: ["N", "E", "S", "W"]\n'
    )
    error = error_of(write(tmp_path, profile(body)))
    assert error.message == "table.seats.names: 4 fixed names for 2 to 8 seats"
    assert str(error.location).endswith("mine.yaml:11:12")


def test_seats_out_of_order_and_a_misspelt_cinch_parameter(tmp_path: Path) -> None:
    error = error_of(mutated(tmp_path, "    min: 2\n    max: 8\n", "    min: 8\n    max: 7\n"))
    assert error.message == "table.seats.min: min 8 is more than max 7"
    assert error.location is not None and error.location.line == line_of(BOURRE_TEXT, "    min: 2")


def test_a_node_guarded_by_an_unknown_contract(tmp_path: Path) -> None:
    path = mutated(
        tmp_path, "      - rule: head\n", "      - rule: head\n        contracts: [sun]\n"
    )
    error = error_of(path)
    assert error.message.endswith("'sun' is not a contract of this ruleset")
    assert error.hint == "contracts: bourre"


def test_a_partner_winning_card_binds_only_where_seats_play_in_teams(tmp_path: Path) -> None:
    """``partner_winning: must_beat`` at a table without teams would decide nothing (no card
    is a partner's): it is refused at its value; ``any``, the default, binds nothing."""
    head = (
        "play:\n  head:\n    statement: Beat the winning card, even a partner's.\n"
        "    sources: [JORISL]\n    stage: beat\n    target: winning\n"
        "    opponent_winning: must_beat\n    partner_winning: {}\n"
    )
    error = error_of(write(tmp_path, profile(head.format("must_beat"))))
    assert error.message == (
        "play.head.partner_winning: acts only where seats play in teams; this table has no teams"
    )
    assert error.hint == "leave it out"
    assert str(error.location).endswith("mine.yaml:12:22")
    assert load_trick_ruleset(write(tmp_path, profile(head.format("any")), "any.yaml")).id == "mine"


def test_the_dealer_rotation_has_no_forfeit(tmp_path: Path) -> None:
    """No transcript records an early announcement or a corrected renege (BTN 2), so no option
    says who loses his deal for one: bourre.yaml lists them under ``unmodelled``."""
    path = mutated(
        tmp_path, "    option: next\n", "    option: next\n    forfeit: [corrected_renege]\n"
    )
    assert "forfeit" in error_of(path).message


def test_silent_and_unmodelled_name_rules_of_the_ruleset(tmp_path: Path) -> None:
    body = "silent: [play.cinch, play.cinh]\n"
    error = error_of(write(tmp_path, profile(body)))
    assert error.message == "silent[1]: 'play.cinh' is not a rule ID of this ruleset"
    assert error.hint == "did you mean 'play.cinch'?"
    assert str(error.location).endswith("mine.yaml:5:22")


def test_a_file_that_is_not_utf8_or_not_a_mapping(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"format: trick-ruleset/1\nid: \xff\n")
    assert str(error_of(bad).location).endswith("bad.yaml:2:5")
    error = error_of(write(tmp_path, "- a\n- b\n"))
    assert error.message == "a ruleset must be a mapping of keys to values"


@pytest.mark.parametrize(
    ("rule_id", "rule"),
    [
        ("play.head", {"statement": "s", "sources": ["SEED-003"], "stage": "beat",
                       "target": "winning", "opponent_winning": "any"}),
        ("play.head", {"statement": "s", "sources": ["SEED-003"], "stage": "beet"}),
        ("phases.tricks", {"statement": "s", "sources": ["SEED-003"], "count": 4}),
        ("phases.tricks", {"statement": "s", "sources": ["SEED-003"], "count": "five"}),
        ("contracts.bourre", {"statement": "s", "sources": ["SEED-003"], "trump": "named"}),
        ("contracts.bourre", {"statement": "s", "sources": ["SEED-003"], "trump": "nah"}),
        ("play.obligations", {"statement": "s", "sources": ["SEED-003"], "tree": "none"}),
        ("game.kind", {"statement": "s", "sources": ["SEED-003"], "option": "session", "x": 1}),
    ],
)  # fmt: skip
def test_a_derived_rulesets_schema_check_is_the_whole_schemas_verdict(
    bourre: TrickRuleset, rule_id: str, rule: dict[str, object]
) -> None:
    """A variant is checked on the rules it replaces only: the same verdict, the same places."""
    from baloot_conformance.family.rules.validation import changed_rule_problems, schema_problems
    from baloot_conformance.rules.shared_loading import Document

    data = json.loads(json.dumps(bourre.document))
    section, _, name = rule_id.partition(".")
    data[section][name] = rule
    doc = Document("<x>", data)
    whole, part = schema_problems(doc), changed_rule_problems(doc, [rule_id])
    assert bool(whole) == bool(part)
    assert [p.message for p in whole] == [p.message for p in part]
