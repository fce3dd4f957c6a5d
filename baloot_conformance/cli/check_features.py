"""``check --features``: logs of an engine that implements part of the game.

A hand that needs a feature the list leaves out (:mod:`~baloot_conformance.check.features`:
what its replay decided, and its lines) is ``unsupported``: not judged, counted apart in
every report, never a pass nor a failure; a run whose every hand is unsupported checked
nothing and fails. Such a run takes the reference path, traced, for every hand (the fast
lane does not say which rules decided).
"""

from __future__ import annotations

import argparse
import textwrap
from collections.abc import Iterator
from typing import Any

from baloot_conformance import btn
from baloot_conformance.check.features import NAMES, check_declared, parse_features
from baloot_conformance.check.run import ruleset_of
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.rules.ruleset import Ruleset

EPILOG = (
    "\n".join(
        textwrap.wrap(
            "features: --features LIST names the parts of the game the engine implements ("
            + ", ".join(NAMES)
            + "); a hand needing another (as its replay shows: a raise, a declared project, "
            "a Sawa, a hand that logs no auction) is reported unsupported, counted apart, and "
            "a run in which every hand is unsupported checked nothing: exit 1. "
            "docs/protocol.md (Features) says how each feature is derived.",
            width=88,
        )
    )
    + "\n  baloot-conformance check --features projects,baloot,ashkal,second_round logs/*.btn\n"
)


def add_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--features`` to ``check``."""
    parser.add_argument(
        "--features",
        metavar="LIST",
        help="the features the engine implements, comma-separated ('none' for none): a hand "
        "that needs another is unsupported, not judged (default: every feature)",
    )


def declared(args: argparse.Namespace) -> frozenset[str] | None:
    """The ``--features`` given, or ``None`` (every feature: hands are judged as before).

    Raises:
        UnreadableInputError: a name is not a feature (a usage error, with the closest).
    """
    text: str | None = getattr(args, "features", None)
    return None if text is None else parse_features(text)


def transcript_verdicts(
    source: Any,
    path: str,
    ruleset: Ruleset | None,
    features: frozenset[str],
    required: frozenset[str],
    pictures: bool,
) -> Iterator[HandVerdict]:
    """A transcript's verdicts under ``--features`` (its own ruleset unless one is given),
    as :func:`~baloot_conformance.check.run.check_transcript` reads it."""
    with btn.TranscriptReader(source, path) as reader:
        rules = ruleset if ruleset is not None else ruleset_of(reader)
        yield from check_declared(reader, path, rules, features, required, pictures)
