"""The fixture corpus: transcripts that each show one rule, with test262-style metadata.

A fixture is a BTN file ``fixtures/<area>/<id>.btn`` whose metadata block (YAML between two
``---`` lines, schema ``spec/schema/fixture.schema.json``) says what it shows: a stable
``id``, a ``description`` working out its numbers, the ``rules`` it exercises, what to
``expect`` (``pass``, or the position and rule of the root divergence, or the place of a
syntax error), the ``ruleset`` and versions it is written for, its ``sources`` and its
``status``. An area is a part of the rules (:data:`AREAS`) or a profile's id: the fixtures
that tell that profile apart from the default.

:func:`run_fixture` replays a fixture with a :class:`~baloot_conformance.engine.trace.Trace`,
so that the rules it exercised are measured, not declared; the corpus is checked by
:mod:`~baloot_conformance.corpus.lint`, exported by :mod:`~baloot_conformance.corpus.export`,
and its coverage table is :mod:`~baloot_conformance.corpus.coverage`'s.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from baloot_conformance import btn
from baloot_conformance.check.run import check_hands
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import (
    BalootError,
    Location,
    TranscriptSyntaxError,
    UnreadableInputError,
)
from baloot_conformance.resources import data_root, spec_path
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.rules.strict_yaml import yaml_key_locations

#: The areas of the rules, one folder each; the other folders are named for a profile.
AREAS = (
    "deal", "bidding", "doubling", "projects", "baloot", "play", "scoring", "kaboot", "game",
    "notation",
)  # fmt: skip


class FixtureError(BalootError):
    """A fixture file that cannot be used: no metadata block, or metadata that is not valid."""


class NoMetadataError(FixtureError):
    """A transcript without a metadata block: not a fixture (a plain transcript, maybe)."""


@dataclass(frozen=True)
class Expectation:
    """What a fixture expects: a pass, the root divergence of the first failing hand, or a
    syntax error at a line and column."""

    position: str | None = None
    rule: str | None = None
    syntax_error: tuple[int, int] | None = None

    @classmethod
    def of(cls, value: Any) -> Expectation:
        """Read the metadata's ``expect`` (already valid under the schema)."""
        if value == "pass":
            return cls()
        if "syntax_error" in value:
            return cls(
                syntax_error=(value["syntax_error"]["line"], value["syntax_error"]["column"])
            )
        return cls(position=value["position"], rule=value["rule"])

    @property
    def passes(self) -> bool:
        return self.position is None and self.syntax_error is None

    def __str__(self) -> str:
        if self.syntax_error is not None:
            return f"a syntax error at line {self.syntax_error[0]}, column {self.syntax_error[1]}"
        if self.position is None:
            return "pass"
        return f"fail at {self.position} ({self.rule})"

    def to_json(self) -> Any:
        if self.syntax_error is not None:
            line, column = self.syntax_error
            return {"syntax_error": {"line": line, "column": column}}
        return "pass" if self.position is None else {"position": self.position, "rule": self.rule}


@dataclass(frozen=True)
class PerftRecord:
    """A perft count a fixture records: ``nodes`` sequences of ``depth`` plies from just
    before the event at ``position``."""

    position: str
    depth: int
    nodes: int


@dataclass(frozen=True)
class Fixture:
    """One fixture file and its metadata."""

    path: Path
    area: str
    """The folder it is in: an area of :data:`AREAS` or a profile's id."""
    metadata: Mapping[str, Any]
    text: str
    metadata_line: int
    """The line of the opening ``---``."""
    keys: Mapping[str, Location]
    """Where each top-level metadata key is."""
    tag: str
    """The file's ``[Ruleset]`` tag (empty when it has none)."""

    @property
    def id(self) -> str:
        return str(self.metadata["id"])

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(self.metadata["rules"])

    @property
    def expect(self) -> Expectation:
        return Expectation.of(self.metadata["expect"])

    @property
    def perft(self) -> tuple[PerftRecord, ...]:
        """The perft counts it records (``perft:``), in the file's order."""
        return tuple(
            PerftRecord(entry["position"], entry["depth"], entry["nodes"])
            for entry in self.metadata.get("perft", ())
        )

    @property
    def ruleset_id(self) -> str:
        return str(self.metadata["ruleset"]["id"])

    @property
    def versions(self) -> str:
        return str(self.metadata["ruleset"]["versions"])

    @property
    def status(self) -> str:
        return str(self.metadata["status"])

    def where(self, key: str | None = None) -> Location:
        """Where a top-level metadata key is (the block's opening line without one)."""
        if key is not None and key in self.keys:
            return self.keys[key]
        return Location(str(self.path), self.metadata_line, 1)


@cache
def metadata_schema() -> dict[str, Any]:
    """The JSON Schema of fixture metadata."""
    schema: dict[str, Any] = json.loads(
        spec_path("schema", "fixture.schema.json").read_text(encoding="utf-8")
    )
    return schema


def corpus_root() -> Path:
    """The shipped corpus: ``fixtures/`` of the checkout (or of the installed package)."""
    return data_root() / "fixtures"


