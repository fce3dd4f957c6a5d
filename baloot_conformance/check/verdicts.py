"""Conformance verdicts: what the kit concluded about each hand of a transcript.

A hand's verdict is ``pass`` (every event legal, every claim right), ``fail`` (one or more
divergences), ``known-defect`` (divergences, every one of them explained by an engine defect
the ruleset lists: counted apart, never a pass), ``unsupported`` (the hand needs a feature
the engine does not implement, ``check --features``: counted apart, never a pass nor a
failure) or ``error`` (the hand cannot be replayed at all). A :class:`Divergence` says
where (position and ``file:line:col``), which rule, what kind, what was expected and what the
engine claimed, in a sentence a player understands. Reports (:mod:`baloot_conformance.report`)
render these objects and compute nothing themselves; every object here pickles as its fields,
so that verdicts travel between the processes of a parallel check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from baloot_conformance.check.table import Picture, Table
from baloot_conformance.errors import Location, by_fields

Status = Literal["pass", "fail", "known-defect", "unsupported", "error"]


DivergenceKind = Literal["illegal_event", "wrong_claim", "missing_claim", "missing_event"]


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
    table: Table | Picture | None = None
    """The table at this point, for a root divergence when pictures are asked for (a trick
    family's hand: its ring of seats)."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


class EngineId(NamedTuple):
    """The engine a transcript says wrote it: its ``[Engine]`` tag and, when it has one, its
    ``[EngineVersion]`` tag (``docs/btn.md``), so that every result names the engine and the
    version it is about."""

    name: str
    version: str | None = None


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
    unchecked: tuple[str, ...] = ()
    """What the hand does not log and so could not be checked (a partial transcript), one
    phrase each, e.g. ``the auction (no 'bid' lines)``."""
    latent_fouls: tuple[str, ...] = ()
    """The cards that broke a play rule, stood and were never called (where ``play.fouls``
    lets them stand), one phrase each: ``h2.t3.p2 play.follow_suit: ...``."""
    defects: tuple[str, ...] = ()
    """For a ``known-defect`` hand: the ids of the ruleset's defects that explain its
    divergences, in the order they are listed."""
    engine: EngineId | None = None
    """The engine the transcript names (``None`` when its header has no ``[Engine]`` tag)."""
    missing_features: tuple[str, ...] = ()
    """For an ``unsupported`` hand: the features it needs that the engine does not declare
    (``--features``), in the order of the feature list."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


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
    unreadable: int = 0
    """Files that could not be read, or whose check stopped before their end."""
    stopped: str | None = None
    """Where a ``--fail-fast`` run stopped (``file h3``), or ``None`` when it ran to its end."""
    not_checked: tuple[str, ...] = ()
    """The files a stopped run never opened."""
    known_defects: int = 0
    """Hands whose divergences are all explained by listed engine defects (not counted among
    ``passed`` or ``failed``)."""
    defects_fail: bool = False
    """Whether the run counts a known defect as a failure (``--fail-on-known-defects``)."""
    unsupported: int = 0
    """Hands that need a feature the engine does not declare (``--features``; not counted
    among ``passed`` or ``failed``)."""

    @property
    def nothing_checked(self) -> bool:
        """Every hand was unsupported: the run checked nothing, which is never a pass."""
        return self.hands > 0 and self.unsupported == self.hands

    @property
    def ok(self) -> bool:
        return (
            self.failed == 0
            and self.errors == 0
            and self.unreadable == 0
            and not (self.defects_fail and self.known_defects)
            and not self.nothing_checked
        )


@dataclass(frozen=True, slots=True)
class FileError:
    """A file that could not be read or checked to its end: a report shows it as an error."""

    path: str
    message: str
    """The error as the kit prints it (``file:line:col: ...`` with its hint)."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)
