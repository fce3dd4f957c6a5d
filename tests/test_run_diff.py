"""``diff OLD NEW`` and ``--baseline``: what changed between two runs, as a CI gate.

Two suite runs, the reference adapter as an engine's old version and the deviant adapter as
its new one: the diff lists exactly the cases the deviation changes (the ids that
``tests/test_suite.py`` keeps by hand, with their rules) and exits 1; identical reports exit
0; with ``--baseline`` a failure the baseline holds no longer fails the run, a new one does,
and a run that went wrong never passes. The same for ``check`` reports of a transcript and a
mutated copy of it, each mutation's hand asserted. Reports that cannot be read (not JSON
Lines, cut, of another format version, of the other command) exit 2 with file:line.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from test_suite import DEVIANT, DEVIANT_FAILS, REFERENCE, assert_follows_the_schema

from baloot_conformance.cli import main
from baloot_conformance.report import run_reports
from baloot_conformance.report.run_diff import BAD, GOOD, UNCHECKED, classify
from baloot_conformance.report.run_reports import Finding, Outcome
from baloot_conformance.resources import spec_path
from baloot_conformance.suite.cases import VERDICTS

ROOT = Path(__file__).resolve().parent.parent
#: Fixtures where the deviant's two rules decide and fixtures where they do not; two games
#: (generated.saudi.4 and 5) that a Sun rounded half up changes.
SELECTION = ("--fixtures", "play.hokum.overruff.*,sun-split-*,scoring.contract.tie.*")
GAMES = ("--seed", "4", "--generated", "2", "--jobs", "1", "--ruleset", "saudi")


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def diff_json(old: Path, new: Path) -> tuple[int, dict[str, Any]]:
    code, out, err = cli("diff", str(old), str(new), "--format", "json")
    assert code in (0, 1), err
    document = json.loads(out)
    jsonschema.Draft202012Validator(
        json.loads(spec_path("schema", "run-diff.schema.json").read_text("utf-8"))
    ).validate(document)
    return code, document


def by_kind(document: dict[str, Any], kind: str) -> set[str]:
    return {c["name"] for c in document["changes"] if c["kind"] == kind}


# --- two versions of an engine, through the suite ----------------------------------------------


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The old version's report, the new version's (written by a run with --baseline the
    old one), and what that run printed."""
    folder = tmp_path_factory.mktemp("versions")
    old, new = folder / "old.jsonl", folder / "new.jsonl"
    code, _, err = cli(
        "suite", "--engine", REFERENCE, *SELECTION, *GAMES, "--format", "json", "-o", str(old)
    )
    assert code == 0, err
    junit = folder / "new.xml"  # the report, and the JSON one besides it
    argv = (
        "--format",
        "junit",
        "-o",
        str(junit),
        "--json-output",
        str(new),
        "--baseline",
        str(old),
    )
    code, out, err = cli("suite", "--engine", DEVIANT, *SELECTION, *GAMES, *argv)
    assert code == 1, err
    assert junit.read_text("utf-8").startswith("<?xml")
    for report in (old, new):
        assert_follows_the_schema(report.read_text("utf-8"))
    return old, new, out


def test_the_diff_of_two_engine_versions_lists_exactly_the_deviations(
    versions: tuple[Path, Path, str],
) -> None:
    old, new, _ = versions
    ran = {r["id"] for r in records(old) if r["record"] == "case"}
    expected = {id_: rule for id_, rule in DEVIANT_FAILS.items() if id_ in ran}
    # the selection holds both deviations, and cases neither changes
    assert set(expected.values()) == {"scoring.sun.conversion", "play.hokum.overruff"}
    assert len(ran) > len(expected) + 10
    code, document = diff_json(old, new)
    assert code == 1 and not document["ok"]
    failures = {
        c["name"]: c["new"]["findings"][0]["rule"]
        for c in document["changes"]
        if c["kind"] == "new-failure"
    }
    assert failures == expected
    assert document["regressions"] == len(expected) == len(document["changes"])
    assert document["unchanged"] == {"pass": len(ran) - len(expected)}
    # the other direction: each is fixed, and nothing regressed
    code, document = diff_json(new, old)
    assert code == 0 and by_kind(document, "fixed") == set(expected)


def test_identical_reports_make_no_change(versions: tuple[Path, Path, str]) -> None:
    old, new, _ = versions
    for report in (old, new):
        code, out, _ = cli("diff", str(report), str(report))
        assert code == 0
        assert out.splitlines()[-1].startswith("PASS no regression: no change; ")


