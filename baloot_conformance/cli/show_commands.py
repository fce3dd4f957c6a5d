"""``show``: a hand drawn as a table in the terminal (or as an HTML page), at a trick or at
any position (a Sawa or a foul call with its verdict and line). A BTN 2 file (the trick
family's notation) is turned over to the family at its version line, as ``check`` does, and
drawn as its seats in a ring."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, TextIO

from baloot_conformance.btn import TranscriptReader
from baloot_conformance.btn.reader import UnknownVersion
from baloot_conformance.check.run import NoSuchMoment, ruleset_of, table_at, table_at_position
from baloot_conformance.check.table import Picture, Table
from baloot_conformance.report.base import one_line
from baloot_conformance.report.pictures import draw
from baloot_conformance.rules.loading import load_ruleset

_EXIT_OK, _EXIT_USAGE = 0, 2


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``show`` to the CLI."""
    show = subparsers.add_parser(
        "show",
        help="draw a hand of a transcript as a table",
        description=(
            "Draw the table at one trick of a hand: N at the top, S at the bottom, W on the "
            "left, E on the right, each seat's cards by suit, the trick's cards on the table "
            "and its last card marked with the cards the ruleset allowed there. Or at a "
            "position: just before the event or claim there; at a Sawa (h4.sawa), a foul call "
            "(h2.foul1) or its verdict (h4.sawa.verdict), the table at the call, who makes it, "
            "and under it the verdict with its line: a Sawa's forcing order when it is right, "
            "the defence that refutes it when it is wrong. A BTN 2 file (Bourré) is drawn as its "
            "seats in a ring, at any position (h1.bid3, h1.t2.p3, h1.pot)."
        ),
        epilog="examples:\n  baloot-conformance show examples/conforming-game.btn "
        "--hand 1 --trick 4\n  baloot-conformance show game.btn h4.sawa"
        "\n  baloot-conformance show bourre.btn h1.t2.p3 --format html > table.html",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    show.add_argument("file", metavar="FILE", help="a BTN transcript")
    show.add_argument(
        "position",
        nargs="?",
        metavar="POSITION",
        help="a position (h4.sawa, h2.foul1, h1.t5.p3), instead of --hand and --trick",
    )
    show.add_argument(
        "--hand", type=int, metavar="N", help="the hand's number (default: the first)"
    )
    show.add_argument("--trick", type=int, metavar="T", help="the trick (default 1)")
    show.add_argument(
        "--ruleset", metavar="ID|PATH", help="the ruleset (default: the file's [Ruleset] tag)"
    )
    show.add_argument("--ascii", action="store_true", help="suits as S H D C, not symbols")
    show.add_argument("--no-color", action="store_true", help="no colour (also NO_COLOR)")
    show.add_argument(
        "--format",
        choices=("text", "html"),
        default="text",
        help="text for the terminal (default), or a self-contained HTML page",
    )
    show.set_defaults(handler=_show)


def _show(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.position is not None and (args.hand is not None or args.trick is not None):
        print(f"error: {args.file}: a position is shown without --hand and --trick", file=err)
        return _EXIT_USAGE
    try:
        with TranscriptReader(Path(args.file), args.file) as reader:
            rules = load_ruleset(args.ruleset) if args.ruleset else ruleset_of(reader)
            hands = list(reader)
    except UnknownVersion as exc:
        if exc.major != 2:
            raise
        from baloot_conformance.cli import trick_show

        return trick_show.show(args, out, err, _output)
    number = args.hand if args.hand is not None else (hands[0].number if hands else 1)
    try:
        if args.position is not None:
            table = table_at_position(hands, rules, args.position)
        else:
            table = table_at(hands, rules, number, args.trick if args.trick is not None else 1)
    except NoSuchMoment as exc:
        print(one_line(f"error: {args.file}: {exc}"), file=err)
        return _EXIT_USAGE
    where = args.position or f"hand {number}, trick {args.trick if args.trick is not None else 1}"
    return _output(args, out, table, where)


def _output(args: argparse.Namespace, out: TextIO, table: Table | Picture, where: str) -> int:
    """Write the table as the arguments ask: text (colour on a terminal) or an HTML page."""
    if args.format == "html":
        from baloot_conformance.report.html import picture_page

        out.write(picture_page(table, args.file, where))
        return _EXIT_OK
    color = not args.no_color and "NO_COLOR" not in os.environ and out.isatty()
    out.write(draw(table, color=color, ascii=args.ascii) + "\n")
    return _EXIT_OK
