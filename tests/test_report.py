"""The four report formats, fed verdicts built by hand.

Text is compared line for line; JSON Lines are validated against the shipped schema and read
back; JUnit is read the way CI systems read it (and with ``junitparser`` when installed);
Markdown is checked for its table and its omission note. A property test throws arbitrary
strings (quotes, ``<``, ``&``, control characters, line breaks) at the JSON and XML writers.
"""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from typing import Any

import junitparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from baloot_conformance.check.verdicts import (
    Divergence,
    DivergenceKind,
    EngineId,
    HandVerdict,
    RunHeader,
    RunSummary,
    Status,
)
from baloot_conformance.errors import Location
from baloot_conformance.report import FORMATS, Format, make_reporter
from baloot_conformance.report.markdown import md_code
from baloot_conformance.resources import spec_path

A, B = "games/a.btn", "games/b.btn"
HEADER = RunHeader("0.1.0", "saudi", "1", "sha256:0123abcd")
OVERRUFF_LINE = "trick 5: N 9S, E KS, S 7S, W 8S = N"
SCORE_LINE = "= score NS 16 EW 0"

ROOT = Divergence(
    position="h2.t5.p4",
    location=Location(B, 41, 32),
    rule_id="play.hokum.overruff",
    kind="illegal_event",
    message="W played 8S but must over-ruff N's 9S with JS (holds JS 8S 7H)",
    root=True,
    source=OVERRUFF_LINE,
)
WRONG_SCORE = Divergence(
    position="h2.score",
    location=Location(B, 45, 12),
    rule_id="score.hokum",
    kind="wrong_claim",
    message="NS score 26 in this hand, not 16",
    expected="NS 26 EW 0",
    claimed="NS 16 EW 0",
    source=SCORE_LINE,
)
MISSING = Divergence(
    position="h2.projects",
    location=None,
    rule_id=None,
    kind="missing_claim",
    message="the hand declares projects but has no '= projects' claim",
    expected="NS 20",
)

VERDICTS = (
    HandVerdict(A, "saudi@1", "h1", "pass", location=Location(A, 6, 1), events=40, claims=5),
    HandVerdict(A, "saudi@1", "h2", "pass", location=Location(A, 40, 1), events=38, claims=5),
    HandVerdict(B, "saudi@1", "h1", "pass", location=Location(B, 3, 1), events=40, claims=5),
    HandVerdict(
        B,
        "saudi@1",
        "h2",
        "fail",
        divergences=(ROOT, WRONG_SCORE, MISSING),
        location=Location(B, 30, 1),
        events=39,
        claims=4,
    ),
    HandVerdict(
        B,
        "saudi@1",
        "h3",
        "error",
        error="33 cards dealt; a hand has 32",
        location=Location(B, 50, 1),
    ),
)
SUMMARY = RunSummary(files=2, hands=5, passed=3, failed=1, errors=1, divergences=3)
CLEAN = (VERDICTS[0], VERDICTS[1])
CLEAN_SUMMARY = RunSummary(files=1, hands=2, passed=2, failed=0, errors=0, divergences=0)

ROOT_LINE = (
    "games/b.btn:41:32: h2.t5.p4 play.hokum.overruff (root): "
    "W played 8S but must over-ruff N's 9S with JS (holds JS 8S 7H)"
)
TEXT = f"""\
PASS games/a.btn  2 hands
{ROOT_LINE}
  41 | trick 5: N 9S, E KS, S 7S, W 8S = N
     |                                ^
games/b.btn:45:12: h2.score score.hokum (after root): NS score 26 in this hand, not 16
  45 | = score NS 16 EW 0
     |            ^
  wrong claim: expected NS 26 EW 0, claimed NS 16 EW 0
games/b.btn: h2.projects (after root): the hand declares projects but has no '= projects' claim
  missing required claim: expected NS 20
games/b.btn:50:1: h3 error: 33 cards dealt; a hand has 32
FAIL games/b.btn  3 hands, 1 failed, 1 error, 3 divergences
2 files, 5 hands: 3 passed, 1 failed, 1 error (3 divergences)
"""


