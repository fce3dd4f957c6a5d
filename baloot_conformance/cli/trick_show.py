"""``show`` for a BTN 2 file (the trick family): the table at a position, or at a trick's last
card, drawn as its seats in a ring. Imported only when ``show`` meets a ``%btn 2`` file, so
that a Baloot ``show`` never loads the family's modules."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TextIO

from baloot_conformance.check.run import NoSuchMoment
from baloot_conformance.check.table import Picture
from baloot_conformance.cli import trick_family
from baloot_conformance.errors import UnreadableInputError
from baloot_conformance.family.check.moments import read_hands, table_at_position, table_at_trick
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.report.base import one_line

_EXIT_USAGE = 2

Output = Callable[[argparse.Namespace, TextIO, Picture, str], int]


def show(args: argparse.Namespace, out: TextIO, err: TextIO, output: Output) -> int:
    """Draw the table ``args`` ask for (``POSITION``, or ``--hand``/``--trick``) through
    ``output``; a position the transcript does not have is a one-line error."""
    ruleset = None
    if args.ruleset:
        ruleset = (
            trick_family.load(args.ruleset)
            if trick_family.names_trick_ruleset(args.ruleset)
            else None
        )
        if not isinstance(ruleset, TrickRuleset):
            raise UnreadableInputError(
                f"{args.file} is a BTN 2 transcript (the trick family); --ruleset "
                f"{args.ruleset} is not a trick ruleset",
                hint="leave --ruleset out (the file's [Ruleset] tag names its ruleset)",
            )
    rules, ring, hands = read_hands(trick_family.read(args.file), args.file, ruleset)
    try:
        if args.position is not None:
            table = table_at_position(hands, rules, ring, args.position, args.file)
            where = args.position
        else:
            number = args.hand if args.hand is not None else (hands[0].number if hands else 1)
            trick = args.trick if args.trick is not None else 1
            table = table_at_trick(hands, rules, ring, number, trick, args.file)
            where = f"hand {number}, trick {trick}"
    except NoSuchMoment as exc:
        print(one_line(f"error: {args.file}: {exc}"), file=err)
        return _EXIT_USAGE
    return output(args, out, table, where)
