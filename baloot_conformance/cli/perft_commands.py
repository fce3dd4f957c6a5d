"""``perft``: the number of legal continuations from a position of a transcript, to a depth
in plies, and with ``--divide`` the count per first ply, as chess engines' ``go perft``
prints them: a move generator's counts, compared with these, show where it goes wrong."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, TextIO

from baloot_conformance.btn import TranscriptReader
from baloot_conformance.check.perft import MAX_DEPTH, PerftError, perft_at, position_name
from baloot_conformance.check.run import ruleset_of
from baloot_conformance.report.base import one_line
from baloot_conformance.rules.loading import load_ruleset

_EXIT_OK, _EXIT_USAGE = 0, 2

_DESCRIPTION = """\
Count the sequences of D plies that may follow a position of a transcript (perft, as chess
engines count moves). A ply is a choice of the seat to act: a call of the auction, a raise
or a pass of the raise chain, the lock choice, a card. Declarations, the Baloot
announcement, a Sawa, a foul call and a Kawesh are not plies, nor is the completion of the
deal: from a position in the auction the count stops at the call that ends it (the
transcript records only the completion its own auction led to); from the raises on it runs
to the end of the hand, never into the next. With --divide, the count of each first ply, in
a stable order (calls, then cards), then the total: where an engine's counts differ, its
move generation differs, and dividing again from that ply finds the position.

The position is just before an event: --hand N --trick T (the first card of trick T),
--hand N --auction (the first call), or an event's position (h2.t3.p2, h1.bid5). It must
come before the transcript's first illegal event."""

_EPILOG = f"""\
examples:
  baloot-conformance perft examples/conforming-game.btn --hand 1 --trick 6 --depth 4
  baloot-conformance perft examples/conforming-game.btn --hand 2 --auction --depth 3 --divide
  baloot-conformance perft game.btn h1.t7.p2 --depth 2 --format json

The depth is at most {MAX_DEPTH}; counts grow about tenfold a ply in the play.
exit codes: 0 counted, 2 usage error, unreadable file or a position that cannot be counted."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``perft`` to the CLI."""
    perft = subparsers.add_parser(
        "perft",
        help="count the legal continuations of a position to a depth (perft)",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    perft.add_argument("file", metavar="FILE", help="a BTN transcript")
    perft.add_argument(
        "position",
        nargs="?",
        metavar="POSITION",
        help="the event to count from (h2.t3.p2, h1.bid5), instead of --hand and --trick",
    )
    perft.add_argument(
        "--hand", type=int, metavar="N", help="the hand's number (default: the first)"
    )
    where = perft.add_mutually_exclusive_group()
    where.add_argument(
        "--trick", type=int, metavar="T", help="before the first card of trick T (1-8)"
    )
    where.add_argument("--auction", action="store_true", help="before the hand's first call")
    perft.add_argument(
        "--depth", type=int, required=True, metavar="D", help="the number of plies to count"
    )
    perft.add_argument("--divide", action="store_true", help="the count of each first ply too")
    perft.add_argument(
        "--ruleset", metavar="ID|PATH", help="the ruleset (default: the file's [Ruleset] tag)"
    )
    perft.add_argument(
        "--format", choices=("text", "json"), default="text", help="output (default text)"
    )
    perft.set_defaults(handler=_perft)


def _perft(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    chosen = args.trick is not None or args.auction
    if args.position is not None and (chosen or args.hand is not None):
        return _usage(args, err, "a POSITION is given without --hand, --trick and --auction")
    if args.position is None and not chosen:
        return _usage(
            args, err, "no position: give --trick T or --auction (with --hand N), or a POSITION"
        )
    with TranscriptReader(Path(args.file), args.file) as reader:
        rules = load_ruleset(args.ruleset) if args.ruleset else ruleset_of(reader)
        hands = list(reader)
    position = args.position
    if position is None:
        number = args.hand if args.hand is not None else (hands[0].number if hands else 1)
        if args.trick is not None and not 1 <= args.trick <= 8:
            return _usage(args, err, f"--trick is a trick of the hand, 1 to 8, not {args.trick}")
        position = position_name(number, None if args.auction else args.trick)
    try:
        counted = perft_at(hands, rules, position, args.depth, args.divide)
    except PerftError as exc:
        print(one_line(f"error: {args.file}: {exc.message}"), file=err)
        if exc.hint:
            print(f"hint: {exc.hint}", file=err)
        return _EXIT_USAGE
    if args.format == "json":
        out.write(json.dumps(counted.to_json()) + "\n")
        return _EXIT_OK
    for words, nodes in counted.divide or ():
        out.write(f"{words}: {nodes}\n")
    if counted.divide is not None:
        out.write("\n")
    out.write(f"Nodes searched: {counted.nodes}\n")
    return _EXIT_OK


def _usage(args: argparse.Namespace, err: TextIO, message: str) -> int:
    print(f"error: {one_line(args.file)}: {message}", file=err)
    print("hint: see baloot-conformance perft --help", file=err)
    return _EXIT_USAGE
