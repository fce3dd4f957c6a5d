"""Reports of a ``suite`` run, in the formats of ``check``: text, JSON Lines, JUnit XML and
Markdown.

A run has a few hundred cases, so the report is written once the run is over, in case order
(the order does not depend on ``--jobs``). Every format carries the engine's handshake, one
entry per case with its verdict, and the totals; a run is green only when no case failed,
erred, passed unexpectedly or is invalid, no expectation is stale or expired, the engine
started, and something was checked: a run where no case passed or failed (every case
unsupported, skipped or in error) proves nothing and is never green.

Everything an engine sends (its name, a reason, a skip, an error) is untrusted text. In the
text and Markdown reports each such value stays on its line (:func:`one_line` escapes line
breaks, control characters, lone surrogates); JSON Lines escapes what would break a line or
is not UTF-8 (:func:`json_line`); JUnit drops nothing and escapes what XML 1.0 cannot hold
(:func:`~baloot_conformance.report.junit.xml_text`).
"""

from __future__ import annotations

import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from baloot_conformance.check.features import ordered
from baloot_conformance.report.junit import xml_text
from baloot_conformance.report.run_reports import SUITE_FORMAT
from baloot_conformance.suite.cases import VERDICTS, CaseResult, Failure

BAD = frozenset({"fail", "error", "xpass", "invalid"})
"""The verdicts that fail a run."""
CHECKED = frozenset({"pass", "fail", "xfail", "xpass"})
"""The verdicts of a case whose answers were judged: a run needs one to be green."""
SUMMARISED = ("unsupported", "skip")
"""The verdicts the text report gives as one line per reason (each case with --verbose)."""

_BREAKING = {"Cc", "Cs", "Zl", "Zp"}
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def one_line(text: str) -> str:
    """``text`` on one line for a terminal: line breaks, control characters, lone surrogates
    and bidirectional overrides shown as ``\\n``, ``\\x1b``, ``\\ud800`` (nothing an engine
    says can start a line of the report, colour it or reorder it); a tab stays a tab."""
    if text.isprintable():
        return text
    out = []
    for char in text:
        if char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append(char)
        elif char in _BIDI or unicodedata.category(char) in _BREAKING:
            out.append(_escape(char))
        else:
            out.append(char)
    return "".join(out)


_JSON_UNSAFE = re.compile("[\x7f-\x9f\ud800-\udfff\u2028\u2029]")


