"""Reading a stored run report back: the JSON Lines of ``check --format json`` or of ``suite
--format json``, as :mod:`~baloot_conformance.report.run_diff` compares it and as the
dashboard (:mod:`~baloot_conformance.report.dashboard_input`) counts it. It is the one
reader of stored reports: both build on its model.

A report is reduced to its *outcomes*: one per hand of a ``check`` report or per case of a
``suite`` report, each with its verdict and its *divergences* (every divergence of a hand, or
a case's first failure) and their *findings*: (position, rule, kind) of a hand's divergence,
(position, rule, observable) of a case's failure. What fails the run as a whole is kept apart
as its *problems*: a file that could not be read, a ``--fail-fast`` stop, an engine that did
not start, stale expectations, a run that checked nothing.

An outcome's identity across two reports (its ``key``) is a case's id, or a hand's
transcript path *relative to the folder all of its report's transcripts share* and its
position: ``logs-v1/m12.btn h3`` and ``logs-v2/m12.btn h3`` are the same hand in two
reports, one of each folder, so that the runs of two engine versions compare hand by hand.
It is settled when the report is whole (:meth:`ReportReader.finish`), once every path is
known.

The reader is strict about what it uses and lenient about the rest: a record may carry fields
this kit does not know (a later minor version's), but a line that is not JSON, a report cut
before its summary, a record out of place, a field of the wrong type or missing, or a format
version this kit does not read is a :class:`ReportError` (exit 2), naming ``file:line`` and
the JSON pointer of the field, what was expected and what to do. It judges nothing.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, TextIO

from baloot_conformance.errors import Location, UnreadableInputError

Kind = Literal["check", "suite"]

CHECK_FORMAT = "baloot-conformance-report/1"
"""The ``format`` of a ``check`` report's header (``spec/schema/report.schema.json``)."""
SUITE_FORMAT = "baloot-conformance-suite-report/1"
"""The ``format`` of a ``suite`` report's header (``spec/schema/suite-report.schema.json``);
a suite header without one was written before the field existed, and is read as this."""

CHECK_STATUSES = ("pass", "fail", "known-defect", "error", "unsupported")
"""The statuses of a hand this reader knows."""
SUITE_VERDICTS = ("pass", "fail", "error", "skip", "unsupported", "xfail", "xpass", "invalid")
"""The verdicts of a case this reader knows."""
CHECKED = frozenset({"pass", "fail", "xfail", "xpass", "known-defect"})
"""The verdicts of a unit whose answers were judged: a run with none proves nothing."""

_HINT = (
    "give the JSON Lines report of 'check --format json' or 'suite --format json', whole, "
    "as the kit wrote it (--output FILE, or '> FILE')"
)


class ReportError(UnreadableInputError):
    """A stored report that cannot be read: not JSON Lines, cut short, of another format
    version, or with a field of the wrong shape (exit 2, like unreadable input)."""


@dataclass(frozen=True, order=True)
class EngineLabel:
    """An engine and its version, as a report names it (a suite's handshake, a check hand's
    ``[Engine]`` and ``[EngineVersion]`` tags) or as a label given on a command line."""

    name: str
    version: str | None = None

    def __str__(self) -> str:
        return self.name if self.version is None else f"{self.name}@{self.version}"

    @property
    def said(self) -> str:
        """The name and version as words: ``majlis 1.2``."""
        return self.name if self.version is None else f"{self.name} {self.version}"

    @staticmethod
    def parse(text: str) -> EngineLabel:
        """``NAME`` or ``NAME@VERSION`` (the last ``@`` splits them)."""
        name, at, version = text.rpartition("@")
        if not at or not name:
            return EngineLabel(text)
        return EngineLabel(name, version or None)


class Finding(NamedTuple):
    """One divergence of a hand (``what`` its kind: ``wrong_claim``...), or the first
    failure of a case (``what`` its observable: ``claims``, ``legal``...)."""

    position: str
    rule: str | None
    what: str

    def __str__(self) -> str:
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{self.position} {self.what}{rule}"


