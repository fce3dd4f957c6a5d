"""Spec diffs and witness hands: the differences of the three source texts' profiles from the
default, each shown by a hand that passes under one ruleset and fails under the other; fixed
rules and reworded rules are refused; every value of every parameter changes some verdict."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from baloot_conformance.cli import main
from baloot_conformance.compare.diff import diff_rulesets
from baloot_conformance.compare.variants import rule_variants, variant_ruleset
from baloot_conformance.compare.witness import verdicts, witness_between
from baloot_conformance.errors import SpecError
from baloot_conformance.rules.loading import derive_ruleset, isolate, load_ruleset, shipped_rulesets
from baloot_conformance.rules.validation import fixed_rules

SAUDI = load_ruleset("saudi")
POOL = [load_ruleset(name) for name in shipped_rulesets()]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_a_ruleset_does_not_differ_from_itself() -> None:
    assert diff_rulesets(SAUDI, SAUDI) == []
    code, out, _ = run("spec", "diff", "saudi", "saudi")
    assert code == 0 and "0 rules differ" in out


def test_the_diff_names_each_change_and_its_effect() -> None:
    gamerules = load_ruleset("gamerules")
    found = {d.rule_id: d for d in diff_rulesets(SAUDI, gamerules)}
    assert found["play.first_lead"].changes == (("option", "first_seat", "buyer"),)
    assert found["play.first_lead"].effects == ("legality", "claims")
    assert found["scoring.kaboot"].effects == ("score",)
    # A formula is shown by the inputs whose results differ: 85 is 8 or 9 half up / down ...
    zone = {d.rule_id: d for d in diff_rulesets(SAUDI, load_ruleset("cardgames-zone"))}
    detail = " ".join(zone["scoring.hokum.conversion"].details)
    assert "24 of 163 inputs differ, e.g. raw=5, other_raw=157: 0 vs 1" in detail
    # ... and a card order by the pairs of ranks that swap.
    trump = dict(SAUDI.document["cards"]["order.trump"])
    trump["order"] = ["J", "9", "T", "A", "K", "Q", "8", "7"]
    swapped = derive_ruleset(SAUDI, {"cards.order.trump": trump}, "swapped")
    (order,) = diff_rulesets(SAUDI, swapped)
    assert order.details == ("order: A/T swap",)


@pytest.mark.parametrize("profile", ["wikipedia-ja", "gamerules", "cardgames-zone"])
def test_every_difference_of_a_source_text_has_a_verified_witness(profile: str) -> None:
    code, out, err = run("spec", "diff", "saudi", profile, "--witness", "--format", "json")
    report = json.loads(out)
    other = load_ruleset(profile)
    assert report["differences"], "a source text's profile must differ from saudi"
    for difference in report["differences"]:
        witness = difference["witness"]
        assert witness is not None, f"no witness for {difference['rule']}"
        # Verified independently: one ruleset passes every hand, the other fails one.
        results = {
            name: [v.status for v in verdicts(witness["btn"], ruleset)]
            for name, ruleset in (("saudi", SAUDI), (profile, other))
        }
        passing = witness["passes"].split("@")[0]
        failing = witness["fails"].split("@")[0]
        assert {passing, failing} == {"saudi", profile}
        assert set(results[passing]) == {"pass"}
        assert "fail" in results[failing] or "error" in results[failing]
    assert code == 0, err
    assert f"{len(report['differences'])} of" not in out  # JSON carries no summary line


def test_the_text_report_shows_the_witness_transcript() -> None:
    code, out, _ = run("spec", "diff", "saudi", "gamerules", "--witness", "--tries", "300")
    assert "play.first_lead  [legality, claims]" in out
    assert "    %btn 1" in out and "witness: passes under" in out
    assert code in (0, 1)  # with few tries a rare difference may go unwitnessed ...
    assert ("differences witnessed" in out) and (code == 0) == ("no witness found" not in out)


def test_a_fixed_rule_is_refused_in_a_profile_with_its_position(tmp_path: Path) -> None:
    assert "play.trick_winner" in fixed_rules() and "play.first_lead" not in fixed_rules()
    path = tmp_path / "mine.yaml"
    path.write_text(
        'format: baloot-ruleset/1\nid: mine\nversion: "1.0.0"\nextends: saudi@1\n'
        'play:\n  trick_winner:\n    statement: "The lowest card wins."\n'
        "    sources: [WIKI]\n",
        encoding="utf-8",
    )
    with pytest.raises(SpecError) as caught:
        load_ruleset(path)
    error = caught.value
    assert "play.trick_winner is a fixed rule" in error.message
    assert error.location is not None
    assert (error.location.path, error.location.line, error.location.column) == (str(path), 6, 3)
    code, _, err = run("spec", "validate", str(path))
    assert code == 1 and f"{path}:6:3: play.trick_winner is a fixed rule" in err


def test_rewording_a_rule_without_changing_it_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        'format: baloot-ruleset/1\nid: mine\nversion: "1.0.0"\nextends: saudi@1\n'
        'play:\n  first_lead:\n    statement: "The buyer leads the first trick."\n'
        "    sources: [WIKI]\n    option: first_seat\n",
        encoding="utf-8",
    )
    with pytest.raises(SpecError, match="same parameters as its base"):
        load_ruleset(path)
    path.write_text(path.read_text(encoding="utf-8").replace("first_seat", "buyer"))
    assert load_ruleset(path).play.first_lead.option == "buyer"


def test_silent_and_unmodelled_name_real_rules(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(
        'format: baloot-ruleset/1\nid: mine\nversion: "1.0.0"\nextends: saudi@1\n'
        "silent: [scoring.kabot]\n",
        encoding="utf-8",
    )
    with pytest.raises(SpecError) as caught:
        load_ruleset(path)
    assert "'scoring.kabot' is not a rule ID" in caught.value.message
    assert caught.value.hint == "did you mean 'scoring.kaboot'?"


VARIANTS = rule_variants(SAUDI, POOL)


def test_the_variants_cover_every_option_of_every_live_rule() -> None:
    labels = {v.label for v in VARIANTS}
    from baloot_conformance.rules.validation import ruleset_schema

    schema = ruleset_schema()["properties"]
    fixed = fixed_rules()
    for rule in SAUDI.iter_rules():
        if rule.id in fixed:
            continue
        section, _, key = rule.id.partition(".")
        current = SAUDI.document[section][key]
        for name, spec in schema[section]["properties"][key]["properties"].items():
            for value in spec.get("enum", []):
                if value != current.get(name) and not (
                    name == "round2" and value == current.get("option")
                ):
                    assert f"{rule.id}.{name}={value}" in labels


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.label for v in VARIANTS])
def test_every_parameter_value_changes_a_verdict(variant: object) -> None:
    """No rule is decoration: for each other value of each parameter there is a hand that
    passes under one value and fails under the other."""
    from baloot_conformance.compare.variants import Variant

    assert isinstance(variant, Variant)
    reference = isolate(SAUDI, variant.reference) if variant.reference else SAUDI
    assert reference is not None
    witness = witness_between(reference, variant_ruleset(SAUDI, variant))
    assert witness is not None, f"no hand tells {variant.label} from saudi"
    assert witness.rule_id is not None


def test_the_markdown_report_fences_each_witness() -> None:
    code, out, _ = run("spec", "diff", "saudi", "wikipedia-ja", "--witness", "--format", "markdown")
    assert code == 0
    assert out.startswith("# saudi@1.2.0 and wikipedia-ja@1.1.0: 10 rules differ\n")
    assert "## `deal.kawesh` (legality)\n- option: disabled -> same_dealer\n" in out
    assert out.count("```\n%btn 1\n") == 10 and out.rstrip().endswith(
        "10 of 10 differences witnessed"
    )


def test_a_rule_taken_from_a_profile_brings_the_sources_it_cites() -> None:
    # saudi-federation's lock cites its own bibliography key (FED-REG), which saudi lacks: the
    # one-rule variant a witness search needs is valid only with the profile's sources.
    saudi, federation = load_ruleset("saudi"), load_ruleset("saudi-federation")
    (lock,) = [d for d in diff_rulesets(saudi, federation) if d.rule_id == "doubling.lock"]
    assert any(s.split()[0] not in saudi.sources for s in lock.rule_b["sources"])
    assert isolate(saudi, {"doubling.lock": lock.rule_b}) is None
    variant = isolate(saudi, {"doubling.lock": lock.rule_b}, federation.sources)
    assert variant is not None and variant.doubling.lock == federation.doubling.lock
    assert diff_rulesets(variant, federation)[0].rule_id != "doubling.lock"
