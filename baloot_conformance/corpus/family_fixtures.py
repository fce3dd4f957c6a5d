"""The trick family's fixtures: BTN 2 transcripts under ``fixtures/bourre/<area>/<id>.btn``,
each with the verdict it gives under every ruleset it runs under.

The metadata block is Baloot's (``id``, ``description``, ``rules``, ``expect``, ``ruleset``,
``sources``, ``status``, ``flags``) plus ``readings``: the verdict the same file gives under
each other shipped trick ruleset, its table and pack still the tagged ruleset's (schema
``spec/schema/fixture2.schema.json``; Baloot's ``fixture.schema.json`` is not changed). A
fixture is thus the witness of every option value it tells apart: ``bourre-seed``'s
underruff passes where ``bourre``'s fails, at the card and under the rule the metadata names.

:func:`run_family_fixture` replays a fixture under a ruleset with a
:class:`~baloot_conformance.engine.trace.Trace` (the family's hand counts the rules that
decided, :mod:`baloot_conformance.family.engine.trace`), so that the rules it exercises are
measured, not declared. Nothing here is imported by a Baloot run: the corpus modules reach it
only for a file whose first line is ``%btn 2``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.corpus.fixtures import (
    Expectation,
    Fixture,
    FixtureError,
    NoMetadataError,
    corpus_root,
)
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import (
    BalootError,
    Location,
    TranscriptSyntaxError,
    UnreadableInputError,
)
from baloot_conformance.family.btn.reader import Btn2Reader
from baloot_conformance.family.check.run import check_btn2
from baloot_conformance.family.rules.loading import load_trick_ruleset, shipped_trick_rulesets
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.strict_yaml import yaml_key_locations

#: The folder of the trick family's fixtures, below the corpus root.
FAMILY_FOLDER = "bourre"
#: Each game's folder of fixtures (``fixtures/<game>/<area>/<id>.btn``).
FAMILY_FOLDERS = ("bourre", "barbu", "hearts")

#: The areas of the family's rules, one folder each; the other folders are a profile's id.
FAMILY_AREAS = ("table", "contracts", "phases", "play", "scoring", "game")


@cache
def metadata_schema() -> dict[str, Any]:
    """The JSON Schema of a BTN 2 fixture's metadata."""
    schema: dict[str, Any] = json.loads(
        spec_path("schema", "fixture2.schema.json").read_text(encoding="utf-8")
    )
    return schema


def family_root(game: str = FAMILY_FOLDER) -> Path:
    """``fixtures/<game>/`` of the checkout (or of the installed package): Bourré's by
    default."""
    return corpus_root() / game


def family_roots() -> list[Path]:
    """Every game's fixture folder."""
    return [family_root(game) for game in FAMILY_FOLDERS]


def family_fixture_paths(root: Path | None = None) -> list[Path]:
    """The family's fixture files (``<area>/<id>.btn`` below ``root``; below every game's
    folder by default), in a stable order."""
    roots = [root] if root is not None else family_roots()
    return sorted(path for folder in roots for path in folder.glob("*/*.btn"))


def readings(fixture: Fixture) -> dict[str, Expectation]:
    """The verdict a fixture expects under each ruleset it runs under, its own first."""
    found = {fixture.ruleset_id: fixture.expect}
    for ruleset_id, value in fixture.metadata.get("readings", {}).items():
        found.setdefault(ruleset_id, Expectation.of(value))
    return found


