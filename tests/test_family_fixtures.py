"""The trick family's fixtures (``fixtures/bourre/``, ``fixtures/barbu/``,
``fixtures/hearts/``): built from the engine byte for byte, each verdict reproduced under every
ruleset of its game, every rule decided, every profile's reading told apart; the rule trace
behind it; and Baloot's corpus left exactly as it was."""

from __future__ import annotations

import hashlib
import importlib
import io
import shutil
import sys
from pathlib import Path
from typing import Any

from baloot_conformance.cli import main
from baloot_conformance.corpus.family_coverage import family_coverage, option_witnesses
from baloot_conformance.corpus.family_fixtures import (
    FamilyRun,
    family_fixture_paths,
    family_root,
    load_family_corpus,
    trick_rulesets,
)
from baloot_conformance.corpus.family_lint import lint_family
from baloot_conformance.corpus.fixtures import baloot_fixture_files, corpus_root, fixture_paths
from baloot_conformance.engine.trace import Trace
from baloot_conformance.family.check.run import check_btn2

ROOT = Path(__file__).resolve().parent.parent

#: The Baloot corpus as it stood before the trick family's fixtures: 347 BTN 1 files.
BALOOT_FILES = 347
BALOOT_DIGEST = "84f5b64bd341a4ca96d62b8cd8e6e900c82f13117550556bfa04a8e8bf39b9a1"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# --- Baloot's corpus stays Baloot's --------------------------------------------------------


def test_the_baloot_fixture_set_is_the_one_before_the_family() -> None:
    files = baloot_fixture_files()
    listing = "\n".join(p.relative_to(corpus_root()).as_posix() for p in files)
    assert len(files) == BALOOT_FILES
    assert hashlib.sha256(listing.encode()).hexdigest() == BALOOT_DIGEST
    assert files == fixture_paths(corpus_root())  # the corpus's own glob agrees
    assert not any(p.read_bytes().startswith(b"%btn 2") for p in files)


def test_no_baloot_tool_globs_the_whole_fixture_tree() -> None:
    """The tests and tools that read every fixture as BTN 1 go through baloot_fixture_files."""
    offenders = []
    for folder in ("tests", "tools", "baloot_conformance"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            text = path.read_text(encoding="utf-8")
            for needle in ('"fixtures/**/*.btn"', 'FIXTURES.rglob("*.btn")', "FIXTURE.rglob("):
                if needle in text:
                    offenders.append(f"{path.relative_to(ROOT)}: {needle}")
    assert offenders == []


# --- the fixtures -------------------------------------------------------------------------


def _builder(name: str = "build_family_fixtures") -> Any:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(ROOT / "tools"))


def test_the_fixtures_are_what_the_builder_writes() -> None:
    builder = _builder()
    import json

    seeds = json.loads((ROOT / "tools" / "family_fixture_seeds.json").read_text("utf-8"))
    built = builder.fixtures(seeds)
    bourre = family_fixture_paths(family_root())
    shipped = {p.relative_to(family_root()).as_posix(): p for p in bourre}
    assert sorted(built) == sorted(shipped)
    stale = [name for name, text in built.items() if shipped[name].read_text("utf-8") != text]
    assert stale == [], "run: python tools/build_family_fixtures.py"


def test_the_points_games_fixtures_are_what_their_builder_writes() -> None:
    import json

    builder = _builder("build_points_fixtures")
    seeds = json.loads((ROOT / "tools" / "points_fixture_seeds.json").read_text("utf-8"))
    built = builder.fixtures(seeds)
    folders = [family_root(game) for game in ("barbu", "hearts")]
    shipped = {
        p.relative_to(corpus_root()).as_posix(): p
        for folder in folders
        for p in family_fixture_paths(folder)
    }
    assert sorted(built) == sorted(shipped)
    stale = [name for name, text in built.items() if shipped[name].read_text("utf-8") != text]
    assert stale == [], "run: python tools/build_points_fixtures.py"
    barbu = [n for n in built if n.startswith("barbu/")]
    hearts = [n for n in built if n.startswith("hearts/")]
    assert len(barbu) >= 70 and len(hearts) >= 30
    assert "barbu/scoring/barbu.scoring.wagers.worked-1.btn" in built
    assert "barbu/game/barbu.game.kind.pass-2.btn" in built  # one whole game of 28 hands
    whole = built["barbu/game/barbu.game.kind.pass-2.btn"]
    assert whole.count("\nhand ") == 28 and "\n= total " in whole


