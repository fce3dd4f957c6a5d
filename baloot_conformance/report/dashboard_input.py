"""The reports a conformance dashboard is built from, as one kind of result: a view of the
reports as :mod:`~baloot_conformance.report.run_reports` reads them (the one reader of
stored reports, whose errors, ``file:line`` and JSON pointer, are the dashboard's too).

Two formats are read, told apart by their header record: the JSON Lines report of ``check
--format json`` (``spec/schema/report.schema.json``: one result per hand) and that of
``suite --format json`` (``spec/schema/suite-report.schema.json``: one result per case).
Each result names its engine: for a suite report the handshake in its header (``engine.name``,
``engine.version``), for a check report each hand's ``engine`` (the transcript's ``[Engine]``
and ``[EngineVersion]`` tags); a label given on the command line (``--engine
REPORT=NAME[@VERSION]``) names the engine of every result of that report instead, and a
result that names none is the engine ``unnamed``. A result's identity across reports (its
``case``) is the reader's: a case's id, a hand's path relative to the folder its report's
transcripts share and its position, so that two versions' runs of the same files in two
folders compare hand by hand.

Each result falls in one of five categories, the same for both formats: ``pass``, ``fail``
(``fail``; a suite's ``xpass``), ``known`` (a check's ``known-defect``; a suite's ``xfail``,
a failure its expectations file lists), ``unsupported`` (``unsupported``; a suite's
``skip``) and ``error`` (``error``; a suite's ``invalid``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from baloot_conformance.report.run_reports import (
    Divergence,
    EngineLabel,
    Outcome,
    RunReport,
)
from baloot_conformance.report.run_reports import read_report as read_run_report
from baloot_conformance.resources import data_root

Category = Literal["pass", "fail", "known", "unsupported", "error"]
CATEGORIES: tuple[Category, ...] = ("pass", "fail", "known", "unsupported", "error")

CATEGORY_OF: dict[str, Category] = {
    "pass": "pass",
    "fail": "fail",
    "xpass": "fail",
    "known-defect": "known",
    "xfail": "known",
    "unsupported": "unsupported",
    "skip": "unsupported",
    "error": "error",
    "invalid": "error",
}
"""The category of each status of a hand and verdict of a case."""
UNNAMED = "unnamed"
"""The engine of a result that names none and was given no label."""


@dataclass
class Result:
    """One hand of a check report, or one case of a suite report."""

    kind: Literal["check", "suite"]
    engine: EngineLabel
    ruleset: str
    """``id@version`` (a check report), or the reference the suite loaded (``saudi``)."""
    digest: str | None
    """The digest of the ruleset, when the report names it (a check run's ``--ruleset``)."""
    report: str
    case: str
    """The result's identity across reports: a suite case's id; a check hand's file, relative
    to the folder all of its report's files share, and its position (``m12.btn h3``)."""
    path: str
    """The transcript or fixture, as the report names it."""
    position: str | None
    """A check hand's position (``h3``); ``None`` for a suite case."""
    status: str
    """The status or verdict as the report writes it."""
    category: Category
    divergences: tuple[Divergence, ...] = ()
    """Every divergence (check), or the failure (suite): the first is the root."""
    defects: tuple[str, ...] = ()
    message: str | None = None
    """Why a hand is in error, or what a suite case's engine said."""
    areas: frozenset[str] = field(default_factory=frozenset)
    """The rule areas in which the result counts as a pass: filled in by the dashboard from
    a replay (see :mod:`~baloot_conformance.report.dashboard`)."""
    rules: frozenset[str] = field(default_factory=frozenset)
    """The rules the replay saw decide something in it."""
    table: Any = None
    """The table at its root divergence, when it could be drawn."""
    anchor: str = ""
    """Its id on its row's page of cases (``r12``)."""

    @property
    def root(self) -> Divergence | None:
        return self.divergences[0] if self.divergences else None


@dataclass
class Report:
    """One report file, read."""

    path: str
    kind: Literal["check", "suite"]
    results: list[Result]


def read_report(path: str, label: EngineLabel | None = None) -> Report:
    """Read a report of ``check`` or ``suite`` (see the module docstring), every result
    named ``label`` when one is given.

    Raises:
        ReportError: the file cannot be read, is not one of the two formats, or a record
            lacks a field or has one of the wrong shape.
    """
    run = read_run_report(path)
    return Report(path, run.kind, [_result(run, o, label) for o in run.outcomes.values()])


def _result(run: RunReport, outcome: Outcome, label: EngineLabel | None) -> Result:
    engine = label or outcome.engine or run.handshake or EngineLabel(UNNAMED)
    return Result(
        kind=run.kind,
        engine=engine,
        ruleset=outcome.ruleset,
        digest=run.digest,
        report=run.path,
        case=outcome.identity,
        path=outcome.path,
        position=outcome.position,
        status=outcome.verdict,
        category=CATEGORY_OF[outcome.verdict],
        divergences=outcome.divergences,
        defects=outcome.defects,
        message=outcome.reason,
    )


def resolve(path: str, report: str) -> Path | None:
    """The file a report names, when it can be read from here: as named (relative to the
    current folder, where the run that wrote the report named it from), else relative to the
    report's own folder, else in the kit's own data (a suite names a shipped fixture by its
    corpus path, ``fixtures/play/x.btn``); ``None`` when none is a file."""
    for candidate in (Path(path), Path(report).parent / path, data_root() / path):
        if candidate.is_file():
            return candidate
    return None


__all__ = [
    "CATEGORIES",
    "CATEGORY_OF",
    "UNNAMED",
    "Category",
    "EngineLabel",
    "Report",
    "Result",
    "read_report",
    "resolve",
]