def render(
    fmt: Format,
    verdicts: tuple[HandVerdict, ...] = VERDICTS,
    summary: RunSummary = SUMMARY,
    header: RunHeader = HEADER,
    **options: bool,
) -> str:
    out = io.StringIO()
    reporter = make_reporter(
        fmt, out, color=options.get("color", False), verbose=options.get("verbose", False)
    )
    reporter.start(header)
    for verdict in verdicts:
        reporter.hand(verdict)
    reporter.finish(summary)
    return out.getvalue()


# --- text -------------------------------------------------------------------------------------


def test_text_exact_lines() -> None:
    assert render("text") == TEXT


def test_text_clean_run() -> None:
    assert render("text", CLEAN, CLEAN_SUMMARY).splitlines() == [
        "PASS games/a.btn  2 hands",
        "1 file, 2 hands: 2 passed, 0 failed, 0 errors (0 divergences)",
    ]


def test_text_colour_only_when_asked() -> None:
    coloured = render("text", color=True)
    assert "\x1b[" not in render("text")
    assert "\x1b[" not in render("text", verbose=True)
    assert "\x1b[32;1mPASS\x1b[0m games/a.btn" in coloured
    assert "\x1b[31;1mFAIL\x1b[0m games/b.btn" in coloured
    assert "\x1b[31m(root)\x1b[0m" in coloured
    # Without its escapes the coloured report is the plain one.
    stripped = coloured
    for code in ("32;1", "31;1", "31", "2", "1", "36", "32", "0"):
        stripped = stripped.replace(f"\x1b[{code}m", "")
    assert stripped == TEXT


def test_text_verbose_adds_header_and_hand_lines() -> None:
    lines = render("text", verbose=True).splitlines()
    assert lines[0] == "baloot-conformance 0.1.0, ruleset saudi@1 (sha256:0123abcd)"
    assert lines[1] == "games/a.btn:6:1: h1 pass (40 events, 5 claims)"
    assert "games/b.btn:30:1: h2 fail (39 events, 4 claims)" in lines
    assert not any(line.startswith("games/b.btn:50:1: h3 error (") for line in lines)
    plain_lines = TEXT.splitlines()
    assert [line for line in lines if line in plain_lines] == plain_lines


def test_text_neutralises_control_characters_from_the_transcript() -> None:
    hostile = Divergence(
        position="h1.t1.p1",
        location=Location(A, 2, 3),
        rule_id="play.follow",
        kind="illegal_event",
        message="bad\x1b[2Jcard",
        root=True,
        source="trick 1: \x1b]0;pwned\x07N 7S",
    )
    verdict = HandVerdict(A, "saudi@1", "h1", "fail", divergences=(hostile,))
    out = render("text", (verdict,), RunSummary(1, 1, 0, 1, 0, 1))
    assert "\x1b" not in out and "\x07" not in out
    assert "bad\\x1b[2Jcard" in out
    assert "\\x1b]0;pwned\\x07N 7S" in out


def test_text_multiline_message_is_indented() -> None:
    divergence = Divergence("h1.t1.p1", None, None, "illegal_event", "first\nsecond", root=True)
    verdict = HandVerdict(A, "saudi@1", "h1", "fail", divergences=(divergence,))
    lines = render("text", (verdict,), RunSummary(1, 1, 0, 1, 0, 1)).splitlines()
    assert lines[:2] == ["games/a.btn: h1.t1.p1 (root): first", "    second"]