@dataclass(frozen=True, slots=True)
class Divergence:
    """A divergence of a hand, or the failure of a case, with all the report says of it."""

    position: str
    rule_id: str | None
    what: str
    """A hand's divergence's kind (``wrong_claim``), a case's failure's observable (``legal``)."""
    message: str
    location: str | None
    """``file:line:col``, when the report gives it."""
    root: bool
    """The first divergence of its hand (a case's failure always is)."""
    expected: str | None = None
    claimed: str | None = None
    """What the transcript claims (a hand), what the engine answered (a case)."""
    source: str | None = None
    """The transcript's line it is on (a hand), when the report quotes it."""

    @property
    def finding(self) -> Finding:
        """What a diff compares of it."""
        return Finding(self.position, self.rule_id, self.what)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A hand's or a case's verdict, as the report gives it."""

    key: tuple[str, ...]
    """What identifies it across two reports: ``(path, position, n)`` for a hand, the path
    relative to the folder all of its report's transcripts share (``n`` counts the hands of
    a file logged twice under one number), ``(id,)`` for a case."""
    name: str
    """How the diff names it: ``games/a.btn h3`` (the path as the report gives it), or the
    case id."""
    verdict: str
    findings: tuple[Finding, ...] = ()
    where: str | None = None
    """``file:line:col`` of the first finding (or of the hand), when the report gives it."""
    message: str | None = None
    """What the first finding says, or the error, or why the case was not run."""
    defects: tuple[str, ...] = ()
    """The engine defects a known-defect hand follows from."""
    line: int = 0
    """The record's line in the report."""
    path: str = ""
    """The transcript (a hand) or the fixture (a case), as the report names it."""
    position: str | None = None
    """A hand's position (``h3``); ``None`` for a case."""
    ruleset: str = ""
    """The ruleset it was checked under: ``id@version`` of a hand, the reference a suite
    loaded for a case (``saudi@1``)."""
    engine: EngineLabel | None = None
    """The engine a hand's transcript names (its ``[Engine]`` tags), when the record says."""
    divergences: tuple[Divergence, ...] = ()
    """Every divergence of a hand, or a case's failure (the first is the root); their
    findings are :attr:`findings`."""
    reason: str | None = None
    """Why a hand is in error (its ``error``), or what a case's record says (its
    ``message``: the engine's error, why it was not run)."""

    @property
    def identity(self) -> str:
        """The key in words: ``m12.btn h3`` (``(#2)`` for a hand logged twice), a case id."""
        if len(self.key) != 3:
            return self.key[0] if self.key else self.name
        path, position, n = self.key
        return f"{path} {position}" + (f" (#{n})" if n != "1" else "")


@dataclass(slots=True)
class RunReport:
    """A run report, read: its outcomes and what it says of the run."""

    path: str
    kind: Kind
    format: str
    kit: str
    engine: str | None = None
    """The engine's name and version: a suite report's handshake, or what the hands of a
    check report name (their transcripts' ``[Engine]`` tags, when the records carry them);
    else ``None``."""
    ruleset: str | None = None
    """The ruleset of the run (``saudi@1.3.0``), when the report names one for all."""
    outcomes: dict[tuple[str, ...], Outcome] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    """What fails the run as a whole, one sentence each."""
    defects_fail: bool = False
    """Whether the run counted known defects as failures (``--fail-on-known-defects``)."""
    digest: str | None = None
    """The digest of the run's ruleset (a check run's ``--ruleset``), when the report says."""
    handshake: EngineLabel | None = None
    """The engine a suite report's header names (its handshake)."""

    @property
    def unit(self) -> str:
        """What one outcome is: ``hand`` or ``case``."""
        return "hand" if self.kind == "check" else "case"


