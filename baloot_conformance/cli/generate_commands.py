"""``generate``: seeded random legal games as BTN, a thin layer over
:mod:`baloot_conformance.corpus.generate`; under a trick ruleset (``--ruleset bourre``), BTN 2
sessions from :mod:`baloot_conformance.family.corpus.generate`, imported only then."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from baloot_conformance.cli.output import replaced
from baloot_conformance.errors import BalootError
from baloot_conformance.rules.loading import load_ruleset, names_trick_ruleset

_EXIT_OK, _EXIT_USAGE = 0, 2


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add ``generate`` to the CLI."""
    generate = subparsers.add_parser(
        "generate",
        help="write random legal games as BTN, with every claim",
        description=(
            "Write seeded random games (random but legal calls, raises, declarations and "
            "plays) under a ruleset, every claim filled in. The same seed gives the same file."
        ),
        epilog="examples:\n  baloot-conformance generate --ruleset saudi --seed 7 --games 3\n"
        "  baloot-conformance generate --contracts sun=1,hokum=3 --raise-chance 0.8 --games 20\n"
        "  baloot-conformance generate --ruleset my-rules.yaml --sawa 0.2 --fouls 0.1 "
        "--foul-calls 0.5 --kawesh 0.5 --rich-deals\n"
        "  baloot-conformance generate --ruleset bourre --players 5 --hands 10 --seed 3\n"
        "  baloot-conformance generate --ruleset barbu --seed 3 --games 2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    generate.add_argument("--ruleset", metavar="ID|PATH", default="saudi", help="default saudi")
    generate.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    generate.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    generate.add_argument(
        "--hands",
        type=int,
        metavar="N",
        help="stop each game after N hands (default: play to the end: Barbu's 28 hands, "
        f"Hearts' to 100; a Bourré session: {_FAMILY_HANDS})",
    )
    generate.add_argument(
        "--players",
        type=int,
        metavar="N",
        help=f"the seats at the table, under a trick ruleset (Bourré: 2 to 8; default "
        f"{_FAMILY_PLAYERS} or the ruleset's nearest bound)",
    )
    generate.add_argument(
        "--legal", action="store_true", help="add a '= legal' claim before every card"
    )
    generate.add_argument(
        "--contracts",
        type=_contract_weights,
        metavar="sun=W,hokum=W",
        help="aim each hand at a contract drawn with these weights (sun=1,hokum=1: as many "
        "Hokum as Sun hands; hokum=1: Hokum only); default: plain random bidding",
    )
    generate.add_argument(
        "--raise-chance",
        type=_probability,
        default=0.3,
        metavar="P",
        help="how often a player entitled to raise (double, triple...) does, 0 to 1 (default 0.3)",
    )
    generate.add_argument(
        "--rich-deals",
        action="store_true",
        help="deal the first bidder a rare hand now and then (four of a kind with Baloot, a "
        "run of five, only 7s, 8s and 9s for Kawesh)",
    )
    for flag, what in _TALK_FLAGS.items():
        generate.add_argument(
            flag, type=_probability, default=0.0, metavar="P", help=f"{what}, 0 to 1 (default 0)"
        )
    generate.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    generate.set_defaults(handler=_generate)


#: The table talk ``generate`` can make, with the rule that must allow it.
_TALK_FLAGS = {
    "--sawa": "how often the seat to play considers a Sawa where claims.sawa allows one (the "
    "solver decides: a right claim is made, a wrong one a third of the time)",
    "--fouls": "how often a player holding an illegal card plays it, where play.fouls lets it "
    "stand until called",
    "--foul-calls": "how often a card that may be called is called (a legal card, wrongly, a "
    "quarter as often)",
    "--kawesh": "how often a player who may claim Kawesh under deal.kawesh does",
}


#: A trick ruleset's table when ``--players`` is not given.
_FAMILY_PLAYERS = 5
#: A Bourré session's hands when ``--hands`` is not given (the family's ``SESSION_HANDS``,
#: which the help text names without importing the family).
_FAMILY_HANDS = 10

#: Baloot's options that mean nothing under a trick ruleset, with their defaults.
_BALOOT_ONLY = {
    "contracts": None,
    "raise_chance": 0.3,
    "rich_deals": False,
    "sawa": 0.0,
    "fouls": 0.0,
    "foul_calls": 0.0,
    "kawesh": 0.0,
}


def _contract_weights(text: str) -> dict[str, int]:
    """``sun=1,hokum=3`` -> ``{"sun": 1, "hokum": 3}`` (an argparse type)."""
    weights: dict[str, int] = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in ("sun", "hokum") or name in weights or not value.strip().isdigit():
            raise argparse.ArgumentTypeError(
                f"{part!r}: expected sun=W or hokum=W with a whole weight, e.g. sun=1,hokum=1"
            )
        weights[name] = int(value)
    if not any(weights.values()):
        raise argparse.ArgumentTypeError("at least one weight must be above 0")
    return weights


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1")
    return value


def _generate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    if args.games < 1 or (args.hands is not None and args.hands < 1):
        print("error: --games and --hands must be at least 1", file=err)
        return _EXIT_USAGE
    try:
        ruleset = load_ruleset(args.ruleset)
    except BalootError:
        if not names_trick_ruleset(args.ruleset):
            raise
        return _generate_family(args, out, err)
    if args.players is not None:
        print(
            f"error: --players is for trick rulesets (bourre); {ruleset.id} is played by "
            "four seats in two teams",
            file=err,
        )
        return _EXIT_USAGE
    from baloot_conformance.corpus.generate import (  # only here
        Policy,
        generate_games,
        idle_rates,
    )

    policy = Policy(
        contracts=args.contracts or {},
        raise_chance=args.raise_chance,
        rich_deals=args.rich_deals,
        sawa=args.sawa,
        fouls=args.fouls,
        foul_calls=args.foul_calls,
        kawesh=args.kawesh,
    )
    for rate, rule_id, none in idle_rates(ruleset, policy):
        flag = "--" + rate.replace("_", "-")
        print(f"note: {flag} makes nothing under {ruleset.id}: {rule_id} is {none}", file=err)
    chunks = generate_games(ruleset, args.seed, args.games, args.hands, args.legal, policy)
    if args.output:
        with replaced(args.output) as stream:
            stream.writelines(chunks)
    else:
        out.writelines(chunks)
    return _EXIT_OK


def _generate_family(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``generate`` under a trick ruleset: BTN 2 sessions (the family, imported only here)."""
    from baloot_conformance.family.corpus.generate import generate_games, whole_game
    from baloot_conformance.family.rules.loading import load_trick_ruleset

    rules = load_trick_ruleset(args.ruleset)
    given = [k for k, default in _BALOOT_ONLY.items() if getattr(args, k) != default]
    if given:
        flags = ", ".join("--" + k.replace("_", "-") for k in given)
        print(
            f"error: {flags}: Baloot's options; {rules.id} is a trick ruleset, whose "
            "generate takes --players, --hands, --games, --seed, --legal and --output",
            file=err,
        )
        return _EXIT_USAGE
    seats = rules.table.seats
    players = args.players
    if players is None:
        players = min(max(_FAMILY_PLAYERS, seats.min), seats.max)
    if not seats.min <= players <= seats.max:
        print(
            f"error: --players {players}: {rules.id} is played by "
            + (f"{seats.min}" if seats.min == seats.max else f"{seats.min} to {seats.max}")
            + " players",
            file=err,
        )
        return _EXIT_USAGE
    hands = args.hands if args.hands is not None else whole_game(rules)
    chunks = generate_games(rules, players, hands, args.seed, args.games, legal=args.legal)
    if args.output:
        with replaced(args.output) as stream:
            stream.writelines(chunks)
    else:
        out.writelines(chunks)
    return _EXIT_OK