def test_a_failed_hand_says_why_its_replay_stopped() -> None:
    stopped = HandVerdict(
        B, "saudi@1", "h2", "fail", (ROOT,), error="cannot continue after h2.t5.p4"
    )
    summary = RunSummary(1, 1, 0, 1, 0, 1)
    lines = render("text", (stopped,), summary).splitlines()
    assert lines[3:5] == [
        "  replay stopped: cannot continue after h2.t5.p4",
        "FAIL games/b.btn  1 hand, 1 failed, 1 divergence",
    ]
    failure = ET.fromstring(render("junit", (stopped,), summary)).find("testsuite/testcase/failure")
    assert failure is not None
    assert (failure.text or "").endswith("\n  replay stopped: cannot continue after h2.t5.p4")


# --- JSON Lines -------------------------------------------------------------------------------


def schema() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(
        spec_path("schema", "report.schema.json").read_text(encoding="utf-8")
    )
    return document


VALIDATOR = Draft202012Validator(schema())


def records(text: str) -> list[dict[str, Any]]:
    """Each line parsed and validated; the text ends with a newline and has no other."""
    assert text.endswith("\n")
    lines = text.splitlines()  # splits on U+2028 too: a record must not contain one raw
    assert len(lines) == text.count("\n")
    parsed = [json.loads(line) for line in lines]
    for record in parsed:
        VALIDATOR.validate(record)
    return parsed


def test_schema_is_valid_and_fully_described() -> None:
    document = schema()
    Draft202012Validator.check_schema(document)
    assert document["$id"] == "urn:baloot-conformance:schema:report:1"
    undescribed: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            # The root only dispatches on "record"; each record's schema is closed.
            if where != "#" and node.get("type") == "object" and "properties" in node:
                assert node.get("additionalProperties") is False, where
            for name, sub in node.get("properties", {}).items():
                if "description" not in sub:
                    undescribed.append(f"{where}/{name}")
            for key, sub in node.items():
                walk(sub, f"{where}/{key}")
        elif isinstance(node, list):
            for index, sub in enumerate(node):
                walk(sub, f"{where}/{index}")

    walk(document, "#")
    assert undescribed == []


def test_json_lines_records_and_values() -> None:
    parsed = records(render("json"))
    assert [r["record"] for r in parsed] == ["header", *["hand"] * 5, "summary"]
    assert parsed[0] == {
        "record": "header",
        "kit_version": "0.1.0",
        "ruleset": {"id": "saudi", "version": "1", "digest": "sha256:0123abcd"},
        "format": "baloot-conformance-report/1",
    }
    failed = parsed[4]
    assert list(failed) == [
        "record",
        "path",
        "ruleset",
        "position",
        "status",
        "events",
        "claims",
        "error",
        "location",
        "divergences",
        "unchecked",
        "latent_fouls",
        "defects",
        "engine",
        "missing_features",
    ]
    assert (failed["path"], failed["position"], failed["status"]) == (B, "h2", "fail")
    assert failed["location"] == {"path": B, "line": 30, "column": 1}
    assert failed["divergences"][0] == {
        "position": "h2.t5.p4",
        "location": {"path": B, "line": 41, "column": 32},
        "rule_id": "play.hokum.overruff",
        "kind": "illegal_event",
        "message": ROOT.message,
        "expected": None,
        "claimed": None,
        "root": True,
        "source": OVERRUFF_LINE,
    }
    assert [d["root"] for d in failed["divergences"]] == [True, False, False]
    assert failed["divergences"][2]["location"] is None
    assert (parsed[5]["status"], parsed[5]["error"]) == ("error", "33 cards dealt; a hand has 32")
    assert parsed[-1] == {
        "record": "summary",
        "files": 2,
        "hands": 5,
        "passed": 3,
        "known_defects": 0,
        "unsupported": 0,
        "failed": 1,
        "errors": 1,
        "unreadable": 0,
        "divergences": 3,
        "stopped": None,
        "not_checked": [],
        "defects_fail": False,
        "ok": False,
    }


def test_json_lines_round_trip_the_verdicts() -> None:
    parsed = records(render("json"))
    assert [hand_from_record(r) for r in parsed[1:-1]] == list(VERDICTS)


