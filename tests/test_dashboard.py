"""The conformance dashboard: the engine on every check result, the matrix and its counting,
history across versions, the site's folder rules, its errors, and the committed example
(``docs/dashboard/``, rebuilt and compared byte for byte, and opened in headless Chromium)."""

from __future__ import annotations

import io
import json
import re
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from test_pictures import Elements, chromium

from baloot_conformance.cli import main
from baloot_conformance.report import run_reports
from baloot_conformance.report.dashboard import build
from baloot_conformance.report.dashboard_input import (
    CATEGORIES,
    CATEGORY_OF,
    EngineLabel,
    read_report,
)
from baloot_conformance.report.dashboard_pages import MARKER
from baloot_conformance.resources import spec_path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "dashboard"
CONFORMING = ROOT / "examples" / "conforming-game.btn"
NONCONFORMING = ROOT / "examples" / "nonconforming-game.btn"
REFERENCE = f"{sys.executable} -m baloot_conformance.suite.reference_adapter"
DEVIANT = f"{REFERENCE} --rules {ROOT / 'examples/adapters/deviant.yaml'} --as saudi"

sys.path.insert(0, str(ROOT / "tools"))

import build_dashboard  # noqa: E402


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line]


# --- the engine on every result ----------------------------------------------------------------


def test_every_hand_record_names_its_engine_with_or_without_jobs(tmp_path: Path) -> None:
    """A file long enough to be cut into runs of games (--jobs 2): the runs after the first
    have no header, and their hands still name the engine the header names."""
    path = tmp_path / "many.btn"
    assert run("generate", "--seed", "5", "--games", "20", "--output", str(path))[0] == 0
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        '[Engine "baloot-conformance generate"]',
        '[Engine "my-engine"]\n[EngineVersion "2.1.0"]',
        1,
    )
    path.write_text(text, encoding="utf-8")
    one = run("check", str(path), "--jobs", "1", "--format", "json")
    two = run("check", str(path), "--jobs", "2", "--format", "json")
    assert one == two and one[0] == 0
    hands = [r for r in records(one[1]) if r["record"] == "hand"]
    assert len(hands) > 100
    assert {json.dumps(h["engine"]) for h in hands} == {'{"name": "my-engine", "version": "2.1.0"}'}
    schema = json.loads(spec_path("schema", "report.schema.json").read_text(encoding="utf-8"))
    for record in records(one[1])[:3]:
        jsonschema.validate(record, schema)


def test_a_transcript_without_an_engine_tag_names_none() -> None:
    code, out, _ = run("check", str(ROOT / "fixtures" / "play" / "play.follow-suit.pass-1.btn"),
                       "--format", "json")  # fmt: skip
    assert code == 0
    assert [r["engine"] for r in records(out) if r["record"] == "hand"] == [None]


