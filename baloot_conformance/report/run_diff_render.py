"""A :class:`~baloot_conformance.report.run_diff.RunDiff` written out: text for a terminal,
Markdown for a pull-request comment, JSON for a program (``spec/schema/run-diff.schema.json``).

Every format leads with the gate's verdict and the counts, lists the regressions first with
their rule IDs and positions, then what was fixed, then the rest; the Markdown keeps the
comment short (the regressions in a table, the fixed cases on a line, the other changes
collapsed). Names, messages and rule IDs come from the reports, which hold what an engine
said: each is kept on its line (:func:`~baloot_conformance.report.suite_report.one_line`) and
escaped in Markdown, so that nothing in them can forge a line or a link.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TextIO

from baloot_conformance.report.run_diff import CHANGE_KINDS, Change, RunDiff
from baloot_conformance.report.run_reports import Outcome
from baloot_conformance.report.suite_report import json_line, one_line

DIFF_FORMAT = "baloot-conformance-diff/1"
"""The ``format`` of the JSON form; the number follows its schema's ``$id``."""
DIFF_FORMATS = ("text", "markdown", "json")
"""The values of ``diff --format``, the default first."""

_TITLES = {
    "new-failure": ("new failure", "new failures"),
    "changed-divergence": ("changed divergence", "changed divergences"),
    "fixed": ("fixed", "fixed"),
    "changed": ("other change", "other changes"),
    "added": ("added", "added"),
    "removed": ("removed", "removed"),
}


def _count(number: int, kind: str) -> str:
    one, many = _TITLES[kind]
    return f"{number} {one if number == 1 else many}"


_VERDICT_ORDER = (
    "pass", "xfail", "known-defect", "fail", "error", "xpass", "invalid", "skip", "unsupported",
)  # fmt: skip


def _by_verdict(counts: Counter[str]) -> list[tuple[str, int]]:
    """``counts`` in the order of the reports: passes first, failures, then what was not run."""
    rank = {verdict: n for n, verdict in enumerate(_VERDICT_ORDER)}
    return sorted(counts.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))


def counts_line(diff: RunDiff) -> str:
    """``2 new failures, 1 fixed; 31 unchanged (27 pass, 4 fail)``: the kinds of change that
    occur, then the unchanged outcomes by verdict."""
    counts = diff.counts
    parts = ", ".join(_count(counts[kind], kind) for kind in CHANGE_KINDS if counts[kind])
    total = sum(diff.unchanged.values())
    by_verdict = ", ".join(f"{n} {v}" for v, n in _by_verdict(diff.unchanged))
    unchanged = f"{total} unchanged" + (f" ({by_verdict})" if total else "")
    return f"{parts or 'no change'}; {unchanged}"


def verdict_line(diff: RunDiff) -> str:
    """The gate's verdict in words: ``PASS no regression`` or ``FAIL 2 regressions``."""
    regressions = len(diff.regressions)
    if diff.ok:
        return "PASS no regression"
    said = [f"{regressions} regression" + ("" if regressions == 1 else "s")] if regressions else []
    if diff.problems:
        said.append("the new run went wrong")
    return "FAIL " + " and ".join(said)


def said(outcome: Outcome | None) -> str:
    """An outcome in a few words: ``fail h1.cardscore claims [scoring.sun.conversion]``,
    ``fail h3.t4.p3 illegal_event [play.hokum.overruff] and 2 more``, ``pass``, ``-``."""
    if outcome is None:
        return "-"
    if not outcome.findings:
        return outcome.verdict
    more = len(outcome.findings) - 1
    return f"{outcome.verdict} {outcome.findings[0]}" + (f" and {more} more" if more else "")


def _headline(change: Change) -> str:
    title = _TITLES[change.kind][0].upper()
    old, new = change.old, change.new
    if change.kind == "removed":
        return f"{title} {change.name} (was {said(old)})"
    if change.kind == "added":
        return f"{title} {change.name}: {said(new)}"
    if change.kind == "fixed":
        return f"{title} {change.name}: {said(new)} (was {said(old)})"
    where = f"  {new.where}:" if new is not None and new.where and new.findings else ""
    return f"{title} {change.name}{where} {said(new)} (was {said(old)})"


def write_text(diff: RunDiff, stream: TextIO) -> None:
    """The terminal form: a line per change (with the message of a regression and the
    findings it gained), the new run's problems, the verdict with the counts."""
    stream.write(
        one_line(f"diff of two {diff.new.kind} reports: {diff.old.path} → {diff.new.path}") + "\n"
    )
    for note in diff.notes:
        stream.write(one_line(f"note: {note}") + "\n")
    for change in diff.changes:
        stream.write(one_line(_headline(change)) + "\n")
        if change.regression and change.new is not None:
            if change.new.message:
                stream.write(f"    {one_line(change.new.message)}\n")
            if change.kind == "changed-divergence":
                for gained in change.gained:
                    stream.write(f"    new: {one_line(gained)}\n")
    for problem in diff.problems:
        first, *rest = problem.rstrip("\n").split("\n")
        stream.write(f"error: the new run: {one_line(first)}\n")
        for line in rest:
            stream.write(f"  {one_line(line)}\n")
    stream.write(f"{verdict_line(diff)}: {counts_line(diff)}\n")


