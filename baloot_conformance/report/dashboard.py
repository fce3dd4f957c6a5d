"""The conformance dashboard's model: every engine against every rule area, from reports.

The results of the reports (:mod:`~baloot_conformance.report.dashboard_input`) are grouped
into rows, one per engine, engine version and ruleset, in the order the reports first name
them (give the reports of older versions first). The columns are the rule areas, the first
segment of the rule IDs (``bidding`` for ``bidding.sun_priority``), in the rulebook's order.

How a result is counted in the matrix, so that no cell claims more than was checked:

- a result that does not pass counts once, in the area of its root divergence's rule (a
  check hand's first divergence, a suite case's failure): ``fail``, ``known`` (a listed
  engine defect or an expected failure) or ``error``; a result with no rule (a hand that
  cannot be replayed) counts under ``other``, an unsupported case under the area its fixture
  id names (``play.follow-suit.pass-1``), else ``other``;
- a result that passes counts as a pass in each area in which a rule decided something
  while its transcript was replayed (the dashboard replays each readable transcript under
  its ruleset with a trace, :func:`~baloot_conformance.check.hand_details.hand_details`):
  a hand without a declaration is no pass for the projects; a suite's generated game is
  made again from its seed). A pass whose transcript cannot be read from here counts in the
  row's total only. The replay never overrules the report:
  a hand whose replay does not give the report's status and root is counted from the report
  alone, as unreadable.

A rule's page lists, per ruleset, the engines whose results diverge under it (as root or
later), and marks the rule failed *alone* when one engine fails it and at least one other
was checked under that ruleset. An engine's page has its rows, its history across its
versions (per ruleset id: the counts, the cases failing that passed under the version
before and those fixed), its defects (the ruleset's ``defects:`` and its ``known`` results),
and its inferred profile: every shipped ruleset ranked by how many of the engine's
transcripts' hands fail under it (:func:`~baloot_conformance.compare.inference.fit`, the
ranking of ``infer``).
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from baloot_conformance.check.hand_details import hand_details, table_of_case
from baloot_conformance.compare.diff import diff_rulesets
from baloot_conformance.compare.inference import Fit, fit, read_transcripts
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.errors import BalootError
from baloot_conformance.report.dashboard_input import (
    Category,
    EngineLabel,
    Report,
    Result,
    resolve,
)
from baloot_conformance.rules.defects import Defect
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset

AREAS = ("cards", "deal", "bidding", "doubling", "play", "projects", "scoring", "claims", "game")
"""The rule areas in the rulebook's order: the first segments of the rule IDs."""
OTHER = "other"
"""The column of results with no rule."""
JUDGED: tuple[Category, ...] = ("pass", "fail", "known", "error")
"""The categories a conformance rate counts (an unsupported case was not asked)."""


def area_of(rule_id: str | None) -> str:
    """``bidding`` for ``bidding.sun_priority``; :data:`OTHER` without a rule."""
    return rule_id.split(".")[0] if rule_id else OTHER


def rate(counts: Counter[str]) -> Fraction | None:
    """The share of judged results that pass, exactly; ``None`` when none was judged."""
    judged = sum(counts[c] for c in JUDGED)
    return Fraction(counts["pass"], judged) if judged else None


def percent(share: Fraction | None) -> str:
    """``98%``, rounded down (a rate short of 100% never reads as 100%); ``n/a``."""
    return "n/a" if share is None else f"{share.numerator * 100 // share.denominator}%"


@dataclass
class Row:
    """An engine at one version, under one ruleset: a row of the matrix."""

    engine: EngineLabel
    ruleset: str
    slug: str
    results: list[Result] = field(default_factory=list)
    cells: dict[str, Counter[str]] = field(default_factory=dict)
    """Per area, the count of each category."""
    listed: dict[str, list[Result]] = field(default_factory=dict)
    """Per area, the results that do not pass, in report order."""
    total: Counter[str] = field(default_factory=Counter)
    digests: tuple[str, ...] = ()
    """The digests of the rulesets its results were checked under: the run's (``check
    --ruleset``), else the shipped ruleset's that the transcripts' tags name."""
    unattributed: int = 0
    """Passes counted in the total only (their transcript could not be replayed here)."""

    @property
    def rate(self) -> Fraction | None:
        return rate(self.total)