def test_every_fixture_lints_clean_under_every_ruleset_it_names() -> None:
    found = list(lint_family(family_fixture_paths()))
    problems = [str(f) for f in found if not isinstance(f, FamilyRun)]
    runs = [f for f in found if isinstance(f, FamilyRun)]
    assert problems == []
    assert len(runs) >= 50
    assert sum(not r.outcome.passes for r in runs) >= 25  # failing by design


def test_lint_finds_a_wrong_expectation_and_a_wrong_reading(tmp_path: Path) -> None:
    source = family_root() / "play" / "bourre.play.head.fail-1.btn"
    copy = tmp_path / "play" / source.name
    copy.parent.mkdir()
    text = source.read_text("utf-8")
    copy.write_text(text.replace("rule: play.head\n", "rule: play.ruff\n", 1), "utf-8")
    problems = [str(f) for f in lint_family([copy]) if not isinstance(f, FamilyRun)]
    assert any("under bourre: expected fail at h1.t1.p3 (play.ruff)" in p for p in problems)
    seed = family_root() / "bourre-seed" / "bourre-seed.play.underruff.pass-1.btn"
    copy = tmp_path / "play" / seed.name
    text = seed.read_text("utf-8")
    copy.write_text(
        text.replace(
            "  bourre-seed: pass\n",
            "  bourre-seed:\n    position: h1.t1.p2\n    rule: play.underruff\n",
        ),
        "utf-8",
    )
    problems = [str(f) for f in lint_family([copy]) if not isinstance(f, FamilyRun)]
    assert any("under bourre-seed: expected fail at h1.t1.p2" in p for p in problems)


def test_every_bourre_rule_is_decided_by_some_fixture() -> None:
    """Under bourre every rule decides, the pot limit too (bourre sets none: a bourré pays the
    whole pot); under bourre-jorisl, whose limit is 20, the limit is covered by a cut."""
    rulesets = trick_rulesets()
    assert family_coverage(rulesets["bourre"]).uncovered == ()
    jorisl = family_coverage(rulesets["bourre-jorisl"])
    assert "scoring.pot.limit" not in jorisl.uncovered
    bourre = {row.rule_id: row for row in family_coverage(rulesets["bourre"]).rules}
    for rule_id in ("play.head", "play.ruff", "play.overruff", "play.underruff", "play.cinch"):
        assert bourre[rule_id].failing, rule_id  # and each one shown broken


#: Readings that are only stricter (one can break them and not the base) or only looser.
ONE_WAY = {
    ("bourre-cajun", "phases.draw.discards"): "refuses",
    ("bourre-cajun", "play.head"): "refuses",
    ("bourre-eighty", "play.cinch"): "allows",
    ("bourre-hoyle", "table.seats"): "refuses",
    ("bourre-hoyle", "phases.draw.discards"): "refuses",
    ("bourre-hoyle", "play.overruff"): "allows",
    ("bourre-jorisl", "table.seats"): "refuses",
    ("bourre-jorisl", "phases.draw.discards"): "refuses",
    ("bourre-seed", "play.underruff"): "allows",
    ("bourre-wikipedia", "table.seats"): "refuses",
    ("bourre-wikipedia", "phases.draw.discards"): "refuses",
}


def test_every_profile_reading_is_told_apart_in_each_direction_it_has() -> None:
    rows = option_witnesses("bourre", load_family_corpus())
    assert len(rows) == 19
    for row in rows:
        way = ONE_WAY.get((row.profile, row.rule_id))
        if way is None:
            assert row.allows and row.refuses, row
        else:
            assert bool(row.allows) == (way == "allows"), row
            assert bool(row.refuses) == (way == "refuses"), row


