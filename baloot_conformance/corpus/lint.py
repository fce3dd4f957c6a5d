"""``fixtures lint``: every fixture of the corpus gives the verdict its metadata expects.

Each fixture is loaded (its metadata against ``spec/schema/fixture.schema.json``), replayed
under each ruleset and version it is written for, and compared with its ``expect``: a pass, or
the position and rule of the root divergence, or the place of a syntax error. A profile's
fixture must also fail under the ruleset the profile extends, at the rule it shows, so that it
tells the two apart. Every problem is a :class:`LintProblem` with the fixture's
``file:line:col``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from baloot_conformance.btn import parse_transcript
from baloot_conformance.btn.writer import format_transcript
from baloot_conformance.check.perft import PerftError, perft_at
from baloot_conformance.corpus.fixtures import (
    AREAS,
    Fixture,
    FixtureRun,
    corpus_root,
    in_range,
    load_fixture,
    run_fixture,
)
from baloot_conformance.errors import BalootError, Location
from baloot_conformance.rules.loading import isolate, load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset, rule_documents


@dataclass(frozen=True)
class LintProblem:
    """One thing wrong with a fixture, where it is, and what to do."""

    location: Location
    message: str
    hint: str | None = None

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}"
        return f"{text}\n  hint: {self.hint}" if self.hint else text


def lint(paths: Sequence[Path]) -> Iterator[LintProblem | FixtureRun]:
    """Check fixtures, yielding each problem and each fixture's run as it is done.

    The checks: the metadata block and its schema; the id equal to the file name and unique;
    in the shipped corpus, the folder an area or a profile; a profile's fixture written for
    that profile; known rule IDs and source keys; the ruleset and its versions; the expected
    verdict reproduced; every declared rule exercised (the trace of the replay); and a
    profile's fixture telling each rule it names apart from the base ruleset's reading of it.
    """
    seen: dict[str, Path] = {}
    profiles = set(shipped_rulesets())
    # Each ruleset is read once per run: the corpus's hundreds of fixtures name a few
    # shipped ids (read again for each, they were most of the lint's time).
    load = cache(load_ruleset)
    for path in paths:
        try:
            fixture = load_fixture(path)
        except BalootError as exc:
            location = exc.location or Location(str(path), 1, 1)
            yield LintProblem(location, exc.message, exc.hint)
            continue
        yield from _lint_fixture(fixture, seen, profiles, load)


def _lint_fixture(
    fixture: Fixture,
    seen: dict[str, Path],
    profiles: set[str],
    load: Callable[[str], Ruleset],
) -> Iterator[LintProblem | FixtureRun]:
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
    in_corpus = fixture.path.resolve().is_relative_to(corpus_root().resolve())
    if in_corpus and fixture.area not in AREAS and fixture.area not in profiles:
        yield LintProblem(
            fixture.where(),
            f"the folder {fixture.area!r} is neither an area nor a shipped profile",
            f"areas: {', '.join(AREAS)}; profiles: {', '.join(sorted(profiles))}",
        )
    if fixture.area in profiles and fixture.ruleset_id != fixture.area:
        yield LintProblem(
            fixture.where("ruleset"),
            f"a fixture in {fixture.area}/ is written for {fixture.area}, not {fixture.ruleset_id}",
        )
    try:
        ruleset = load(fixture.ruleset_id)
    except BalootError as exc:
        yield LintProblem(fixture.where("ruleset"), exc.message, exc.hint)
        return
    if not in_range(ruleset.version, fixture.versions):
        yield LintProblem(
            fixture.where("ruleset"),
            f"{ruleset.id}@{ruleset.version} is outside the fixture's versions "
            f"{fixture.versions!r}",
            "a new major version of a ruleset may change verdicts: check the fixture under "
            "it, then widen its range",
        )
    known = {rule.id for rule in ruleset.iter_rules()}
    expect = fixture.expect
    for rule_id in (*fixture.rules, *([expect.rule] if expect.rule else [])):
        if rule_id not in known:
            yield LintProblem(fixture.where("rules"), f"{rule_id!r} is no rule of {ruleset.id}")
    bibliography = set(ruleset.document.get("sources", {}))
    for key in fixture.metadata["sources"]:
        if key not in bibliography:
            yield LintProblem(
                fixture.where("sources"),
                f"{key!r} is not a source key",
                "the keys are listed in docs/sources.md",
            )
    run = run_fixture(fixture, ruleset)
    yield run
    yield from _lint_run(fixture, run, ruleset, load)


def _lint_run(
    fixture: Fixture, run: FixtureRun, ruleset: Ruleset, load: Callable[[str], Ruleset]
) -> Iterator[LintProblem]:
    tag = fixture.tag
    if tag and tag.split("@")[0] != fixture.ruleset_id:
        yield LintProblem(
            fixture.where("ruleset"),
            f"the file's [Ruleset {tag!r}] tag does not name {fixture.ruleset_id}",
        )
    if (
        run.syntax_error is None
        and format_transcript(parse_transcript(fixture.text)) != fixture.text
    ):
        yield LintProblem(
            fixture.where(),
            "the fixture is not in canonical form",
            f"run: baloot-conformance fmt {fixture.path}",
        )
    if not run.as_expected:
        yield LintProblem(
            fixture.where("expect"),
            f"expected {fixture.expect}, the replay gives {run.outcome}",
            _why(run),
        )
    for rule_id in fixture.rules if fixture.expect.syntax_error is None else ():
        if rule_id not in run.trace:
            yield LintProblem(
                fixture.where("rules"),
                f"{rule_id} is declared but decided nothing when the fixture was replayed",
                "list only the rules the fixture exercises (baloot-conformance coverage "
                "FILE shows them)",
            )
    if fixture.area == ruleset.id and len(ruleset.lineage) > 1:
        yield from _lint_difference(fixture, run, ruleset, load(ruleset.lineage[-1]))
    if run.syntax_error is None and fixture.perft:
        yield from _lint_perft(fixture, ruleset)


def _lint_perft(fixture: Fixture, ruleset: Ruleset) -> Iterator[LintProblem]:
    """Each perft count the fixture records is the kit's, at a position it has, once."""
    hands = parse_transcript(fixture.text).hands
    seen: set[str] = set()
    for record in fixture.perft:
        command = (
            f"baloot-conformance perft {fixture.path} {record.position} --depth {record.depth}"
        )
        if record.position in seen:
            yield LintProblem(
                fixture.where("perft"),
                f"perft at {record.position} is recorded twice: one count per position",
            )
            continue
        seen.add(record.position)
        try:
            counted = perft_at(hands, ruleset, record.position, record.depth)
        except PerftError as exc:
            yield LintProblem(fixture.where("perft"), f"perft at {record.position}: {exc.message}")
            continue
        if counted.nodes != record.nodes:
            yield LintProblem(
                fixture.where("perft"),
                f"perft at {record.position} to depth {record.depth} counts {counted.nodes} "
                f"sequences, not {record.nodes}",
                f"record nodes: {counted.nodes} (run: {command})",
            )


def _lint_difference(
    fixture: Fixture, run: FixtureRun, ruleset: Ruleset, base: Ruleset
) -> Iterator[LintProblem]:
    """A profile's fixture must tell each rule it names apart: with that one rule read as the
    ``base`` ruleset (the one it extends) reads it, the verdict changes (where the rule cannot
    change alone, the base ruleset itself must give another verdict)."""
    readings = rule_documents(base)
    for rule_id in fixture.rules:
        changed = isolate(ruleset, {rule_id: readings[rule_id]}) or base
        if run_fixture(fixture, changed).outcome == run.outcome:
            yield LintProblem(
                fixture.where("rules"),
                f"the fixture gives {run.outcome} with {rule_id} read as {base.id} reads it "
                f"too: it does not tell {ruleset.id}'s {rule_id} apart",
            )


def _why(run: FixtureRun) -> str | None:
    """The first divergence (or error) of a run, to show why it is not as expected."""
    if run.syntax_error is not None:
        return str(run.syntax_error.message)
    for verdict in run.verdicts:
        if verdict.divergences:
            first = verdict.divergences[0]
            return f"{first.position} {first.rule_id}: {first.message}"
        if verdict.error:
            return f"{verdict.position}: {verdict.error}"
    return None
