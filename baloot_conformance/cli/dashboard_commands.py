"""``dashboard``: a static site of every engine against every rule area, from the JSON Lines
reports of ``check`` and ``suite`` (:mod:`~baloot_conformance.report.dashboard`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from baloot_conformance.errors import UnreadableInputError

if TYPE_CHECKING:  # the reports' modules are imported by the command alone: a quick start-up
    from baloot_conformance.report.dashboard_input import EngineLabel

_EXIT_OK = 0


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``dashboard`` to the CLI."""
    command = subparsers.add_parser(
        "dashboard",
        help="build a static conformance site from check and suite reports",
        description=(
            "Read JSON Lines reports of 'check --format json' and 'suite --format json' and "
            "write a static site into --to: a matrix of engines (a row per engine, version "
            "and ruleset) by rule areas with pass, fail, known-defect and unsupported counts, "
            "each cell linking to its failing cases drawn as tables; a page per engine (its "
            "rulesets, its inferred profile, its defects, its history across the versions "
            "the reports hold, older reports first); a page per rule (the engines that fail "
            "it, and which fails it alone); SVG badges and shields.io endpoint JSON per engine "
            "and ruleset. No script, no network request; links are relative. A check hand "
            "names its engine by its transcript's [Engine] and [EngineVersion] tags, a suite "
            "report by the engine's handshake; --engine names it for a report instead."
        ),
        epilog="exit codes: 0 the site is written, 2 usage error or unreadable report.\n"
        "example:\n  baloot-conformance check --format json -o v1.jsonl logs-v1/\n"
        "  baloot-conformance check --format json -o v2.jsonl logs-v2/\n"
        "  baloot-conformance dashboard v1.jsonl v2.jsonl --to site/ "
        "--engine v1.jsonl=my-engine@1.0 --engine v2.jsonl=my-engine@1.1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.add_argument(
        "reports", nargs="+", metavar="REPORT", help="JSON Lines reports of check or suite"
    )
    command.add_argument(
        "--to", required=True, metavar="DIR", help="the site's folder: new, empty, or a site"
    )
    command.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="REPORT=NAME[@VERSION]",
        help="name the engine of every result of REPORT (repeat for several reports)",
    )
    command.add_argument(
        "--note", default="", metavar="TEXT", help="a paragraph for the top of the index page"
    )
    command.add_argument(
        "--diagrams",
        type=int,
        default=5,
        metavar="N",
        help="draw the table for the first N failing cases of each cell (default 5)",
    )
    command.add_argument(
        "--no-infer",
        action="store_true",
        help="do not rank the shipped rulesets on each engine's transcripts (the slow part)",
    )
    command.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    command.set_defaults(handler=_dashboard)


def _labels(given: list[str], reports: list[str]) -> dict[str, EngineLabel]:
    from baloot_conformance.report.dashboard_input import EngineLabel

    labels: dict[str, EngineLabel] = {}
    for text in given:
        report, equals, label = text.rpartition("=")
        if not equals or not report or not label.strip():
            raise UnreadableInputError(
                f"--engine {text!r}: expected REPORT=NAME[@VERSION]",
                hint="e.g. --engine reports/v2.jsonl=my-engine@2.0",
            )
        if report not in reports:
            raise UnreadableInputError(
                f"--engine {text!r}: {report!r} is not one of the reports given",
                hint="name the report as it is given: " + ", ".join(reports),
            )
        labels[report] = EngineLabel.parse(label.strip())
    return labels


def _dashboard(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from baloot_conformance.report.dashboard import build
    from baloot_conformance.report.dashboard_input import read_report
    from baloot_conformance.report.dashboard_pages import pages, site_files, write_site

    if args.diagrams < 0:
        raise UnreadableInputError(
            f"--diagrams {args.diagrams}: expected 0 or more", hint="e.g. --diagrams 5"
        )
    twice = sorted({path for path in args.reports if args.reports.count(path) > 1})
    if twice:
        raise UnreadableInputError(
            f"the report {twice[0]} is given twice: its results would count twice",
            hint="give each report once",
        )
    site_files(Path(args.to))  # a folder it may not write to is refused before any work
    labels = _labels(args.engine, args.reports)
    reports = [read_report(path, labels.get(path)) for path in args.reports]
    if not any(report.results for report in reports):
        raise UnreadableInputError(
            "the reports hold no result (no hand, no case): there is nothing to show",
            hint="check the reports' runs: " + ", ".join(args.reports),
        )
    say = None if args.quiet else (lambda line: print(line, file=err))
    board = build(reports, infer=not args.no_infer, progress=say)
    files = pages(board, note=args.note, diagrams=args.diagrams)
    write_site(Path(args.to), files)
    results = sum(len(report.results) for report in reports)
    print(
        f"wrote {args.to}: {len(board.rows)} rows ({len(board.engines)} engines), "
        f"{len(board.rules)} rule pages, {results} results",
        file=out,
    )
    return _EXIT_OK
