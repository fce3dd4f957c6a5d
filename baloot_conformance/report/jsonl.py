"""The machine-readable report: JSON Lines, one record per line, schema-checked.

A ``header`` record, one ``hand`` record per hand, a ``summary`` record; each line is one
JSON object with its keys in a fixed order and is flushed as soon as it is written, so a
consumer can follow a long run and memory stays flat. ``spec/schema/report.schema.json``
describes every record; :data:`FORMAT` names its version.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from baloot_conformance.check.verdicts import (
    Divergence,
    FileError,
    HandVerdict,
    RunHeader,
    RunSummary,
)
from baloot_conformance.errors import Location

FORMAT = "baloot-conformance-report/1"
"""The value of the header's ``format`` field; the number follows the schema's ``$id``."""


def _location(location: Location | None) -> dict[str, Any] | None:
    if location is None:
        return None
    return {"path": location.path, "line": location.line, "column": location.column}


def header_record(header: RunHeader) -> dict[str, Any]:
    ruleset = None
    if header.ruleset_id is not None:
        ruleset = {
            "id": header.ruleset_id,
            "version": header.ruleset_version,
            "digest": header.ruleset_digest,
        }
    return {
        "record": "header",
        "kit_version": header.kit_version,
        "ruleset": ruleset,
        "format": FORMAT,
    }


def divergence_record(divergence: Divergence) -> dict[str, Any]:
    return {
        "position": divergence.position,
        "location": _location(divergence.location),
        "rule_id": divergence.rule_id,
        "kind": divergence.kind,
        "message": divergence.message,
        "expected": divergence.expected,
        "claimed": divergence.claimed,
        "root": divergence.root,
        "source": divergence.source,
    }


def hand_record(verdict: HandVerdict) -> dict[str, Any]:
    return {
        "record": "hand",
        "path": verdict.path,
        "ruleset": verdict.ruleset,
        "position": verdict.position,
        "status": verdict.status,
        "events": verdict.events,
        "claims": verdict.claims,
        "error": verdict.error,
        "location": _location(verdict.location),
        "divergences": [divergence_record(d) for d in verdict.divergences],
        "unchecked": list(verdict.unchecked),
        "latent_fouls": list(verdict.latent_fouls),
        "defects": list(verdict.defects),
        "engine": _engine(verdict),
        "missing_features": list(verdict.missing_features),
    }


def _engine(verdict: HandVerdict) -> dict[str, Any] | None:
    """The engine the hand's transcript names, ``{"name": ..., "version": ...}`` or null."""
    engine = verdict.engine
    return None if engine is None else {"name": engine.name, "version": engine.version}


def file_error_record(error: FileError) -> dict[str, Any]:
    return {"record": "file_error", "path": error.path, "message": error.message}


def summary_record(summary: RunSummary) -> dict[str, Any]:
    return {
        "record": "summary",
        "files": summary.files,
        "hands": summary.hands,
        "passed": summary.passed,
        "known_defects": summary.known_defects,
        "unsupported": summary.unsupported,
        "failed": summary.failed,
        "errors": summary.errors,
        "unreadable": summary.unreadable,
        "divergences": summary.divergences,
        "stopped": summary.stopped,
        "not_checked": list(summary.not_checked),
        "defects_fail": summary.defects_fail,
        "ok": summary.ok,
    }


_LINE_BREAKS = ("\x85", "\u2028", "\u2029")
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def render(record: dict[str, Any]) -> str:
    """A record as its line of the report (without the line end)."""
    text = _ENCODER.encode(record)
    # JSON escapes \n and \r; these three also end a line for str.splitlines(), and can
    # only occur inside strings, where an escape means the same character.
    if not text.isascii():
        for char in _LINE_BREAKS:
            text = text.replace(char, f"\\u{ord(char):04x}")
    return text


def render_hand(verdict: HandVerdict) -> str:
    """A hand's line of the report: what a worker process of a parallel run sends back
    instead of the verdict, so that the parent only writes it (see :meth:`JsonLinesReporter.
    hand_line`)."""
    return render(hand_record(verdict))


class JsonLinesReporter:
    """Writes each record as one compact JSON line (UTF-8 text, not ``\\u`` escapes)."""

    def __init__(self, stream: TextIO) -> None:
        self._out = stream

    def _write(self, record: dict[str, Any]) -> None:
        self.hand_line(render(record))

    def hand_line(self, line: str) -> None:
        """Write a line rendered already (by :func:`render_hand`, in a worker process)."""
        self._out.write(line + "\n")
        self._out.flush()

    def start(self, header: RunHeader) -> None:
        self._write(header_record(header))

    def hand(self, verdict: HandVerdict) -> None:
        self._write(hand_record(verdict))

    def file_error(self, error: FileError) -> None:
        self._write(file_error_record(error))

    def finish(self, summary: RunSummary) -> None:
        self._write(summary_record(summary))