def test_the_text_and_markdown_diffs_name_each_regression_with_its_rule(
    versions: tuple[Path, Path, str],
) -> None:
    old, new, printed = versions
    code, text, _ = cli("diff", str(old), str(new))
    assert code == 1
    # the run with --baseline printed the same diff, with its report as the new side
    assert printed.splitlines()[1:] == text.splitlines()[1:]
    line = next(x for x in text.splitlines() if x.startswith("NEW FAILURE sun-split-65-65 "))
    assert "h1.cardscore claims [scoring.sun.conversion] (was pass)" in line
    assert "    cardscore is NS 13 EW 13, not NS 14 EW 14" in text
    code, markdown, _ = cli("diff", str(old), str(new), "--format", "markdown")
    assert markdown.startswith("### Baloot conformance: ")
    row = next(x for x in markdown.splitlines() if x.startswith("| play.hokum.overruff.pass-2 |"))
    assert "| pass | fail | h1.t6.p4.legal legal | play.hokum.overruff |" in row


def test_a_failure_the_baseline_holds_no_longer_fails_the_run(
    versions: tuple[Path, Path, str], tmp_path: Path
) -> None:
    _, new, _ = versions
    summary = tmp_path / "summary.md"
    argv = ("--generated", "0", "--baseline", str(new), "--summary", str(summary))
    code, out, err = cli("suite", "--engine", DEVIANT, "--fixtures", "sun-split-65-65", *argv)
    assert code == 0, err
    assert "FAIL sun-split-65-65 " in out  # the run's own report says it fails
    assert out.splitlines()[-1].startswith("PASS no regression: ")
    assert "removed" in out.splitlines()[-1]  # the cases this run left out
    assert "### Baloot conformance: no regression since the baseline" in summary.read_text()


def test_a_run_that_went_wrong_fails_whatever_its_baseline(
    versions: tuple[Path, Path, str], tmp_path: Path
) -> None:
    old, new, _ = versions
    # nothing checked: every case is of a ruleset the engine does not play
    argv = ("--fixtures", "kuwait/*", "--generated", "0", "--baseline", str(new))
    code, out, _ = cli("suite", "--engine", DEVIANT, *argv)
    assert code == 1 and "error: the new run: nothing was checked" in out
    # an engine that cannot start, a baseline that cannot be read, one of the other command
    code, out, _ = cli("suite", "--engine", str(tmp_path / "none"), "--baseline", str(old))
    assert code == 2 and "the engine cannot start" in out
    code, _, err = cli("suite", "--engine", DEVIANT, "--baseline", str(tmp_path / "none.jsonl"))
    assert code == 2 and "none.jsonl: no such report" in err
    check = tmp_path / "check.jsonl"
    cli("check", str(ROOT / "examples/conforming-game.btn"), "--format", "json", "-o", str(check))
    code, _, err = cli("suite", "--engine", DEVIANT, "--baseline", str(check))
    assert code == 2 and "a check report, and this is a suite run" in err
    code, _, err = cli("diff", str(check), str(old))
    assert code == 2 and "a diff compares two reports of one kind" in err


# --- a transcript and mutated copies of it, through check --------------------------------------

CONFORMING = (ROOT / "examples/conforming-game.btn").read_text("utf-8")
NONCONFORMING = (ROOT / "examples/nonconforming-game.btn").read_text("utf-8")