# --- two versions of an engine -------------------------------------------------------------------


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two check reports of one game: version 1 conforms, version 2 makes two mistakes (the
    README's examples), the same file name in each version's folder."""
    folder = tmp_path_factory.mktemp("versions")
    for version, source in (("v1", CONFORMING), ("v2", NONCONFORMING)):
        (folder / version).mkdir()
        shutil.copy(source, folder / version / "game.btn")
        report = folder / f"{version}.jsonl"
        code, _, _ = run("check", str(folder / version), "--format", "json", "-o", str(report))
        assert code == (0 if version == "v1" else 1)
    return folder


def test_history_lists_exactly_the_cases_the_new_version_breaks(versions: Path) -> None:
    reports = [
        read_report(str(versions / "v1.jsonl"), EngineLabel("eng", "1")),
        read_report(str(versions / "v2.jsonl"), EngineLabel("eng", "2")),
    ]
    board = build(reports, infer=False)
    (engine,) = board.engines
    (lines,) = engine.history.values()
    assert [line.version for line in lines] == ["1", "2"]
    assert [r.case for r in lines[1].new_failures] == ["game.btn h2", "game.btn h3"]
    assert lines[1].fixed == [] and lines[0].new_failures == []
    one, two = board.rows
    assert (one.total["pass"], two.total["pass"], two.total["fail"]) == (9, 7, 2)
    # A failing hand counts once, in its root's area; every pass where its rules decided.
    assert two.cells["scoring"]["fail"] == 1 and two.cells["play"]["fail"] == 1
    # Hand 4 is passed all round: no card is played in it, so it is no pass for the play.
    assert one.cells["bidding"]["pass"] == 9 and one.cells["play"]["pass"] == 8
    assert two.cells["play"]["pass"] == 6  # hand 2 fails in the scoring, hand 3 in the play
    assert [r.case for r in two.listed["play"]] == ["game.btn h3"]
    # Version 1's hands all pass; no hand is a pass of a rule area it never reached.
    assert all(area in one.cells for area in ("deal", "bidding", "play", "scoring", "game"))
    assert "claims" not in one.cells  # no Sawa, no foul call in the game
    assert [rule.rule_id for rule in board.rules] == [
        "play.first_lead",
        "play.hokum.overruff",
        "play.trick_winner",
        "scoring.failure",
    ]


def test_the_site_of_two_versions_draws_the_failing_hands(versions: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    v1, v2 = str(versions / "v1.jsonl"), str(versions / "v2.jsonl")
    code, out, err = run(
        "dashboard", v1, v2, "--to", str(site), "--engine", f"{v1}=eng@1",
        "--engine", f"{v2}=eng@2", "--quiet",
    )  # fmt: skip
    assert (code, err) == (0, "") and "2 rows (1 engines)" in out
    cases = (site / "cases" / "eng-2--saudi-1.2.0.html").read_text(encoding="utf-8")
    elements = Elements(cases)
    assert len(elements.having("figure", "diagram")) == 2
    assert {a["title"] for a in elements.having("span", "played")} >= {"9C"}
    engine = (site / "engines" / "eng.html").read_text(encoding="utf-8")
    assert 'data-new="2"' in engine and "game.btn h2" in engine
    assert "saudi@1.2.0</code> (best fit)" in engine  # the ranking of infer, on version 2's game
    badge = json.loads((site / "badges" / "eng.json").read_text(encoding="utf-8"))
    assert badge == {
        "schemaVersion": 1,
        "label": "baloot conformance",
        "message": "77% saudi@1.2.0",  # 7 of 9, rounded down
        "color": "yellow",
    }


def test_suite_reports_of_two_versions_give_the_deviations(tmp_path: Path) -> None:
    """The deviant adapter as the reference adapter's next version: the history names the
    cases its two deviations change, and nothing else."""
    reports = []
    for name, engine in (("ref", REFERENCE), ("dev", DEVIANT)):
        report = tmp_path / f"{name}.jsonl"
        run(
            "suite", "--engine", engine, "--ruleset", "saudi", "--fixtures",
            "play.hokum.overruff.*,scoring.contract.tie.*", "--generated", "6",
            "--jobs", "1", "--format", "json", "-o", str(report),
        )  # fmt: skip
        reports.append(read_report(str(report), EngineLabel("reference", name)))
    board = build(reports, infer=False)
    (lines,) = board.engines[0].history.values()
    assert [r.case for r in lines[1].new_failures] == [
        "play.hokum.overruff.pass-2",
        "play.hokum.overruff.pass-2.h1.t5.p1.perft",  # its perft count: 144 sequences, not 96
        "scoring.contract.tie.pass-1",
        "generated.saudi.4",  # a Sun at 65, which the deviant rounds to 14
        "generated.saudi.5",
    ]
    ref, dev = board.rows
    assert ref.total["fail"] == 0 and dev.cells["play"]["fail"] == 2  # the fixture, its count
    assert dev.cells["scoring"]["fail"] == 3  # the fixture and the two games
    assert dev.listed["play"][0].table is not None  # the fixture drawn where the engine parts
    # The generated games are made again from their seeds: drawn, and their passes counted.
    (game,) = [r for r in dev.listed["scoring"] if r.case == "generated.saudi.4"]
    assert game.table is not None and game.ruleset == "saudi@1.2.0"
    assert ref.unattributed == 0
    assert ref.cells["play"]["pass"] == ref.total["pass"]  # each case makes a play rule act


def test_every_verdict_the_reader_knows_falls_in_one_category() -> None:
    """The dashboard's categories are a view of the one reader's verdicts: a status or a
    verdict added to the reader must be given its category here."""
    known = set(run_reports.CHECK_STATUSES) | set(run_reports.SUITE_VERDICTS)
    assert set(CATEGORY_OF) == known and set(CATEGORY_OF.values()) == set(CATEGORIES)


# --- errors and the site's folder ----------------------------------------------------------------


def _error(*argv: str) -> str:
    code, out, err = run("dashboard", *argv)
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.splitlines()) <= 6
    return err


def test_unreadable_and_foreign_reports_are_one_screen_errors(tmp_path: Path) -> None:
    to = str(tmp_path / "site")
    assert "cannot read the report" in _error(str(tmp_path / "missing.jsonl"), "--to", to)
    assert f"{CONFORMING}:1:1: not a JSON Lines record" in _error(str(CONFORMING), "--to", to)
    other = tmp_path / "other.jsonl"
    other.write_text('{"record": "header", "tool": "x"}\n', encoding="utf-8")
    assert "not a report of check or suite" in _error(str(other), "--to", to)
    broken = tmp_path / "broken.jsonl"
    lines = run("check", str(CONFORMING), "--format", "json")[1].splitlines()
    hand = json.loads(lines[1])
    del hand["status"]
    broken.write_text("\n".join([lines[0], json.dumps(hand)]) + "\n", encoding="utf-8")
    assert f"{broken}:2:1: /status: missing" in _error(str(broken), "--to", to)
    empty = tmp_path / "empty.jsonl"
    empty.write_text(lines[0] + "\n" + lines[-1] + "\n", encoding="utf-8")
    assert "hold no result" in _error(str(empty), "--to", to)
    assert "expected REPORT=NAME[@VERSION]" in _error(str(empty), "--to", to, "--engine", "x")
    assert "not one of the reports" in _error(str(empty), "--to", to, "--engine", "a.jsonl=x")
    assert not (tmp_path / "site").exists()


def test_the_site_never_touches_files_it_did_not_write(versions: Path, tmp_path: Path) -> None:
    v1, v2 = str(versions / "v1.jsonl"), str(versions / "v2.jsonl")
    site = tmp_path / "site"
    site.mkdir()
    (site / "notes.txt").write_text("mine", encoding="utf-8")
    refused = _error(v1, "--to", str(site))
    assert refused.startswith("error: --to") and "holds files and no .baloot-dashboard" in refused
    assert "replaying" not in refused  # refused before any work
    assert "is a file" in _error(v1, "--to", str(site / "notes.txt"))
    (site / "notes.txt").unlink()
    assert run("dashboard", v1, v2, "--to", str(site), "--no-infer", "--quiet")[0] == 0
    (site / "notes.txt").write_text("mine", encoding="utf-8")  # the user's file, added later
    outside = tmp_path / "outside.txt"
    outside.write_text("mine too", encoding="utf-8")
    marker = site / MARKER
    marker.write_text(marker.read_text(encoding="utf-8") + "../outside.txt\n", encoding="utf-8")
    (site / "index.html").unlink()
    (site / "index.html").symlink_to(outside)  # a page of the site's replaced by a link
    stale = site / "rules" / "play.first_lead.html"
    assert stale.is_file()
    assert run("dashboard", v1, "--to", str(site), "--no-infer", "--quiet")[0] == 0
    assert not stale.exists() and not (site / "rules").exists()  # its own old pages go
    assert (site / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert outside.read_text(encoding="utf-8") == "mine too"  # neither deleted nor written
    assert not (site / "index.html").is_symlink()
    listed = marker.read_text(encoding="utf-8").splitlines()[1:]
    assert "index.html" in listed and "notes.txt" not in listed


def test_nothing_a_report_says_becomes_markup(versions: Path, tmp_path: Path) -> None:
    """Engine names, paths and messages are text: escaped in the pages and the badges."""
    hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    lines = (versions / "v2.jsonl").read_text(encoding="utf-8").splitlines()
    changed = []
    for line in lines:
        record = json.loads(line)
        if record["record"] == "hand":
            record["engine"] = {"name": hostile, "version": hostile}
            for divergence in record["divergences"]:
                divergence["message"] += hostile
        changed.append(json.dumps(record))
    report = tmp_path / "hostile.jsonl"
    report.write_text("\n".join(changed) + "\n", encoding="utf-8")
    site = tmp_path / "site"
    assert run("dashboard", str(report), "--to", str(site), "--no-infer", "--quiet")[0] == 0
    for page in site.rglob("*.*"):
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text and "<img" not in text, page
        if page.suffix == ".svg":
            ET.fromstring(text)
    assert "&lt;script&gt;alert(1)" in (site / "index.html").read_text(encoding="utf-8")


def test_a_report_given_twice_is_refused(versions: Path, tmp_path: Path) -> None:
    v1 = str(versions / "v1.jsonl")
    assert "given twice" in _error(v1, v1, "--to", str(tmp_path / "site"))


# --- the committed example -----------------------------------------------------------------------


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_the_example_dashboard_is_up_to_date(tmp_path: Path) -> None:
    """``docs/dashboard/`` is what ``tools/build_dashboard.py`` builds (rerun it after a change
    to the kit, the profiles or the logs)."""
    build_dashboard.build(tmp_path / "site")
    built, committed = _files(tmp_path / "site"), _files(EXAMPLE)
    assert sorted(built) == sorted(committed)
    stale = [name for name in built if built[name] != committed[name]]
    assert stale == [], "run: python tools/build_dashboard.py"
    assert sum(len(data) for data in built.values()) < 400_000


def _dom(page: Path) -> str:
    shown = chromium("--dump-dom", page.as_uri())
    assert [line for line in shown.stderr.splitlines() if ":CONSOLE" in line] == []
    return shown.stdout


_REMOTE = re.compile(r"""(?:src|href|action|data|poster)\s*=\s*["']?\s*(?:https?:)?//""", re.I)


def test_the_example_renders_in_a_browser_with_no_script_and_no_request() -> None:
    index = _dom(EXAMPLE / "index.html")
    elements = Elements(index)
    rows = {a["data-row"] for a in elements.having("tr") if "data-row" in a}
    assert len(rows) == 8  # four engines, each under its profile and under saudi
    for name in ("majlis-baloot", "tazjel/baloot-ai", "7oossam/bloot", "mohamed352/bloot"):
        assert f">{name}</a>" in index
    cells = re.findall(r'<tr data-row="([^"]+)">(.*?)</tr>', index, re.S)
    by_row = {
        slug: dict(re.findall(r'data-area="(\w+)">(.*?)</td>', html, re.S)) for slug, html in cells
    }
    # Under its profile each engine passes but for its listed defects: tazjel's random first
    # dealer (seed 50, hand 2) in the deal, 7oossam/bloot's wrong Sawas in the claims.
    assert 'data-known="1"' in by_row["tazjel-baloot-ai-1c20390d3b21--tazjel-3.0.0"]["deal"]
    assert 'data-known="2"' in by_row["7oossam-bloot-a75647faa8fd--bloot7-1.1.0"]["claims"]
    majlis = by_row["majlis-baloot-4bb936fd20b7--majlis-3.0.0"]["all"]
    assert "data-fail" not in majlis and "<br>100%</a>" in majlis
    # Under saudi, mohamed352/bloot's every hand stops at its auction's order.
    saudi352 = by_row["mohamed352-bloot-f4cf4ac18650--saudi-1.2.0"]
    assert 'data-fail="33"' in saudi352["bidding"] and saudi352["play"] == "\u2013"
    assert "bidding.order" in index and "Failed by one engine alone" in index
    engine = _dom(EXAMPLE / "engines" / "tazjel-baloot-ai.html")
    assert "random-first-dealer" in engine and "tazjel@3.0.0</code> (best fit)" in engine
    rule = _dom(EXAMPLE / "rules" / "bidding.order.html")
    assert "Failed by mohamed352/bloot alone." in rule
    cases = _dom(EXAMPLE / "cases" / "mohamed352-bloot-f4cf4ac18650--saudi-1.2.0.html")
    assert len(Elements(cases).having("figure", "diagram")) == 2  # --diagrams 2
    for path, data in _files(EXAMPLE).items():
        text = data.decode("utf-8")
        assert "<script" not in text.lower() and not _REMOTE.search(text), path
        if path.endswith(".html"):
            plain = text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # a name, not a URL
            assert not re.search("https?:", plain), path
            assert "default-src 'none'" in text
    badges = sorted((EXAMPLE / "badges").glob("*.svg"))
    assert len(badges) == 12  # each engine, and each engine under each of its two rulesets
    for badge in badges:
        root = ET.fromstring(badge.read_text(encoding="utf-8"))
        assert (
            root.tag == "{http://www.w3.org/2000/svg}svg"
            and root.find("{http://www.w3.org/2000/svg}title") is not None
        )
        endpoint = json.loads(badge.with_suffix(".json").read_text(encoding="utf-8"))
        assert endpoint["schemaVersion"] == 1 and endpoint["label"] == "baloot conformance"
        assert endpoint["message"] in badge.read_text(encoding="utf-8")
