"""Rule coverage, measured: which rules of a ruleset the fixtures (or any transcripts) make
decide something when they are replayed.

Each file is replayed under the ruleset with a :class:`~baloot_conformance.engine.trace.Trace`;
a rule is covered by a file when the trace counted at least one decision of it. A file whose
``expect`` names a rule is also that rule's *failing* fixture: the one that shows the rule
being broken. Nothing here is declared by hand; the table is what the replays did.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baloot_conformance import btn
from baloot_conformance.check.run import check_hands
from baloot_conformance.corpus.fixtures import Fixture, run_fixture
from baloot_conformance.engine.trace import Trace
from baloot_conformance.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Traced:
    """One replayed file: its name (a fixture's id, else its path), its trace, and the rule
    its expected root divergence names, if any."""

    name: str
    trace: Trace
    failing_rule: str | None = None


@dataclass(frozen=True)
class RuleCoverage:
    """One row of the table."""

    rule_id: str
    decisions: int
    """How many decisions the rule took over all files."""
    files: tuple[str, ...]
    """The files in which it decided something."""
    failing: tuple[str, ...]
    """The files that expect a divergence citing it."""


@dataclass(frozen=True)
class Coverage:
    """The rule x file table of a ruleset."""

    ruleset: str
    """``id@version``."""
    files: int
    rules: tuple[RuleCoverage, ...]

    @property
    def uncovered(self) -> tuple[str, ...]:
        return tuple(row.rule_id for row in self.rules if not row.files)

    def to_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "files": self.files,
            "rules": {
                row.rule_id: {
                    "decisions": row.decisions,
                    "files": list(row.files),
                    "failing": list(row.failing),
                }
                for row in self.rules
            },
            "uncovered": list(self.uncovered),
        }


def trace_fixture(fixture: Fixture, ruleset: Ruleset) -> Traced:
    """Replay a fixture under ``ruleset`` and keep its trace."""
    run = run_fixture(fixture, ruleset)
    return Traced(fixture.id, run.trace, fixture.expect.rule)


def trace_transcript(path: Path, ruleset: Ruleset) -> Traced:
    """Replay any transcript under ``ruleset`` and keep its trace.

    Raises:
        TranscriptSyntaxError: the file is not valid BTN.
    """
    trace = Trace()
    with btn.TranscriptReader(path, str(path)) as reader:
        for _ in check_hands(reader, str(path), ruleset, trace=trace):
            pass
    return Traced(str(path), trace)


def measure(ruleset: Ruleset, traced: Iterable[Traced]) -> Coverage:
    """The coverage table of ``ruleset``'s rules over the traced files."""
    done = list(traced)
    rows = []
    for rule in ruleset.iter_rules():
        rule_id = rule.id
        rows.append(
            RuleCoverage(
                rule_id,
                sum(t.trace.counts.get(rule_id, 0) for t in done),
                tuple(t.name for t in done if rule_id in t.trace),
                tuple(t.name for t in done if t.failing_rule == rule_id),
            )
        )
    return Coverage(f"{ruleset.id}@{ruleset.version}", len(done), tuple(rows))


def render_text(coverage: Coverage, examples: int = 3) -> str:
    """The table as text: each rule, its decisions, how many files exercise it and how many
    show it broken, with a few of their names; then the uncovered rules."""
    width = max(len(row.rule_id) for row in coverage.rules)
    lines = [
        f"rule coverage of {coverage.ruleset} by {coverage.files} files",
        "",
        f"{'rule':<{width}}  decided  files  failing  e.g.",
    ]
    for row in coverage.rules:
        shown = ", ".join(row.files[:examples]) + (", ..." if len(row.files) > examples else "")
        lines.append(
            f"{row.rule_id:<{width}}  {row.decisions:>7}  {len(row.files):>5}  "
            f"{len(row.failing):>7}  {shown or '-- not covered --'}"
        )
    covered = len(coverage.rules) - len(coverage.uncovered)
    failing = sum(1 for row in coverage.rules if row.failing)
    lines += [
        "",
        f"{covered} of {len(coverage.rules)} rules covered; {failing} shown broken by a "
        "failing fixture",
    ]
    if coverage.uncovered:
        lines.append("not covered: " + ", ".join(coverage.uncovered))
    return "\n".join(lines) + "\n"
