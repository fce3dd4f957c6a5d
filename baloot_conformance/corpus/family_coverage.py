"""Rule coverage of a trick ruleset by the family's fixtures, measured, and their listing.

:func:`family_coverage` replays each BTN 2 fixture that runs under the ruleset (written for
it, or naming it in ``readings``) with a trace, and builds Baloot's table
(:class:`~baloot_conformance.corpus.coverage.Coverage`): a rule is covered by a fixture when
the replay counted a decision of it. :func:`option_witnesses` adds what a rule table cannot
show: for each profile and each rule it reads otherwise than the ruleset it extends, the
fixtures that pass under one reading and fail under the other, in each direction (``pass``:
the profile allows what the base refuses; ``fail``: the profile refuses what the base
allows). A reading that is only stricter (fewer discards, fewer seats) or only looser (no
over-trumping) than the base's has one direction; the table says which are missing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from baloot_conformance.corpus.coverage import Coverage, RuleCoverage, Traced
from baloot_conformance.corpus.family_fixtures import (
    load_family_corpus,
    readings,
    run_family_fixture,
    run_family_text,
    trick_rulesets,
)
from baloot_conformance.corpus.fixtures import Fixture
from baloot_conformance.family.rules.model import TrickRuleset


def runs_under(fixture: Fixture, ruleset: TrickRuleset) -> bool:
    """Whether a fixture records a verdict under ``ruleset`` (other than a syntax error)."""
    expect = readings(fixture).get(ruleset.id)
    return expect is not None and expect.syntax_error is None


def trace_family_fixture(fixture: Fixture, ruleset: TrickRuleset) -> Traced:
    run = run_family_fixture(fixture, ruleset)
    expect = readings(fixture).get(ruleset.id)
    return Traced(fixture.id, run.trace, expect.rule if expect is not None else None)


def trace_family_file(path: Path, ruleset: TrickRuleset) -> Traced:
    """Any BTN 2 transcript replayed under ``ruleset`` (a syntax error ends its trace)."""
    text = path.read_bytes().decode("utf-8")
    _, trace, _ = run_family_text(text, str(path), ruleset)
    return Traced(str(path), trace)


def family_coverage(ruleset: TrickRuleset, traced: Iterable[Traced] | None = None) -> Coverage:
    """The rule x fixture table of ``ruleset`` (by default over the shipped fixtures)."""
    if traced is None:
        traced = [
            trace_family_fixture(f, ruleset) for f in load_family_corpus() if runs_under(f, ruleset)
        ]
    done = list(traced)
    rows = [
        RuleCoverage(
            rule.id,
            sum(t.trace.counts.get(rule.id, 0) for t in done),
            tuple(t.name for t in done if rule.id in t.trace),
            tuple(t.name for t in done if t.failing_rule == rule.id),
        )
        for rule in ruleset.iter_rules()
    ]
    return Coverage(f"{ruleset.id}@{ruleset.version}", len(done), tuple(rows))


@dataclass(frozen=True)
class OptionWitnesses:
    """One rule a profile reads otherwise: the fixtures that tell the two readings apart."""

    profile: str
    rule_id: str
    allows: tuple[str, ...]
    """Fixtures the base fails and the profile judges otherwise (its reading allows them)."""
    refuses: tuple[str, ...]
    """Fixtures the base passes and the profile refuses."""


def changed_rules(profile: TrickRuleset, base: TrickRuleset) -> list[str]:
    """The rules ``profile`` reads otherwise than ``base``, in document order."""
    changed = []
    for rule in profile.iter_rules():
        section, _, name = rule.id.partition(".")
        if profile.document.get(section, {}).get(name) != base.document.get(section, {}).get(name):
            changed.append(rule.id)
    return changed


def option_witnesses(
    base_id: str = "bourre", fixtures: Sequence[Fixture] | None = None
) -> list[OptionWitnesses]:
    """For every profile of ``base_id`` and rule it changes, the witnesses of each direction
    among the fixtures (their ``readings``, which ``fixtures lint`` reproduces): a fixture
    in the profile's folder that names the rule."""
    corpus = list(fixtures) if fixtures is not None else load_family_corpus()
    rulesets = trick_rulesets()
    base = rulesets[base_id]
    rows = []
    for name, profile in rulesets.items():
        if name == base_id or base_id not in profile.lineage:
            continue
        for rule_id in changed_rules(profile, base):
            allows, refuses = [], []
            for fixture in corpus:
                if fixture.area != name or rule_id not in fixture.rules:
                    continue
                seen = readings(fixture)
                mine, theirs = seen.get(name), seen.get(base_id)
                if mine is None or theirs is None:
                    continue
                # the profile's other rules may refuse the hand first (its declarations):
                # a reading that differs where the base fails still tells the rule apart
                if not theirs.passes and mine != theirs:
                    allows.append(fixture.id)
                elif theirs.passes and not mine.passes:
                    refuses.append(fixture.id)
            rows.append(OptionWitnesses(name, rule_id, tuple(allows), tuple(refuses)))
    return rows


def render_witnesses(rows: Sequence[OptionWitnesses], base_id: str = "bourre") -> str:
    """The option table as text: each profile's changed rule and its witnesses."""
    lines = [
        "",
        f"option values told apart (profile allows / profile refuses what {base_id} does not):",
    ]
    width = max((len(f"{r.profile} {r.rule_id}") for r in rows), default=0)
    for row in rows:
        label = f"{row.profile} {row.rule_id}"
        allows = row.allows[0] if row.allows else "-"
        refuses = row.refuses[0] if row.refuses else "-"
        lines.append(f"{label:<{width}}  {allows}  /  {refuses}")
    both = sum(1 for r in rows if r.allows and r.refuses)
    one = sum(1 for r in rows if bool(r.allows) != bool(r.refuses))
    lines.append(f"{both} of {len(rows)} readings witnessed both ways, {one} one way")
    return "\n".join(lines) + "\n"
