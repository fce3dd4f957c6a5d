"""The fixture corpus: one test per fixture id, its metadata, its coverage, lint and export."""

from __future__ import annotations

import io
import json
import shutil
from functools import cache
from pathlib import Path

import pytest

from baloot_conformance.cli import main
from baloot_conformance.compare.diff import diff_rulesets
from baloot_conformance.corpus.fixtures import (
    AREAS,
    Fixture,
    in_range,
    load_corpus,
    load_fixture,
    run_fixture,
)
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets

ROOT = Path(__file__).resolve().parent.parent
CORPUS = load_corpus(ROOT / "fixtures")
SAUDI = load_ruleset("saudi")
#: Each ruleset loaded once for the corpus's tests (loading it again for each of hundreds of
#: fixtures was most of their time); the test of the rules' passing fixtures below runs
#: run_fixture's own loading too.
ruleset_named = cache(load_ruleset)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("fixture", CORPUS, ids=lambda f: f.id)
def test_fixture_gives_its_expected_verdict(fixture: Fixture) -> None:
    run_ = run_fixture(fixture, ruleset_named(fixture.tag or fixture.ruleset_id))
    assert run_.outcome == fixture.expect
    for rule_id in fixture.rules:  # declared rules are measured, not taken on trust
        assert rule_id in run_.trace


def test_the_corpus_is_large_and_every_id_unique() -> None:
    ids = [f.id for f in CORPUS]
    assert len(ids) >= 200
    assert len(set(ids)) == len(ids)
    assert sum(not f.expect.passes for f in CORPUS) >= 60


def test_every_rule_has_a_passing_fixture_measured_by_the_trace() -> None:
    exercised: set[str] = set()
    passing = [f for f in CORPUS if f.ruleset_id == "saudi" and f.expect.passes]
    for fixture in passing:
        exercised |= run_fixture(fixture, SAUDI).trace.rules()
    # run_fixture's own loading (the ruleset the fixture names) gives the same replay
    assert run_fixture(passing[0]).trace.rules() == run_fixture(passing[0], SAUDI).trace.rules()
    assert {rule.id for rule in SAUDI.iter_rules()} <= exercised


def test_every_difference_of_every_profile_has_a_fixture() -> None:
    named = {(f.area, rule) for f in CORPUS for rule in f.rules}
    missing = [
        (name, d.rule_id)
        for name in shipped_rulesets()
        if name != "saudi"
        for d in diff_rulesets(SAUDI, load_ruleset(name))
        if (name, d.rule_id) not in named
    ]
    assert missing == []


@pytest.mark.parametrize(
    "name",
    [
        "sun-split-53-77", "sun-split-55-75", "sun-split-57-73", "sun-split-63-67",
        "sun-split-65-65", "sun-split-67-63", "sun-split-73-57", "sun-split-77-53",
        "hokum-split-81-81", "game.tie-at-target", "game.both-over-target.pass-1",
        "scoring.reverse-kaboot.pass-1", "full-game-gahwa", "full-game-kaboot",
    ],
)  # fmt: skip
def test_the_boundaries_are_in_the_corpus(name: str) -> None:
    assert name in {f.id for f in CORPUS}


def test_coverage_reports_every_rule_of_saudi_covered() -> None:
    code, out, _ = run("coverage", "--ruleset", "saudi", "--format", "json")
    table = json.loads(out)
    assert code == 0 and table["uncovered"] == []
    assert set(table["rules"]) == {rule.id for rule in SAUDI.iter_rules()}
    assert "play.hokum.overruff.fail-1" in table["rules"]["play.hokum.overruff"]["failing"]


def test_coverage_names_the_rules_a_transcript_leaves_out(tmp_path: Path) -> None:
    code, out, _ = run("coverage", str(ROOT / "fixtures" / "scoring" / "worked-hand.btn"))
    assert code == 1
    assert "not covered:" in out and "scoring.reverse_kaboot" in out.split("not covered:")[1]
    assert "scoring.failure" not in out.split("not covered:")[1]