def test_json_header_without_a_run_ruleset() -> None:
    header = RunHeader("0.1.0", None, None, None)
    first = records(render("json", CLEAN, CLEAN_SUMMARY, header))[0]
    assert first["ruleset"] is None
    assert records(render("json", CLEAN, CLEAN_SUMMARY))[-1]["ok"] is True


def test_json_lines_are_flushed_one_by_one() -> None:
    class Recorder(io.StringIO):
        flushed: list[str]

        def flush(self) -> None:
            self.flushed.append(self.getvalue())

    out = Recorder()
    out.flushed = []
    reporter = make_reporter("json", out)
    reporter.start(HEADER)
    reporter.hand(VERDICTS[0])
    assert out.flushed[-1].count("\n") == 2  # the hand is out before the run ends


@pytest.mark.parametrize(
    "record",
    [
        {"record": "summary", "files": 1},
        {"record": "hand", "path": A, "ruleset": "saudi@1", "position": "h1", "status": "pass",
         "events": 1, "claims": 0, "error": None, "location": None, "divergences": [], "x": 1},
        {"record": "hand", "path": A, "ruleset": "saudi@1", "position": "h1", "status": "fail",
         "events": 1, "claims": 0, "error": None, "location": None, "divergences": []},
        {"record": "footer"},
    ],
)  # fmt: skip
def test_schema_rejects_bad_records(record: dict[str, Any]) -> None:
    assert not VALIDATOR.is_valid(record)


def location_from(data: dict[str, Any] | None) -> Location | None:
    return None if data is None else Location(data["path"], data["line"], data["column"])


def hand_from_record(record: dict[str, Any]) -> HandVerdict:
    return HandVerdict(
        path=record["path"],
        ruleset=record["ruleset"],
        position=record["position"],
        status=record["status"],
        divergences=tuple(
            Divergence(**{**d, "location": location_from(d["location"])})
            for d in record["divergences"]
        ),
        error=record["error"],
        location=location_from(record["location"]),
        events=record["events"],
        claims=record["claims"],
        unchecked=tuple(record["unchecked"]),
        latent_fouls=tuple(record["latent_fouls"]),
        defects=tuple(record["defects"]),
        engine=EngineId(**record["engine"]) if record["engine"] else None,
        missing_features=tuple(record["missing_features"]),
    )


# --- JUnit ------------------------------------------------------------------------------------


def check_junit_counts(root: ET.Element) -> None:
    """Every suite's counts match its cases, and the root's are their sums."""
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        counts = {
            "tests": len(cases),
            "failures": sum(c.find("failure") is not None for c in cases),
            "errors": sum(c.find("error") is not None for c in cases),
        }
        assert {k: int(suite.get(k, "-1")) for k in counts} == counts
        assert {c.get("classname") for c in cases} == {suite.get("name")}
        totals = {k: totals[k] + counts[k] for k in totals}
    assert {k: int(root.get(k, "-1")) for k in totals} == totals


def test_junit_structure_as_ci_reads_it() -> None:
    root = ET.fromstring(render("junit"))
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "1", "1")
    check_junit_counts(root)
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [A, B]
    b_cases = suites[1].findall("testcase")
    assert [c.get("name") for c in b_cases] == ["h1", "h2", "h3"]
    assert list(b_cases[0]) == []
    failure = b_cases[1].find("failure")
    assert failure is not None
    assert failure.get("message") == (
        "games/b.btn:41:32: h2.t5.p4 play.hokum.overruff (root): " + ROOT.message
    )
    assert failure.get("type") == "illegal_event"
    body = failure.text or ""
    for divergence in (ROOT, WRONG_SCORE, MISSING):
        assert divergence.message in body
    assert "  41 | " + OVERRUFF_LINE in body
    error = b_cases[2].find("error")
    assert error is not None
    assert error.get("message") == "games/b.btn:50:1: h3 error: 33 cards dealt; a hand has 32"


