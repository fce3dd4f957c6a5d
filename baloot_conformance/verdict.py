"""Conformance verdicts: what the kit concluded about each hand of a transcript.

A hand's verdict is ``pass`` (every event legal, every claim right), ``fail`` (one or more
divergences) or ``error`` (the hand cannot be replayed at all). A :class:`Divergence` says
where (position and ``file:line:col``), which rule, what kind, what was expected and what the
engine claimed, in a sentence a player understands. Reports (``baloot_conformance.report``)
render these objects; they compute nothing themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from baloot_conformance.errors import Location

Status = Literal["pass", "fail", "error"]
DivergenceKind = Literal["illegal_event", "wrong_claim", "missing_claim"]


@dataclass(frozen=True, slots=True)
class Divergence:
    """One place where a transcript departs from the ruleset."""

    position: str
    """The stable position of the event or claim, e.g. ``h3.t5.p2``."""
    location: Location | None
    """Where it is in the transcript file."""
    rule_id: str | None
    """The rule that decides it, e.g. ``play.hokum.overruff``."""
    kind: DivergenceKind
    message: str
    """A sentence a player understands, naming the cards and what the rule required."""
    expected: str | None = None
    """What the ruleset gives (for claims), as the notation would write it."""
    claimed: str | None = None
    """What the transcript says."""
    root: bool = False
    """The first divergence of its hand; later ones may follow from it."""
    source: str | None = None
    """The transcript line, for reports that quote it."""


@dataclass(frozen=True, slots=True)
class HandVerdict:
    """The verdict on one hand of one transcript."""

    path: str
    """The transcript file (``-`` for standard input)."""
    ruleset: str
    """The ruleset the hand was checked under, as ``id@version``."""
    position: str
    """``h3``: the hand's position."""
    status: Status
    divergences: tuple[Divergence, ...] = ()
    error: str | None = None
    """Why the hand could not be replayed (status ``error``)."""
    location: Location | None = None
    """Where the hand starts in the file."""
    events: int = 0
    """How many events were checked."""
    claims: int = 0
    """How many claims were checked."""


@dataclass(frozen=True, slots=True)
class RunHeader:
    """What a report names once, at its top."""

    kit_version: str
    ruleset_id: str | None
    """The ruleset given on the command line; ``None`` when each file names its own."""
    ruleset_version: str | None
    ruleset_digest: str | None


@dataclass(frozen=True, slots=True)
class RunSummary:
    """The totals of a run, at a report's end."""

    files: int
    hands: int
    passed: int
    failed: int
    errors: int
    divergences: int

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.errors == 0