@dataclass
class RuleFailing:
    """The engines whose results diverge under a rule, under one ruleset."""

    ruleset: str
    rows: list[tuple[Row, list[Result], list[Result]]]
    """Each row with its results whose root divergence is under the rule, and those with a
    later divergence under it."""
    alone: str | None
    """The engine that fails it alone under this ruleset, if one does."""


@dataclass
class RulePage:
    """A rule that some divergence names: its statement (from a shipped ruleset that has it)
    and the engines that fail it, ruleset by ruleset."""

    rule_id: str
    slug: str
    statement: str | None
    failing: list[RuleFailing]


@dataclass
class HistoryLine:
    """An engine's version under one ruleset id, against the version before it."""

    version: str
    row: Row
    new_failures: list[Result]
    """Its results that fail (or err) where the version before passed."""
    fixed: list[Result]
    """Its results that pass where the version before failed (or erred)."""


@dataclass
class EnginePage:
    """An engine: its rows, in the order of its versions."""

    name: str
    slug: str
    rows: list[Row]
    history: dict[str, list[HistoryLine]]
    """Per ruleset id, a line per version."""
    defects: list[tuple[str, Defect, list[tuple[Row, Result]]]]
    """Each listed defect of the engine's rulesets (the ruleset, the defect, its results)."""
    inference: list[Fit] | None
    inferred_from: list[str]
    best: Row | None
    """The row of its latest version with the highest rate (its badge)."""


@dataclass
class Dashboard:
    """The whole site's model: the matrix's rows and columns, the engines, the rules."""

    rows: list[Row]
    areas: list[str]
    engines: list[EnginePage]
    rules: list[RulePage]
    reports: list[str]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9._]+", "-", text.lower()).strip("-.") or "x"


class _Slugs:
    """Unique file names, the same for the same reports."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, *parts: str) -> str:
        base = "--".join(_slug(part) for part in parts)
        slug, n = base, 2
        while slug in self.used:
            slug, n = f"{base}-{n}", n + 1
        self.used.add(slug)
        return slug


class _Rulesets:
    """The shipped rulesets the results name, loaded once; ``None`` for one that is not
    shipped at the version (or digest) the report names."""

    def __init__(self) -> None:
        self.cache: dict[tuple[str, str | None], Ruleset | None] = {}

    def get(self, reference: str, digest: str | None = None) -> Ruleset | None:
        key = (reference, digest)
        if key not in self.cache:
            self.cache[key] = self._load(reference, digest)
        return self.cache[key]

    @staticmethod
    def _load(reference: str, digest: str | None) -> Ruleset | None:
        name, _, version = reference.partition("@")
        if name not in shipped_rulesets():
            return None
        try:
            ruleset = load_ruleset(name)
        except BalootError:
            return None
        if version and version != ruleset.version and not ruleset.version.startswith(version + "."):
            return None
        if digest is not None and digest != ruleset.digest:
            return None
        return ruleset


def _replay(results: Sequence[Result], rulesets: _Rulesets) -> None:
    """Fill in each result's rules, areas and table from a replay of its transcript."""
    groups: dict[tuple[str, str, str | None, str], list[Result]] = {}
    for result in results:
        key = (result.path, result.ruleset, result.digest, result.report)
        groups.setdefault(key, []).append(result)
    for (path, reference, digest, report), members in groups.items():
        ruleset = rulesets.get(reference, digest)
        text = _generated(members[0], ruleset)
        found = resolve(path, report) if text is None else Path(path)
        if ruleset is None or found is None:
            continue
        try:
            details = hand_details(str(found), ruleset, text)
        except (BalootError, OSError):
            continue
        for result in members:
            if result.kind == "suite":
                result.rules = frozenset().union(*(d.rules for d in details.values()))
                if result.root is not None and result.category != "pass":
                    position = result.root.position
                    result.table = table_of_case(str(found), ruleset, position, text)
                continue
            seen = details.get(result.position or "")
            root = result.root.position if result.root else None
            if seen is None or seen.status != result.status or seen.root != root:
                continue  # the file changed since the report: the report alone counts
            result.rules, result.table = seen.rules, seen.table
    for result in results:
        result.areas = frozenset(area_of(rule) for rule in result.rules)