def mutated(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


#: The README's two mistakes undone in hand 3 but one: the trick-4 winner claimed wrong
#: (one of the three divergences hand 3 had); and a new mistake in hand 5's score.
SECOND = mutated(
    mutated(NONCONFORMING, "E 9C, N JD = E 15", "E TH, N JD = S 15"),
    "trick 8: W KH, S AC, E TH,",
    "trick 8: W KH, S AC, E 9C,",
)


def checked(folder: Path, text: str, name: str, *extra: str) -> tuple[int, Path, str, str]:
    """``check game.btn`` run in ``folder``, with ``text`` as the transcript: its exit code,
    its JSON report, what it printed."""
    (folder / "game.btn").write_text(text, "utf-8")
    report = folder / name
    code, out, err = cli("check", "game.btn", "--format", "json", "-o", str(report), *extra)
    return code, report, out, err


def test_check_reports_of_mutated_transcripts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    hand5 = CONFORMING.split("\nhand 5\n")[1].split("\nhand 6\n")[0]
    score5 = next(line for line in hand5.splitlines() if line.startswith("= score "))
    second = SECOND.replace(f"hand 5\n{hand5}", f"hand 5\n{hand5.replace(score5, score5 + '1')}")
    assert second != SECOND
    _, first_report, _, _ = checked(tmp_path, NONCONFORMING, "first.jsonl")
    _, second_report, _, _ = checked(tmp_path, second, "second.jsonl")
    statuses = [
        {r["position"]: r["status"] for r in records(report) if r["record"] == "hand"}
        for report in (first_report, second_report)
    ]
    assert {h for h, s in statuses[0].items() if s == "fail"} == {"h2", "h3"}
    assert {h for h, s in statuses[1].items() if s == "fail"} == {"h2", "h3", "h5"}

    code, document = diff_json(first_report, second_report)
    assert code == 1
    assert by_kind(document, "new-failure") == {"game.btn h5"}
    # hand 3 still fails, at one of its old divergences: changed, not a regression
    (h3,) = [c for c in document["changes"] if c["kind"] == "changed-divergence"]
    assert h3["name"] == "game.btn h3" and not h3["regression"]
    assert [f["rule"] for f in h3["new"]["findings"]] == ["play.trick_winner"]
    assert document["unchanged"] == {"pass": 6, "fail": 1}  # h2's mis-added score stays
    assert document["regressions"] == 1

    # the other way, hand 3 gains the over-ruff: a changed divergence that regresses
    code, document = diff_json(second_report, first_report)
    assert code == 1 and by_kind(document, "fixed") == {"game.btn h5"}
    (h3,) = [c for c in document["changes"] if c["kind"] == "changed-divergence"]
    assert h3["regression"] and h3["new"]["findings"][0]["rule"] == "play.hokum.overruff"
    code, text, _ = cli("diff", str(second_report), str(first_report))
    assert "    new: h3.t4.p3 illegal_event [play.hokum.overruff]" in text


def test_check_with_a_baseline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, _, _ = checked(tmp_path, NONCONFORMING, "base.jsonl")
    assert code == 1
    # the same failures again: the run fails, the gate passes; the report stays whole
    code, report, out, err = checked(
        tmp_path, NONCONFORMING, "again.jsonl", "--baseline", "base.jsonl"
    )
    assert code == 0, err
    assert out.splitlines()[-1] == "PASS no regression: no change; 9 unchanged (7 pass, 2 fail)"
    assert records(report)[-1]["ok"] is False
    # a report on standard output in JSON: the diff goes to standard error
    (tmp_path / "game.btn").write_text(SECOND, "utf-8")
    code, out, err = cli("check", "game.btn", "--format", "json", "--baseline", "base.jsonl")
    assert code == 0  # hand 3 only lost divergences
    assert [json.loads(line)["record"] for line in out.splitlines()][-1] == "summary"
    assert "CHANGED DIVERGENCE game.btn h3" in err
    # what cannot be compared is a usage error, before any work
    code, _, err = cli("check", "game.btn", "--baseline", "base.jsonl", "--fail-fast")
    assert code == 2 and "drop --fail-fast" in err
    code, _, err = cli("check", "game.btn", "--baseline", "game.btn")
    assert code == 2 and "game.btn:1:1: not a JSON Lines record" in err


def test_a_hand_is_the_same_hand_in_two_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two versions' transcripts of the same files, each version in its own folder: a hand is
    keyed by its path relative to the folder its report's files share, so the two reports
    compare hand by hand (wherever each was checked from), and a hand mutated in the second
    is the one change, as the dashboard's history pairs them."""
    monkeypatch.chdir(tmp_path)
    for version in ("v1", "v2"):
        (tmp_path / version / "more").mkdir(parents=True)
        (tmp_path / version / "game.btn").write_text(NONCONFORMING, "utf-8")
        (tmp_path / version / "more" / "other.btn").write_text(CONFORMING, "utf-8")
    v1, v2 = tmp_path / "v1.jsonl", tmp_path / "v2.jsonl"
    cli("check", "v1", "--format", "json", "-o", str(v1))
    cli("check", str(tmp_path / "v2"), "--format", "json", "-o", str(v2))  # absolute paths
    paths = {r["path"] for r in records(v2) if r["record"] == "hand"}
    assert paths == {str(tmp_path / "v2/game.btn"), str(tmp_path / "v2/more/other.btn")}
    code, document = diff_json(v1, v2)
    assert code == 0 and document["changes"] == []
    assert document["unchanged"] == {"pass": 16, "fail": 2}

    hand5 = NONCONFORMING.split("\nhand 5\n")[1].split("\nhand 6\n")[0]
    score5 = next(line for line in hand5.splitlines() if line.startswith("= score "))
    (tmp_path / "v2" / "game.btn").write_text(
        NONCONFORMING.replace(f"hand 5\n{hand5}", f"hand 5\n{hand5.replace(score5, score5 + '1')}"),
        "utf-8",
    )
    cli("check", str(tmp_path / "v2"), "--format", "json", "-o", str(v2))
    code, document = diff_json(v1, v2)
    assert code == 1
    (change,) = document["changes"]
    assert change["kind"] == "new-failure" and change["key"] == ["game.btn", "h5", "1"]
    assert change["name"] == f"{tmp_path / 'v2/game.btn'} h5"  # as the new report names it
    # the same in one run, the report read as it is written
    code, out, _ = cli("check", "v2", "--baseline", str(v1))
    assert code == 1 and out.splitlines()[-1].startswith("FAIL 1 regression: 1 new failure")
    news = [x for x in out.splitlines() if x.startswith("NEW FAILURE")]
    assert len(news) == 1 and news[0].startswith("NEW FAILURE v2/game.btn h5")


# --- reports that cannot be read -------------------------------------------------------------


@pytest.fixture
def report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return checked(tmp_path, NONCONFORMING, "report.jsonl")[1]


def rewritten(report: Path, lines: list[str], name: str) -> str:
    path = report.with_name(name)
    path.write_text("".join(line + "\n" for line in lines), "utf-8")
    return str(path)


CUT = "report.cut.jsonl"
#: A report changed, and what reading it says.
BROKEN = [
    (lambda ls: ls[:-1], f"{CUT}:11:1: the report ends at line 10 without its summary"),
    (lambda ls: [*ls[:3], ls[3][:40]], f"{CUT}:4:"),
    (lambda ls: ["PASS game.btn  9 hands", *ls], f"{CUT}:1:1: not a JSON Lines record (a text"),
    (
        lambda ls: [ls[0].replace("report/1", "report/2"), *ls[1:]],
        "report format 'baloot-conformance-report/2'",
    ),
    (lambda ls: [*ls, ls[0]], f"{CUT}:12:1: a 'header' record after the summary"),
    (
        lambda ls: [ls[0], ls[1].replace('"status":"pass"', '"status":"won"'), *ls[2:]],
        f"{CUT}:2:1: /status: expected one of pass, fail, known-defect, error, unsupported, "
        "found 'won'",
    ),
    (
        lambda ls: [ls[0], ls[1].replace('"position":"h1"', '"position":1'), *ls[2:]],
        f"{CUT}:2:1: /position: expected a string, found a number",
    ),
    (lambda ls: [ls[0], ls[-1]], f"{CUT}:2:1: nothing was checked"),
]


@pytest.mark.parametrize(("change", "said"), BROKEN)
def test_a_report_that_cannot_be_read_is_a_usage_error(
    report: Path, change: Any, said: str
) -> None:
    lines = report.read_text("utf-8").splitlines()
    assert len(lines) == 11  # header, 9 hands, summary
    code, out, err = cli("diff", str(report), rewritten(report, change(lines), CUT))
    if said.endswith("nothing was checked"):  # read, but a run that checked nothing fails
        assert code == 1 and "error: the new run: nothing was checked: no hand passed" in out
        return
    assert code == 2 and said in err and "\nhint: " in err, err


def test_records_may_carry_fields_and_statuses_of_later_kits(report: Path) -> None:
    """An extra field anywhere is read past; an unsupported hand (a feature the engine does
    not declare) is no failure, and a pass turned unsupported is a change, not a fix."""
    lines = [json.loads(line) for line in report.read_text("utf-8").splitlines()]
    lines[0]["features"] = ["sawa"]
    for record in lines[1:-1]:
        record["engine"] = {"name": "e", "version": "2"}
        if record["position"] in ("h1", "h3"):
            record.update(status="unsupported", divergences=[], missing_features=["sawa"])
    later = rewritten(report, [json.dumps(r) for r in lines], "later.jsonl")
    code, document = diff_json(report, Path(later))
    assert code == 0
    changed = {c["name"]: (c["old"]["verdict"], c["new"]["verdict"]) for c in document["changes"]}
    assert changed == {
        "game.btn h1": ("pass", "unsupported"),
        "game.btn h3": ("fail", "unsupported"),
    }
    assert by_kind(document, "changed") == set(changed)
    assert {c["new"]["message"] for c in document["changes"]} == {"needs sawa"}


def test_what_is_not_a_report_is_named_with_what_was_expected(
    report: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = report.parent
    monkeypatch.setattr(run_reports, "MAX_LINE", 5_000)  # as 16 MiB would be, sooner
    (folder / "long.jsonl").write_text('{"record": "header", "kit": "' + "x" * 6_000, "utf-8")
    (folder / "deep.jsonl").write_text("[" * 4_000 + "\n", "utf-8")
    (folder / "digits.jsonl").write_text('{"record": ' + "9" * 4_500 + "}\n", "utf-8")
    log = next((ROOT / "tests/data/peer-logs/majlis").glob("*.json.gz"))
    (folder / "array.jsonl").write_text("[1, 2]\n", "utf-8")
    (folder / "btn.json").write_text('{"format": "btn-json/1", "hands": []}\n', "utf-8")
    (folder / "empty.jsonl").write_text("", "utf-8")
    said = {
        str(folder / "missing.jsonl"): "missing.jsonl: no such report",
        str(folder): "a folder, not a report",
        str(log): "not UTF-8 text",
        str(folder / "array.jsonl"): "array.jsonl:1:1: expected a JSON object, found a list",
        str(folder / "btn.json"): "btn.json:1:1: expected the report's header record first",
        str(folder / "empty.jsonl"): "empty.jsonl:1:1: the report is empty",
        str(folder / "long.jsonl"): "long.jsonl:1:1: a line over 5,000 characters",
        str(folder / "deep.jsonl"): "deep.jsonl:1:1: not a JSON Lines record: nested too deeply",
        str(folder / "digits.jsonl"): "a number of over 4,300 digits",
    }
    for path, words in said.items():
        code, out, err = cli("diff", str(report), path)
        assert code == 2 and words in err and not out, (path, err)
        assert "Traceback" not in err and len(err.splitlines()) <= 3
    code, _, err = cli("diff", str(report), str(report), "-o", str(report))
    assert code == 2 and "one of the inputs" in err
    assert records(report)[-1]["record"] == "summary"  # left as it was


def test_what_a_report_holds_cannot_forge_a_line_or_a_link(report: Path) -> None:
    """A transcript's path, a message: text the kit does not control, kept on its line."""
    lines = [json.loads(line) for line in report.read_text("utf-8").splitlines()]
    hostile = "x\nPASS no regression\x1b[31m | [a](http://x) <b>"
    for record in lines[1:-1]:
        record["path"] = hostile
    (h2,) = [r for r in lines if r.get("position") == "h2"]
    h2["divergences"][0]["message"] = hostile
    old = rewritten(report, [json.dumps(r) for r in lines], "old.jsonl")
    h2.update(status="pass", divergences=[])  # fixed: listed by name
    (h3,) = [r for r in lines if r.get("position") == "h3"]
    h3["divergences"][0]["rule_id"] = hostile  # a changed divergence
    new = rewritten(report, [json.dumps(r) for r in lines], "new.jsonl")
    code, text, _ = cli("diff", old, new)
    assert code == 1
    assert [x for x in text.splitlines() if x.startswith("PASS")] == []
    assert "\x1b" not in text and text.count("\n") == len(text.splitlines())
    code, markdown, _ = cli("diff", new, old, "--format", "markdown")
    assert not re.search(
        r"(?<!\\)[\[\]<]",
        markdown.replace("<details>", "")
        .replace("<summary>", "")
        .replace("</summary>", "")
        .replace("</details>", ""),
    )
    assert "\nPASS" not in markdown
    rows = [x for x in markdown.splitlines() if x.startswith("| x")]
    assert rows and all(x.count(" | ") == 5 for x in rows)  # six cells, no forged column


def test_the_new_report_may_come_on_standard_input(
    report: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Stdin:
        buffer = io.BytesIO(report.read_bytes())

    monkeypatch.setattr("sys.stdin", Stdin())
    code, out, _ = cli("diff", str(report), "-")
    assert code == 0 and out.splitlines()[0].endswith("report.jsonl → -")
    code, _, err = cli("diff", "-", "-")
    assert code == 2 and "only one of OLD and NEW" in err


# --- the table of transitions (report/run_diff.py, docs/ci.md) ---------------------------------

RULE = Finding("h1.cardscore", "scoring.sun.conversion", "claims")
OTHER = Finding("h1.t6.p4.legal", "play.hokum.overruff", "legal")


def outcome(verdict: str, *findings: Finding, defects: tuple[str, ...] = ()) -> Outcome:
    return Outcome(("x",), "x", verdict, findings, defects=defects)


KNOWN = outcome("known-defect", RULE, defects=("d",))
PARTLY_FIXED = ("changed-divergence", False)


@pytest.mark.parametrize(
    ("old", "new", "defects_fail", "expected"),
    [
        (outcome("pass"), outcome("fail", RULE), False, ("new-failure", True)),
        (outcome("unsupported"), outcome("error"), False, ("new-failure", True)),
        (outcome("xfail", RULE), outcome("xpass"), False, ("new-failure", True)),
        (None, outcome("invalid"), False, ("new-failure", True)),
        (outcome("pass"), KNOWN, True, ("new-failure", True)),  # --fail-on-known-defects
        (outcome("fail", RULE), outcome("fail", RULE), False, None),
        (outcome("fail", RULE), outcome("error"), False, ("changed-divergence", True)),
        (outcome("fail", RULE), outcome("fail", OTHER), False, ("changed-divergence", True)),
        (outcome("fail", RULE, OTHER), outcome("fail", OTHER), False, PARTLY_FIXED),
        (outcome("fail", RULE), outcome("fail", RULE, RULE), False, ("changed-divergence", True)),
        (outcome("fail", RULE), outcome("pass"), False, ("fixed", False)),
        (outcome("error"), outcome("xfail", RULE), False, ("fixed", False)),
        (outcome("fail", RULE), KNOWN, False, ("fixed", False)),
        (outcome("fail", RULE), outcome("skip"), False, ("changed", False)),
        (outcome("pass"), outcome("unsupported"), False, ("changed", False)),
        (outcome("pass"), outcome("xfail", RULE), False, ("changed", False)),
        (KNOWN, outcome("known-defect", RULE, defects=("e",)), False, ("changed", False)),
        (outcome("pass"), outcome("pass"), False, None),
        (None, outcome("pass"), False, ("added", False)),
        (None, outcome("skip"), False, ("added", False)),
        (outcome("fail", RULE), None, False, ("removed", False)),
    ],
)  # fmt: skip
def test_each_transition(
    old: Outcome | None, new: Outcome | None, defects_fail: bool, expected: Any
) -> None:
    assert classify(old, new, defects_fail, defects_fail) == expected


def test_every_verdict_a_report_can_give_is_read_and_classed() -> None:
    """The reader knows every status and verdict the two report schemas allow (a verdict
    added to one must be added here, and said to be bad, good or unchecked)."""
    check = json.loads(spec_path("schema", "report.schema.json").read_text("utf-8"))
    suite = json.loads(spec_path("schema", "suite-report.schema.json").read_text("utf-8"))
    statuses = set(check["$defs"]["hand"]["properties"]["status"]["enum"])
    verdicts = set(suite["$defs"]["case"]["properties"]["verdict"]["enum"])
    assert statuses <= set(run_reports.CHECK_STATUSES)
    assert verdicts == set(run_reports.SUITE_VERDICTS) == set(VERDICTS)
    known = set(run_reports.CHECK_STATUSES) | verdicts
    assert known == BAD | GOOD | UNCHECKED and len(known) == len(BAD) + len(GOOD) + len(UNCHECKED)


def test_a_check_report_names_its_engine_when_its_hands_do(report: Path) -> None:
    """Hand records that carry the engine their transcript names (its [Engine] tags): the
    diff says when the engine changed between the two runs."""
    lines = [json.loads(line) for line in report.read_text("utf-8").splitlines()]
    versions = []
    for version in ("1.0", "1.1"):
        for record in lines[1:-1]:
            record["engine"] = {"name": "my-engine", "version": version}
        versions.append(rewritten(report, [json.dumps(r) for r in lines], f"{version}.jsonl"))
    code, out, _ = cli("diff", *versions)
    assert code == 0
    assert "note: the engine changed: my-engine 1.0 → my-engine 1.1" in out.splitlines()
