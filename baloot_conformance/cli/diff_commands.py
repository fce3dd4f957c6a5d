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
from typing import Any, TextIO

from baloot_conformance.cli.output import replaced

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
        choices=("text", "markdown", "json"),  # run_diff_render.DIFF_FORMATS
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
    from baloot_conformance.report.run_diff import compare  # only here: a quick start-up
    from baloot_conformance.report.run_diff_render import write_diff
    from baloot_conformance.report.run_reports import read_report

    old = read_report(args.old)
    new = read_report(args.new)
    diff = compare(old, new)
    if args.output:
        with replaced(args.output, [args.old, args.new]) as stream:
            write_diff(args.format, diff, stream)
    else:
        write_diff(args.format, diff, out)
    return _EXIT_OK if diff.ok else _EXIT_FAIL