_GENERATED = re.compile(r"generated\.(?P<ruleset>.+)\.(?P<seed>\d+)")


def _generated(result: Result, ruleset: Ruleset | None) -> str | None:
    """A suite's generated game, made again from its seed (its report names it
    ``generated.RULESET.SEED``, no file); ``None`` for any other result."""
    match = _GENERATED.fullmatch(result.path)
    if result.kind != "suite" or match is None or ruleset is None:
        return None
    try:
        return "".join(generate_games(ruleset, int(match["seed"])))
    except BalootError:
        return None


def _area(result: Result) -> str:
    """The area a result that does not pass counts in."""
    root = result.root
    if root is not None and root.rule_id:
        return area_of(root.rule_id)
    if result.kind == "suite" and result.case.split(".")[0] in AREAS:
        return result.case.split(".")[0]
    return OTHER


def build(
    reports: Sequence[Report],
    infer: bool = True,
    progress: Callable[[str], None] | None = None,
) -> Dashboard:
    """The dashboard of ``reports`` (see the module docstring); ``infer``: rank the shipped
    rulesets for each engine (the slow part: every hand replayed under each of them)."""
    say = progress or (lambda message: None)
    results = [r for report in reports for r in report.results]
    rulesets = _Rulesets()
    for result in results:  # a suite names a ruleset as loaded (saudi@1), a check as used
        named = rulesets.get(result.ruleset) if result.kind == "suite" else None
        if named is not None:
            result.ruleset = f"{named.id}@{named.version}"
    say(f"replaying the transcripts of {len(results)} results")
    _replay(results, rulesets)
    slugs = _Slugs()
    rows: dict[tuple[EngineLabel, str], Row] = {}
    for result in results:
        key = (result.engine, result.ruleset)
        row = rows.get(key)
        if row is None:
            slug = slugs(str(result.engine), result.ruleset)
            row = rows[key] = Row(result.engine, result.ruleset, slug)
        row.results.append(result)
    found_areas: set[str] = set()
    for row in rows.values():
        _count(row)
        found_areas.update(row.cells)
        row.digests = tuple(sorted({r.digest for r in row.results if r.digest}))
        shipped = rulesets.get(row.ruleset)
        if not row.digests and shipped is not None:  # each file under its tag: a shipped one
            row.digests = (shipped.digest,)
    areas = [a for a in AREAS] + sorted(found_areas - {*AREAS, OTHER})
    if OTHER in found_areas:
        areas.append(OTHER)
    ordered = list(rows.values())
    return Dashboard(
        rows=ordered,
        areas=areas,
        engines=_engines(ordered, rulesets, infer, say),
        rules=_rules(ordered, rulesets),
        reports=[report.path for report in reports],
    )


def _count(row: Row) -> None:
    for index, result in enumerate(row.results, start=1):
        result.anchor = f"r{index}"
        row.total[result.category] += 1
        if result.category == "pass":
            if not result.areas:
                row.unattributed += 1
            for area in result.areas:
                row.cells.setdefault(area, Counter())["pass"] += 1
            continue
        area = _area(result)
        row.cells.setdefault(area, Counter())[result.category] += 1
        row.listed.setdefault(area, []).append(result)


def _rules(rows: Sequence[Row], rulesets: _Rulesets) -> list[RulePage]:
    seen: dict[str, dict[str, dict[int, tuple[list[Result], list[Result]]]]] = {}
    """rule -> ruleset -> row index -> (results with it as root, results with it later)"""
    for index, row in enumerate(rows):
        for result in row.results:
            for at, divergence in enumerate(result.divergences):
                if divergence.rule_id is None:
                    continue
                by_ruleset = seen.setdefault(divergence.rule_id, {}).setdefault(row.ruleset, {})
                listed = by_ruleset.setdefault(index, ([], []))[0 if at == 0 else 1]
                if not listed or listed[-1] is not result:
                    listed.append(result)
    checked: dict[str, set[str]] = {}
    for row in rows:
        checked.setdefault(row.ruleset, set()).add(row.engine.name)
    slugs = _Slugs()
    pages = []
    for rule_id in sorted(seen):
        failing = []
        statement = None
        for reference, by_row in seen[rule_id].items():
            entries = [(rows[i], root, later) for i, (root, later) in sorted(by_row.items())]
            names = {row.engine.name for row, _, _ in entries}
            alone = next(iter(names)) if len(names) == 1 and len(checked[reference]) > 1 else None
            failing.append(RuleFailing(reference, entries, alone))
            ruleset = rulesets.get(reference)
            if statement is None and ruleset is not None:
                with contextlib.suppress(KeyError):
                    statement = ruleset.rule(rule_id).statement
        pages.append(RulePage(rule_id, slugs(rule_id), statement, failing))
    return pages


