"""The pull-request report: Markdown for a CI job summary (e.g. ``GITHUB_STEP_SUMMARY``).

A heading with the verdict, the ruleset, a table with a row per file, then the first
:data:`MAX_SHOWN` divergences as bullets and a note when more were left out. The heading
needs the run's totals, so everything is written in :meth:`MarkdownReporter.finish`; what is
kept until then is a row per file and at most :data:`MAX_SHOWN` bullets.
"""

from __future__ import annotations

import re
from typing import TextIO

from baloot_conformance.check.verdicts import FileError, HandVerdict, RunHeader, RunSummary
from baloot_conformance.report.base import (
    FileTally,
    defect_note,
    plural,
    printable,
    ruleset_label,
    totals,
    unsupported_note,
)

MAX_SHOWN = 20

_SPECIAL = re.compile(r"([\\`*_\[\]|#~])")


def md_text(text: str) -> str:
    """``text`` as inline Markdown that renders as itself, on one line."""
    text = " ".join(printable(text).split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _SPECIAL.sub(r"\\\1", text)


def md_code(text: str, *, table: bool = False) -> str:
    """``text`` as a code span, fenced with more backticks than it contains, on one line.

    In a table cell a ``|`` must be escaped even inside code (GFM reads cells first).
    """
    text = " ".join(printable(text).split())
    if table:
        text = text.replace("|", "\\|")
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


class MarkdownReporter:
    """Collects a row per file and the first divergences; writes everything at the end."""

    def __init__(self, stream: TextIO, *, max_shown: int = MAX_SHOWN) -> None:
        self._out = stream
        self._max_shown = max_shown
        self._header: RunHeader | None = None
        self._files: list[FileTally] = []
        self._bullets: list[str] = []
        self._omitted = 0
        self._unchecked: list[str] = []
        self._latent: list[str] = []
        self._known: list[str] = []
        self._unsupported: list[str] = []

    def start(self, header: RunHeader) -> None:
        self._header = header

    def hand(self, verdict: HandVerdict) -> None:
        if not self._files or self._files[-1].path != verdict.path:
            self._files.append(FileTally(verdict.path))
        self._files[-1].add(verdict)
        items: list[str] = []
        if verdict.status == "error":
            where = str(verdict.location) if verdict.location else verdict.path
            reason = verdict.error or "the hand could not be replayed"
            items.append(f"{md_code(where)} {md_code(verdict.position)} error: {md_text(reason)}")
        for d in verdict.divergences:
            where = str(d.location) if d.location else verdict.path
            rule = f" {md_code(d.rule_id)}" if d.rule_id else ""
            root = " (root)" if d.root else ""
            items.append(
                f"{md_code(where)} {md_code(d.position)}{rule}{root}: {md_text(d.message)}"
            )
        if verdict.unchecked and len(self._unchecked) < self._max_shown:
            where = str(verdict.location) if verdict.location else verdict.path
            what = md_text("; ".join(verdict.unchecked))
            self._unchecked.append(f"- {md_code(where)} {md_code(verdict.position)}: {what}")
        for foul in verdict.latent_fouls:
            if len(self._latent) < self._max_shown:
                where = str(verdict.location) if verdict.location else verdict.path
                self._latent.append(f"- {md_code(where)}: {md_text(foul)}")
        if verdict.status == "unsupported":
            where = str(verdict.location) if verdict.location else verdict.path
            if len(self._unsupported) < self._max_shown:
                note = md_text(unsupported_note(verdict))
                self._unsupported.append(f"- {md_code(where)}: {note}")
            return
        if verdict.status == "known-defect":
            where = str(verdict.location) if verdict.location else verdict.path
            if len(self._known) < self._max_shown:
                self._known.append(f"- {md_code(where)}: {md_text(defect_note(verdict))}")
                self._known += [f"  {item}" for item in items[: self._max_shown]]
            return
        for item in items:
            self._add(item)

    def file_error(self, error: FileError) -> None:
        if not self._files or self._files[-1].path != error.path:
            self._files.append(FileTally(error.path))
        self._files[-1].errors += 1
        first = error.message.split("\n")[0]
        self._add(
            f"{md_code(error.path)} error (the file was not checked to its end): {md_text(first)}"
        )

    def _add(self, item: str) -> None:
        if len(self._bullets) < self._max_shown:
            self._bullets.append(f"- {item}")
        else:
            self._omitted += 1

    def finish(self, summary: RunSummary) -> None:
        mark = "✅" if summary.ok else "❌"
        defects = plural(summary.known_defects, "known defect")
        outcome = (
            (f"no failure, {defects}" if summary.known_defects else "all hands pass")
            if summary.ok
            else "nothing was checked"
            if summary.nothing_checked
            else f"{summary.failed} failed, {plural(summary.errors + summary.unreadable, 'error')}"
            + (f", {defects}" if summary.known_defects else "")
        )
        lines = [f"## {mark} Baloot conformance: {outcome}", ""]
        header = self._header
        if header is not None:
            ruleset = ruleset_label(header)
            named = f"ruleset {md_code(ruleset)}" if ruleset else "each file's own ruleset"
            digest = f" (digest {md_code(header.ruleset_digest)})" if header.ruleset_digest else ""
            kit = md_text(header.kit_version)
            lines += [f"Checked under {named}{digest} by baloot-conformance {kit}.", ""]
        lines.append(md_text(totals(summary)) + ".")
        if self._files:
            known = bool(summary.known_defects)  # a column only when there are some
            unsupported = bool(summary.unsupported)
            names = ["hands", "passed", *(["known defects"] if known else []), "failed"]
            names += ["errors", *(["unsupported"] if unsupported else []), "partly unchecked"]
            lines += [
                "",
                "| file | " + " | ".join(names) + " |",
                "| --- |" + " ---: |" * len(names),
            ]
            for f in self._files:
                counts = [f.hands, f.passed, *([f.known] if known else []), f.failed]
                counts += [f.errors, *([f.unsupported] if unsupported else []), f.partial]
                cells = " | ".join(str(c) for c in counts)
                lines.append(f"| {md_code(f.path, table=True)} | {cells} |")
        if self._bullets:
            lines += ["", "### Divergences", "", *self._bullets]
        if self._omitted:
            lines += ["", f"… and {self._omitted} more not shown (see the full report)."]
        if self._known:
            lines += ["", "### Known engine defects (listed by the ruleset)", "", *self._known]
        if self._unsupported:
            lines += ["", "### Unsupported (features the engine does not declare)", ""]
            lines += self._unsupported
        if self._unchecked:
            lines += ["", "### Not checked (partial transcripts)", "", *self._unchecked]
        if self._latent:
            lines += ["", "### Latent fouls (illegal cards that stood, never called)", ""]
            lines += self._latent
        self._out.write("\n".join(lines) + "\n")
        self._out.flush()