def json_line(record: dict[str, Any]) -> str:
    """One JSON Lines record: UTF-8 text kept as it is, but a lone surrogate (which UTF-8
    cannot carry) and the characters some readers take for a line end (U+0085, U+2028,
    U+2029) written as ``\\uXXXX`` escapes, so the line is valid JSON and valid UTF-8 and
    stays one line. (``json`` already escapes the other control characters.)"""
    text = json.dumps(record, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


@dataclass(frozen=True, slots=True)
class SuiteRun:
    """Everything a report says: who was run, each case's result, what fails the run."""

    kit_version: str
    command: str
    engine: dict[str, Any] | None
    """The engine's handshake (name, version, rulesets, capabilities), or ``None`` when it
    never answered one."""
    results: Sequence[CaseResult]
    expectation_problems: Sequence[str] = ()
    """Stale or expired expectations."""
    fatal: str | None = None
    """Why no case was run at all (the engine cannot start), when none was."""
    reruns: Mapping[str, str] = field(default_factory=dict)
    """The command that reruns a case with its protocol trace, by case id (each case that
    fails the run: :func:`~baloot_conformance.suite.smoke.reruns`)."""
    smoke: bool = False
    """A ``--smoke`` run: one case per rule area, which the reports say is no conformance
    run."""

    @property
    def counts(self) -> Counter[str]:
        return Counter(result.verdict for result in self.results)

    @property
    def run_problems(self) -> list[str]:
        """What fails the run as a whole: the engine did not start, or nothing was checked."""
        if self.fatal is not None:
            return [self.fatal]
        if any(result.verdict in CHECKED for result in self.results):
            return []
        reasons = Counter((r.verdict, r.message or "") for r in self.results)
        said = "; ".join(
            f"{count} {verdict}: {message}" if message else f"{count} {verdict}"
            for (verdict, message), count in reasons.most_common(3)
        )
        more = f"; and {len(reasons) - 3} other reason(s)" if len(reasons) > 3 else ""
        return [
            f"nothing was checked: no case passed or failed ({said}{more}); check what the "
            "engine declares in its handshake (rulesets, capabilities, features) and "
            "--ruleset/--fixtures"
        ]

    @property
    def problems(self) -> list[str]:
        """Every problem that fails the run besides its cases: the run's, the expectations'."""
        return [*self.run_problems, *self.expectation_problems]

    @property
    def ok(self) -> bool:
        return not self.problems and not any(r.verdict in BAD for r in self.results)


def _engine_words(run: SuiteRun) -> str:
    if run.engine is None:
        return one_line(f"engine {run.command!r} (no handshake)")
    engine = run.engine
    language = f" ({engine['language']})" if engine.get("language") else ""
    return one_line(
        f"{engine['name']} {engine['version']}{language}: rulesets "
        f"{', '.join(engine['rulesets'])}; capabilities {', '.join(engine['capabilities'])}"
    )


def _totals(run: SuiteRun) -> str:
    counts = run.counts
    parts = [f"{counts[v]} {v}" for v in VERDICTS if counts[v] or v in ("pass", "fail", "error")]
    text = f"{len(run.results)} cases: " + ", ".join(parts)
    if run.run_problems:
        text += "; the engine did not start" if run.fatal else "; nothing was checked"
    if run.expectation_problems:
        text += f"; {len(run.expectation_problems)} expectation problem(s)"
    return text


def failure_lines(failure: Failure) -> list[str]:
    """The lines that explain a failure, after its headline."""
    lines = [f"    {one_line(failure.message)}"]
    if failure.expected is not None or failure.actual is not None:
        lines.append(f"    expected: {one_line(failure.expected or '-')}")
        lines.append(f"    engine:   {one_line(failure.actual or '-')}")
    return lines


def headline(result: CaseResult) -> str:
    """``FAIL id  file:line:col: h1.t3.p2 legal [rule]``, or the verdict and its message."""
    word = result.verdict.upper()
    failure = result.failure
    if failure is not None:
        where = f"{failure.location}: " if failure.location else ""
        rule = f" [{failure.rule_id}]" if failure.rule_id else ""
        note = f" ({result.message})" if result.message else ""
        return one_line(
            f"{word} {result.case.id}  {where}{failure.position} {failure.observable}{rule}{note}"
        )
    return one_line(f"{word} {result.case.id}: {result.message or ''}".rstrip(": "))


def problem_lines(problem: str) -> list[str]:
    """A problem of the run as report lines: ``error: ...``, then its own lines indented
    (an engine's standard error, in the one of an engine that cannot start)."""
    first, *rest = problem.rstrip("\n").split("\n")
    return [f"error: {one_line(first)}", *(f"  {one_line(line)}" for line in rest)]


SMOKE_NOTE = (
    "a smoke run: one case per rule area, not a conformance run (run the suite without "
    "--smoke for the whole corpus)"
)


def rerun_lines(run: SuiteRun, result: CaseResult) -> list[str]:
    """``    rerun: COMMAND`` for a case that fails the run, when the run knows it."""
    command = run.reruns.get(result.case.id)
    return [f"    rerun: {one_line(command)}"] if command else []


def _stderr_lines(result: CaseResult, keep: int = 12) -> list[str]:
    if not result.stderr.strip():
        return []
    tail = result.stderr.rstrip("\n").split("\n")[-keep:]
    return ["    engine's stderr (last lines):", *(f"    | {one_line(line)}" for line in tail)]


def write_text(run: SuiteRun, stream: TextIO, verbose: bool = False) -> None:
    """The terminal report: a line per case that failed, erred or was expected to fail
    (every case with ``verbose``), with the failure's detail and the engine's stderr for an
    error; the unsupported and skipped cases as one line per reason with their count (an
    engine that plays one ruleset would otherwise get a line for each case of the others)."""
    stream.write(f"baloot-conformance {run.kit_version} suite against {_engine_words(run)}\n")
    grouped: dict[tuple[str, str], int] = {}
    for result in run.results:
        if result.verdict == "pass" and not verbose:
            continue
        if result.verdict in SUMMARISED and not verbose:
            key = (result.verdict, result.message or "")
            grouped[key] = grouped.get(key, 0) + 1
            continue
        stream.write(headline(result) + "\n")
        lines = failure_lines(result.failure) if result.failure else []
        for line in [*lines, *_stderr_lines(result), *rerun_lines(run, result)]:
            stream.write(line + "\n")
    for verdict in SUMMARISED:
        for (kind, message), count in grouped.items():
            if kind == verdict:
                what = f"{count} case" if count == 1 else f"{count} cases"
                stream.write(one_line(f"{verdict.upper()} {what}: {message}".rstrip(": ")) + "\n")
    for problem in run.problems:
        for line in problem_lines(problem):
            stream.write(line + "\n")
    if run.smoke:
        stream.write(f"note: {SMOKE_NOTE}\n")
    stream.write(("PASS " if run.ok else "FAIL ") + _totals(run) + "\n")


def _failure_json(failure: Failure) -> dict[str, Any]:
    return {
        "observable": failure.observable,
        "position": failure.position,
        "rule": failure.rule_id,
        "message": failure.message,
        "expected": failure.expected,
        "actual": failure.actual,
        "location": str(failure.location) if failure.location else None,
    }


def write_json(run: SuiteRun, stream: TextIO) -> None:
    """JSON Lines: a ``header`` record, a ``case`` record per case, a ``summary`` record."""
    header: dict[str, Any] = {
        "record": "header",
        "kit": run.kit_version,
        "command": run.command,
        "engine": run.engine,
        "format": SUITE_FORMAT,
    }
    if run.smoke:
        header["smoke"] = True
    stream.write(json_line(header) + "\n")
    for result in run.results:
        record: dict[str, Any] = {
            "record": "case",
            "id": result.case.id,
            "path": result.case.where,
            "ruleset": result.case.ruleset,
            "verdict": result.verdict,
            "failure": _failure_json(result.failure) if result.failure else None,
            "message": result.message,
            "requests": result.requests,
            "features": ordered(result.case.features or ()),
        }
        if result.stderr:
            record["stderr"] = result.stderr
        if result.case.id in run.reruns:
            record["rerun"] = run.reruns[result.case.id]
        stream.write(json_line(record) + "\n")
    summary: dict[str, Any] = {
        "record": "summary",
        "cases": len(run.results),
        **{verdict: run.counts[verdict] for verdict in VERDICTS},
        "problems": list(run.problems),
        "ok": run.ok,
    }
    stream.write(json_line(summary) + "\n")


def write_junit(run: SuiteRun, stream: TextIO) -> None:
    """JUnit XML, one test case per case: ``failure`` for fail and xpass, ``error`` for
    error and invalid, ``skipped`` for skip, unsupported and xfail (with the reason)."""
    counts = run.counts
    problems = run.problems
    root = ET.Element(
        "testsuites",
        name="baloot-conformance suite",
        tests=str(len(run.results) + len(problems)),
        failures=str(counts["fail"] + counts["xpass"]),
        errors=str(counts["error"] + counts["invalid"] + len(problems)),
        skipped=str(counts["skip"] + counts["unsupported"] + counts["xfail"]),
    )
    suite = ET.SubElement(root, "testsuite", name=xml_text(_engine_words(run)))
    for key in ("tests", "failures", "errors", "skipped"):
        suite.set(key, root.get(key, "0"))
    for result in run.results:
        classname = "generated" if result.case.seed is not None else result.case.ruleset
        case = ET.SubElement(
            suite,
            "testcase",
            classname=xml_text(classname),
            name=xml_text(result.case.id),
            file=xml_text(result.case.where),
        )
        details = failure_lines(result.failure) if result.failure else []
        body = "\n".join(
            [headline(result), *details, *_stderr_lines(result), *rerun_lines(run, result)]
        )
        if result.verdict in ("fail", "xpass"):
            child = ET.SubElement(case, "failure", message=xml_text(headline(result)))
            child.set("type", result.verdict)
            child.text = xml_text(body)
        elif result.verdict in ("error", "invalid"):
            child = ET.SubElement(case, "error", message=xml_text(headline(result)))
            child.set("type", result.verdict)
            child.text = xml_text(body)
        elif result.verdict in ("skip", "unsupported", "xfail"):
            child = ET.SubElement(case, "skipped", message=xml_text(one_line(result.message or "")))
            child.set("type", result.verdict)
    for number, problem in enumerate(run.run_problems, 1):
        case = ET.SubElement(suite, "testcase", classname="run", name=f"problem {number}")
        first, _, rest = problem.partition("\n")
        child = ET.SubElement(case, "error", message=xml_text(one_line(first)), type="run")
        child.text = xml_text(problem) if rest else None
    for number, problem in enumerate(run.expectation_problems, 1):
        case = ET.SubElement(suite, "testcase", classname="expectations", name=f"problem {number}")
        ET.SubElement(case, "error", message=xml_text(one_line(problem)), type="expectations")
    ET.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(root, encoding="unicode") + "\n")


