"""The ``suite`` command: the fixture corpus and generated games run against an engine
through the adapter protocol (``docs/protocol.md``), as a CI gate."""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
from typing import TYPE_CHECKING, Any, TextIO

from baloot_conformance import processes
from baloot_conformance.cli import suite_diagnosis as diagnosis
from baloot_conformance.cli.check_commands import Progress
from baloot_conformance.cli.output import TEXT_ERRORS, check_target, replaced
from baloot_conformance.rules.loading import load_ruleset

if TYPE_CHECKING:
    from baloot_conformance.suite.cases import CaseResult
    from baloot_conformance.suite.engine_process import EngineFailure

_EXIT_OK, _EXIT_FAIL, _EXIT_USAGE = 0, 1, 2

_EPILOG = """\
examples:
  baloot-conformance suite --engine ".venv/bin/python -m baloot_conformance.suite.reference_adapter"
  baloot-conformance suite --engine "node adapter.mjs" --ruleset majlis --generated 50
  baloot-conformance suite --engine ./my-adapter --fixtures 'play.*,scoring.*' --generated 0
  baloot-conformance suite --engine ./my-adapter --fixtures play.hokum.overruff,claims.sawa
  baloot-conformance suite --engine "python -m baloot_conformance.suite.reference_adapter \
      --without sawa,fouls" --fixtures 'claims.*,play.fouls.*' --generated 0
  baloot-conformance suite --engine ./my-adapter --expectations baloot-expectations.yaml \\
      --format junit --output conformance.xml
  baloot-conformance suite --engine "python -m baloot_conformance.suite.reference_adapter \\
      --protocol 2" --fixtures 'bourre.*'
{diagnosis}
verdicts: pass, fail (the first diverging observable, with the rule), error (the engine
crashed, hung or answered garbage, or its answers differ under --repeat), skip, unsupported
(a ruleset, a call to judge, a perft count, or a feature the case needs that the engine
does not declare), xfail/xpass (listed in --expectations), invalid (a defect of the corpus).

features: the handshake's "features" list says which parts of the game the engine
implements (doubling, gahwa, lock, projects, baloot, ashkal, second_round, kaboot, sawa,
fouls, kawesh, partial_transcripts); each case needs those its replay shows (the JSON
report's "features"), and a case needing one the engine does not list is unsupported,
never sent. No list: every feature (partial_transcripts with the capability 'partial').

exit codes: 0 no case failed, erred, passed unexpectedly or is invalid, no expectation is
stale or expired, and some case was checked (passed or failed); 1 otherwise; 2 usage error,
unreadable expectations file, or an engine that cannot start (the report says why).
With --baseline FILE, 1 only when a case regressed since FILE or the run went wrong (a
failure FILE holds passes the gate; see 'baloot-conformance diff --help').
protocol versions: an engine that answers the handshake with "protocol": 2 speaks version 2
(BTN 2: the trick family's fixtures, Bourre, Barbu, Hearts, under every ruleset each is read
under); --protocol 1 or 2 insists on one.
The protocol: docs/protocol.md.
""".replace("{diagnosis}", diagnosis.EPILOG)


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``suite`` to the CLI."""
    suite = subparsers.add_parser(
        "suite",
        help="run the fixture corpus and generated games against an engine (the CI gate)",
        description=(
            "Drive an engine, through its adapter (JSON Lines on stdin/stdout), through the "
            "fixture corpus and generated games: at every step it is asked what is legal, "
            "and for every hand what it computed; each case fails at its first diverging "
            "observable, with the rule ID."
        ),
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    suite.add_argument(
        "--engine",
        required=True,
        metavar="CMD",
        help="the adapter's command line (split like a shell's, run without one)",
    )
    suite.add_argument(
        "--ruleset",
        metavar="ID",
        help="only the fixtures of this ruleset, and generated games under it (default: "
        "every fixture; generated games under saudi)",
    )
    suite.add_argument(
        "--fixtures",
        default="*",
        metavar="SELECTOR",
        help="comma-separated globs over fixture ids or AREA/ID ('play.*', 'majlis/*'), "
        "which select the Sawa and foul calls a fixture judges and the perft counts it "
        "records with it, or alone by their ids ('*.sawa', '*.perft'), and rule IDs "
        "('play.hokum.overruff': the fixtures whose 'rules:' name it; an item that is both "
        "a rule ID and a glob selects what either selects); 'none' for none (default: "
        "all); '=ID' selects exactly the case ID, a fixture alone; 'fixtures list' shows "
        "what a selector takes",
    )
    suite.add_argument(
        "--generated",
        type=_count,
        default=20,
        metavar="N",
        help="how many generated games to run too (default 20)",
    )
    suite.add_argument(
        "--seed", type=int, default=0, help="game n is generated from seed SEED+n (default 0)"
    )
    suite.add_argument(
        "--expectations",
        metavar="FILE",
        help="the engine's expected failures (YAML; spec/schema/expectations.schema.json)",
    )
    suite.add_argument(
        "--update-expectations",
        action="store_true",
        help="rewrite --expectations FILE to expect exactly this run's failures",
    )
    suite.add_argument(
        "--timeout",
        type=_seconds,
        default=10.0,
        metavar="SECONDS",
        help="how long the engine may take to answer one request (default 10)",
    )
    suite.add_argument(
        "--jobs",
        type=_count,
        default=os.cpu_count() or 1,
        metavar="N",
        help="engines run at once, each with its own worker (default: all cores); the "
        "report is the same",
    )
    suite.add_argument(
        "--format",
        choices=("text", "json", "junit", "markdown"),
        default="text",
        help="report format (default text; json is JSON Lines)",
    )
    suite.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    suite.add_argument(
        "--json-output",
        metavar="FILE",
        help="also write the JSON Lines report to FILE, whatever --format is (the baseline "
        "of a later run's --baseline or diff)",
    )
    suite.add_argument(
        "--summary",
        metavar="FILE",
        help="also append the Markdown summary to FILE (e.g. $GITHUB_STEP_SUMMARY)",
    )
    suite.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="text report: a line for every case (by default passes are counted, and "
        "unsupported and skipped cases given as one line per reason)",
    )
    suite.add_argument(
        "--protocol",
        choices=("auto", "1", "2"),
        default="auto",
        help="the adapter protocol's version: 1 (Baloot, BTN 1), 2 (the trick family, BTN 2: "
        "Bourre, Barbu, Hearts fixtures), or auto (the default: version 1's handshake, and an "
        'engine that answers it with "protocol": 2 speaks version 2)',
    )
    diagnosis.add_options(suite)
    suite.set_defaults(handler=_suite)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("it cannot be negative")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError("give a number of seconds above 0, at most 3600")
    return value


def _suite(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    wrong = diagnosis.usage_problem(args)
    if wrong is not None:
        print(f"error: {wrong}", file=err)
        return _EXIT_USAGE
    if args.trace_protocol and args.trace_protocol != "-":
        check_target(args.trace_protocol, [args.output or "-", args.expectations or "-"])
    with diagnosis.protocol_trace(args, err) as trace:
        return _suite_run(args, out, err, trace)


def _suite_run(args: argparse.Namespace, out: TextIO, err: TextIO, trace: Any) -> int:
    # start-up: the suite's modules are imported when the command runs
    from baloot_conformance.report.suite_report import SuiteRun, write_report
    from baloot_conformance.suite import expectations
    from baloot_conformance.suite.runner import (
        corpus_ids,
        fixture_cases,
        generated_cases,
        run_cases,
    )
    from baloot_conformance.version import __version__

    wrong_jobs = processes.jobs_problem(args.jobs)
    if wrong_jobs:
        print(f"error: {wrong_jobs}", file=err)
        return _EXIT_USAGE
    if args.update_expectations and not args.expectations:
        print("error: --update-expectations needs --expectations FILE", file=err)
        return _EXIT_USAGE
    protocol = _PROTOCOLS[args.protocol]
    trick_ruleset = bool(args.ruleset) and _is_trick_ruleset(args.ruleset, protocol)
    if args.ruleset and not trick_ruleset:
        load_ruleset(args.ruleset)  # an unknown ruleset is a usage error, before any work
    if args.smoke and protocol == 2:
        print("error: --smoke is version 1's (Baloot): not with --protocol 2", file=err)
        return _EXIT_USAGE
    entries = []
    if args.expectations:
        entries = expectations.load(args.expectations, missing_ok=args.update_expectations)
    baseline = None
    if args.baseline:  # read before the run: an unreadable one stops it
        from baloot_conformance.cli.baseline import load_baseline

        baseline = load_baseline(args.baseline, "suite")
    read = [path for path in (args.baseline, args.expectations) if path]  # never written over
    for target in (args.output, args.json_output):
        if target:
            check_target(target, read)
    if args.update_expectations:
        check_target(args.expectations, [])
    cases = []
    if args.smoke:
        cases = diagnosis.smoke_cases(args)
    elif protocol != 2 and not trick_ruleset:
        cases = fixture_cases(args.fixtures, args.ruleset)
        cases += generated_cases(args.ruleset or "saudi", args.generated, args.seed)
    family = None
    if not cases and protocol != 1 and not args.smoke:
        family = _family_cases(args)
    if not cases and not family:
        print(f"error: no case selected (--fixtures {args.fixtures!r})", file=err)
        return _EXIT_USAGE
    try:
        engine, version = _handshake(args.engine, args.timeout, trace, protocol)
    except _NoStart as exc:
        run = SuiteRun(__version__, args.engine, None, [], fatal=exc.message)
        if args.output or args.format != "text":  # else the report on stdout says it
            print(f"error: {exc.message}", file=err)
        _write(args, run, out, write_report, err)
        return _EXIT_USAGE
    if version == 2:  # the trick family's fixtures, whatever version 1 would have run
        if args.smoke:
            print("error: --smoke is version 1's (Baloot); the engine speaks 2", file=err)
            return _EXIT_USAGE
        cases = family if family is not None else _family_cases(args)
        if not cases:
            print(f"error: no case selected (--fixtures {args.fixtures!r})", file=err)
            return _EXIT_USAGE
    elif not cases:
        print(f"error: no case selected (--fixtures {args.fixtures!r})", file=err)
        return _EXIT_USAGE
    progress = Progress(diagnosis.progress_stream(args, err), "cases", every=1, total=len(cases))
    results: list[CaseResult] = []
    running = run_cases(
        cases,
        args.engine,
        args.timeout,
        diagnosis.jobs(args),
        trace=trace,
        repeat=args.repeat,
        protocol=version,
    )
    with contextlib.closing(running):
        for result in running:  # closed on Ctrl-C or SIGTERM: it ends its engines
            results.append(result)
            progress.tick()
    progress.clear()
    if args.update_expectations:
        name = engine["name"] if engine else args.engine
        with replaced(args.expectations) as stream:
            stream.write(expectations.updated(results, entries, name))
        entries = expectations.load(args.expectations)
        print(f"wrote {args.expectations}", file=err)
    # The ids an entry may name (reading them reads the corpus again: only for entries).
    known = (corpus_ids() | {case.id for case in cases}) if entries else frozenset()
    judged, problems = expectations.apply(results, entries, known, datetime.date.today())
    run = SuiteRun(
        __version__,
        args.engine,
        engine,
        judged,
        problems,
        reruns=diagnosis.reruns(args, judged),
        smoke=args.smoke,
    )
    if not _write(args, run, out, write_report, err):
        return _EXIT_USAGE
    if baseline is not None:
        return _against(args, baseline, run, out, err)
    return _EXIT_OK if run.ok else _EXIT_FAIL


def _against(args: argparse.Namespace, baseline: Any, run: Any, out: TextIO, err: TextIO) -> int:
    """``--baseline``: the diff of the run against it, after the report (and appended to
    ``--summary`` in Markdown); the exit code is the diff's."""
    from baloot_conformance.cli import baseline as baseline_run  # only with --baseline
    from baloot_conformance.report.suite_report import write_json

    name = args.json_output or (args.output if args.format == "json" else None) or "this run"
    report = baseline_run.suite_report(write_json, run, name)
    code = baseline_run.gate(baseline, report, baseline_run.diff_stream(args, out, err))
    if args.summary:
        try:
            with open(args.summary, "a", encoding="utf-8", errors=TEXT_ERRORS) as summary:
                baseline_run.markdown(baseline, report, summary)
        except OSError as exc:
            print(f"error: {args.summary}: cannot append the diff: {exc.strerror}", file=err)
            return _EXIT_USAGE
    return code