def load_fixture(path: Path, area: str | None = None) -> Fixture:
    """Read a fixture's metadata (the hands are read when it is run).

    Raises:
        TranscriptSyntaxError: the head of the file (version line, metadata) is not BTN.
        FixtureError: no metadata block, or metadata that breaks the schema.
    """
    with btn.TranscriptReader(path, str(path)) as reader:  # bytes checked as for any transcript
        head = reader.head()
    if head.metadata is None:
        raise NoMetadataError(
            "a fixture needs a metadata block",
            location=Location(str(path), 2, 1),
            hint="put YAML between two '---' lines right after '%btn 1': id, description, "
            "rules, expect, ruleset, sources, status (see fixtures/README.md)",
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    text = btn.decode_utf8(data, str(path))  # a bad byte anywhere: file:line:col, as check says
    opening = next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith("---"))
    keys = yaml_key_locations(head.metadata_text or "", str(path), opening + 1, True)
    tag = next((t.value for t in head.header if isinstance(t, btn.Tag) and t.name == "Ruleset"), "")
    fixture = Fixture(path, area or path.parent.name, head.metadata, text, opening, keys, tag)
    errors = sorted(
        jsonschema.Draft202012Validator(metadata_schema()).iter_errors(head.metadata),
        key=lambda e: list(e.absolute_path),
    )
    if errors:
        error = errors[0]
        key = str(error.absolute_path[0]) if error.absolute_path else None
        where = "/".join(str(p) for p in error.absolute_path) or "the metadata"
        raise FixtureError(
            f"{where}: {error.message}",
            location=fixture.where(key),
            hint="the fields are described in spec/schema/fixture.schema.json",
        )
    return fixture


def fixture_paths(root: Path) -> list[Path]:
    """The fixture files under ``root`` (a folder of areas), in a stable order."""
    return sorted(root.glob("*/*.btn"))


#: The folders of the trick family's BTN 2 fixtures (``fixtures/bourre/`` ...): not Baloot's
#: corpus.
FAMILY_FOLDERS = ("bourre", "barbu", "hearts")


def baloot_fixture_files(root: Path | None = None) -> list[Path]:
    """Every BTN 1 file below ``root`` (the shipped corpus by default), in a stable order:
    what the Baloot tools and tests that take "every fixture" read. The trick family's
    fixtures (``bourre/``, ``barbu/``, ``hearts/``: BTN 2) are left out, and so is any other
    file whose first line is ``%btn 2``."""
    base = root or corpus_root()
    families = [base / folder for folder in FAMILY_FOLDERS]
    found = []
    for path in sorted(base.rglob("*.btn")):
        if any(path.is_relative_to(f) for f in families) or _starts_btn2(path):
            continue
        found.append(path)
    return found


def _starts_btn2(path: Path) -> bool:
    with path.open("rb") as handle:
        head = handle.read(7)
    return head.startswith(b"%btn 2") and head[6:7] in (b"", b"\n", b"\r", b" ", b"\t", b"#")


def load_corpus(root: Path | None = None) -> list[Fixture]:
    """Every fixture of a corpus (the shipped one by default)."""
    return [load_fixture(path) for path in fixture_paths(root or corpus_root())]


# --- running -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FixtureRun:
    """A fixture replayed: its verdicts, the rules that decided something, what it gave."""

    fixture: Fixture
    ruleset: Ruleset | None
    verdicts: tuple[HandVerdict, ...]
    trace: Trace
    syntax_error: TranscriptSyntaxError | None = None

    @property
    def outcome(self) -> Expectation:
        """What the replay gave, in the terms of ``expect``."""
        if self.syntax_error is not None:
            where = self.syntax_error.location
            return Expectation(syntax_error=(where.line, where.column) if where else (0, 0))
        for verdict in self.verdicts:
            if verdict.status == "pass":
                continue
            root = next((d for d in verdict.divergences if d.root), None)
            if root is None:  # the hand could not be replayed at all
                return Expectation(position=verdict.position, rule="(error)")
            return Expectation(position=root.position, rule=root.rule_id or "(none)")
        return Expectation()

    @property
    def as_expected(self) -> bool:
        return self.outcome == self.fixture.expect


def run_fixture(fixture: Fixture, ruleset: Ruleset | None = None) -> FixtureRun:
    """Replay a fixture under ``ruleset`` (by default the ruleset it names), tracing it."""
    trace = Trace()
    verdicts: list[HandVerdict] = []
    try:
        with btn.TranscriptReader.from_text(fixture.text, str(fixture.path)) as reader:
            if ruleset is None:
                ruleset = load_ruleset(fixture.tag or fixture.ruleset_id)
            verdicts.extend(check_hands(reader, str(fixture.path), ruleset, trace=trace))
    except TranscriptSyntaxError as exc:
        return FixtureRun(fixture, ruleset, tuple(verdicts), trace, exc)
    return FixtureRun(fixture, ruleset, tuple(verdicts), trace)


# --- versions ------------------------------------------------------------------------------

_CLAUSE = re.compile(r"(>=|>|<=|<|==)([0-9]+(?:\.[0-9]+){0,2})")


def _version(text: str) -> tuple[int, int, int]:
    parts = [int(p) for p in text.split(".")] + [0, 0]
    return parts[0], parts[1], parts[2]


def in_range(version: str, versions: str) -> bool:
    """Whether ``version`` (``1.1.0``) satisfies a range such as ``>=1.1 <2``."""
    have = _version(version)
    tests = {
        ">=": lambda a, b: a >= b,
        ">": lambda a, b: a > b,
        "<=": lambda a, b: a <= b,
        "<": lambda a, b: a < b,
        "==": lambda a, b: a == b,
    }
    return all(tests[op](have, _version(number)) for op, number in _CLAUSE.findall(versions))
