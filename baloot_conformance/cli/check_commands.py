"""``check`` (the CI gate): a thin layer over :mod:`baloot_conformance.check.run` and
:mod:`baloot_conformance.report`."""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import importlib
import io
import itertools
import multiprocessing
import os
import pickle
import re
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, Literal, NamedTuple, TextIO, cast

from baloot_conformance import btn, processes
from baloot_conformance.btn.reader import UnknownVersion
from baloot_conformance.btn.runs import iter_game_runs, repeats_hand_numbers
from baloot_conformance.check.features import check_declared
from baloot_conformance.check.hand_check import REQUIRABLE
from baloot_conformance.check.run import (
    check_hands,
    check_transcript,
    engine_of,
    ruleset_of,
    ruleset_tag,
)
from baloot_conformance.check.verdicts import (
    EngineId,
    FileError,
    HandVerdict,
    RunHeader,
    RunSummary,
)
from baloot_conformance.cli import check_features
from baloot_conformance.cli.inputs import Inputs, expand, is_stream
from baloot_conformance.cli.output import replaced
from baloot_conformance.errors import BalootError, UnreadableInputError
from baloot_conformance.report import FORMATS, make_reporter
from baloot_conformance.report.base import NOTHING_CHECKED
from baloot_conformance.report.jsonl import JsonLinesReporter
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.version import __version__

_EXIT_OK, _EXIT_FAIL, _EXIT_USAGE = 0, 1, 2

