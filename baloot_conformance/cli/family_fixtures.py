"""``fixtures lint``, ``fixtures list`` and ``coverage`` on the trick family's fixtures
(BTN 2, ``fixtures/bourre/``): imported only when a command meets a BTN 2 file or a trick
ruleset, so that a Baloot run loads none of the family's modules."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from baloot_conformance.corpus.coverage import Traced, render_text
from baloot_conformance.corpus.family_coverage import (
    family_coverage,
    option_witnesses,
    render_witnesses,
    trace_family_file,
    trace_family_fixture,
)
from baloot_conformance.corpus.family_fixtures import (
    FamilyRun,
    load_family_corpus,
    load_family_fixture,
    readings,
    trick_rulesets,
)
from baloot_conformance.corpus.family_lint import lint_family
from baloot_conformance.corpus.fixtures import FixtureRun, NoMetadataError
from baloot_conformance.corpus.lint import LintProblem, lint
from baloot_conformance.errors import UnreadableInputError
from baloot_conformance.family.rules.loading import load_trick_ruleset

_EXIT_OK, _EXIT_INVALID = 0, 1


def family_lint(
    baloot: Sequence[Path], family: Sequence[Path]
) -> Iterator[LintProblem | FixtureRun | FamilyRun]:
    """Baloot's lint over the BTN 1 files, then the family's over the BTN 2 ones (each checks
    that its ids are unique; the family's ids start with a trick ruleset's id, which no
    Baloot fixture's does)."""
    if baloot:
        yield from lint(baloot)
    yield from lint_family(family)


def run_family_list(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """The family's fixtures that run under ``--ruleset``, one line each: id, area, the
    verdict expected under that ruleset (no features: the family's suite has none yet)."""
    rulesets = trick_rulesets()
    name = args.ruleset.split("@")[0]
    if name not in rulesets:
        raise UnreadableInputError(f"--ruleset: {args.ruleset!r} is not a shipped trick ruleset")
    listed = []
    for fixture in load_family_corpus():
        reading = readings(fixture).get(name)
        if reading is None:
            continue
        if args.rule is not None and args.rule not in fixture.rules:
            continue
        if args.area is not None and fixture.area != args.area:
            continue
        if args.feature is not None:
            continue
        listed.append((fixture, str(reading)))
    if args.format == "json":
        for fixture, expect in listed:
            record = {
                "id": fixture.id,
                "area": fixture.area,
                "expect": expect,
                "ruleset": name,
                "rules": list(fixture.rules),
                "features": [],
            }
            stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        return _EXIT_OK
    width = max((len(f.id) for f, _ in listed), default=0)
    area = max((len(f.area) for f, _ in listed), default=0)
    for fixture, expect in listed:
        stdout.write(f"{fixture.id:<{width}}  {fixture.area:<{area}}  {expect}\n")
    print(f"{len(listed)} fixture{'s' * (len(listed) != 1)}", file=stderr)
    return _EXIT_OK


def run_family_coverage(args: argparse.Namespace, paths: Sequence[Path], stdout: TextIO) -> int:
    """The rule table of a trick ruleset over the family's fixtures (or the files given),
    then, for the shipped fixtures, which profiles' readings they tell apart."""
    ruleset = load_trick_ruleset(args.ruleset)
    traced: list[Traced] | None = None
    if paths:
        traced = []
        for path in paths:
            try:
                fixture = load_family_fixture(path)
            except NoMetadataError:
                traced.append(trace_family_file(path, ruleset))
                continue
            traced.append(trace_family_fixture(fixture, ruleset))
    coverage = family_coverage(ruleset, traced)
    rows = option_witnesses(ruleset.id) if not paths else []
    if args.format == "json":
        data = coverage.to_json()
        data["options"] = [
            {
                "profile": r.profile,
                "rule": r.rule_id,
                "allows": list(r.allows),
                "refuses": list(r.refuses),
            }
            for r in rows
        ]
        stdout.write(json.dumps(data, indent=2) + "\n")
    else:
        stdout.write(render_text(coverage))
        if rows:
            stdout.write(render_witnesses(rows, ruleset.id))
    return _EXIT_INVALID if coverage.uncovered else _EXIT_OK


def family_export(path: Path, form: str) -> tuple[str, str, dict[str, object]]:
    """A BTN 2 fixture as ``fixtures export`` writes it: its file name below the export (its
    game and area), its text (BTN 2, or its JSON form; a fixture of a syntax error stays
    BTN 2, the text the reader must refuse) and its manifest entry (with the verdict
    expected under each ruleset of its game, ``readings``)."""
    from baloot_conformance.corpus.family_fixtures import ruleset_for
    from baloot_conformance.family.btn.json_form import to_json_text
    from baloot_conformance.family.btn.reader import read_btn2

    fixture = load_family_fixture(path)
    game = load_trick_ruleset(fixture.ruleset_id).lineage[-1]
    if fixture.expect.syntax_error is not None:
        form = "btn"  # a text the reader refuses has no JSON form: it is exported as it is
    name = f"{game}/{fixture.area}/{fixture.id}.{form}"
    if form == "btn":
        text = fixture.text
    else:
        text = to_json_text(read_btn2(fixture.text, str(path), ruleset_for))
    entry: dict[str, object] = {
        "id": fixture.id,
        "file": name,
        "area": fixture.area,
        "ruleset": dict(fixture.metadata["ruleset"]),
        "rules": list(fixture.rules),
        "expect": fixture.expect.to_json(),
        "readings": {k: v.to_json() for k, v in readings(fixture).items()},
        "status": fixture.status,
        "features": [],
    }
    return name, text, entry
