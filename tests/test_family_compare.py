"""Comparing trick rulesets: ``spec list|show|diff`` for Bourré, witness hands for every
difference between the profiles, every option value of every Bourré ruleset changing some
verdict (or listed with its reason), and ``infer`` naming the profile that played the games."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path

import pytest

from baloot_conformance.cli import main
from baloot_conformance.family.compare.diff import diff_trick_rulesets
from baloot_conformance.family.compare.inference import TrickInference, infer_trick
from baloot_conformance.family.compare.transcribe import session_text
from baloot_conformance.family.compare.variants import (
    UNWITNESSED,
    family_of,
    reference_ruleset,
    rule_variants,
    unwitnessed,
    variant_ruleset,
)
from baloot_conformance.family.compare.witness import replayed_witness, verdicts
from baloot_conformance.family.rules.loading import load_trick_ruleset, shipped_trick_rulesets
from baloot_conformance.family.rules.model import TrickRuleset

PROFILES = list(shipped_trick_rulesets())
POOL = [load_trick_ruleset(name) for name in PROFILES]
BY_ID = {r.id: r for r in POOL}
WITNESSES = Path(__file__).parent / "data" / "family-witnesses.json"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_spec_list_names_the_trick_rulesets_and_their_format_after_balloots() -> None:
    code, out, _ = run("spec", "list", "--json")
    rows = json.loads(out)
    assert code == 0
    tricks = [row for row in rows if row.get("format") == "trick-ruleset/1"]
    assert [row["id"] for row in tricks] == PROFILES
    assert "format" not in rows[0] and rows[0]["id"] == "saudi"
    seed = next(row for row in tricks if row["id"] == "bourre-seed")
    assert seed["extends"] == "bourre" and seed["version"] == "1.1.0"


def test_spec_show_prints_a_profile_resolved() -> None:
    code, out, _ = run("spec", "show", "bourre-seed", "--resolved")
    assert code == 0
    assert out.startswith("# bourre-seed 1.1.0, resolved from bourre-seed <- bourre\n")
    assert "stage: underruff\n    option: free" in out and "cinch:" in out  # base rules too
    code, out, _ = run("spec", "show", "bourre", "--format", "json")
    assert code == 0 and json.loads(out)["play"]["underruff"]["option"] == "forced"


def test_a_trick_ruleset_does_not_differ_from_itself_and_formats_do_not_mix() -> None:
    assert diff_trick_rulesets(BY_ID["bourre"], BY_ID["bourre"]) == []
    code, out, _ = run("spec", "diff", "bourre", "bourre")
    assert code == 0 and "0 rules differ" in out
    code, _, err = run("spec", "diff", "saudi", "bourre")
    assert code == 2 and "not of one format" in err


def test_spec_diff_bourre_bourre_seed_witnesses_every_difference() -> None:
    code, out, _ = run("spec", "diff", "bourre", "bourre-seed", "--witness", "--format", "json")
    assert code == 0
    (difference,) = json.loads(out)["differences"]
    assert difference["rule"] == "play.underruff"
    assert difference["changes"] == [{"parameter": "option", "a": "forced", "b": "free"}]
    witness = difference["witness"]
    assert witness["passes"] == "bourre-seed@1.1.0" and witness["fails"] == "bourre@1.1.0"
    assert witness["rule"] == "play.underruff"
    # The hand verifies: it passes under the seed and fails under the common rules there.
    replayed = replayed_witness(witness["btn"], BY_ID["bourre"], BY_ID["bourre-seed"])
    assert replayed is not None and replayed.passes == "bourre-seed@1.1.0"
    assert replayed.rule_id == "play.underruff" and replayed.position == witness["position"]


def family(ruleset: TrickRuleset) -> list[TrickRuleset]:
    """The shipped rulesets of ``ruleset``'s game (its common rules and their profiles)."""
    return family_of(ruleset, POOL)


#: The profiles ``spec diff --witness`` is run on end to end (every profile's differences are
#: witnessed on docs/disagreements.md, whose witnesses tests/test_disagreements.py replays).
DIFFED = ["bourre-seed", "bourre-cajun", "barbu-seed", "barbu-app"]


