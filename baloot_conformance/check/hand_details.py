"""A transcript's hands replayed again for a report written elsewhere: what each hand made
the rules decide, and the table at its root divergence.

A report of ``check`` or ``suite`` says which hands pass and where the others depart, not
which rules a passing hand exercised, nor the picture at a divergence (the JSON report
carries no tables). The conformance dashboard needs both: a pass counts in a rule area only
when a rule of that area decided something in the hand (a hand without a declaration never
tested the projects), and a failing case is drawn where it fails. :func:`hand_details`
replays a transcript once on the reference path, with a
:class:`~baloot_conformance.engine.trace.Trace` and pictures, and keeps per hand its status,
its root divergence's position, the rules it made decide something, and the table there.
The report stays the judge: its reader compares the status and root found here with its own
and uses none of this for a hand where they differ (a file changed since the report).
"""

from __future__ import annotations

from dataclasses import dataclass

from baloot_conformance import btn
from baloot_conformance.check.run import NoSuchMoment, replay_hands, table_at_position
from baloot_conformance.check.table import Table
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import BalootError
from baloot_conformance.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class HandDetails:
    """One hand as the reference replay saw it."""

    status: str
    """Its verdict's status (``pass``, ``fail``, ``known-defect``, ``error``)."""
    root: str | None
    """The position of its root divergence, ``None`` when it has none."""
    rules: frozenset[str]
    """The rule IDs that decided something in the hand (see the module docstring)."""
    table: Table | None
    """The table at the root divergence, when there is one to draw."""


def _reader(path: str, text: str | None) -> btn.TranscriptReader:
    return (
        btn.TranscriptReader(path) if text is None else btn.TranscriptReader.from_text(text, path)
    )


def hand_details(path: str, ruleset: Ruleset, text: str | None = None) -> dict[str, HandDetails]:
    """Every hand of the transcript at ``path`` (or of ``text``, named ``path``: a generated
    game) replayed under ``ruleset``, by position.

    Raises:
        TranscriptSyntaxError, UnreadableInputError: the file is not a readable transcript.
    """
    trace = Trace()
    found: dict[str, HandDetails] = {}
    seen: dict[str, int] = {}
    with _reader(path, text) as reader:
        for verdict, _ in replay_hands(reader, path, ruleset, trace=trace, pictures=True):
            counts = trace.counts
            rules = frozenset(r for r, n in counts.items() if n != seen.get(r, 0))
            seen = dict(counts)
            root = verdict.divergences[0] if verdict.divergences else None
            found[verdict.position] = HandDetails(
                verdict.status,
                root.position if root is not None else None,
                rules,
                root.table if root is not None and isinstance(root.table, Table) else None,
            )
    return found


def table_of_case(
    path: str, ruleset: Ruleset, position: str, text: str | None = None
) -> Table | None:
    """The table of the transcript at ``path`` just before ``position`` (a suite case's
    failure, ``h1.t3.p2``, or an observable of that item, ``h1.t6.p4.legal``: the item's;
    ``text``: see :func:`hand_details`), ``None`` when the file cannot be read or the replay
    does not reach it."""
    try:
        with _reader(path, text) as reader:
            hands = list(reader)
    except (BalootError, OSError):
        return None
    parts = position.split(".")
    while len(parts) > 1:
        try:
            return table_at_position(hands, ruleset, ".".join(parts))
        except (BalootError, NoSuchMoment):
            parts.pop()
    return None
