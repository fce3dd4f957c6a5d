"""``fixtures lint`` for the trick family's fixtures: each BTN 2 fixture gives the verdict its
metadata expects under its own ruleset and under every ruleset of its ``readings``.

The checks, as for Baloot's corpus (:mod:`baloot_conformance.corpus.lint`): the metadata
against ``spec/schema/fixture2.schema.json``; the id equal to the file name and unique; in
the shipped corpus, the folder a family area or a shipped trick ruleset; the ``[Ruleset]`` tag
naming the ruleset the fixture is written for; its version inside ``versions``; known rule
IDs (of the ruleset or of a reading's) and source keys; canonical form (the BTN 2 writer's);
the expected verdict reproduced under each ruleset; every declared rule decided in one of
those replays (the trace: a profile's fixture may show a rule that only the profile's reading
makes decide). Every problem is a
:class:`~baloot_conformance.corpus.lint.LintProblem` with the fixture's ``file:line:col``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from baloot_conformance.corpus.family_fixtures import (
    FAMILY_AREAS,
    FamilyRun,
    family_roots,
    load_family_fixture,
    readings,
    ruleset_for,
    run_family_fixture,
    trick_rulesets,
)
from baloot_conformance.corpus.fixtures import Fixture, in_range
from baloot_conformance.corpus.lint import LintProblem
from baloot_conformance.errors import BalootError, Location, TranscriptSyntaxError
from baloot_conformance.family.btn.reader import read_btn2
from baloot_conformance.family.btn.writer import format_btn2


def lint_family(
    paths: Sequence[Path], seen: dict[str, Path] | None = None
) -> Iterator[LintProblem | FamilyRun]:
    """Check BTN 2 fixtures, yielding each problem and each fixture's own run as it is done
    (``seen``: the ids met so far, shared with Baloot's lint so that ids stay unique)."""
    seen = {} if seen is None else seen
    for path in paths:
        try:
            fixture = load_family_fixture(path)
        except BalootError as exc:
            location = exc.location or Location(str(path), 1, 1)
            yield LintProblem(location, exc.message, exc.hint)
            continue
        yield from _lint_fixture(fixture, seen)


def _lint_fixture(fixture: Fixture, seen: dict[str, Path]) -> Iterator[LintProblem | FamilyRun]:
    fid = fixture.id
    if fid != fixture.path.stem:
        yield LintProblem(
            fixture.where("id"),
            f"the id {fid!r} is not the file's name {fixture.path.stem!r}",
            "name the file <id>.btn (ids never change: rename the file, not the id)",
        )
    if fid in seen:
        yield LintProblem(fixture.where("id"), f"the id {fid!r} is also used by {seen[fid]}")
    seen.setdefault(fid, fixture.path)
    rulesets = trick_rulesets()
    in_corpus = any(fixture.path.resolve().is_relative_to(r.resolve()) for r in family_roots())
    if in_corpus and fixture.area not in FAMILY_AREAS and fixture.area not in rulesets:
        yield LintProblem(
            fixture.where(),
            f"the folder {fixture.area!r} is neither a family area nor a shipped trick ruleset",
            f"areas: {', '.join(FAMILY_AREAS)}; rulesets: {', '.join(rulesets)}",
        )
    expected = readings(fixture)
    unknown = [name for name in expected if name not in rulesets]
    if unknown:
        yield LintProblem(
            fixture.where("readings" if fixture.ruleset_id not in unknown else "ruleset"),
            f"{', '.join(unknown)}: no shipped trick ruleset",
            f"the trick rulesets: {', '.join(rulesets)}",
        )
        return
    ruleset = rulesets[fixture.ruleset_id]
    if fixture.tag.split("@")[0] != fixture.ruleset_id:
        yield LintProblem(
            fixture.where("ruleset"),
            f"the file's [Ruleset {fixture.tag!r}] tag does not name {fixture.ruleset_id}",
        )
    if not in_range(ruleset.version, fixture.versions):
        yield LintProblem(
            fixture.where("ruleset"),
            f"{ruleset.id}@{ruleset.version} is outside the fixture's versions "
            f"{fixture.versions!r}",
        )
    known = {rule.id for name in expected for rule in rulesets[name].iter_rules()}
    for rule_id in fixture.rules:
        if rule_id not in known:
            yield LintProblem(fixture.where("rules"), f"{rule_id!r} is no rule of {ruleset.id}")
    for key in fixture.metadata["sources"]:
        if key not in ruleset.sources:
            yield LintProblem(
                fixture.where("sources"),
                f"{key!r} is not a source key of {ruleset.id}",
                f"the keys: {', '.join(ruleset.sources)}",
            )
    run = run_family_fixture(fixture, ruleset)
    yield run
    if run.syntax_error is None and _canonical(fixture) != fixture.text:
        yield LintProblem(
            fixture.where(),
            "the fixture is not in canonical form (the BTN 2 writer's)",
            "rebuild it: python tools/build_family_fixtures.py",
        )
    decided = set(run.trace.counts)
    for name, expect in expected.items():
        got = run if name == fixture.ruleset_id else run_family_fixture(fixture, rulesets[name])
        decided.update(got.trace.counts)
        if got.outcome != expect:
            key = "expect" if name == fixture.ruleset_id else "readings"
            yield LintProblem(
                fixture.where(key),
                f"under {name}: expected {expect}, the replay gives {got.outcome}",
                _why(got),
            )
    if fixture.expect.syntax_error is None:
        for rule_id in fixture.rules:
            if rule_id not in decided:
                yield LintProblem(
                    fixture.where("rules"),
                    f"{rule_id} is declared but decided nothing when the fixture was replayed "
                    f"under {', '.join(expected)}",
                    "list only the rules the fixture exercises (baloot-conformance coverage "
                    "FILE --ruleset bourre shows them)",
                )


def _canonical(fixture: Fixture) -> str | None:
    try:
        return format_btn2(read_btn2(fixture.text, str(fixture.path), ruleset_for))
    except TranscriptSyntaxError:
        return None


def _why(run: FamilyRun) -> str | None:
    if run.syntax_error is not None:
        return str(run.syntax_error.message)
    for verdict in run.verdicts:
        if verdict.divergences:
            first = verdict.divergences[0]
            return f"{first.position} {first.rule_id}: {first.message}"
        if verdict.error:
            return f"{verdict.position}: {verdict.error}"
    return None
