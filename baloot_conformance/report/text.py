"""The terminal report: each divergence where an editor can jump to it, a line per file.

Divergences print as they arrive, compiler style (``file:line:col: ...``) with the quoted
source line and a caret, so a long run shows its problems early. A file's ``PASS``/``FAIL``
line follows once its last hand is in (when the path changes, or at the end; ``KNOWN-DEFECT``
when its only divergences follow from engine defects the ruleset lists), and a final line
gives the run's totals. ANSI colour only when asked for: the CLI decides from the
stream and ``NO_COLOR``; without it not one escape byte is written.
"""

from __future__ import annotations

from typing import TextIO

from baloot_conformance.check.verdicts import FileError, HandVerdict, RunHeader, RunSummary
from baloot_conformance.report.base import (
    FileTally,
    defect_note,
    details,
    hand_error,
    headline,
    one_line,
    plain,
    plural,
    printable,
    ruleset_label,
    stopped_note,
    totals,
    unchecked_note,
    unsupported_note,
)
from baloot_conformance.report.pictures import draw

_SGR = {
    "pass": "32;1",  # bold green
    "fail": "31;1",  # bold red
    "known-defect": "33;1",  # bold yellow
    "unsupported": "2",  # dim
    "error": "31;1",
    "root": "31",
    "after": "2",  # dim
    "location": "1",  # bold
    "rule": "36",  # cyan
    "caret": "32",
}


def _ansi(role: str, text: str) -> str:
    code = _SGR.get(role)
    return f"\x1b[{code}m{text}\x1b[0m" if code else text


class TextReporter:
    """Human-readable report; ``verbose`` adds the run header and a line per hand;
    ``defects_fail``: a file with known engine defects reads ``FAIL``."""

    def __init__(
        self,
        stream: TextIO,
        *,
        color: bool = False,
        verbose: bool = False,
        defects_fail: bool = False,
    ) -> None:
        self._out = stream
        self._defects_fail = defects_fail
        self._style = _ansi if color else plain
        self._color = color
        self._verbose = verbose
        self._file: FileTally | None = None

    def _line(self, text: str = "") -> None:
        self._out.write(text + "\n")

    def start(self, header: RunHeader) -> None:
        if not self._verbose:
            return
        ruleset = ruleset_label(header) or "named by each file"
        digest = f" ({header.ruleset_digest})" if header.ruleset_digest else ""
        self._line(printable(f"baloot-conformance {header.kit_version}, ruleset {ruleset}{digest}"))

    def hand(self, verdict: HandVerdict) -> None:
        if self._file is not None and self._file.path != verdict.path:
            self._end_file()
        if self._file is None:
            self._file = FileTally(verdict.path)
        self._file.add(verdict)
        style = self._style
        if self._verbose and verdict.status != "error":  # an error hand has its own line
            counts = f"{plural(verdict.events, 'event')}, {plural(verdict.claims, 'claim')}"
            where = str(verdict.location) if verdict.location else verdict.path
            status = style(verdict.status, verdict.status)
            self._line(f"{one_line(where)}: {printable(verdict.position)} {status} ({counts})")
        if verdict.status == "error":
            self._line(hand_error(verdict, style))
        for divergence in verdict.divergences:
            self._line(headline(divergence, verdict.path, style))
            for line in details(divergence, style):
                self._line(line)
            if divergence.table is not None:
                drawing = draw(divergence.table, color=self._color)
                self._line("\n".join(("    " + line).rstrip() for line in drawing.split("\n")))
        for line in stopped_note(verdict):
            self._line(line)
        if verdict.status == "known-defect":
            where = str(verdict.location) if verdict.location else verdict.path
            self._line(f"{one_line(where)}: {style('known-defect', defect_note(verdict))}")
        if verdict.status == "unsupported":
            where = str(verdict.location) if verdict.location else verdict.path
            self._line(f"{one_line(where)}: {style('unsupported', unsupported_note(verdict))}")
        for foul in verdict.latent_fouls:
            where = str(verdict.location) if verdict.location else verdict.path
            self._line(f"{one_line(where)}: latent foul, never called: {printable(foul)}")
        if verdict.unchecked:
            where = str(verdict.location) if verdict.location else verdict.path
            self._line(
                f"{one_line(where)}: {printable(verdict.position)} {unchecked_note(verdict)}"
            )
        self._out.flush()

    def file_error(self, error: FileError) -> None:
        if self._file is not None and self._file.path != error.path:
            self._end_file()
        if self._file is None:
            self._file = FileTally(error.path)
        self._file.errors += 1
        message = printable(error.message).replace("\n", "\n    ")
        self._line(f"{self._style('error', 'error')}: {message}")
        self._out.flush()

    def _end_file(self) -> None:
        tally = self._file
        if tally is None:
            return
        self._file = None
        parts = [plural(tally.hands, "hand")]
        if tally.known:
            parts.append(plural(tally.known, "known defect"))
        if tally.unsupported:
            parts.append(f"{tally.unsupported} unsupported")
        if tally.failed:
            parts.append(f"{tally.failed} failed")
        if tally.errors:
            parts.append(plural(tally.errors, "error"))
        if tally.divergences:
            parts.append(plural(tally.divergences, "divergence"))
        if tally.partial:
            parts.append(f"{tally.partial} partly unchecked")
        word = (
            self._style("fail", "FAIL")
            if not tally.ok or (tally.known and self._defects_fail)
            else self._style("known-defect", "KNOWN-DEFECT")
            if tally.known
            else self._style("unsupported", "UNSUPPORTED")
            if tally.unsupported == tally.hands
            else self._style("pass", "PASS")
        )
        self._line(f"{word} {one_line(tally.path)}  {', '.join(parts)}")

    def finish(self, summary: RunSummary) -> None:
        self._end_file()
        self._line(self._style("pass" if summary.ok else "fail", totals(summary)))
        self._out.flush()