def load_family_fixture(path: Path, area: str | None = None) -> Fixture:
    """Read a BTN 2 fixture's metadata (its hands are read when it is run).

    Raises:
        TranscriptSyntaxError: the head of the file (version line, metadata, header) is not
            BTN 2.
        UnreadableInputError: the file cannot be read, or its ``[Ruleset]`` names no shipped
            trick ruleset.
        FixtureError: no metadata block, or metadata that breaks the schema.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    reader = Btn2Reader(data, str(path), ruleset_for)
    text = data.decode("utf-8")
    if reader.metadata is None:
        raise NoMetadataError(
            "a fixture needs a metadata block",
            location=Location(str(path), 2, 1),
            hint="put YAML between two '---' lines right after '%btn 2': id, description, "
            "rules, expect, ruleset, readings, sources, status (see fixtures/README.md)",
        )
    opening = next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith("---"))
    keys = yaml_key_locations(reader.metadata_text or "", str(path), opening + 1, True)
    tag = reader.tags.get("Ruleset", "")
    fixture = Fixture(path, area or path.parent.name, reader.metadata, text, opening, keys, tag)
    errors = sorted(
        jsonschema.Draft202012Validator(metadata_schema()).iter_errors(reader.metadata),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        error = errors[0]
        key = str(error.absolute_path[0]) if error.absolute_path else None
        where = "/".join(str(p) for p in error.absolute_path) or "the metadata"
        raise FixtureError(
            f"{where}: {error.message}",
            location=fixture.where(key),
            hint="the fields are described in spec/schema/fixture2.schema.json",
        )
    return fixture


def load_family_corpus(root: Path | None = None) -> list[Fixture]:
    """Every family fixture (the shipped ones by default)."""
    return [load_family_fixture(path) for path in family_fixture_paths(root)]


def trick_rulesets(game: str | None = None) -> Mapping[str, TrickRuleset]:
    """Every shipped trick ruleset by id, or those of ``game`` (its common rules' id)."""
    every = {name: _load(name) for name in sorted(shipped_trick_rulesets())}
    if game is None:
        return every
    return {name: r for name, r in every.items() if r.lineage[-1] == game}


@cache
def _load(name: str) -> TrickRuleset:
    return load_trick_ruleset(name)


def ruleset_for(reference: str, location: Location) -> TrickRuleset:
    """The shipped trick ruleset a fixture's ``[Ruleset]`` tag names, loaded once; an error
    located at the tag when there is none."""
    try:
        return _load(reference)
    except BalootError as exc:
        raise UnreadableInputError(
            f"[Ruleset {reference!r}]: {exc.message}", location=location, hint=exc.hint
        ) from None


@dataclass(frozen=True)
class FamilyRun:
    """A family fixture replayed under one ruleset: its verdicts, its trace, what it gave."""

    fixture: Fixture
    ruleset: TrickRuleset
    verdicts: tuple[HandVerdict, ...]
    trace: Trace
    syntax_error: TranscriptSyntaxError | None = None

    @property
    def outcome(self) -> Expectation:
        """What the replay gave, in the terms of ``expect`` (a hand that cannot be replayed
        at all, a table its ruleset does not seat, fails at the hand under the rule that
        refused it)."""
        if self.syntax_error is not None:
            where = self.syntax_error.location
            return Expectation(syntax_error=(where.line, where.column) if where else (0, 0))
        for verdict in self.verdicts:
            if verdict.status == "pass":
                continue
            root = next((d for d in verdict.divergences if d.root), None)
            if root is None:
                rule = (verdict.error or "").partition(":")[0] or "(error)"
                return Expectation(position=verdict.position, rule=rule)
            return Expectation(position=root.position, rule=root.rule_id or "(none)")
        return Expectation()

    def as_expected(self, expect: Expectation) -> bool:
        return self.outcome == expect


def run_family_text(
    text: str, path: str, ruleset: TrickRuleset | None = None
) -> tuple[tuple[HandVerdict, ...], Trace, TranscriptSyntaxError | None]:
    """Replay a BTN 2 text under ``ruleset`` (by default its tag's), tracing it: the
    verdicts, the trace (with the rule of each divergence: a check that failed decided
    something), and the syntax error that stopped the reading (if any)."""
    trace = Trace()
    verdicts: list[HandVerdict] = []
    error = None
    try:
        verdicts.extend(check_btn2(text, path, ruleset, trace=trace))
    except TranscriptSyntaxError as exc:
        error = exc
    for verdict in verdicts:  # a check that failed decided too: the rule it cites
        trace.hit(*(d.rule_id for d in verdict.divergences if d.rule_id))
        cited = (verdict.error or "").partition(":")[0]
        if verdict.status == "error" and "." in cited and " " not in cited:
            trace.hit(cited)  # a hand that could not start: the rule that refused it
    return tuple(verdicts), trace, error


def run_family_fixture(fixture: Fixture, ruleset: TrickRuleset | None = None) -> FamilyRun:
    """Replay a fixture under ``ruleset`` (by default the one it is written for)."""
    rules = ruleset if ruleset is not None else _load(fixture.ruleset_id)
    verdicts, trace, error = run_family_text(fixture.text, str(fixture.path), rules)
    return FamilyRun(fixture, rules, verdicts, trace, error)
