"""The ``suite`` options for an adapter's first minutes and for a failure's diagnosis:
``--smoke`` (a fixed selection, one case per rule area), ``--trace-protocol FILE`` (every
request and reply of the run, as JSON Lines) and ``--repeat N`` (each case N times: an
engine whose answers differ fails). The suite's own modules do the work
(:mod:`~baloot_conformance.suite.smoke`, :mod:`~baloot_conformance.suite.trace`,
:mod:`~baloot_conformance.suite.repeat`); this module reads the options, refuses what does
not combine, and opens the trace."""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from baloot_conformance.cli.output import TEXT_ERRORS

if TYPE_CHECKING:
    from baloot_conformance.suite.cases import Case, CaseResult
    from baloot_conformance.suite.trace import ProtocolTrace

EPILOG = """\
  baloot-conformance suite --engine ./my-adapter --smoke
  baloot-conformance suite --engine ./my-adapter --fixtures play.hokum.overruff.pass-2 \\
      --generated 0 --jobs 1 --trace-protocol trace.jsonl
  baloot-conformance suite --engine ./my-adapter --generated 5 --repeat 3
"""

#: The defaults of the options that choose the cases (``--smoke`` replaces them).
_SELECTION_DEFAULTS = {"fixtures": "*", "generated": 20, "seed": 0}


def add_options(suite: argparse.ArgumentParser) -> None:
    """Add ``--smoke``, ``--trace-protocol`` and ``--repeat`` to the ``suite`` parser."""
    suite.add_argument(
        "--smoke",
        action="store_true",
        help="run a small fixed selection instead: one case per rule area, a Sawa and a foul "
        "call to judge, one generated game (a first check of an adapter, not a conformance "
        "run; with --ruleset, those of that ruleset); not with --fixtures, --generated, --seed",
    )
    suite.add_argument(
        "--trace-protocol",
        metavar="FILE",
        help="write every request and reply of the run, in order, to FILE as JSON Lines, with "
        "the case and direction of each ('-': standard error); runs one engine (--jobs 1)",
    )
    suite.add_argument(
        "--repeat",
        type=_at_least_one,
        default=1,
        metavar="N",
        help="run each case N times and make it an error when the engine's answers differ "
        "between runs (timers, unseeded randomness, state kept between requests)",
    )


def _at_least_one(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("give 1 or more")
    return value


def usage_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the options together, as a usage error, or ``None``."""
    if args.smoke:
        given = [f"--{name}" for name, default in _SELECTION_DEFAULTS.items()
                 if getattr(args, name) != default]  # fmt: skip
        if given:
            return (
                f"--smoke is a fixed selection of cases: drop {', '.join(given)} (or drop "
                "--smoke to choose the cases yourself)"
            )
    return None


def smoke_cases(args: argparse.Namespace) -> list[Case]:
    """The smoke selection under ``--ruleset``."""
    from baloot_conformance.suite.smoke import smoke_cases as cases

    return cases(args.ruleset)


def jobs(args: argparse.Namespace) -> int:
    """How many engines run at once: one when the run is traced."""
    return 1 if args.trace_protocol else int(args.jobs)


@contextlib.contextmanager
def protocol_trace(args: argparse.Namespace, err: TextIO) -> Iterator[ProtocolTrace | None]:
    """The run's trace, written to ``--trace-protocol`` (``-``: ``err``), or ``None``."""
    from baloot_conformance.suite.trace import ProtocolTrace

    if not args.trace_protocol:
        yield None
    elif args.trace_protocol == "-":
        yield ProtocolTrace(err)
    else:
        with open(args.trace_protocol, "w", encoding="utf-8", errors=TEXT_ERRORS) as stream:
            yield ProtocolTrace(stream)


def reruns(args: argparse.Namespace, results: list[CaseResult]) -> dict[str, str]:
    """The command that reruns each case failing the run, with its trace, by case id."""
    from baloot_conformance.suite.smoke import reruns as commands

    return commands(
        [(result.case, result.verdict) for result in results],
        args.engine,
        args.timeout,
        repeat=args.repeat,
    )


def progress_stream(args: argparse.Namespace, err: TextIO) -> TextIO:
    """Where the progress line goes: nowhere when the trace is written to standard error."""
    return io.StringIO() if args.trace_protocol == "-" else err
