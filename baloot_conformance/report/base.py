"""What every report format shares: the :class:`Reporter` protocol and plain-text rendering.

A run is reported as a stream: ``start`` once, ``hand`` once per hand in output order (the
hands of one file arrive one after another), ``file_error`` for a file that could not be read
or checked to its end, ``finish`` once. A report is never green when a file was not checked:
every format counts file errors as errors. Reporters hold at most one
file's worth of state, so memory stays flat in the number of hands. The helpers here turn a
:class:`~baloot_conformance.check.verdicts.Divergence` into the lines the text and JUnit reports
both print; they render and never judge.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from baloot_conformance.check.verdicts import (
    Divergence,
    DivergenceKind,
    FileError,
    HandVerdict,
    RunHeader,
    RunSummary,
)
from baloot_conformance.errors import caret_excerpt

Style = Callable[[str, str], str]
"""``style(role, text)``: how a report decorates a part of a line (roles below)."""

KIND_LABELS: dict[DivergenceKind, str] = {
    "illegal_event": "illegal event",
    "wrong_claim": "wrong claim",
    "missing_claim": "missing required claim",
    "missing_event": "missing required event",
}


class Reporter(Protocol):
    """Receives a run's verdicts in output order and writes one report format."""

    def start(self, header: RunHeader) -> None:
        """Called once, before any hand."""

    def hand(self, verdict: HandVerdict) -> None:
        """Called once per hand, in output order; the hands of a file are consecutive."""

    def file_error(self, error: FileError) -> None:
        """Called for a file that could not be read or checked to its end, after the hands
        of it that were checked (if any)."""

    def finish(self, summary: RunSummary) -> None:
        """Called once, after the last hand; writes what is left and flushes."""


def plain(role: str, text: str) -> str:
    """The undecorated :data:`Style`."""
    return text


def printable(text: str) -> str:
    """``text`` with control characters (other than tab and newline) shown as ``\\xNN``.

    Transcript lines are user input: an escape byte in one must not reach a terminal.
    """
    if text.isprintable():
        return text
    return "".join(
        ch if ch in "\t\n" or unicodedata.category(ch) != "Cc" else f"\\x{ord(ch):02x}"
        for ch in text
    )


def one_line(text: str) -> str:
    """:func:`printable`, newlines shown as ``\\n`` too: for a name (a file's path, which may
    hold a newline) on a report line of its own, where it must not start a forged line."""
    return printable(text).replace("\n", "\\n")


def totals(summary: RunSummary) -> str:
    """The run's totals in words, the same in every human report: ``3 files, 27 hands: 26
    passed, 1 failed, 0 errors (2 divergences)``, then the files with an error and where a
    ``--fail-fast`` run stopped. Hands explained by listed engine defects are counted apart
    (``1 known defect``), never among the passes, and so are hands that need a feature the
    engine does not declare (``2 unsupported``); a run of only those checked nothing. A file
    error counts among the errors: a run that could not read a file never reads as one
    without errors."""
    errors = summary.errors + summary.unreadable
    known = ""
    if summary.known_defects:
        counted = " (failures: --fail-on-known-defects)" if summary.defects_fail else ""
        known = f", {plural(summary.known_defects, 'known defect')}{counted}"
    if summary.unsupported:
        known += f", {summary.unsupported} unsupported"
    words = (
        f"{plural(summary.files, 'file')}, {plural(summary.hands, 'hand')}: "
        f"{summary.passed} passed{known}, {summary.failed} failed, {plural(errors, 'error')}"
        f" ({plural(summary.divergences, 'divergence')})"
    )
    if summary.nothing_checked:
        words += f"; {NOTHING_CHECKED}"
    if summary.unreadable:
        words += f"; {plural(summary.unreadable, 'file')} not read to the end"
    if summary.stopped is not None:
        words += f"; stopped at {one_line(summary.stopped)} (--fail-fast)"
        if summary.not_checked:
            names = ", ".join(one_line(name) for name in summary.not_checked[:3])
            more = len(summary.not_checked) - 3
            words += f", {plural(len(summary.not_checked), 'file')} not checked: {names}"
            words += f" and {more} more" if more > 0 else ""
    return words


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 hand``, ``2 hands``."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def ruleset_label(header: RunHeader) -> str | None:
    """``saudi@1.0`` for the run's ruleset, or ``None`` when each file names its own."""
    if header.ruleset_id is None:
        return None
    if header.ruleset_version is None:
        return header.ruleset_id
    return f"{header.ruleset_id}@{header.ruleset_version}"


