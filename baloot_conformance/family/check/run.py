"""Checking BTN 2 transcripts: a file read against the trick ruleset its ``[Ruleset]`` tag
names (or the one given), its hands replayed in order, the ledger (the pot, who skips the next
ante, who deals next) carried from each hand to the next.

:func:`check_btn2` is the family's counterpart of
:func:`baloot_conformance.check.run.check_transcript`: the same verdicts, streamed one per
hand, so that every report format renders them. A hand that states its ``start`` begins a
session of its own; a hand that cannot be settled leaves the next one to state its own.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from baloot_conformance.check.verdicts import EngineId, HandVerdict
from baloot_conformance.errors import BalootError, Location, UnreadableInputError
from baloot_conformance.family.btn.reader import Btn2Reader
from baloot_conformance.family.check.fast_lane import lane_hand
from baloot_conformance.family.check.hand_check import replay_hand
from baloot_conformance.family.engine.deck import Ring
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.engine.trace import Trace
from baloot_conformance.family.rules.loading import load_trick_ruleset
from baloot_conformance.family.rules.model import TrickRuleset

#: The first bytes of a BTN 2 file, as the dispatch between the two notations reads them.
VERSION_LINE = b"%btn 2"


def is_btn2(head: bytes) -> bool:
    """Whether a file's first bytes are BTN 2's version line (``%btn 2``, then the line's
    end, a space or a comment): the one test the command line makes before choosing a path."""
    if not head.startswith(VERSION_LINE):
        return False
    rest = head[len(VERSION_LINE) :]
    return not rest or rest[:1] in (b"\n", b"\r", b" ", b"\t", b"#")


@functools.lru_cache(maxsize=32)
def _shipped(reference: str) -> TrickRuleset:
    return load_trick_ruleset(reference)


def _ruleset_for(reference: str, location: Location) -> TrickRuleset:
    """The ruleset a file's ``[Ruleset]`` tag names (a shipped trick ruleset), located at the
    tag when it cannot be loaded."""
    try:
        return _shipped(reference)
    except BalootError as exc:
        raise UnreadableInputError(
            f"[Ruleset {reference!r}]: {exc.message}", location=location, hint=exc.hint
        ) from None


def check_btn2(
    data: bytes | str,
    path: str,
    ruleset: TrickRuleset | None = None,
    pictures: bool = False,
    trace: Trace | None = None,
    fast: bool = True,
) -> Iterator[HandVerdict]:
    """Replay every hand of a BTN 2 transcript, one verdict per hand (``pictures``: each
    root divergence carries the table where it happens, a ring of seats). ``fast``: a hand
    goes through the fast lane (:mod:`~.fast_lane`) when it passes there; the verdicts are
    the same either way (the lane is off with ``pictures`` or ``trace``).

    ``ruleset`` overrides the file's ``[Ruleset]`` tag (the table, pack and seats are still
    read from the tag's ruleset when the file has one, else from ``ruleset``). ``trace``
    counts the rules that decided something, over every hand.

    Raises:
        TranscriptSyntaxError: the file is not valid BTN 2 (the hands before it are yielded).
        UnreadableInputError: its ``[Ruleset]`` names no shipped trick ruleset.
    """

    def ruleset_for(reference: str, location: Location) -> TrickRuleset:
        return ruleset if ruleset is not None else _ruleset_for(reference, location)

    reader = Btn2Reader(data, path, ruleset_for)
    rules = reader.ruleset if ruleset is None else ruleset
    head = reader.head()
    table = head.table
    ring = Ring.of_table(table.seats, rules.table.direction.option)
    engine = _engine(head.tags)
    ledger: Ledger | None = None
    lane = fast and not pictures and trace is None
    for chunk in reader.chunks():
        result = lane_hand(reader, chunk, rules, ring, ledger, path, engine) if lane else None
        if result is None:
            hand = reader.build(chunk)
            result = replay_hand(
                hand, rules, ring, ledger, path, engine, pictures=pictures, trace=trace
            )
        verdict, ledger = result
        yield verdict


def _engine(tags: dict[str, str]) -> EngineId | None:
    name = tags.get("Engine")
    return None if name is None else EngineId(name, tags.get("EngineVersion") or None)