def _engines(
    rows: Sequence[Row], rulesets: _Rulesets, infer: bool, say: Callable[[str], None]
) -> list[EnginePage]:
    by_name: dict[str, list[Row]] = {}
    for row in rows:
        by_name.setdefault(row.engine.name, []).append(row)
    slugs = _Slugs()
    pages = []
    for name, own in by_name.items():
        versions = list(dict.fromkeys(row.engine.version or "" for row in own))
        latest = [row for row in own if (row.engine.version or "") == versions[-1]]
        best = max(latest, key=lambda row: (row.rate or Fraction(-1), -latest.index(row)))
        inference, files = None, []
        if infer:
            files = sorted(
                {
                    str(found)
                    for row in latest
                    for r in row.results
                    if r.kind == "check" and (found := resolve(r.path, r.report)) is not None
                }
            )
            if files:
                say(f"ranking the shipped rulesets on {name}'s {len(files)} transcripts")
                inference = _rank(files, rulesets)
        pages.append(
            EnginePage(
                name=name,
                slug=slugs(name),
                rows=own,
                history=_history(own),
                defects=_defects(own, rulesets),
                inference=inference,
                inferred_from=files,
                best=best,
            )
        )
    return pages


def _rank(files: list[str], rulesets: _Rulesets) -> list[Fit] | None:
    try:
        transcripts = read_transcripts(files)
    except (BalootError, OSError):
        return None
    candidates = [r for name in shipped_rulesets() if (r := rulesets.get(name)) is not None]
    bases = {r.id: r for r in candidates if len(r.lineage) == 1}

    def distance(ruleset: Ruleset) -> int:  # as infer orders equals: nearest its base first
        base = bases.get(ruleset.lineage[-1])
        return len(diff_rulesets(base, ruleset)) if base is not None else 0

    ranked = sorted(
        ((fit(r, transcripts), r) for r in candidates),
        key=lambda pair: (pair[0].key, distance(pair[1]), pair[0].ruleset),
    )
    return [f for f, _ in ranked]


def _history(rows: Sequence[Row]) -> dict[str, list[HistoryLine]]:
    history: dict[str, list[HistoryLine]] = {}
    for row in rows:
        lines = history.setdefault(row.ruleset.split("@")[0], [])
        before = lines[-1].row if lines else None
        new, fixed = [], []
        if before is not None:
            was = {r.case: r.category for r in before.results}
            for result in row.results:
                old = was.get(result.case)
                bad = result.category in ("fail", "error")
                if old == "pass" and bad:
                    new.append(result)
                elif old in ("fail", "error") and result.category == "pass":
                    fixed.append(result)
        lines.append(HistoryLine(row.engine.version or "(no version)", row, new, fixed))
    return history


def _defects(
    rows: Sequence[Row], rulesets: _Rulesets
) -> list[tuple[str, Defect, list[tuple[Row, Result]]]]:
    found: list[tuple[str, Defect, list[tuple[Row, Result]]]] = []
    done: set[str] = set()
    for row in rows:
        ruleset = rulesets.get(row.ruleset)
        if ruleset is None or row.ruleset in done:
            continue
        done.add(row.ruleset)
        for defect in ruleset.defects:
            shown = [
                (other, r)
                for other in rows
                if other.ruleset == row.ruleset
                for r in other.results
                if defect.id in r.defects
            ]
            found.append((row.ruleset, defect, shown))
    return found