def test_junit_clean_run_and_empty_run() -> None:
    root = ET.fromstring(render("junit", CLEAN, CLEAN_SUMMARY))
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "0", "0")
    assert [len(s) for s in root] == [2]
    empty = ET.fromstring(render("junit", (), RunSummary(0, 0, 0, 0, 0, 0)))
    assert (empty.tag, len(empty), empty.get("tests")) == ("testsuites", 0, "0")


def test_junit_with_junitparser() -> None:
    xml = junitparser.JUnitXml.fromstring(render("junit").encode("utf-8"))
    suites = list(xml)
    assert [s.name for s in suites] == [A, B]
    assert [(s.tests, s.failures, s.errors) for s in suites] == [(2, 0, 0), (3, 1, 1)]
    cases = list(suites[1])
    assert [c.name for c in cases] == ["h1", "h2", "h3"]
    assert [c.is_passed for c in cases] == [True, False, False]
    failure = cases[1].result[0]
    assert isinstance(failure, junitparser.Failure)
    assert failure.message.startswith("games/b.btn:41:32: h2.t5.p4")
    assert isinstance(cases[2].result[0], junitparser.Error)
    xml.update_statistics()  # type: ignore[no-untyped-call]  # recounted: the same as written
    assert (xml.tests, xml.failures, xml.errors) == (5, 1, 1)


# --- Markdown ---------------------------------------------------------------------------------


def test_markdown_summary() -> None:
    lines = render("markdown").splitlines()
    assert lines[0] == "## ❌ Baloot conformance: 1 failed, 1 error"
    assert "Checked under ruleset `saudi@1` (digest `sha256:0123abcd`)" in lines[2]
    table = lines.index("| file | hands | passed | failed | errors | partly unchecked |")
    assert lines[table + 2 : table + 4] == [
        "| `games/a.btn` | 2 | 2 | 0 | 0 | 0 |",
        "| `games/b.btn` | 3 | 1 | 1 | 1 | 0 |",
    ]
    bullets = [line for line in lines if line.startswith("- ")]
    assert bullets[0] == (
        "- `games/b.btn:41:32` `h2.t5.p4` `play.hokum.overruff` (root): "
        "W played 8S but must over-ruff N's 9S with JS (holds JS 8S 7H)"
    )
    assert bullets[2] == (
        "- `games/b.btn` `h2.projects`: the hand declares projects but has no '= projects' claim"
    )
    assert bullets[3] == "- `games/b.btn:50:1` `h3` error: 33 cards dealt; a hand has 32"
    assert len(bullets) == 4  # three divergences and the error
    assert not any("more not shown" in line for line in lines)


def test_markdown_clean_run() -> None:
    text = render("markdown", CLEAN, CLEAN_SUMMARY)
    assert text.startswith("## ✅ Baloot conformance: all hands pass\n")
    assert "### Divergences" not in text


def test_markdown_caps_the_divergences() -> None:
    many = tuple(
        HandVerdict(
            B,
            "saudi@1",
            f"h{n}",
            "fail",
            divergences=tuple(
                Divergence(f"h{n}.t{t}.p1", None, "play.follow", "illegal_event", f"m{n}.{t}")
                for t in range(1, 4)
            ),
        )
        for n in range(1, 9)
    )
    lines = render("markdown", many, RunSummary(1, 8, 0, 8, 0, 24)).splitlines()
    bullets = [line for line in lines if line.startswith("- ")]
    assert len(bullets) == 20
    assert bullets[-1].endswith(": m7.2")
    assert lines[-1] == "… and 4 more not shown (see the full report)."