class ReportReader:
    """Builds a :class:`RunReport` from its records, fed one at a time with their line
    numbers (:func:`read_report` feeds a file's lines; ``--baseline`` feeds a run's records
    as they are written)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._report: RunReport | None = None
        self._summary = False
        self._line = 0
        self._hands: list[Outcome] = []  # a check report's, keyed when the report is whole
        self._engines: dict[str, None] = {}  # the engines check's hands name, in order

    def error(self, line: int, message: str, hint: str | None = _HINT) -> ReportError:
        return ReportError(message, location=Location(self.path, line, 1), hint=hint)

    def feed(self, record: Any, line: int) -> None:
        """Take the record of report line ``line``.

        Raises:
            ReportError: the record is not one of a report, or not in its place.
        """
        self._line = line
        if not isinstance(record, dict):
            raise self.error(line, f"expected a JSON object, found {_type(record)}")
        kind = record.get("record")
        if self._report is None:
            if kind != "header":
                raise self.error(
                    line,
                    f"expected the report's header record first, found {_shown(kind)} (at /record)",
                )
            self._report = self._header(record, line)
            return
        if self._summary:
            raise self.error(
                line,
                f"a {_shown(kind)} record after the summary: the summary ends a report "
                "(two reports joined into one file?)",
            )
        report = self._report
        if kind == "header":
            raise self.error(line, "a second header record (two reports joined into one file?)")
        if kind == "summary":
            self._summary = True
            self._read_summary(report, record, line)
        elif report.kind == "check" and kind == "hand":
            self._hands.append(self._hand(record, line))
        elif report.kind == "check" and kind == "file_error":
            path = _text(record, "path", self, line)
            message = _text(record, "message", self, line)
            first = message.split("\n")[0]
            report.problems.append(f"{path} was not checked to its end: {first}")
        elif report.kind == "suite" and kind == "case":
            self._add(report, self._case(record, line))
        else:
            known = (
                "header, hand, file_error, summary"
                if report.kind == "check"
                else ("header, case, summary")
            )
            raise self.error(
                line,
                f"a {_shown(kind)} record in a {report.kind} report (at /record): expected "
                f"one of {known}",
            )

    def finish(self) -> RunReport:
        """The report, once every record is fed.

        Raises:
            ReportError: it has no header, or ends before its summary.
        """
        if self._report is None:
            raise self.error(1, "the report is empty: expected a header record first")
        if not self._summary:
            raise self.error(
                self._line + 1,
                f"the report ends at line {self._line} without its summary record: the run "
                "did not finish (interrupted, or the engine or the kit stopped) or the file "
                "was cut",
                hint="run it again to its end, or keep the last complete report",
            )
        report = self._report
        for outcome in keyed_hands(self._hands):
            report.outcomes[outcome.key] = outcome
        if self._engines and report.engine is None:
            names = list(self._engines)
            more = f" and {len(names) - 3} more" if len(names) > 3 else ""
            report.engine = ", ".join(names[:3]) + more
        if not any(o.verdict in CHECKED for o in report.outcomes.values()) and not report.problems:
            report.problems.append(
                f"nothing was checked: no {report.unit} passed or failed"
                + ("" if report.outcomes else f" (the report holds no {report.unit})")
            )
        return report

    # --- the records ----------------------------------------------------------------------

    def _header(self, record: dict[str, Any], line: int) -> RunReport:
        fmt = record.get("format")
        if fmt is None and "kit" in record and "command" in record:
            fmt = SUITE_FORMAT  # a suite report written before its header named its format
        if fmt not in (CHECK_FORMAT, SUITE_FORMAT):
            family = isinstance(fmt, str) and fmt.startswith("baloot-conformance-")
            said = (
                f"report format {fmt!r}"
                if family
                else "not a report of check or suite: a header without a known format "
                f"({_shown(fmt)} at /format)"
            )
            raise self.error(
                line,
                f"{said}: this kit reads {CHECK_FORMAT} and {SUITE_FORMAT}",
                hint="read the report with the kit version that wrote it (the header's "
                "kit_version or kit), or write it again with this one"
                if family
                else _HINT,
            )
        if fmt == CHECK_FORMAT:
            kit = _text(record, "kit_version", self, line)
            ruleset = _optional_object(record, "ruleset", self, line)
            name: str | None = None
            digest: str | None = None
            if ruleset is not None:
                name = _text(ruleset, "id", self, line, "/ruleset/id")
                version = ruleset.get("version")
                name += f"@{version}" if isinstance(version, str) else ""
                digest = _optional_text(ruleset, "digest", self, line, "/ruleset/digest")
            return RunReport(self.path, "check", fmt, kit, ruleset=name, digest=digest)
        kit = _text(record, "kit", self, line)
        engine = _optional_object(record, "engine", self, line)
        handshake = None
        if engine is not None:
            handshake = EngineLabel(
                _text(engine, "name", self, line, "/engine/name"),
                _optional_text(engine, "version", self, line, "/engine/version"),
            )
        said_engine = handshake.said if handshake is not None else None
        return RunReport(self.path, "suite", fmt, kit, engine=said_engine, handshake=handshake)

    def _add(self, report: RunReport, outcome: Outcome) -> None:
        if outcome.key in report.outcomes:
            first = report.outcomes[outcome.key].line
            raise self.error(
                outcome.line,
                f"case {outcome.name!r} is reported twice (first at line {first}): a case id "
                "names one case",
            )
        report.outcomes[outcome.key] = outcome

    def _hand(self, record: dict[str, Any], line: int) -> Outcome:
        path = _text(record, "path", self, line)
        position = _text(record, "position", self, line)
        status = _choice(record, "status", CHECK_STATUSES, self, line)
        ruleset = _text(record, "ruleset", self, line)
        where = _location(record.get("location"))
        error = _optional_text(record, "error", self, line)
        message = error
        engine = None  # what the transcript's [Engine] tags say, if the record gives it
        if _optional_object(record, "engine", self, line) is not None:
            engine = EngineLabel(
                _text(record["engine"], "name", self, line, "/engine/name"),
                _optional_text(record["engine"], "version", self, line, "/engine/version"),
            )
            self._engines.setdefault(engine.said)
        missing = record.get("missing_features")  # an unsupported hand's
        if status == "unsupported" and isinstance(missing, list) and missing:
            message = "needs " + ", ".join(str(feature) for feature in missing)
        divergences = record.get("divergences", [])
        if not isinstance(divergences, list):
            raise self.error(line, f"/divergences: expected a list, found {_type(divergences)}")
        read = []
        for n, item in enumerate(divergences):
            at = f"/divergences/{n}"
            if not isinstance(item, dict):
                raise self.error(line, f"{at}: expected an object, found {_type(item)}")
            read.append(
                Divergence(
                    _text(item, "position", self, line, f"{at}/position"),
                    _optional_text(item, "rule_id", self, line, f"{at}/rule_id"),
                    _text(item, "kind", self, line, f"{at}/kind"),
                    _text(item, "message", self, line, f"{at}/message"),
                    _location(item.get("location")),
                    item.get("root") is True,
                    _optional_text(item, "expected", self, line, f"{at}/expected"),
                    _optional_text(item, "claimed", self, line, f"{at}/claimed"),
                    _optional_text(item, "source", self, line, f"{at}/source"),
                )
            )
        if read:
            where = read[0].location or where
            message = read[0].message or message
        defects = record.get("defects", [])
        if not isinstance(defects, list) or not all(isinstance(d, str) for d in defects):
            raise self.error(line, "/defects: expected a list of defect ids")
        return Outcome(
            (path, position),  # keyed by keyed_hands once the report is whole
            f"{path} {position}",
            status,
            tuple(d.finding for d in read),
            where,
            message,
            tuple(defects),
            line,
            path=path,
            position=position,
            ruleset=ruleset,
            engine=engine,
            divergences=tuple(read),
            reason=error,
        )

    def _case(self, record: dict[str, Any], line: int) -> Outcome:
        case_id = _text(record, "id", self, line)
        verdict = _choice(record, "verdict", SUITE_VERDICTS, self, line)
        path = _text(record, "path", self, line)
        ruleset = _text(record, "ruleset", self, line)
        failure = _optional_object(record, "failure", self, line)
        reason = _optional_text(record, "message", self, line)
        message = reason
        divergences: tuple[Divergence, ...] = ()
        if failure is not None:
            divergences = (
                Divergence(
                    _text(failure, "position", self, line, "/failure/position"),
                    _optional_text(failure, "rule", self, line, "/failure/rule"),
                    _text(failure, "observable", self, line, "/failure/observable"),
                    _text(failure, "message", self, line, "/failure/message"),
                    _optional_text(failure, "location", self, line, "/failure/location"),
                    True,
                    _optional_text(failure, "expected", self, line, "/failure/expected"),
                    _optional_text(failure, "actual", self, line, "/failure/actual"),
                ),
            )
            message = divergences[0].message
        return Outcome(
            (case_id,),
            case_id,
            verdict,
            tuple(d.finding for d in divergences),
            divergences[0].location if divergences else None,
            message,
            line=line,
            path=path,
            ruleset=ruleset,
            divergences=divergences,
            reason=reason,
        )

    def _read_summary(self, report: RunReport, record: dict[str, Any], line: int) -> None:
        if report.kind == "check":
            report.defects_fail = record.get("defects_fail") is True
            stopped = _optional_text(record, "stopped", self, line)
            if stopped is not None:
                report.problems.append(
                    f"the run stopped at {stopped} (--fail-fast): the hands after it were "
                    "not checked"
                )
            return
        problems = record.get("problems", [])
        if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
            raise self.error(line, "/problems: expected a list of sentences")
        report.problems.extend(problems)
        cases = record.get("cases")
        if isinstance(cases, int) and cases != len(report.outcomes):
            raise self.error(
                line,
                f"the summary counts {cases} cases, the report holds {len(report.outcomes)} "
                "case records: the file was cut or edited",
                hint="write the report again with suite --format json --output FILE",
            )


def keyed_hands(hands: Iterable[Outcome]) -> list[Outcome]:
    """A check report's hands, each with its key: its path relative to the folder every one
    of their paths lies in, its position, and which of the hands under that path and
    position it is (a file may log two hands under one number: the n-th is matched with the
    n-th of the other report); the n-th such hand is named ``(#n)``."""
    hands = list(hands)
    base = _common_folder([hand.path for hand in hands])
    seen: dict[tuple[str, str], int] = {}
    keyed = []
    for hand in hands:
        relative = os.path.relpath(hand.path, base) if base else hand.path
        position = hand.position or ""
        n = seen[(relative, position)] = seen.get((relative, position), 0) + 1
        name = f"{hand.path} {position}" + (f" (#{n})" if n > 1 else "")
        keyed.append(dataclasses.replace(hand, key=(relative, position, str(n)), name=name))
    return keyed


def _common_folder(files: list[str]) -> str:
    """The folder every file lies in ('' when they share none, or mix relative and absolute
    paths), so that a hand's identity does not depend on where the files were checked
    from."""
    folders = {os.path.dirname(f) for f in files}
    if not folders:
        return ""
    try:
        return os.path.commonpath(sorted(folders))
    except ValueError:
        return ""


def read_report(path: str) -> RunReport:
    """The report stored in the file ``path`` (``-``: standard input).

    Raises:
        ReportError: it cannot be read, or is not a whole report this kit reads.
    """
    reader = ReportReader(path)
    try:
        if path == "-":  # standard input, read as UTF-8 whatever the locale
            stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
            try:
                feed_lines(reader, _bounded_lines(stdin, path))
            finally:
                stdin.detach()
            return reader.finish()
        with open(path, encoding="utf-8") as stream:
            feed_lines(reader, _bounded_lines(stream, path))
    except FileNotFoundError:
        raise ReportError(f"cannot read the report {path}: no such report", hint=_HINT) from None
    except IsADirectoryError:
        raise ReportError(
            f"cannot read the report {path}: a folder, not a report", hint=_HINT
        ) from None
    except OSError as exc:
        raise ReportError(f"cannot read the report {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ReportError(
            f"cannot read the report {path}: not UTF-8 text ({exc.reason}): not a JSON Lines "
            "report",
            hint=_HINT,
        ) from None
    return reader.finish()


MAX_LINE = 16 * 1024 * 1024
"""The longest line of a report read back, in characters (a hand's record is a few KiB)."""


def _bounded_lines(stream: TextIO, path: str) -> Iterator[str]:
    """The lines of ``stream``, none read past :data:`MAX_LINE`."""
    number = 0
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE:
            raise ReportError(
                f"a line over {MAX_LINE:,} characters: no record of a report is that long",
                location=Location(path, number, 1),
                hint=_HINT,
            )
        yield line


def feed_lines(reader: ReportReader, lines: Iterable[str]) -> None:
    """Feed ``reader`` the records of a report's lines (blank lines are skipped).

    Raises:
        ReportError: a line is not JSON, or not a record in its place.
    """
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except RecursionError:
            raise ReportError(
                "not a JSON Lines record: nested too deeply",
                location=Location(reader.path, number, 1),
                hint=_HINT,
            ) from None
        except json.JSONDecodeError as exc:
            start = text.lstrip()[:1]
            what = (
                "a text report"
                if start.isalpha()
                else "XML (a JUnit report)"
                if start == "<"
                else "a line cut short"
                if start == "{"
                else "not JSON"
            )
            raise ReportError(
                f"not a JSON Lines record ({what}: {exc.msg.removesuffix(' at').lower()} "
                f"at column {exc.colno})",
                location=Location(reader.path, number, exc.colno),
                hint=_HINT,
            ) from None
        except ValueError as exc:  # an integer past Python's 4,300 digits
            said = "a number of over 4,300 digits" if "digits" in str(exc) else str(exc)
            raise ReportError(
                f"not a JSON Lines record: {said}", location=Location(reader.path, number, 1)
            ) from None
        reader.feed(record, number)


# --- fields ---------------------------------------------------------------------------------


def _type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number" if isinstance(value, (int, float)) else "a value")


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else _type(value)


def _text(
    record: dict[str, Any], key: str, reader: ReportReader, line: int, at: str | None = None
) -> str:
    value = record.get(key)
    if key not in record:
        raise reader.error(line, f"{at or '/' + key}: missing (expected a string)")
    if not isinstance(value, str):
        raise reader.error(line, f"{at or '/' + key}: expected a string, found {_type(value)}")
    return value


def _optional_text(
    record: dict[str, Any], key: str, reader: ReportReader, line: int, at: str | None = None
) -> str | None:
    value = record.get(key)
    if value is not None and not isinstance(value, str):
        found = _type(value)
        raise reader.error(line, f"{at or '/' + key}: expected a string or null, found {found}")
    return value


def _optional_object(
    record: dict[str, Any], key: str, reader: ReportReader, line: int
) -> dict[str, Any] | None:
    value = record.get(key)
    if value is not None and not isinstance(value, dict):
        raise reader.error(line, f"/{key}: expected an object or null, found {_type(value)}")
    return value


def _choice(
    record: dict[str, Any], key: str, known: tuple[str, ...], reader: ReportReader, line: int
) -> str:
    value = record.get(key)
    if key not in record:
        raise reader.error(line, f"/{key}: missing (expected one of {', '.join(known)})")
    if value not in known:
        raise reader.error(
            line,
            f"/{key}: expected one of {', '.join(known)}, found {_shown(value)}",
            hint="a report of a later kit version may know more; read it with that version",
        )
    return str(value)


def _location(value: Any) -> str | None:
    """A check report's location (an object) as ``file:line:col``; ``None`` for another."""
    if isinstance(value, dict) and {"path", "line", "column"} <= value.keys():
        return f"{value['path']}:{value['line']}:{value['column']}"
    return None
