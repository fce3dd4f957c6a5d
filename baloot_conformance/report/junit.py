"""The CI report: JUnit XML, one test suite per transcript file and one test case per hand.

CI systems (GitHub, GitLab, Jenkins, Azure) read ``testsuites/testsuite/testcase`` with
``failure``, ``error`` and ``skipped`` children and the ``tests``/``failures``/``errors``/
``skipped`` counts; a hand explained by listed engine defects is ``skipped`` (a failure under
``--fail-on-known-defects``). The root's
counts are only known at the end, so each file's ``<testsuite>`` is serialised when the file
ends and parked in a spooled temporary file (in memory while small, on disk past
:data:`SPOOL_BYTES`); ``finish`` writes the root and copies the suites after it. Memory stays
flat in the number of hands. ElementTree does the escaping; characters XML 1.0 cannot carry
at all are shown as ``\\xNN`` first.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from typing import TextIO

from baloot_conformance.check.verdicts import FileError, HandVerdict, RunHeader, RunSummary
from baloot_conformance.report.base import (
    FileTally,
    defect_note,
    details,
    hand_error,
    headline,
    printable,
    stopped_note,
    unsupported_note,
)

SPOOL_BYTES = 1 << 20

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` without the characters XML 1.0 forbids: the one place every JUnit report
    (``check``'s and ``suite``'s) makes text XML can hold. Control characters are shown as
    ``\\xNN`` (as :func:`printable` shows them in every report), lone surrogates and
    U+FFFE/U+FFFF, which an engine's JSON can carry, as ``\\uXXXX``; other text is unchanged."""
    return _NOT_XML.sub(_escaped, printable(text))


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _divergence_lines(verdict: HandVerdict) -> list[str]:
    lines: list[str] = []
    for divergence in verdict.divergences:
        lines.append(headline(divergence, verdict.path))
        lines += details(divergence)
    return lines + stopped_note(verdict)


def testcase(verdict: HandVerdict, *, defects_fail: bool = False) -> ET.Element:
    """The ``<testcase>`` of one hand: empty when it passed. A known defect is
    ``<skipped type="known_defect">`` (as an expected failure is), or a ``<failure>`` of that
    type when ``defects_fail``."""
    case = ET.Element("testcase", classname=xml_text(verdict.path), name=xml_text(verdict.position))
    if verdict.status == "error":
        reason = hand_error(verdict)
        body = "\n".join([reason, *_divergence_lines(verdict)])
        element = ET.SubElement(case, "error", message=xml_text(reason.split("\n")[0]))
        element.text = xml_text(body)
    elif verdict.status == "fail":
        lines = _divergence_lines(verdict)
        first = verdict.divergences[0] if verdict.divergences else None
        message = headline(first, verdict.path).split("\n")[0] if first else "the hand failed"
        element = ET.SubElement(case, "failure", message=xml_text(message))
        if first is not None:
            element.set("type", first.kind)
        element.text = xml_text("\n".join(lines))
    elif verdict.status == "known-defect":
        note = defect_note(verdict)
        tag = "failure" if defects_fail else "skipped"
        element = ET.SubElement(case, tag, message=xml_text(note), type="known_defect")
        element.text = xml_text("\n".join([note, *_divergence_lines(verdict)]))
    elif verdict.status == "unsupported":
        note = unsupported_note(verdict)
        ET.SubElement(case, "skipped", message=xml_text(note), type="unsupported")
    if verdict.unchecked or verdict.latent_fouls:  # what a pass does not say by itself
        properties = ET.Element("properties")
        case.insert(0, properties)  # JUnit puts properties first
        for what in verdict.unchecked:
            ET.SubElement(properties, "property", name="unchecked", value=xml_text(what))
        for foul in verdict.latent_fouls:
            ET.SubElement(properties, "property", name="latent_foul", value=xml_text(foul))
    return case


class JUnitReporter:
    """Writes the whole XML document in :meth:`finish`, from suites parked as files end."""

    def __init__(self, stream: TextIO, *, defects_fail: bool = False) -> None:
        self._out = stream
        self._defects_fail = defects_fail
        self._spool = tempfile.SpooledTemporaryFile(  # noqa: SIM115 - closed in finish()
            max_size=SPOOL_BYTES, mode="w+", encoding="utf-8"
        )
        self._file: FileTally | None = None
        self._suite: ET.Element | None = None

    def start(self, header: RunHeader) -> None:
        pass  # the header has nothing JUnit consumers read

    def hand(self, verdict: HandVerdict) -> None:
        if self._file is not None and self._file.path != verdict.path:
            self._end_file()
        if self._file is None or self._suite is None:
            self._file = FileTally(verdict.path)
            self._suite = ET.Element("testsuite", name=xml_text(verdict.path))
        self._file.add(verdict)
        self._suite.append(testcase(verdict, defects_fail=self._defects_fail))

    def file_error(self, error: FileError) -> None:
        """A test case of its own, ``(file)``, with the error: the file was not checked whole."""
        if self._file is not None and self._file.path != error.path:
            self._end_file()
        if self._file is None or self._suite is None:
            self._file = FileTally(error.path)
            self._suite = ET.Element("testsuite", name=xml_text(error.path))
        self._file.hands += 1
        self._file.errors += 1
        case = ET.SubElement(self._suite, "testcase", classname=xml_text(error.path), name="(file)")
        element = ET.SubElement(case, "error", message=xml_text(error.message.split("\n")[0]))
        element.set("type", "file_error")
        element.text = xml_text(error.message)

    def _end_file(self) -> None:
        tally, suite = self._file, self._suite
        if tally is None or suite is None:
            return
        self._file = self._suite = None
        suite.set("tests", str(tally.hands))
        known = tally.known
        suite.set("failures", str(tally.failed + (known if self._defects_fail else 0)))
        suite.set("errors", str(tally.errors))
        skipped = (0 if self._defects_fail else known) + tally.unsupported
        if skipped:
            suite.set("skipped", str(skipped))
        ET.indent(suite, space="  ", level=1)
        self._spool.write("  " + ET.tostring(suite, encoding="unicode") + "\n")

    def finish(self, summary: RunSummary) -> None:
        self._end_file()
        known = summary.known_defects
        failures = summary.failed + (known if self._defects_fail else 0)
        count = (0 if self._defects_fail else known) + summary.unsupported
        skipped = f' skipped="{count}"' if count else ""
        self._out.write('<?xml version="1.0" encoding="utf-8"?>\n')
        self._out.write(
            f'<testsuites name="baloot-conformance" tests="{summary.hands + summary.unreadable}"'
            f' failures="{failures}" errors="{summary.errors + summary.unreadable}"{skipped}>\n'
        )
        self._spool.seek(0)
        shutil.copyfileobj(self._spool, self._out)
        self._spool.close()
        self._out.write("</testsuites>\n")
        self._out.flush()
