"""The reports a conformance dashboard is built from, read into one kind of result.

Two formats are read, told apart by their header record: the JSON Lines report of ``check
--format json`` (``spec/schema/report.schema.json``: one result per hand) and that of
``suite --format json`` (``spec/schema/suite-report.schema.json``: one result per case).
Each result names its engine: for a suite report the handshake in its header (``engine.name``,
``engine.version``), for a check report each hand's ``engine`` (the transcript's ``[Engine]``
and ``[EngineVersion]`` tags); a label given on the command line (``--engine
REPORT=NAME[@VERSION]``) names the engine of every result of that report instead, and a
result that names none is the engine ``unnamed``.

Each result falls in one of five categories, the same for both formats: ``pass``, ``fail``
(``fail``; a suite's ``xpass``), ``known`` (a check's ``known-defect``; a suite's ``xfail``,
a failure its expectations file lists), ``unsupported`` (``unsupported``; a suite's
``skip``) and ``error`` (``error``; a suite's ``invalid``). Reading is lenient about what it
does not use (a field added by a later kit is ignored, a report written before the
``engine`` field reads as naming none) and strict about what it uses: a record that lacks
it, or a line that is not JSON, is a one-screen error at ``file:line`` with the JSON
pointer of the field.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from baloot_conformance.errors import Location, UnreadableInputError
from baloot_conformance.resources import data_root

Category = Literal["pass", "fail", "known", "unsupported", "error"]
CATEGORIES: tuple[Category, ...] = ("pass", "fail", "known", "unsupported", "error")

_CHECK_STATUS: dict[str, Category] = {
    "pass": "pass",
    "fail": "fail",
    "known-defect": "known",
    "unsupported": "unsupported",
    "error": "error",
}
_SUITE_VERDICT: dict[str, Category] = {
    "pass": "pass",
    "fail": "fail",
    "xpass": "fail",
    "xfail": "known",
    "unsupported": "unsupported",
    "skip": "unsupported",
    "error": "error",
    "invalid": "error",
}
UNNAMED = "unnamed"
"""The engine of a result that names none and was given no label."""


@dataclass(frozen=True, order=True)
class EngineLabel:
    """An engine and its version, as the results name it."""

    name: str
    version: str | None = None

    def __str__(self) -> str:
        return self.name if self.version is None else f"{self.name}@{self.version}"

    @staticmethod
    def parse(text: str) -> EngineLabel:
        """``NAME`` or ``NAME@VERSION`` (the last ``@`` splits them)."""
        name, at, version = text.rpartition("@")
        if not at or not name:
            return EngineLabel(text)
        return EngineLabel(name, version or None)


@dataclass(frozen=True)
class Divergent:
    """A divergence of a result, as the report gives it."""

    position: str
    rule_id: str | None
    message: str
    location: str | None
    root: bool
    expected: str | None = None
    claimed: str | None = None
    source: str | None = None


@dataclass
class Result:
    """One hand of a check report, or one case of a suite report."""

    kind: Literal["check", "suite"]
    engine: EngineLabel
    ruleset: str
    """``id@version`` (a check report), or the reference the suite loaded (``saudi``)."""
    digest: str | None
    """The digest of the ruleset, when the report names it (a check run's ``--ruleset``)."""
    report: str
    case: str
    """The result's identity across reports: a suite case's id; a check hand's file, relative
    to the folder all of its report's files share, and its position (``m12.btn h3``)."""
    path: str
    """The transcript or fixture, as the report names it."""
    position: str | None
    """A check hand's position (``h3``); ``None`` for a suite case."""
    status: str
    """The status or verdict as the report writes it."""
    category: Category
    divergences: tuple[Divergent, ...] = ()
    """Every divergence (check), or the failure (suite): the first is the root."""
    defects: tuple[str, ...] = ()
    message: str | None = None
    """Why a hand is in error, or what a suite case's engine said."""
    areas: frozenset[str] = field(default_factory=frozenset)
    """The rule areas in which the result counts as a pass: filled in by the dashboard from
    a replay (see :mod:`~baloot_conformance.report.dashboard`)."""
    rules: frozenset[str] = field(default_factory=frozenset)
    """The rules the replay saw decide something in it."""
    table: Any = None
    """The table at its root divergence, when it could be drawn."""
    anchor: str = ""
    """Its id on its row's page of cases (``r12``)."""

    @property
    def root(self) -> Divergent | None:
        return self.divergences[0] if self.divergences else None


@dataclass
class Report:
    """One report file, read."""

    path: str
    kind: Literal["check", "suite"]
    results: list[Result]


def _fail(path: str, line: int, message: str, hint: str | None = None) -> UnreadableInputError:
    return UnreadableInputError(message, location=Location(path, line, 1), hint=hint)


_FORMAT_HINT = (
    "give the JSON Lines report of 'check --format json' or 'suite --format json' "
    "(written with --output FILE, or '> FILE')"
)


class _Record:
    """One JSON object of a report, read field by field with errors that point at it."""

    def __init__(self, data: dict[str, Any], path: str, line: int) -> None:
        self.data, self.path, self.line = data, path, line

    def get(self, key: str, kinds: tuple[type, ...], pointer: str = "", default: Any = ...) -> Any:
        """The field ``key`` of the object at ``pointer`` (``/divergences/0``), of one of
        ``kinds``; ``default`` when it is missing and one is given, else an error naming the
        line and the field's pointer."""
        data: Any = self.data
        for part in pointer.strip("/").split("/") if pointer else ():
            if isinstance(data, dict):
                data = data.get(part)
            elif isinstance(data, list) and part.isdigit() and int(part) < len(data):
                data = data[int(part)]
            else:
                data = None
        if not isinstance(data, dict) or key not in data:
            if default is not ...:
                return default
            raise _fail(self.path, self.line, f"{pointer}/{key}: missing", _FORMAT_HINT)
        value = data[key]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            raise _fail(
                self.path,
                self.line,
                f"{pointer}/{key}: expected {names}, found {json.dumps(value)[:60]}",
                _FORMAT_HINT,
            )
        return value


_STR = (str,)
_OPT_STR = (str, type(None))


def read_report(path: str, label: EngineLabel | None = None) -> Report:
    """Read a report of ``check`` or ``suite`` (see the module docstring).

    Raises:
        UnreadableInputError: the file cannot be read, is not one of the two formats, or a
            record lacks a field the dashboard uses.
    """
    try:
        with open(path, encoding="utf-8") as stream:
            lines = stream.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UnreadableInputError(
            f"{path}: cannot read the report: {reason}", hint=_FORMAT_HINT
        ) from None
    records: list[_Record] = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise _fail(path, number, f"not a line of JSON: {exc.msg}", _FORMAT_HINT) from None
        if not isinstance(data, dict):
            raise _fail(path, number, "expected a JSON object (a report record)", _FORMAT_HINT)
        records.append(_Record(data, path, number))
    if not records:
        raise _fail(path, 1, "the report is empty: it holds no record", _FORMAT_HINT)
    head = records[0]
    kind = _kind(head)
    results = (
        _check_results(path, records, label)
        if kind == "check"
        else _suite_results(path, records, label)
    )
    return Report(path, kind, results)


def _kind(head: _Record) -> Literal["check", "suite"]:
    data = head.data
    if data.get("record") != "header":
        raise _fail(
            head.path,
            head.line,
            "not a report of check or suite: its first record is not a header",
            _FORMAT_HINT,
        )
    fmt = data.get("format")
    if isinstance(fmt, str) and fmt.startswith("baloot-conformance-report/"):
        if fmt != "baloot-conformance-report/1":
            raise _fail(
                head.path,
                head.line,
                f"/format: {fmt!r} is a check report format this kit does not read "
                "(it reads baloot-conformance-report/1)",
                "build the dashboard with the kit that wrote the report",
            )
        return "check"
    if "kit" in data and "command" in data and "engine" in data:
        return "suite"
    raise _fail(
        head.path,
        head.line,
        "not a report of check or suite: the header has neither a check report's 'format' "
        "nor a suite report's 'kit', 'command' and 'engine'",
        _FORMAT_HINT,
    )


def _check_results(path: str, records: list[_Record], label: EngineLabel | None) -> list[Result]:
    head = records[0]
    ruleset = head.get("ruleset", (dict, type(None)))
    digest = ruleset.get("digest") if isinstance(ruleset, dict) else None
    hands = [r for r in records[1:] if r.data.get("record") == "hand"]
    files = [r.get("path", _STR) for r in hands]
    base = _common_folder(files)
    results = []
    for record, file in zip(hands, files, strict=True):
        status = record.get("status", _STR)
        if status not in _CHECK_STATUS:
            raise _fail(path, record.line, f"/status: unknown status {status!r}", _FORMAT_HINT)
        engine = label
        if engine is None:
            named = record.get("engine", (dict, type(None)), default=None)
            engine = (
                EngineLabel(
                    record.get("name", _STR, "/engine"),
                    record.get("version", _OPT_STR, "/engine", default=None),
                )
                if named is not None
                else EngineLabel(UNNAMED)
            )
        position = record.get("position", _STR)
        divergences = []
        for index, item in enumerate(record.get("divergences", (list,))):
            at = f"/divergences/{index}"
            if not isinstance(item, dict):
                raise _fail(path, record.line, f"{at}: expected an object", _FORMAT_HINT)
            where = item.get("location")
            divergences.append(
                Divergent(
                    position=record.get("position", _STR, at),
                    rule_id=record.get("rule_id", _OPT_STR, at),
                    message=record.get("message", _STR, at),
                    location=_location_text(where),
                    root=bool(item.get("root")),
                    expected=record.get("expected", _OPT_STR, at, default=None),
                    claimed=record.get("claimed", _OPT_STR, at, default=None),
                    source=record.get("source", _OPT_STR, at, default=None),
                )
            )
        relative = os.path.relpath(file, base) if base else file
        results.append(
            Result(
                kind="check",
                engine=engine,
                ruleset=record.get("ruleset", _STR),
                digest=digest if isinstance(digest, str) else None,
                report=path,
                case=f"{relative} {position}",
                path=file,
                position=position,
                status=status,
                category=_CHECK_STATUS[status],
                divergences=tuple(divergences),
                defects=tuple(str(d) for d in record.get("defects", (list,), default=[])),
                message=record.get("error", _OPT_STR, default=None),
            )
        )
    return results


def _location_text(where: Any) -> str | None:
    if isinstance(where, dict) and {"path", "line", "column"} <= where.keys():
        return f"{where['path']}:{where['line']}:{where['column']}"
    return None


def _common_folder(files: list[str]) -> str:
    """The folder every file of a report lies in ('' when they share none, or mix relative
    and absolute paths), so that a hand's identity does not depend on where the files were
    checked from."""
    folders = {os.path.dirname(f) for f in files}
    if not folders:
        return ""
    try:
        return os.path.commonpath(sorted(folders))
    except ValueError:
        return ""


def _suite_results(path: str, records: list[_Record], label: EngineLabel | None) -> list[Result]:
    head = records[0]
    shake = head.get("engine", (dict, type(None)))
    engine = label
    if engine is None:
        engine = (
            EngineLabel(head.get("name", _STR, "/engine"), head.get("version", _OPT_STR, "/engine"))
            if shake is not None
            else EngineLabel(UNNAMED)
        )
    results = []
    for record in records[1:]:
        if record.data.get("record") != "case":
            continue
        verdict = record.get("verdict", _STR)
        if verdict not in _SUITE_VERDICT:
            raise _fail(path, record.line, f"/verdict: unknown verdict {verdict!r}", _FORMAT_HINT)
        failure = record.get("failure", (dict, type(None)))
        divergences: tuple[Divergent, ...] = ()
        if failure is not None:
            divergences = (
                Divergent(
                    position=record.get("position", _STR, "/failure"),
                    rule_id=record.get("rule", _OPT_STR, "/failure"),
                    message=record.get("message", _STR, "/failure"),
                    location=record.get("location", _OPT_STR, "/failure", default=None),
                    root=True,
                    expected=record.get("expected", _OPT_STR, "/failure", default=None),
                    claimed=record.get("actual", _OPT_STR, "/failure", default=None),
                ),
            )
        case_id = record.get("id", _STR)
        results.append(
            Result(
                kind="suite",
                engine=engine,
                ruleset=record.get("ruleset", _STR),
                digest=None,
                report=path,
                case=case_id,
                path=record.get("path", _STR),
                position=None,
                status=verdict,
                category=_SUITE_VERDICT[verdict],
                divergences=divergences,
                message=record.get("message", _OPT_STR, default=None),
            )
        )
    return results


def resolve(path: str, report: str) -> Path | None:
    """The file a report names, when it can be read from here: as named (relative to the
    current folder, where the run that wrote the report named it from), else relative to the
    report's own folder, else in the kit's own data (a suite names a shipped fixture by its
    corpus path, ``fixtures/play/x.btn``); ``None`` when none is a file."""
    for candidate in (Path(path), Path(report).parent / path, data_root() / path):
        if candidate.is_file():
            return candidate
    return None
