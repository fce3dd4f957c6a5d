"""``check --baseline`` and ``suite --baseline``: the stored report read before the run,
the run's own report kept as it is written, and the diff of the two that decides the exit
code (imported only by a run that has a baseline)."""

from __future__ import annotations

import argparse
import io
import json
from typing import Any, TextIO

from baloot_conformance.check.verdicts import FileError, HandVerdict, RunHeader, RunSummary
from baloot_conformance.errors import UnreadableInputError
from baloot_conformance.report.base import Reporter
from baloot_conformance.report.jsonl import (
    file_error_record,
    hand_record,
    header_record,
    summary_record,
)
from baloot_conformance.report.run_diff import compare
from baloot_conformance.report.run_diff_render import write_diff
from baloot_conformance.report.run_reports import (
    Kind,
    ReportReader,
    RunReport,
    feed_lines,
    read_report,
)

_EXIT_OK, _EXIT_FAIL = 0, 1


def load_baseline(path: str, kind: Kind) -> RunReport:
    """The ``--baseline`` report of a ``check`` or ``suite`` run, read before the run.

    Raises:
        UnreadableInputError: it cannot be read, or is a report of the other command.
    """
    report = read_report(path)
    if report.kind != kind:
        raise UnreadableInputError(
            f"--baseline {path}: a {report.kind} report, and this is a {kind} run",
            hint=f"give the JSON report of an earlier '{kind} --format json' run",
        )
    return report


def suite_report(write_json: Any, run: Any, name: str) -> RunReport:
    """A ``suite`` run's own report, as a :class:`RunReport` (read back from its JSON form,
    so that a baseline and a run are read by the same code)."""
    text = io.StringIO()
    write_json(run, text)
    reader = ReportReader(name)
    feed_lines(reader, text.getvalue().splitlines())
    return reader.finish()


def gate(baseline: RunReport, report: RunReport, stream: TextIO) -> int:
    """The diff of a run against its baseline, written in text to ``stream``; its exit code."""
    diff = compare(baseline, report)
    write_diff("text", diff, stream)
    return _EXIT_OK if diff.ok else _EXIT_FAIL


def markdown(baseline: RunReport, report: RunReport, stream: TextIO) -> None:
    """The diff in Markdown (for a suite's ``--summary`` page)."""
    write_diff("markdown", compare(baseline, report), stream)


def diff_stream(args: argparse.Namespace, out: TextIO, err: TextIO) -> TextIO:
    """Where ``--baseline`` writes the diff: standard output after a text report or when the
    report goes to a file, else standard error (the report's machine format stays whole)."""
    return out if args.output or args.format == "text" else err


class Recording:
    """A ``check`` reporter that also keeps each record for the baseline's diff: every call
    is passed on to the run's own reporter, and the JSON Lines record of it fed to a
    :class:`ReportReader`."""

    def __init__(self, reporter: Reporter, name: str) -> None:
        self._reporter = reporter
        self._reader = ReportReader(name)
        self._records = 0

    def _keep(self, record: dict[str, Any]) -> None:
        self._records += 1
        self._reader.feed(record, self._records)

    def start(self, header: RunHeader) -> None:
        self._reporter.start(header)
        self._keep(header_record(header))

    def hand(self, verdict: HandVerdict) -> None:
        self._reporter.hand(verdict)
        self._keep(hand_record(verdict))

    def hand_line(self, line: str) -> None:
        """A hand's JSON line, rendered by a worker (the run's report is JSON Lines)."""
        self._reporter.hand_line(line)  # type: ignore[attr-defined]
        self._keep(json.loads(line))

    def file_error(self, error: FileError) -> None:
        self._reporter.file_error(error)
        self._keep(file_error_record(error))

    def finish(self, summary: RunSummary) -> None:
        self._reporter.finish(summary)
        self._keep(summary_record(summary))

    def report(self) -> RunReport:
        """The run as a :class:`RunReport`, once it is finished."""
        return self._reader.finish()


__all__ = ["Recording", "diff_stream", "gate", "load_baseline", "markdown", "suite_report"]