def _write(
    args: argparse.Namespace, run: Any, stdout: TextIO, write_report: Any, err: TextIO
) -> bool:
    """The report, to --output (replaced whole) or to standard output, its JSON Lines to
    --json-output, and the Markdown summary appended to --summary; whether the summary could
    be written."""
    target = replaced(args.output) if args.output else contextlib.nullcontext(stdout)
    with target as stream:
        write_report(args.format, run, stream, args.verbose)
    if args.json_output:
        with replaced(args.json_output) as stream:
            write_report("json", run, stream)
    if args.summary:
        try:
            with open(args.summary, "a", encoding="utf-8", errors=TEXT_ERRORS) as summary:
                write_report("markdown", run, summary)
        except OSError as exc:
            print(f"error: {args.summary}: cannot append the summary: {exc.strerror}", file=err)
            return False
    return True


class _NoStart(Exception):
    """The engine does not start: one error for the run, not one per case."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _no_start(command: str, exc: EngineFailure) -> str:
    """What to say of an engine that does not start: what happened, the command, what to
    check, and the end of its standard error."""
    lines = [
        f"the engine cannot start: {exc}",
        f"the command: {command!r} (split like a shell's, run without one, in {os.getcwd()})",
        "check that it runs on its own, reads requests on standard input and answers the "
        "'start' handshake on standard output (docs/protocol.md)",
    ]
    tail = exc.stderr.rstrip("\n").split("\n")[-8:] if exc.stderr.strip() else []
    if tail:
        lines.append("its standard error ended with:")
        lines += [f"| {line}" for line in tail]
    return "\n".join(lines)


_PROTOCOLS = {"auto": 0, "1": 1, "2": 2}
"""``--protocol``'s values as :class:`~baloot_conformance.suite.engine_process.Engine` takes
them (0: the engine's answer chooses)."""


def _is_trick_ruleset(reference: str, protocol: int) -> bool:
    """Whether ``--ruleset`` names a shipped trick ruleset (version 2's), rather than a
    Baloot one: under ``--protocol 2`` it must (an unknown one is a usage error)."""
    from baloot_conformance.family.rules.loading import load_trick_ruleset, shipped_trick_rulesets

    if protocol == 2:
        load_trick_ruleset(reference)
        return True
    return protocol == 0 and reference in shipped_trick_rulesets()


def _family_cases(args: argparse.Namespace) -> list[Any]:
    """The trick family's cases ``--fixtures`` and ``--ruleset`` select (version 2)."""
    from baloot_conformance.suite.family_cases import family_cases

    return family_cases(args.fixtures, args.ruleset)


def _handshake(
    command: str, timeout: float, trace: Any = None, protocol: int = 1
) -> tuple[dict[str, Any], int]:
    """The engine's handshake, for the report's header, and the protocol version it speaks.

    Raises:
        _NoStart: the engine does not answer it (no case is run: each would fail the same).
    """
    from baloot_conformance.check.features import ordered
    from baloot_conformance.suite.engine_process import Engine, EngineFailure

    engine = Engine(command, timeout, [trace] if trace is not None else [], protocol)
    try:
        info = engine.start()
    except EngineFailure as exc:
        raise _NoStart(_no_start(command, exc)) from None
    finally:
        engine.close()
    return {
        "name": info.name,
        "version": info.version,
        "language": info.language,
        "rulesets": list(info.rulesets),
        "capabilities": sorted(info.capabilities),
        "features": ordered(info.features),
    }, info.protocol