def test_markdown_escapes() -> None:
    assert md_code("a`b") == "``a`b``"
    assert md_code("`x") == "`` `x ``"
    assert md_code("a|b", table=True) == "`a\\|b`"
    divergence = Divergence("h1", None, None, "illegal_event", "<b>*x*</b> & y\nz", root=True)
    verdict = HandVerdict("a|b.btn", "saudi@1", "h1", "fail", divergences=(divergence,))
    text = render("markdown", (verdict,), RunSummary(1, 1, 0, 1, 0, 1))
    assert "| `a\\|b.btn` | 1 | 0 | 1 | 0 |" in text
    assert "(root): &lt;b&gt;\\*x\\*&lt;/b&gt; &amp; y z" in text


# --- every format -----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_ends_with_a_newline_and_is_deterministic(fmt: Format) -> None:
    first = render(fmt)
    assert first.endswith("\n")
    assert render(fmt) == first


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown report format 'tap'"):
        make_reporter("tap", io.StringIO())  # type: ignore[arg-type]


# --- property: arbitrary strings --------------------------------------------------------------

texts = st.text(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(
            ["<", ">", "&", '"', "'", "\n", "\r", "\x00", "\x1b", "\u2028", "\x85", "\ufffe", "\t"]
        ),
    ),
    max_size=30,
)
KINDS: tuple[DivergenceKind, ...] = ("illegal_event", "wrong_claim", "missing_claim")
STATUSES: tuple[Status, ...] = ("pass", "fail", "error")
locations = st.none() | st.builds(Location, texts, st.integers(1, 10**6), st.integers(1, 500))


@st.composite
def divergences(draw: st.DrawFn, root: bool) -> Divergence:
    return Divergence(
        position=draw(texts),
        location=draw(locations),
        rule_id=draw(st.none() | texts),
        kind=draw(st.sampled_from(KINDS)),
        message=draw(texts),
        expected=draw(st.none() | texts),
        claimed=draw(st.none() | texts),
        root=root,
        source=draw(st.none() | texts),
    )


@st.composite
def hands(draw: st.DrawFn, path: str) -> HandVerdict:
    status = draw(st.sampled_from(STATUSES))
    count = {"pass": 0, "fail": draw(st.integers(1, 3)), "error": draw(st.integers(0, 1))}[status]
    return HandVerdict(
        path=path,
        ruleset=draw(texts),
        position=draw(texts),
        status=status,
        divergences=tuple(draw(divergences(root=i == 0)) for i in range(count)),
        error={"pass": None, "fail": draw(st.none() | texts), "error": draw(texts)}[status],
        location=draw(locations),
        events=draw(st.integers(0, 100)),
        claims=draw(st.integers(0, 20)),
    )


@st.composite
def runs(draw: st.DrawFn) -> tuple[RunHeader, tuple[HandVerdict, ...], RunSummary]:
    paths = draw(st.lists(texts, min_size=0, max_size=3, unique=True))
    verdicts = tuple(
        v for path in paths for v in draw(st.lists(hands(path), min_size=1, max_size=3))
    )
    header = RunHeader(draw(texts), draw(st.none() | texts), draw(st.none() | texts), None)
    statuses = [v.status for v in verdicts]
    summary = RunSummary(
        files=len(paths),
        hands=len(verdicts),
        passed=statuses.count("pass"),
        failed=statuses.count("fail"),
        errors=statuses.count("error"),
        divergences=sum(len(v.divergences) for v in verdicts),
    )
    return header, verdicts, summary


@settings(max_examples=150, deadline=None)
@given(runs())
def test_any_verdicts_give_valid_json_lines_and_xml(
    run: tuple[RunHeader, tuple[HandVerdict, ...], RunSummary],
) -> None:
    header, verdicts, summary = run
    parsed = records(render("json", verdicts, summary, header))
    assert [hand_from_record(r) for r in parsed[1:-1]] == list(verdicts)
    root = ET.fromstring(render("junit", verdicts, summary, header))
    assert len(root.findall("testsuite/testcase")) == len(verdicts)
    check_junit_counts(root)
    assert "\x1b" not in render("text", verdicts, summary, header, verbose=True)
    assert "\x1b" not in render("markdown", verdicts, summary, header)