def test_every_profile_difference_has_a_witness_on_the_disagreements_page() -> None:
    page = (Path(__file__).parent.parent / "docs" / "disagreements.md").read_text("utf-8")
    family = page.split("# Where the rules of the trick family disagree")[1]
    for name in PROFILES:
        other = BY_ID[name]
        if len(other.lineage) == 1:
            continue
        for difference in diff_trick_rulesets(BY_ID[other.lineage[-1]], other):
            heading = f"### `{difference.rule_id}` ({other.lineage[-1]})"
            assert heading in family, (name, difference.rule_id)
            block = family.split(heading)[1].split("\n### ")[0]
            assert f"`{name}`" in block and "<!-- trick-witness" in block, (name, difference)


@pytest.mark.parametrize("profile", DIFFED)
def test_every_difference_of_a_profile_from_the_common_rules_has_a_witness(profile: str) -> None:
    other = BY_ID[profile]
    base = BY_ID[other.lineage[-1]]
    code, out, _ = run("spec", "diff", base.id, profile, "--witness", "--format", "json")
    report = json.loads(out)["differences"]
    assert report, f"{profile} must differ from the common rules"
    missing = [d["rule"] for d in report if d["witness"] is None]
    assert code == 0 and not missing
    for d in report:
        text, fails = d["witness"]["btn"], d["witness"]["fails"]
        passing = other if d["witness"]["passes"].startswith(profile) else base
        assert all(v.status == "pass" for v in verdicts(text, passing))
        if " with " in fails:  # a single-rule variant: the two profiles part on other rules too
            assert fails.endswith(f"with {d['rule']} of {(base if passing is other else other).id}")
        else:
            failing = base if passing is other else other
            assert any(v.status != "pass" for v in verdicts(text, failing))


def test_every_option_value_of_every_bourre_ruleset_changes_a_verdict() -> None:
    """The live-option test: each committed witness (``bench/family_witnesses.py``) passes
    under one of the two rulesets and fails under the other; a value with none is listed in
    ``UNWITNESSED`` with its reason."""
    committed = json.loads(WITNESSES.read_text("utf-8"))
    checked = 0
    labels = set()
    for base in POOL:
        for variant in rule_variants(base, family(base)):
            labels |= {f"{base.id} {variant.label}", f"* {variant.label}"}
            if unwitnessed(base.id, variant.label) is not None:
                assert variant.label not in committed[base.id]
                continue
            text = committed[base.id].get(variant.label)
            assert text is not None, f"{base.id} {variant.label}: no witness committed"
            reference, changed = reference_ruleset(base, variant), variant_ruleset(base, variant)
            assert reference is not None and changed is not None
            assert replayed_witness(text, reference, changed) is not None, variant.label
            checked += 1
    assert checked >= 250
    assert set(UNWITNESSED) <= labels, "an UNWITNESSED entry no ruleset has"
    assert unwitnessed("bourre", "play.underruff.option=free") is None  # found in bourre


def _games(profile: str, count: int = 24) -> list[tuple[str, str]]:
    """Generated sessions of ``profile``, two hands each, at every table size it allows.

    A session where a player who drew in a second round discarded nothing is left out: BTN 2
    writes no empty exchange, and the checker then expects the missing discard (a gap of the
    notation under ``intent_then_draw`` and ``simultaneous``, reported, not this test's)."""
    rules = BY_ID[profile]
    low, high = rules.table.seats.min, rules.table.seats.max
    games = [
        (f"{profile}-{i}.btn", session_text(rules, low + i % (high - low + 1), 2, 7_000 + i))
        for i in range(count)
    ]
    kept = [g for g in games if all(v.status == "pass" for v in verdicts(g[1], rules))]
    assert len(kept) >= count * 3 // 4
    return kept


@functools.cache
def _inferred(profile: str) -> TrickInference:
    return infer_trick(_games(profile), family(BY_ID[profile]))