# --- the trace ----------------------------------------------------------------------------


def test_the_trace_counts_the_deciding_rules_and_changes_no_verdict() -> None:
    path = family_root() / "play" / "bourre.scoring.pot.renege.paid-1.btn"
    data = path.read_bytes()
    trace = Trace()
    traced = list(check_btn2(data, str(path), trace=trace))
    assert traced == list(check_btn2(data, str(path)))
    assert {"play.follow_suit", "scoring.pot.renege", "play.trick_winner"} <= trace.rules()
    assert "phases.draw.lone_player" not in trace  # there was no lone player
    worked = ROOT / "tests" / "data" / "btn2" / "worked-hand.btn"
    trace = Trace()
    list(check_btn2(worked.read_bytes(), str(worked), trace=trace))
    assert trace.counts["phases.ante"] == 5  # five antes
    assert trace.counts["play.trick_winner"] == 5  # five tricks
    assert trace.counts["scoring.pot.bourre"] == 1  # P5 bourré


# --- the command line ---------------------------------------------------------------------


def test_fixtures_lint_reads_a_folder_of_bourre_fixtures() -> None:
    code, out, _ = run("fixtures", "lint", str(family_root() / "bourre-seed"))
    assert code == 0
    assert out.endswith("no problem\n") and out.startswith("1 fixture ")


def test_fixtures_list_by_trick_ruleset_and_rule() -> None:
    code, out, err = run("fixtures", "list", "--ruleset", "bourre-seed", "--rule", "play.underruff")
    assert code == 0
    lines = out.splitlines()
    assert any(
        line.startswith("bourre-seed.play.underruff.pass-1") and "pass" in line for line in lines
    )
    assert any(
        line.startswith("bourre.play.underruff.fail-1") and "play.underruff" in line
        for line in lines
    )
    assert err.strip().endswith("fixtures")


def test_coverage_of_a_trick_ruleset(tmp_path: Path) -> None:
    code, out, _ = run("coverage", "--ruleset", "bourre")
    assert code == 0  # every rule decides under some fixture, the pot limit too
    assert "not covered" not in out
    assert "readings witnessed both ways" in out
    one = tmp_path / "one.btn"
    shutil.copy(ROOT / "tests" / "data" / "btn2" / "worked-hand.btn", one)
    code, out, _ = run("coverage", "--ruleset", "bourre", str(one))
    assert "play.head" in out and str(one) in out


def test_fixtures_export_writes_the_familys_fixtures_in_json_with_their_readings(
    tmp_path: Path,
) -> None:
    import json

    from baloot_conformance.corpus.family_fixtures import ruleset_for
    from baloot_conformance.family.btn.json_form import from_json_text
    from baloot_conformance.family.btn.writer import format_btn2

    folders = [str(family_root(game)) for game in ("barbu", "hearts")]
    code, out, _ = run(
        "fixtures", "export", "--to", str(tmp_path / "x"), "--format", "json", *folders
    )
    assert code == 0 and "fixtures and manifest.json" in out
    manifest = json.loads((tmp_path / "x" / "manifest.json").read_text("utf-8"))
    entries = {e["id"]: e for e in manifest["fixtures"]}
    assert len(entries) == len(family_fixture_paths(family_root("barbu"))) + len(
        family_fixture_paths(family_root("hearts"))
    )
    worked = entries["barbu.scoring.wagers.worked-1"]
    assert worked["file"] == "barbu/scoring/barbu.scoring.wagers.worked-1.json"
    assert worked["readings"]["barbu-seed"] == "pass" and worked["expect"] == "pass"
    text = (tmp_path / "x" / worked["file"]).read_text("utf-8")
    source = family_root("barbu") / "scoring" / "barbu.scoring.wagers.worked-1.btn"
    back = from_json_text(text, worked["file"], ruleset_for)
    assert format_btn2(back) == source.read_text("utf-8")  # the JSON form loses nothing
    refused = [e for e in entries.values() if "syntax_error" in e["expect"]]
    assert refused and all(e["file"].endswith(".btn") for e in refused)
