"""The ``baloot-conformance`` command: a thin argparse layer over the library.

Each command group lives in its own module with a ``register(subparsers)`` function that adds
its sub-commands; every sub-command's handler takes the parsed arguments and the output streams
and returns the exit code. This module computes no rules and reads no data itself.

Exit codes, for every command: 0 success, 1 the input was checked and found invalid or
non-conformant, 2 usage error or unreadable input. A :class:`~baloot_conformance.errors.BalootError`
is printed as its message (never a traceback).
"""

from __future__ import annotations

import argparse
import difflib
import gc
import io
import re
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn, TextIO, cast

from baloot_conformance import build_kind, processes
from baloot_conformance.cli import (
    btn_commands,
    check_commands,
    dashboard_commands,
    diff_commands,
    fixture_commands,
    generate_commands,
    perft_commands,
    show_commands,
    spec_commands,
    suite_commands,
)
from baloot_conformance.cli.output import Unbroken
from baloot_conformance.errors import BalootError
from baloot_conformance.version import __version__

#: The signature of a sub-command handler.
Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2

_EPILOG = """\
exit codes: 0 success, 1 invalid or non-conformant input, 2 usage error or unreadable input.
Run 'baloot-conformance COMMAND --help' for the options of a command.
"""


class _Parser(argparse.ArgumentParser):
    """argparse with a suggestion for a mistyped command or option, and an unknown option
    reported with the usage of the command it was given to (not the top level's)."""

    def error(self, message: str) -> NoReturn:
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if choice:
            names = re.findall(r"'([^']*)'", choice.group(2))
            message += _did_you_mean(choice.group(1), names)
        super().error(message)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command: _Parser = getattr(parsed, "parser", self)
            known = [o for action in command._actions for o in action.option_strings]
            unknown = extras[0].split("=")[0]
            command.error(
                f"unrecognized arguments: {' '.join(extras)}" + _did_you_mean(unknown, known)
            )
        return parsed


def _did_you_mean(word: str, names: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (exposed for tests and for generated docs)."""
    parser = _Parser(
        prog="baloot-conformance",
        description="The Baloot rulebook as data, and a conformance kit for Baloot engines.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__} ({build_kind.describe()})"
    )
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module in (
        check_commands,
        generate_commands,
        suite_commands,
        show_commands,
        spec_commands,
        btn_commands,
        fixture_commands,
        dashboard_commands,
        diff_commands,
        perft_commands,
    ):
        module.register(subparsers)
    spec_commands.register_infer(subparsers)
    for command in subparsers.choices.values():
        command.set_defaults(parser=command)  # for an unknown option's message
        for action in command._actions:  # a command's own sub-commands (spec list, ...)
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    sub.set_defaults(parser=sub)
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line ``argv`` and return its exit code."""
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed its usage message
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(err)
        return EXIT_USAGE
    try:
        # Standard output and error that a closed pipe (`... | head -1`) does not stop: every
        # command runs to its end and its exit code keeps the verdict, its files written.
        return handler(args, cast(TextIO, Unbroken(out)), cast(TextIO, Unbroken(err)))
    except BalootError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_USAGE
    except OSError as exc:  # a file a command made or removed (a folder, an old page)
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"error: {where}{exc.strerror or exc}", file=err)
        return EXIT_USAGE
    except processes.Terminated:
        print("terminated", file=err)
        return processes.EXIT_TERMINATED
    except KeyboardInterrupt:
        print("interrupted", file=err)
        return 130


def run() -> NoReturn:
    """The console entry point (``baloot-conformance``, ``python -m baloot_conformance``):
    :func:`main` in a process of its own."""
    # Checking allocates millions of short-lived objects, all freed by reference counting; the
    # cycle collector only slows it down (by a few per cent). So keep what start-up built out
    # of its reach and let it run less often. Not in main(), which tests call in one process.
    gc.freeze()
    gc.set_threshold(10_000, 50, 50)
    processes.install_handlers()
    # A text that cannot be encoded (a lone surrogate an engine sent) is written escaped,
    # never a crash: the same policy as every output file (cli.output).
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(errors="backslashreplace")
    sys.exit(main())