@pytest.mark.parametrize("profile", PROFILES)
def test_infer_names_the_generating_profile_first_or_tied(profile: str) -> None:
    result = _inferred(profile)
    first = [c for c in result.ranking if c.rank == 1]
    me = next(c for c in result.ranking if c.ruleset.startswith(f"{profile}@"))
    assert me.rank == 1 and me.failed == 0
    # The others of rank 1 are ties: the same verdict on every hand, and said so.
    assert all(c.failed == 0 and c.ruleset in me.tied for c in first if c is not me)
    assert len(first) == len(me.tied) + 1


def test_the_games_tell_most_profiles_apart() -> None:
    """Games played under the common rules pass as well under the profiles that only free a
    player (the seed's underruff, eightygames' lighter cinch): a tie, not a mis-ranking; and
    whiteknucklecards' refill shows only in the rare hand whose stock runs out."""
    alone = [p for p in PROFILES if len(_inferred(p).best) == 1]
    assert alone == [p for p in PROFILES if p not in ("bourre", "bourre-wkc")]
    assert set(_inferred("bourre").best) == {
        "bourre@1.1.0",
        "bourre-eighty@1.1.0",
        "bourre-seed@1.1.0",
    }


def test_infer_on_btn2_files_ranks_the_trick_rulesets(tmp_path: Path) -> None:
    paths = []
    for name, text in _games("bourre-hoyle", 8):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    code, out, _ = run("infer", *paths, "--quiet")
    assert code == 0
    assert "best: bourre-hoyle@1.1.0\n" in out and "first: " in out
    code, out, _ = run("infer", *paths, "--format", "json", "--quiet")
    report = json.loads(out)
    assert report["best"] == ["bourre-hoyle@1.1.0"] and report["hands"] == 2 * len(paths)
    assert report["ranking"][-1]["failed"] > 0


def test_each_games_rulebook_page_is_in_step_with_the_rulesets() -> None:
    from baloot_conformance.family.rules.rulebook import games, page_of, rulebook_markdown

    assert list(games()) == ["barbu", "bourre", "hearts"]
    for game, rulesets in games().items():
        page = Path(__file__).parent.parent / page_of(game)
        assert page.read_text("utf-8") == rulebook_markdown(rulesets), (
            f"{page_of(game)} is stale: python -m baloot_conformance.family.rules.rulebook --write"
        )
    text = (Path(__file__).parent.parent / page_of("bourre")).read_text("utf-8")
    assert "**`bourre-seed` reads it otherwise:**" in text and "`option: free`" in text
    assert "| `SEED-003` |" in text
    text = (Path(__file__).parent.parent / page_of("barbu")).read_text("utf-8")
    assert "**`barbu-seed` reads it otherwise:**" in text and "| `SEED-004` |" in text


def test_spec_render_writes_a_page_per_trick_ruleset_with_an_anchor_per_rule(
    tmp_path: Path,
) -> None:
    code, _, err = run(
        "spec", "render", "--to", str(tmp_path), "--ruleset", "bourre", "--ruleset", "bourre-seed"
    )
    assert code == 0 and "wrote 3 pages" in err
    common = (tmp_path / "bourre.html").read_text("utf-8")
    assert all(f'id="{rule_id}"' in common for rule_id in ("play.cinch", "scoring.pot.tie"))
    assert 'read otherwise by <a href="bourre-seed.html#play.underruff">' in common
    seed = (tmp_path / "bourre-seed.html").read_text("utf-8")
    differs = seed.split("<h2>Every rule</h2>")[0]
    assert "How it differs from bourre" in differs and "option: free" in differs
    assert "spec diff bourre bourre-seed --witness" in differs
    assert "Not modelled" in seed and 'href="index.html"' in seed


def test_spec_validate_reads_a_trick_ruleset(tmp_path: Path) -> None:
    code, out, _ = run("spec", "validate", "bourre-seed")
    assert code == 0 and out == "valid: bourre-seed 1.1.0\n"
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "format: trick-ruleset/1\nid: bad\nversion: '1.0.0'\nextends: bourre@1\nplay:\n"
        "  underruff:\n    statement: s\n    sources: [SEED-003]\n    stage: underruff\n"
        "    option: nope\n",
        encoding="utf-8",
    )
    code, _, err = run("spec", "validate", str(bad))
    assert code == 1 and f"{bad}:10:13: play.underruff.option: 'nope' is not one of" in err
