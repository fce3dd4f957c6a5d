"""``diff OLD NEW`` (what changed between two runs' reports) and the ``--baseline FILE`` of
``check`` and ``suite`` (the same comparison in one run): thin layers over
:mod:`baloot_conformance.report.run_diff`, whose docstring has the table of transitions.

The gate: exit 0 when nothing regressed and the new run went right, 1 on a regression (a new
failure, a changed divergence with a finding the old run lacked) or when the new run itself
went wrong (nothing checked, a file not read to its end, stale expectations), 2 on a usage
error or a report that cannot be read (not JSON Lines, cut short, another format version).

With ``--baseline`` the run writes its own report as usual, then the diff in text: on
standard output after a text report or when the report goes to ``--output``, on standard
error when the report itself is on standard output in a machine format (so as not to break
it). The exit code is then the diff's, not the run's: a failure the baseline holds no longer
fails the gate, a new one does; what exits 2 without a baseline (an engine that cannot start,
an unreadable transcript, the baseline itself unreadable) still does.
"""

from __future__ import annotations

import argparse
import io
import json
from typing import Any, TextIO

from baloot_conformance.check.verdicts import FileError, HandVerdict, RunHeader, RunSummary
from baloot_conformance.cli.output import replaced
from baloot_conformance.errors import UnreadableInputError
from baloot_conformance.report.base import Reporter
from baloot_conformance.report.jsonl import (
    file_error_record,
    hand_record,
    header_record,
    summary_record,
)
from baloot_conformance.report.run_diff import compare
from baloot_conformance.report.run_diff_render import DIFF_FORMATS, write_diff
from baloot_conformance.report.run_reports import (
    Kind,
    ReportReader,
    RunReport,
    feed_lines,
    read_report,
)

_EXIT_OK, _EXIT_FAIL = 0, 1

_EPILOG = """\
examples:
  baloot-conformance diff main.jsonl pr.jsonl
  baloot-conformance diff main.jsonl pr.jsonl --format markdown -o comment.md
  baloot-conformance check games/ --format json | baloot-conformance diff main.jsonl -
  baloot-conformance suite --engine ./my-adapter --format json -o pr.jsonl --baseline main.jsonl

A hand of a check report (its file, relative to the folder all of the report's files share,
and its position: logs-v1/m12.btn h3 is logs-v2/m12.btn h3 of a check of logs-v2/), or a
case (its id) of a suite report, is compared with the same one of the other report: new
failures, changed divergences (still failing, at another rule, position or observable),
fixed, other changes (pass to unsupported, ...), added and removed.

exit codes: 0 no regression; 1 a new failure, a changed divergence with a divergence the old
run lacked, or a new run that went wrong (nothing checked, a file not read to its end,
stale expectations, an engine that did not start); 2 usage error, or a report that cannot be
read (not JSON Lines, cut short, another format version, two reports of different kinds).
"""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``diff`` to the CLI, and ``--baseline`` to ``check`` and ``suite`` (registered
    already), so that the comparison's options live in one module."""
    diff = subparsers.add_parser(
        "diff",
        help="what changed between two runs' JSON reports (a CI gate on regressions)",
        description=(
            "Compare two JSON Lines reports of check or of suite (--format json): the "
            "older run first. Exit 1 only on a regression, or when the new run went wrong."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    diff.add_argument("old", metavar="OLD", help="the earlier run's report (the baseline)")
    diff.add_argument("new", metavar="NEW", help="the later run's report (- for standard input)")
    diff.add_argument(
        "--format",
        choices=DIFF_FORMATS,
        default="text",
        help="text (default), markdown (a pull-request comment) or json",
    )
    diff.add_argument("-o", "--output", metavar="FILE", help="write the diff to FILE")
    diff.set_defaults(handler=_diff)
    for command in ("check", "suite"):  # registered before this module (cli.build_parser)
        add_baseline_option(subparsers.choices[command], command)


def add_baseline_option(parser: argparse.ArgumentParser, command: str) -> None:
    """Add ``--baseline FILE`` to ``check`` or ``suite``."""
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help=f"a stored '{command} --format json' report: print what changed since it, and "
        "exit 1 only on a regression (a failure it holds no longer fails the run; a new one "
        "does); see 'baloot-conformance diff --help'",
    )


def _diff(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.old == args.new == "-":
        print("error: only one of OLD and NEW can be standard input (-)", file=err)
        return 2
    old = read_report(args.old)
    new = read_report(args.new)
    diff = compare(old, new)
    if args.output:
        with replaced(args.output, [args.old, args.new]) as stream:
            write_diff(args.format, diff, stream)
    else:
        write_diff(args.format, diff, out)
    return _EXIT_OK if diff.ok else _EXIT_FAIL


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


__all__ = ["Recording", "add_baseline_option", "gate", "load_baseline", "register"]