def _cell(text: str) -> str:
    """Table-cell text: escaped so that nothing from an engine becomes Markdown or HTML."""
    out = one_line(text).replace("\\", "\\\\").replace("|", "\\|")
    for char in "`*_[]<>#!":
        out = out.replace(char, "\\" + char)
    return out


def write_markdown(run: SuiteRun, stream: TextIO) -> None:
    """A summary for a CI page (``$GITHUB_STEP_SUMMARY``): the totals, then a table of the
    cases that did not pass."""
    verdict = "passes" if run.ok else "fails"
    stream.write(f"## Baloot conformance: {_cell(_engine_words(run))} {verdict}\n\n")
    stream.write("| " + " | ".join(VERDICTS) + " |\n|" + "---|" * len(VERDICTS) + "\n")
    stream.write("| " + " | ".join(str(run.counts[v]) for v in VERDICTS) + " |\n\n")
    rows = [r for r in run.results if r.verdict != "pass"]
    if rows:
        stream.write("| case | verdict | where | rule | what |\n|---|---|---|---|---|\n")
        for result in rows:
            failure = result.failure
            where = f"{failure.position} {failure.observable}" if failure else ""
            rule = failure.rule_id or "" if failure else ""
            what = failure.message if failure else result.message or ""
            stream.write(
                f"| {_cell(result.case.id)} | {result.verdict} | {_cell(where)} | "
                f"{_cell(rule)} | {_cell(what)} |\n"
            )
        stream.write("\n")
    commands = [run.reruns[r.case.id] for r in rows if r.case.id in run.reruns]
    if commands:
        longest = max(len(run_) for c in commands for run_ in re.findall("`+", c) or [""])
        fence = "`" * max(3, longest + 1)  # no command can close it
        stream.write(f"To rerun a case with its protocol trace:\n\n{fence}sh\n")
        stream.write("".join(f"{one_line(command)}\n" for command in commands) + f"{fence}\n\n")
    if run.smoke:
        stream.write(f"*{SMOKE_NOTE}.*\n\n")
    for problem in run.run_problems:
        stream.write(f"- **run:** {_cell(problem)}\n")
    for problem in run.expectation_problems:
        stream.write(f"- **expectations:** {_cell(problem)}\n")


def write_report(fmt: str, run: SuiteRun, stream: TextIO, verbose: bool = False) -> None:
    """Write ``run`` in format ``fmt`` (text, json, junit, markdown)."""
    if fmt == "text":
        write_text(run, stream, verbose)
    elif fmt == "json":
        write_json(run, stream)
    elif fmt == "junit":
        write_junit(run, stream)
    else:
        write_markdown(run, stream)