def _cell(text: str) -> str:
    """Table-cell text: nothing from a report becomes Markdown or HTML."""
    out = one_line(text).replace("\\", "\\\\").replace("|", "\\|")
    for char in "`*_[]<>#!":
        out = out.replace(char, "\\" + char)
    return out


def write_markdown(diff: RunDiff, stream: TextIO, limit: int = 50) -> None:
    """The pull-request comment: a headline with the verdict, the counts, a table of the
    regressions (at most ``limit`` rows, then how many more), the fixed cases on a line, and
    the other changes in a collapsed section."""
    regressions = diff.regressions
    unit = "hand" if diff.new.kind == "check" else "case"
    verdict = "no regression" if diff.ok else verdict_line(diff).removeprefix("FAIL ")
    stream.write(f"### Baloot conformance: {verdict} since the baseline\n\n")
    engine = f" · {_cell(diff.new.engine)}" if diff.new.engine else ""
    stream.write(f"{_cell(counts_line(diff))}{engine}\n\n")
    for note in diff.notes:
        stream.write(f"> {_cell(note)}\n")
    if diff.notes:
        stream.write("\n")
    for problem in diff.problems:
        stream.write(f"- **run:** {_cell(problem)}\n")
    if diff.problems:
        stream.write("\n")
    if regressions:
        stream.write(f"| {unit} | was | now | where | rule | what |\n|---|---|---|---|---|---|\n")
        for change in regressions[:limit]:
            new = change.new
            first = new.findings[0] if new is not None and new.findings else None
            where = f"{first.position} {first.what}" if first else ""
            stream.write(
                f"| {_cell(change.name)} | {_cell(said(change.old))} | "
                f"{_cell(new.verdict if new else '-')} | {_cell(where)} | "
                f"{_cell(first.rule or '') if first else ''} | "
                f"{_cell(new.message or '') if new else ''} |\n"
            )
        if len(regressions) > limit:
            stream.write(f"\n… and {len(regressions) - limit} more regressions.\n")
        stream.write("\n")
    fixed = [change.name for change in diff.changes if change.kind == "fixed"]
    if fixed:
        shown = ", ".join(_cell(name) for name in fixed[:limit])
        more = f" and {len(fixed) - limit} more" if len(fixed) > limit else ""
        stream.write(f"**Fixed:** {shown}{more}\n\n")
    rest = [c for c in diff.changes if not c.regression and c.kind != "fixed"]
    if rest:
        stream.write(f"<details><summary>Other changes ({len(rest)})</summary>\n\n")
        stream.write(f"| {unit} | change | was | now |\n|---|---|---|---|\n")
        for change in rest:
            stream.write(
                f"| {_cell(change.name)} | {_TITLES[change.kind][0]} | "
                f"{_cell(said(change.old))} | {_cell(said(change.new))} |\n"
            )
        stream.write("\n</details>\n")


def _outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "verdict": outcome.verdict,
        "findings": [
            {"position": f.position, "rule": f.rule, "what": f.what} for f in outcome.findings
        ],
        "where": outcome.where,
        "message": outcome.message,
        "defects": list(outcome.defects),
    }


def _key(change: Change) -> tuple[str, ...]:
    outcome = change.new or change.old
    return outcome.key if outcome is not None else ()


def diff_record(diff: RunDiff) -> dict[str, Any]:
    """The JSON form of ``diff`` (``spec/schema/run-diff.schema.json``)."""

    def run(report: Any) -> dict[str, Any]:
        return {
            "path": report.path,
            "format": report.format,
            "kit": report.kit,
            "engine": report.engine,
            "ruleset": report.ruleset,
            "problems": list(report.problems),
        }

    return {
        "format": DIFF_FORMAT,
        "kind": diff.new.kind,
        "old": run(diff.old),
        "new": run(diff.new),
        "counts": {kind: diff.counts[kind] for kind in CHANGE_KINDS},
        "unchanged": dict(_by_verdict(diff.unchanged)),
        "regressions": len(diff.regressions),
        "changes": [
            {
                "kind": change.kind,
                "name": change.name,
                "key": list(_key(change)),
                "regression": change.regression,
                "old": _outcome_json(change.old),
                "new": _outcome_json(change.new),
            }
            for change in diff.changes
        ],
        "notes": list(diff.notes),
        "ok": diff.ok,
    }


def write_json(diff: RunDiff, stream: TextIO) -> None:
    """One JSON document on one line (escaped as the suite's JSON Lines are)."""
    stream.write(json_line(diff_record(diff)) + "\n")


def write_diff(fmt: str, diff: RunDiff, stream: TextIO) -> None:
    """Write ``diff`` in format ``fmt`` (one of :data:`DIFF_FORMATS`)."""
    if fmt == "markdown":
        write_markdown(diff, stream)
    elif fmt == "json":
        write_json(diff, stream)
    else:
        write_text(diff, stream)


__all__ = ["DIFF_FORMAT", "DIFF_FORMATS", "counts_line", "diff_record", "write_diff"]
