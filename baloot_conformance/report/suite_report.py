"""Reports of a ``suite`` run, in the formats of ``check``: text, JSON Lines, JUnit XML and
Markdown.

A run has a few hundred cases, so the report is written once the run is over, in case order
(the order does not depend on ``--jobs``). Every format carries the engine's handshake, one
entry per case with its verdict, and the totals; a run is green only when no case failed,
erred, passed unexpectedly or is invalid and no expectation is stale or expired.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from baloot_conformance.report.base import printable
from baloot_conformance.report.junit import xml_text
from baloot_conformance.suite.runner import VERDICTS, CaseResult, Failure

BAD = frozenset({"fail", "error", "xpass", "invalid"})
"""The verdicts that fail a run."""


@dataclass(frozen=True, slots=True)
class SuiteRun:
    """Everything a report says: who was run, each case's result, what fails the run."""

    kit_version: str
    command: str
    engine: dict[str, Any] | None
    """The engine's handshake (name, version, rulesets, capabilities), or ``None`` when it
    never answered one."""
    results: Sequence[CaseResult]
    problems: Sequence[str] = ()
    """Stale or expired expectations."""

    @property
    def counts(self) -> Counter[str]:
        return Counter(result.verdict for result in self.results)

    @property
    def ok(self) -> bool:
        return not self.problems and not any(r.verdict in BAD for r in self.results)


def _engine_words(run: SuiteRun) -> str:
    if run.engine is None:
        return f"engine {run.command!r} (no handshake)"
    engine = run.engine
    language = f" ({engine['language']})" if engine.get("language") else ""
    return (
        f"{engine['name']} {engine['version']}{language}: rulesets "
        f"{', '.join(engine['rulesets'])}; capabilities {', '.join(engine['capabilities'])}"
    )


def _totals(run: SuiteRun) -> str:
    counts = run.counts
    parts = [f"{counts[v]} {v}" for v in VERDICTS if counts[v] or v in ("pass", "fail", "error")]
    text = f"{len(run.results)} cases: " + ", ".join(parts)
    if run.problems:
        text += f"; {len(run.problems)} expectation problem(s)"
    return text


def failure_lines(failure: Failure) -> list[str]:
    """The lines that explain a failure, after its headline."""
    lines = [f"    {printable(failure.message)}"]
    if failure.expected is not None or failure.actual is not None:
        lines.append(f"    expected: {printable(failure.expected or '-')}")
        lines.append(f"    engine:   {printable(failure.actual or '-')}")
    return lines


def headline(result: CaseResult) -> str:
    """``FAIL id  file:line:col: h1.t3.p2 legal [rule]``, or the verdict and its message."""
    word = result.verdict.upper()
    failure = result.failure
    if failure is not None:
        where = f"{failure.location}: " if failure.location else ""
        rule = f" [{failure.rule_id}]" if failure.rule_id else ""
        note = f" ({result.message})" if result.message else ""
        return printable(
            f"{word} {result.case.id}  {where}{failure.position} {failure.observable}{rule}{note}"
        )
    return printable(f"{word} {result.case.id}: {result.message or ''}".rstrip(": "))


def _stderr_lines(result: CaseResult, keep: int = 12) -> list[str]:
    if not result.stderr.strip():
        return []
    tail = result.stderr.rstrip("\n").split("\n")[-keep:]
    return ["    engine's stderr (last lines):", *(f"    | {printable(line)}" for line in tail)]


def write_text(run: SuiteRun, stream: TextIO, verbose: bool = False) -> None:
    """The terminal report: a line per case that did not pass (every case with
    ``verbose``), with the failure's detail and the engine's stderr for an error."""
    stream.write(f"baloot-conformance {run.kit_version} suite against {_engine_words(run)}\n")
    for result in run.results:
        if result.verdict == "pass" and not verbose:
            continue
        stream.write(headline(result) + "\n")
        lines = failure_lines(result.failure) if result.failure else []
        for line in [*lines, *_stderr_lines(result)]:
            stream.write(line + "\n")
    for problem in run.problems:
        stream.write(printable(f"error: {problem}") + "\n")
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
    header = {
        "type": "header",
        "kit": run.kit_version,
        "command": run.command,
        "engine": run.engine,
    }
    stream.write(json.dumps(header, ensure_ascii=False) + "\n")
    for result in run.results:
        record: dict[str, Any] = {
            "type": "case",
            "id": result.case.id,
            "path": result.case.path,
            "ruleset": result.case.ruleset,
            "verdict": result.verdict,
            "failure": _failure_json(result.failure) if result.failure else None,
            "message": result.message,
            "requests": result.requests,
        }
        if result.stderr:
            record["stderr"] = result.stderr
        stream.write(json.dumps(record, ensure_ascii=False) + "\n")
    summary: dict[str, Any] = {
        "type": "summary",
        "cases": len(run.results),
        **{verdict: run.counts[verdict] for verdict in VERDICTS},
        "problems": list(run.problems),
        "ok": run.ok,
    }
    stream.write(json.dumps(summary, ensure_ascii=False) + "\n")


def write_junit(run: SuiteRun, stream: TextIO) -> None:
    """JUnit XML, one test case per case: ``failure`` for fail and xpass, ``error`` for
    error and invalid, ``skipped`` for skip, unsupported and xfail (with the reason)."""
    counts = run.counts
    root = ET.Element(
        "testsuites",
        name="baloot-conformance suite",
        tests=str(len(run.results)),
        failures=str(counts["fail"] + counts["xpass"]),
        errors=str(counts["error"] + counts["invalid"] + len(run.problems)),
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
            file=xml_text(result.case.path),
        )
        details = failure_lines(result.failure) if result.failure else []
        body = "\n".join([headline(result), *details, *_stderr_lines(result)])
        if result.verdict in ("fail", "xpass"):
            child = ET.SubElement(case, "failure", message=xml_text(headline(result)))
            child.set("type", result.verdict)
            child.text = xml_text(body)
        elif result.verdict in ("error", "invalid"):
            child = ET.SubElement(case, "error", message=xml_text(headline(result)))
            child.set("type", result.verdict)
            child.text = xml_text(body)
        elif result.verdict in ("skip", "unsupported", "xfail"):
            child = ET.SubElement(case, "skipped", message=xml_text(result.message or ""))
            child.set("type", result.verdict)
    for number, problem in enumerate(run.problems, 1):
        case = ET.SubElement(suite, "testcase", classname="expectations", name=f"problem {number}")
        ET.SubElement(case, "error", message=xml_text(problem), type="expectations")
    ET.indent(root)
    stream.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    stream.write(ET.tostring(root, encoding="unicode") + "\n")


def _cell(text: str) -> str:
    """Table-cell text: escaped so that nothing from an engine becomes Markdown or HTML."""
    out = printable(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
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
    for problem in run.problems:
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
