"""What changed between two runs: the comparison behind ``diff OLD NEW`` and ``--baseline``.

Two reports of one kind (:mod:`~baloot_conformance.report.run_reports`) are compared outcome
by outcome: a hand of ``check`` (its transcript's path relative to the folder its report's
transcripts share, and its position), a case (its id) of ``suite``. Each verdict falls in one
of three classes:

- *bad*, what fails a run: ``fail``, ``error``, ``xpass``, ``invalid``, and ``known-defect``
  in a run made with ``--fail-on-known-defects``;
- *unchecked*: ``skip``, ``unsupported`` (nothing of the engine was judged);
- *good*: the rest (``pass``, ``xfail``, ``known-defect``).

The transitions, old → new (``-`` for an outcome the run does not have), and whether each
is a regression (fails the gate):

- good or unchecked → bad: a *new failure*; a regression.
- ``-`` → bad: a *new failure* too (an added outcome no baseline accepted); a regression.
- bad → bad with the same verdict and findings: unchanged.
- bad → bad with another verdict, or a finding the old lacked: a *changed divergence*; a
  regression.
- bad → bad having only lost findings (still failing, partly fixed): a *changed
  divergence*; not a regression.
- bad → good: *fixed*. bad → unchecked: *changed* (no longer judged, so not fixed).
- good ↔ unchecked, pass ↔ xfail, a known defect explained by other defects: *changed*.
- ``-`` → good or unchecked: *added*. Anything → ``-``: *removed*. None is a regression.

A *finding* is a divergence of a hand as (position, rule, kind), or a case's first failure
as (position, rule, observable). A still-failing outcome whose new findings hold one the old
did not is a regression, as an expected failure (``--expectations``) that fails with another
signature is a plain ``fail``: the baseline accepted *that* failure, not any failure there.
One that only lost findings is reported and passes. A removed outcome is never a
regression: which outcomes a run has follows from its options and the kit's corpus (a
``--fixtures`` selection, a fixture retired under a new major version), and what was not run
cannot have regressed; a run that checked nothing at all is caught below.

Besides its outcomes, the new run's *problems* (a file not read to its end, a
``--fail-fast`` stop, an engine that did not start, stale or expired expectations, nothing
checked) always fail the gate, whatever the old run had: they are not outcomes a baseline
can accept, and a run that went wrong must never be green.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from baloot_conformance.errors import UnreadableInputError
from baloot_conformance.report.run_reports import Outcome, RunReport

ChangeKind = Literal["new-failure", "changed-divergence", "fixed", "changed", "added", "removed"]
CHANGE_KINDS: tuple[ChangeKind, ...] = (
    "new-failure", "changed-divergence", "fixed", "changed", "added", "removed",
)  # fmt: skip
"""The kinds of change, in the order the diff lists them."""

BAD = frozenset({"fail", "error", "xpass", "invalid"})
"""The verdicts that fail a run (and ``known-defect`` under ``--fail-on-known-defects``)."""
UNCHECKED = frozenset({"skip", "unsupported"})
"""The verdicts of an outcome of which nothing was judged."""
GOOD = frozenset({"pass", "xfail", "known-defect"})
"""The verdicts that pass a run. Every verdict a report can give is in one of the three."""


@dataclass(frozen=True, slots=True)
class Change:
    """One outcome that differs between the two runs."""

    kind: ChangeKind
    name: str
    old: Outcome | None
    new: Outcome | None
    regression: bool

    @property
    def gained(self) -> tuple[str, ...]:
        """The new findings the old outcome lacked, as ``position what [rule]``."""
        old = Counter(self.old.findings if self.old else ())
        new = Counter(self.new.findings if self.new else ())
        return tuple(str(f) for f in (new - old).elements())


@dataclass(frozen=True, slots=True)
class RunDiff:
    """Two runs compared: every change, the unchanged outcomes counted by verdict, and the
    new run's problems."""

    old: RunReport
    new: RunReport
    changes: Sequence[Change]
    unchanged: Counter[str] = field(default_factory=Counter)
    notes: Sequence[str] = ()
    """What differs between the runs themselves (the kit, the engine, the ruleset)."""

    @property
    def counts(self) -> Counter[str]:
        """How many changes of each kind."""
        return Counter(change.kind for change in self.changes)

    @property
    def regressions(self) -> list[Change]:
        return [change for change in self.changes if change.regression]

    @property
    def problems(self) -> list[str]:
        """What fails the new run as a whole."""
        return list(self.new.problems)

    @property
    def ok(self) -> bool:
        """The gate: no regression, and the new run went right."""
        return not self.regressions and not self.problems


def is_bad(outcome: Outcome, defects_fail: bool) -> bool:
    """Whether ``outcome`` fails its run."""
    return outcome.verdict in BAD or (defects_fail and outcome.verdict == "known-defect")


def classify(
    old: Outcome | None, new: Outcome | None, old_defects_fail: bool, new_defects_fail: bool
) -> tuple[ChangeKind, bool] | None:
    """The kind of change from ``old`` to ``new`` and whether it is a regression (the table
    of the module's docstring), or ``None`` when nothing changed."""
    if new is None:
        return ("removed", False) if old is not None else None
    bad_new = is_bad(new, new_defects_fail)
    if old is None:
        return ("new-failure", True) if bad_new else ("added", False)
    bad_old = is_bad(old, old_defects_fail)
    if bad_new and not bad_old:
        return "new-failure", True
    same = Counter(old.findings) == Counter(new.findings)
    if bad_new:
        if old.verdict == new.verdict and same:
            return None
        gained = Counter(new.findings) - Counter(old.findings)
        return "changed-divergence", old.verdict != new.verdict or bool(gained)
    if bad_old:
        return ("changed", False) if new.verdict in UNCHECKED else ("fixed", False)
    if old.verdict == new.verdict and old.defects == new.defects:
        return None
    return "changed", False


def compare(old: RunReport, new: RunReport) -> RunDiff:
    """``new`` compared with ``old``.

    Raises:
        UnreadableInputError: the two reports are not of one kind (a check and a suite
            report), which a diff cannot pair.
    """
    if old.kind != new.kind:
        raise UnreadableInputError(
            f"{old.path} is a {old.kind} report and {new.path} a {new.kind} report: a diff "
            "compares two reports of one kind",
            hint="compare check with check (hands) or suite with suite (cases), each "
            "written with --format json",
        )
    changes: list[Change] = []
    unchanged: Counter[str] = Counter()
    for key, outcome in new.outcomes.items():
        before = old.outcomes.get(key)
        change = classify(before, outcome, old.defects_fail, new.defects_fail)
        if change is None:
            unchanged[outcome.verdict] += 1
        else:
            changes.append(Change(change[0], outcome.name, before, outcome, change[1]))
    for key, outcome in old.outcomes.items():
        if key not in new.outcomes:
            changes.append(Change("removed", outcome.name, outcome, None, False))
    order = {kind: n for n, kind in enumerate(CHANGE_KINDS)}
    changes.sort(key=lambda change: order[change.kind])  # stable: report order within a kind
    return RunDiff(old, new, changes, unchanged, _notes(old, new))


def _notes(old: RunReport, new: RunReport) -> list[str]:
    notes = []
    for what, before, after in (
        ("the engine", old.engine, new.engine),
        ("the ruleset", old.ruleset, new.ruleset),
        ("the kit", old.kit, new.kit),
    ):
        if before != after:
            notes.append(f"{what} changed: {before or 'none named'} → {after or 'none named'}")
    return notes