def headline(divergence: Divergence, path: str, style: Style = plain) -> str:
    """``file:line:col: h3.t5.p2 rule.id (root): message``, continuation lines indented.

    ``path`` (the hand's file) stands in when the divergence has no location. Roles given to
    ``style``: ``location``, ``rule``, ``root``, ``after``.
    """
    where = str(divergence.location) if divergence.location else path
    parts = [style("location", f"{one_line(where)}:"), printable(divergence.position)]
    if divergence.rule_id:
        parts.append(style("rule", printable(divergence.rule_id)))
    parts.append(style("root", "(root)") if divergence.root else style("after", "(after root)"))
    message = printable(divergence.message).replace("\n", "\n    ")
    return f"{' '.join(parts)}: {message}"


def details(divergence: Divergence, style: Style = plain) -> list[str]:
    """The lines under a headline: the quoted source with a caret, then expected and claimed.

    Roles given to ``style``: ``caret`` (the excerpt's caret line).
    """
    lines: list[str] = []
    location = divergence.location
    if divergence.source is not None and location is not None:
        source = printable(divergence.source.splitlines()[0] if divergence.source else "")
        quoted, caret = caret_excerpt(source, location.column, location.line).split("\n")
        lines += [f"  {quoted}", f"  {style('caret', caret)}"]
    values = []
    if divergence.expected is not None:
        values.append(f"expected {printable(divergence.expected)}")
    if divergence.claimed is not None:
        values.append(f"claimed {printable(divergence.claimed)}")
    if values:
        lines.append(f"  {KIND_LABELS[divergence.kind]}: {', '.join(values)}")
    return lines


def defect_note(verdict: HandVerdict) -> str:
    """For a ``known-defect`` hand: ``h3 known defect (sawa-credits-all): ...``, the listed
    engine defects its divergences follow from (empty for any other hand)."""
    if verdict.status != "known-defect":
        return ""
    names = ", ".join(printable(d) for d in verdict.defects)
    return (
        f"{printable(verdict.position)} known defect ({names}): every divergence of the hand "
        f"follows from {'this' if len(verdict.defects) == 1 else 'these'} engine "
        f"defect{'' if len(verdict.defects) == 1 else 's'} listed by {printable(verdict.ruleset)}"
    )


NOTHING_CHECKED = (
    "nothing was checked: every hand needs a feature that --features does not list "
    "(add the features the engine implements, or check logs of hands it can play)"
)
"""What a report says of a run whose every hand was ``unsupported`` (it fails)."""


def unsupported_note(verdict: HandVerdict) -> str:
    """For an ``unsupported`` hand: ``h3 unsupported: needs the feature doubling, which the
    engine does not declare (--features)`` (empty for any other hand)."""
    if verdict.status != "unsupported":
        return ""
    lacking = verdict.missing_features
    noun = "feature" if len(lacking) == 1 else "features"
    return (
        f"{printable(verdict.position)} unsupported: needs the {noun} "
        f"{printable(', '.join(lacking))}, which the engine does not declare (--features)"
    )


def stopped_note(verdict: HandVerdict) -> list[str]:
    """For a failed hand whose replay stopped early: why, as one indented line (or none)."""
    if verdict.status not in ("fail", "known-defect") or not verdict.error:
        return []
    return ["  replay stopped: " + printable(verdict.error).replace("\n", "\n    ")]


def unchecked_note(verdict: HandVerdict) -> str:
    """For a partial transcript: ``not checked: ...``, what could not be checked."""
    return "not checked: " + printable("; ".join(verdict.unchecked))


def hand_error(verdict: HandVerdict, style: Style = plain) -> str:
    """``file:line:col: h1 error: why the hand could not be replayed``."""
    where = str(verdict.location) if verdict.location else verdict.path
    reason = printable(verdict.error or "the hand could not be replayed").replace("\n", "\n    ")
    head = f"{style('location', one_line(where) + ':')} {printable(verdict.position)}"
    return f"{head} {style('error', 'error')}: {reason}"


@dataclass(slots=True)
class FileTally:
    """The counts of one file's hands, kept while its hands stream past."""

    path: str
    hands: int = 0
    passed: int = 0
    failed: int = 0
    errors: int = 0
    divergences: int = 0
    partial: int = 0
    """Hands with something left unchecked (partial transcripts)."""
    known: int = 0
    """Hands explained by listed engine defects."""
    unsupported: int = 0
    """Hands that need a feature the engine does not declare."""

    def add(self, verdict: HandVerdict) -> None:
        self.hands += 1
        self.divergences += len(verdict.divergences)
        self.partial += bool(verdict.unchecked)
        if verdict.status == "pass":
            self.passed += 1
        elif verdict.status == "fail":
            self.failed += 1
        elif verdict.status == "known-defect":
            self.known += 1
        elif verdict.status == "unsupported":
            self.unsupported += 1
        else:
            self.errors += 1

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.errors == 0


__all__ = [
    "KIND_LABELS",
    "NOTHING_CHECKED",
    "FileTally",
    "Reporter",
    "Style",
    "defect_note",
    "details",
    "hand_error",
    "headline",
    "plain",
    "plural",
    "printable",
    "ruleset_label",
    "stopped_note",
    "unchecked_note",
]