def test_lint_passes_on_the_corpus_and_names_each_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The README's example, run once here (not again by tests/test_console_examples.py).
    monkeypatch.chdir(ROOT)
    code, out, _ = run("fixtures", "lint")
    assert code == 0 and out.endswith("no problem\n")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "$ baloot-conformance fixtures lint  " in readme
    assert f"\n{out.splitlines()[-1]}\n" in readme, "the README's lint figures are stale"
    area = tmp_path / "play"
    area.mkdir()
    source = ROOT / "fixtures" / "play" / "play.hokum.overruff.fail-1.btn"
    text = source.read_text(encoding="utf-8")
    broken = text.replace("rules: [play.hokum.overruff]", "rules: [play.hokum.overruff, play.nope]")
    broken = broken.replace("rule: play.hokum.overruff}", "rule: play.follow_suit}")
    (area / "play.hokum.overruff.fail-1.btn").write_text(broken, encoding="utf-8")
    (area / "copy.btn").write_text(text, encoding="utf-8")
    code, out, _ = run("fixtures", "lint", str(tmp_path))
    assert code == 1
    assert "'play.nope' is no rule of saudi" in out
    assert "the replay gives fail at" in out
    assert "is not the file's name 'copy'" in out
    assert "is also used by" in out
    assert "play.hokum.overruff.fail-1.btn:5:1: 'play.nope'" in out  # the rules key


def test_a_profile_fixture_must_tell_its_rule_apart(tmp_path: Path) -> None:
    folder = tmp_path / "kammelna"
    folder.mkdir()
    text = (ROOT / "fixtures" / "scoring" / "worked-hand.btn").read_text(encoding="utf-8")
    text = text.replace("id: worked-hand", "id: k").replace("{id: saudi,", "{id: kammelna,")
    (folder / "k.btn").write_text(text.replace('"saudi@1"', '"kammelna@1"'), encoding="utf-8")
    code, out, _ = run("fixtures", "lint", str(tmp_path))
    assert code == 1 and "does not tell kammelna's scoring.contract apart" in out


def test_metadata_errors_point_at_their_line(tmp_path: Path) -> None:
    path = tmp_path / "x.btn"
    path.write_text('%btn 1\n---\nid: x\n---\n[Ruleset "saudi@1"]\n', encoding="utf-8")
    code, out, _ = run("fixtures", "lint", str(path))
    assert code == 1 and f"{path}:2:1:" in out and "'description' is a required property" in out
    bare = tmp_path / "bare.btn"
    bare.write_text('%btn 1\n[Ruleset "saudi@1"]\n', encoding="utf-8")
    assert "needs a metadata block" in run("fixtures", "lint", str(bare))[1]


def test_export_writes_plain_files_and_a_manifest(tmp_path: Path) -> None:
    target = tmp_path / "out"
    assert run("fixtures", "export", "--to", str(target), "--format", "json")[0] == 0
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    assert len(manifest["fixtures"]) == len(CORPUS)
    entry = next(e for e in manifest["fixtures"] if e["id"] == "play.hokum.overruff.fail-1")
    assert entry["expect"]["rule"] == "play.hokum.overruff"
    assert entry["features"] == []  # a Hokum refused an illegal card: no feature needed
    fouls = next(e for e in manifest["fixtures"] if e["id"] == "play.fouls.pass-1")
    assert "fouls" in fouls["features"]  # its illegal card stands, and a foul is called
    data = json.loads((target / entry["file"]).read_text(encoding="utf-8"))
    assert data["metadata"]["id"] == "play.hokum.overruff.fail-1"
    # Again into the same export: replaced. Into a folder holding other files: refused.
    assert run("fixtures", "export", "--to", str(target))[0] == 0
    assert not list(target.glob("*/*.json")) and list(target.glob("*/*.btn"))
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep me", encoding="utf-8")
    code, _, err = run("fixtures", "export", "--to", str(other))
    assert code == 2 and "not empty" in err
    assert (other / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_every_folder_is_an_area_or_a_profile() -> None:
    profiles = set(shipped_rulesets())
    assert {f.area for f in CORPUS} <= set(AREAS) | profiles


@pytest.mark.parametrize(
    ("version", "versions", "inside"),
    [("1.1.0", ">=1.0 <2", True), ("2.0.0", ">=1.0 <2", False), ("1.0.0", ">1.0", False),
     ("1.2.3", "==1.2.3", True), ("1.2.3", "<=1.2", False)],
)  # fmt: skip
def test_version_ranges(version: str, versions: str, inside: bool) -> None:
    assert in_range(version, versions) is inside


def test_a_fixture_copied_elsewhere_loads_with_its_folder_as_area(tmp_path: Path) -> None:
    source = ROOT / "fixtures" / "scoring" / "worked-hand.btn"
    shutil.copy(source, tmp_path / "worked-hand.btn")
    fixture = load_fixture(tmp_path / "worked-hand.btn")
    assert fixture.area == tmp_path.name and fixture.id == "worked-hand"