_CHECK_EPILOG = """\
examples:
  baloot-conformance check games/*.btn --ruleset saudi
  baloot-conformance check game.btn --format junit --output report.xml
  my-engine --log-btn | baloot-conformance check -

exit codes: 0 every hand conforms, 1 some hand does not (or cannot be replayed),
2 usage error or unreadable input (a missing file, a file that is not BTN).
A hand whose divergences all follow from engine defects the ruleset lists (its
'defects:') is reported as known-defect, counted apart; it fails the run only with
--fail-on-known-defects. With --baseline FILE (an earlier 'check --format json'
report), 1 only when a hand regressed since FILE or the run checked nothing (see
'baloot-conformance diff --help').
"""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``check`` to the CLI."""
    check = subparsers.add_parser(
        "check",
        help="check transcripts against a ruleset (the CI gate)",
        description=(
            "Replay every hand of each BTN transcript under a ruleset: every event is "
            "checked for legality and every claim against the reference interpreter. Each "
            "divergence is reported with its position, file:line:col and rule ID."
        ),
        epilog=_CHECK_EPILOG + "\n" + check_features.EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument(
        "files", nargs="*", metavar="FILE", help="transcripts, globs, or - for standard input"
    )
    check.add_argument(
        "--ruleset",
        metavar="ID|PATH",
        help="the ruleset to check against (default: each file's [Ruleset] tag)",
    )
    check.add_argument(
        "--require",
        metavar="NAMES",
        default="",
        help="comma-separated claims every hand must carry, for a strict gate: "
        + ", ".join(REQUIRABLE)
        + " (or 'all'); 'auction' fails a hand whose auction is not logged",
    )
    check.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="report format (default text; json is JSON Lines; html is one self-contained "
        "page with each failing hand drawn)",
    )
    check.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    check.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="worker processes (default: all cores): files, and the games within a file, are "
        "checked in parallel; the report's order is the same",
    )
    check.add_argument(
        "--executor",
        choices=("local", "dask"),
        default="local",
        help="where the workers run: local processes (default), or a Dask cluster "
        "(pip install 'baloot-conformance[dask]'; the report is the same)",
    )
    check.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --executor dask: the scheduler's address (tcp://host:8786); default: a "
        "local cluster of --jobs workers",
    )
    check.add_argument(
        "--fail-fast", action="store_true", help="stop at the first hand that does not pass"
    )
    check.add_argument(
        "--fail-on-known-defects",
        action="store_true",
        help="count a hand explained by the engine defects the ruleset lists (status "
        "known-defect) as a failure: exit 1 (default: reported and counted apart, exit 0)",
    )
    check.add_argument(
        "--diagram",
        action="store_true",
        help="text report: draw the table under each root divergence (the seats' cards, the "
        "trick, the card played and the legal ones)",
    )
    check.add_argument(
        "--no-color", action="store_true", help="no colour in the text report (also NO_COLOR)"
    )
    check.add_argument(
        "--reference-replay",
        action="store_true",
        help="replay every hand on the reference path, without the fast lane for hands that "
        "pass (the report is the same, only slower)",
    )
    check_features.add_option(check)
    check.set_defaults(handler=_check)


# --- check --------------------------------------------------------------------------------


def _required(text: str) -> frozenset[str]:
    names = {n.strip() for n in text.split(",") if n.strip()}
    if "all" in names:
        return frozenset(REQUIRABLE)
    unknown = sorted(names - set(REQUIRABLE))
    if unknown:
        raise UnreadableInputError(
            f"--require: unknown name(s) {', '.join(unknown)}",
            hint="names: " + ", ".join(REQUIRABLE) + ", or all",
        )
    return frozenset(names)


def _check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    wrong_jobs = processes.jobs_problem(args.jobs)
    if wrong_jobs:
        print(f"error: {wrong_jobs}", file=err)
        return _EXIT_USAGE
    if args.scheduler and args.executor != "dask":
        print("error: --scheduler needs --executor dask", file=err)
        return _EXIT_USAGE
    if args.baseline and args.fail_fast:
        print("error: --baseline compares whole runs: drop --fail-fast", file=err)
        return _EXIT_USAGE
    baseline = None
    if args.baseline:  # read before the run: an unreadable one stops it
        from baloot_conformance.cli.baseline import load_baseline

        baseline = load_baseline(args.baseline, "check")
    required = _required(args.require)
    declared = check_features.declared(args)
    patterns = args.files or (["-"] if not sys.stdin.isatty() else [])
    if not patterns:
        print("error: no transcript given (name files, globs, or - for stdin)", file=err)
        return _EXIT_USAGE
    inputs = expand(patterns)
    files = inputs.names
    ruleset = _load(args.ruleset) if args.ruleset else None
    header = RunHeader(
        kit_version=__version__,
        ruleset_id=ruleset.id if ruleset else None,
        ruleset_version=ruleset.version if ruleset else None,
        ruleset_digest=ruleset.digest if ruleset else None,
    )
    read = [*files, args.baseline] if args.baseline else files  # never written over
    target = replaced(args.output, read) if args.output else contextlib.nullcontext(out)
    with target as stream:
        color = (
            not args.output
            and not args.no_color
            and "NO_COLOR" not in os.environ
            and stream.isatty()
        )
        defects_fail = bool(args.fail_on_known_defects)
        reporter = make_reporter(
            args.format, stream, color=bool(color), ruleset=ruleset, defects_fail=defects_fail
        )
        recording = None
        if baseline is not None:  # the run's records kept for the diff after it
            name = args.output if args.output and args.format == "json" else "this run"
            from baloot_conformance.cli.baseline import Recording

            reporter = recording = Recording(reporter, name)
        reporter.start(header)
        progress = Progress(err)
        passed = failed = known = unsupported = errors = divergences = unreadable = 0
        pictures = args.diagram or args.format == "html"
        fast = not args.reference_replay
        options = (required, pictures, fast, args.format == "json", declared)
        runs = (
            _run_dask(inputs, args.ruleset, options, args.jobs, args.scheduler)
            if args.executor == "dask"
            else _run(inputs, args.ruleset, options, args.jobs)
        )
        broken = False  # the file being read stopped at an error: its later runs are dropped
        opened = 0  # how many of the files the run has reached
        stopped: str | None = None
        # Closed however the loop ends (--fail-fast, an error): the workers' pool goes with it,
        # now, even where a caller in this process keeps the generator alive.
        with contextlib.closing(runs):
            for verdicts, problems, continues in runs:
                opened += not continues
                if continues and broken:
                    continue  # as a single reader, which stops at the error
                for verdict in verdicts:
                    if isinstance(verdict, Rendered):  # a worker wrote its JSON line already
                        cast(JsonLinesReporter, reporter).hand_line(verdict.line)
                        status, found = verdict.status, verdict.divergences
                    else:
                        reporter.hand(verdict)
                        status, found = verdict.status, len(verdict.divergences)
                    progress.tick()
                    divergences += found
                    if status == "pass":
                        passed += 1
                    elif status == "fail":
                        failed += 1
                    elif status == "known-defect":
                        known += 1
                    elif status == "unsupported":
                        unsupported += 1
                    else:
                        errors += 1
                    if (
                        args.fail_fast
                        and status not in ("pass", "unsupported")
                        and (status != "known-defect" or defects_fail)
                    ):
                        stopped = f"{files[opened - 1]} {verdict.position}"
                        break
                broken = bool(problems)  # known once the verdicts are read (they stream)
                for problem in problems:
                    unreadable += 1
                    progress.clear()
                    if args.output or args.format != "text":  # else the report on stdout says it
                        print(f"error: {problem.message}", file=err)
                    reporter.file_error(problem)
                if args.fail_fast and (failed or errors or unreadable or (defects_fail and known)):
                    stopped = stopped or files[opened - 1]
                    break
        progress.clear()
        summary = RunSummary(
            len(files),
            passed + failed + known + unsupported + errors,
            passed,
            failed,
            errors,
            divergences,
            unreadable,
            stopped,
            tuple(files[opened:]) if stopped else (),
            known_defects=known,
            defects_fail=defects_fail,
            unsupported=unsupported,
        )
        reporter.finish(summary)
    if summary.nothing_checked and (args.output or args.format != "text"):
        print(f"error: {NOTHING_CHECKED}", file=err)  # else the report on stdout says it
    if unreadable:
        return _EXIT_USAGE
    if baseline is not None and recording is not None:
        from baloot_conformance.cli.baseline import diff_stream, gate

        return gate(baseline, recording.report(), diff_stream(args, out, err))
    return _EXIT_OK if summary.ok else _EXIT_FAIL


def _run(
    inputs: Inputs, reference: str | None, options: _Options, jobs: int
) -> Generator[tuple[Iterable[HandVerdict | Rendered], list[FileError], bool], None, None]:
    """Verdicts and, once they are read, problems, in file and hand order, each with whether
    it continues the file before it (a run after a file's first).

    With one job each file streams. With more, each file is cut into runs of whole games
    (at hands that :func:`~baloot_conformance.check.run.starts_game`), worker processes parse
    and check the runs, and the results come back in order, at most a few runs per worker
    in flight, so memory stays bounded whatever the number of hands.
    """
    if jobs == 1:
        for path in inputs.names:
            problems: list[FileError] = []
            if path in inputs.problems:
                problems.append(FileError(path, inputs.problems[path]))
                yield [], problems, False
                continue
            yield _verdicts(path, reference, options, problems), problems, False
        return
    tasks = _tasks(inputs, reference, options)
    head = list(itertools.islice(tasks, 2))
    if len(head) == 1:  # nothing to share out: check it here, streaming
        problems = []
        yield _task_verdicts(head[0], problems), problems, False
        return
    gc.freeze()  # the workers inherit the heap: a collection in them must not copy it
    with multiprocessing.get_context("fork").Pool(jobs, processes.quiet_worker) as pool:

        def submit(task: _Task) -> Callable[[], _Result]:
            result = pool.apply_async(_check_task_pickled, (task,))
            return lambda: cast(_Result, pickle.loads(result.get()))

        yield from _in_order(itertools.chain(head, tasks), submit, 3 * jobs)


def _in_order(
    tasks: Iterable[_Task], submit: Callable[[_Task], Callable[[], _Result]], in_flight: int
) -> Iterator[tuple[Iterable[HandVerdict | Rendered], list[FileError], bool]]:
    """The tasks' results in order, at most ``in_flight`` submitted ahead. A stream (standard
    input, a pipe) is read once, here, as it comes, after the results before it."""
    pending: deque[Callable[[], _Result]] = deque()
    for task in tasks:
        if task[3] == _STREAM:
            while pending:
                yield pending.popleft()()
            problems: list[FileError] = []
            yield _verdicts(task[0], task[1], task[2], problems), problems, False
            continue
        pending.append(submit(task))
        if len(pending) >= in_flight:
            yield pending.popleft()()
    while pending:
        yield pending.popleft()()


_Options = tuple[frozenset[str], bool, bool, bool, frozenset[str] | None]
"""The required claims, whether root divergences carry a picture of the table, whether hands
may take the fast lane, whether a worker sends back each hand's JSON line (the report is
JSON Lines) rather than its verdict, and the ``--features`` declared (``None``: all)."""


class Rendered(NamedTuple):
    """A hand's verdict as a worker sends it back for a JSON Lines report: what the run's
    counts need, and the report's line for it (:func:`~baloot_conformance.report.jsonl.
    render_hand`), so that the parent process only writes it."""

    status: str
    position: str
    divergences: int
    line: str


def _run_dask(
    inputs: Inputs, reference: str | None, options: _Options, jobs: int, scheduler: str | None
) -> Generator[tuple[Iterable[HandVerdict | Rendered], list[FileError], bool], None, None]:
    """:func:`_run` on a Dask cluster: the same tasks (runs of whole games), each checked by
    :func:`_check_task` on a worker, the results gathered in order with a bounded number in
    flight. Without a scheduler, a local cluster of ``jobs`` worker processes."""
    try:  # untyped: used through Any
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise UnreadableInputError(
            "--executor dask needs Dask: pip install 'baloot-conformance[dask]'"
        ) from None
    if scheduler:
        client = _connect(distributed, scheduler)
        cluster = None
    else:
        cluster = distributed.LocalCluster(
            n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = distributed.Client(cluster)
    try:
        in_flight = 4 * max(1, len(client.scheduler_info().get("workers", {})))

        def submit(task: _Task) -> Callable[[], _Result]:
            return cast(Callable[[], _Result], client.submit(_check_task, task, pure=False).result)

        yield from _in_order(_tasks(inputs, reference, options), submit, in_flight)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _connect(distributed: Any, scheduler: str) -> Any:
    """A client of the Dask scheduler at ``scheduler``, or a usage error saying why not."""
    address = re.fullmatch(r"(?:(tcp|tls|inproc|ucx)://)?([^:/\s]+):(\d{1,5})", scheduler)
    if address is None or not 0 < int(address.group(3)) < 65536:
        raise UnreadableInputError(
            f"--scheduler {scheduler!r}: not a scheduler address",
            hint="give tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786 (the port 1 to 65535)",
        )
    try:
        return distributed.Client(scheduler, timeout="30s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise UnreadableInputError(
            f"--scheduler {scheduler}: cannot reach the Dask scheduler: {exc}",
            hint="is `dask scheduler` running there, and is its port open to this machine?",
        ) from None


_Result = tuple[list[HandVerdict] | list[Rendered], list[FileError], bool]
"""A worker's verdicts, the file's problems, and whether the run continues a file (after
its first run)."""

_STREAM: Literal["stream"] = "stream"
"""A task's last part for a stream (standard input, a pipe): the parent reads it itself."""

#: A worker's job: a file, a ruleset reference, the options, and either a run of
#: whole games cut from the file (its text, its first line and the engine its header names),
#: ``None`` for the whole file, :data:`_STREAM`, or why the file cannot be read (a
#: :class:`FileError`).
_Task = tuple[
    str,
    str | None,
    _Options,
    tuple[bytes, int, EngineId | None] | FileError | Literal["stream"] | None,
]
_RUN_HANDS = 100  # hands per run, at least: enough to outweigh starting a job


def _tasks(inputs: Inputs, reference: str | None, options: _Options) -> Iterator[_Task]:
    for path in inputs.names:
        if path in inputs.problems:
            yield path, reference, options, FileError(path, inputs.problems[path])
            continue
        if is_stream(path):  # read once, as it comes: never cut, never sent to a worker
            yield path, reference, options, _STREAM
            continue
        runs = _game_runs(path)
        if runs is None:
            yield path, reference, options, None
            continue
        ruleset = reference or runs[0]
        for data, first in runs[2]:
            yield path, ruleset, options, (data, first, runs[1])


def _game_runs(path: str) -> tuple[str, EngineId | None, Iterator[tuple[bytes, int]]] | None:
    """The file's ruleset tag, the engine it names and its data cut into runs of whole
    games, read as a stream (a first pass checks that the file can be cut); ``None`` when it
    cannot (its header reads badly, it repeats a hand number, or it is a single run): a
    worker then reads it whole."""
    try:
        with btn.TranscriptReader(path) as reader:
            tag = ruleset_tag(reader)
            engine = engine_of(reader.header)
            ruleset_of(reader)  # a tag that names no shipped ruleset: reported whole
        with btn.open_source(path) as stream:
            if repeats_hand_numbers(stream):
                return None
        with btn.open_source(path) as stream:
            runs = iter_game_runs(stream, _RUN_HANDS)
            if sum(1 for _ in itertools.islice(runs, 2)) < 2:
                return None
    except (BalootError, OSError, EOFError):
        return None
    return tag, engine, _stream_runs(path)


def _stream_runs(path: str) -> Iterator[tuple[bytes, int]]:
    with btn.open_source(path) as stream:
        yield from iter_game_runs(stream, _RUN_HANDS)


def _check_task(task: _Task) -> _Result:
    """A worker's job: a whole file, or a run of games cut from one."""
    problems: list[FileError] = []
    run = task[3]
    continues = isinstance(run, tuple) and run[1] > 1
    if task[2][3]:
        from baloot_conformance.report.jsonl import render_hand

        rendered = [
            Rendered(v.status, v.position, len(v.divergences), render_hand(v))
            for v in _task_verdicts(task, problems)
        ]
        return rendered, problems, continues
    return list(_task_verdicts(task, problems)), problems, continues


def _check_task_pickled(task: _Task) -> bytes:
    """:func:`_check_task`, its result pickled by the worker: the parent unpickles it itself,
    so that a result that fails to unpickle raises there (the pool's own unpickling would die
    in its result thread and leave the parent waiting for ever)."""
    return pickle.dumps(_check_task(task), pickle.HIGHEST_PROTOCOL)


def _task_verdicts(task: _Task, problems: list[FileError]) -> Iterator[HandVerdict]:
    path, reference, options, run = task
    if isinstance(run, FileError):
        problems.append(run)
        return
    if isinstance(run, str):  # a stream
        yield from _verdicts(path, reference, options, problems)
        return
    if run is None or run[1] == 1:
        source = None if run is None else io.BytesIO(run[0])
        yield from _verdicts(path, reference, options, problems, source)
        return
    try:
        ruleset = _load(reference or "")
        reader = btn.TranscriptReader.for_hands(run[0], path, run[1])
        required, pictures, fast, _, features = options
        if features is not None:
            yield from check_declared(
                reader, path, ruleset, features, required, pictures, engine=run[2]
            )
            return
        yield from check_hands(
            reader, path, ruleset, required, pictures=pictures, fast=fast, engine=run[2]
        )
    except BalootError as exc:
        problems.append(FileError(path, str(exc)))


@functools.lru_cache(maxsize=16)
def _load(reference: str) -> Ruleset:
    """A ruleset named on the command line, loaded once per process: a Baloot one, or (only
    once a Baloot load has failed, so that a Baloot run pays nothing for it) a trick
    family's, which only a BTN 2 file may be checked under."""
    try:
        return load_ruleset(reference)
    except BalootError:
        from baloot_conformance.cli import trick_family

        if not trick_family.names_trick_ruleset(reference):
            raise
        return cast(Ruleset, trick_family.load(reference))


def _verdicts(
    path: str,
    reference: str | None,
    options: _Options,
    problems: list[FileError],
    source: Any = None,
) -> Iterator[HandVerdict]:
    """The verdicts of one file, streamed; a problem reading it is appended to ``problems``."""
    try:
        ruleset = _load(reference) if reference else None
        if source is None and path == "-":
            source = sys.stdin.buffer
            if _stdin_is_btn2():
                yield from _btn2_verdicts(path, ruleset, options)
                return
        elif source is None:
            source = path
        required, pictures, fast, _, features = options
        if ruleset is not None and getattr(ruleset, "format", None) is not None:
            from baloot_conformance.cli import trick_family

            if not _is_btn2_file(path):
                raise trick_family.refuse_baloot_file(path, cast(Any, ruleset))
            yield from _btn2_verdicts(path, ruleset, options)
            return
        if features is not None:
            yield from check_features.transcript_verdicts(
                source, path, ruleset, features, required, pictures
            )
            return
        yield from check_transcript(source, path, ruleset, required, pictures, fast)
    except UnknownVersion as exc:
        if exc.major != 2 or path == "-":
            problems.append(FileError(path, str(exc)))
            return
        try:
            yield from _btn2_verdicts(path, None, options)
        except BalootError as error:
            problems.append(FileError(path, str(error)))
    except BalootError as exc:
        problems.append(FileError(path, str(exc)))


def _stdin_is_btn2() -> bool:
    """Standard input peeked at for BTN 2's version line (a Baloot run only peeks)."""
    from baloot_conformance.cli import trick_family

    return trick_family.stdin_is_btn2()


def _is_btn2_file(path: str) -> bool:
    from baloot_conformance.cli import trick_family

    return trick_family.is_btn2_file(path)


def _btn2_verdicts(path: str, ruleset: object | None, options: _Options) -> Iterator[HandVerdict]:
    """A BTN 2 file's verdicts (the trick family); the options it cannot honour yet are
    refused, never ignored."""
    from baloot_conformance.cli import trick_family

    required, pictures, fast, _, features = options
    if features is not None:
        raise UnreadableInputError(
            f"{path}: --features applies to Baloot transcripts; this is a BTN 2 transcript",
            hint="check BTN 2 transcripts without --features",
        )
    if required:
        raise UnreadableInputError(
            f"{path}: --require applies to Baloot transcripts; this is a BTN 2 transcript",
            hint="check BTN 2 transcripts without --require",
        )
    yield from trick_family.verdicts(path, ruleset, pictures, fast)


class Progress:
    """A one-line count on stderr, for long runs on a terminal only: ``checked 1,200 hands
    (3,000/s)``, or with a ``total``, ``ran 120 of 468 cases (12/s)``."""

    def __init__(
        self, err: TextIO, noun: str = "hands", every: int = 100, total: int | None = None
    ) -> None:
        self.err = err
        self.active = err.isatty()
        self.noun, self.every, self.total = noun, every, total
        self.count = 0
        self.start = time.monotonic()
        self.shown = 0.0

    def tick(self) -> None:
        self.count += 1
        if not self.active or self.count % self.every:
            return
        now = time.monotonic()
        if now - self.start > 1 and now - self.shown > 0.25:
            rate = self.count / (now - self.start)
            done = (
                f"ran {self.count:,} of {self.total:,}" if self.total else f"checked {self.count:,}"
            )
            self.err.write(f"\r{done} {self.noun} ({rate:,.0f}/s)")
            self.err.flush()
            self.shown = now

    def clear(self) -> None:
        if self.active and self.shown:
            self.err.write("\r\033[K")
            self.err.flush()
            self.shown = 0.0
