"""An engine's expected failures: the YAML file ``suite --expectations`` reads and
``--update-expectations`` writes (``spec/schema/expectations.schema.json``).

The file lives in the engine's repository. Each entry names a case (or a glob over case
ids), why the engine fails it, where that is tracked and until when. A run is strict, as
test262's and Bowtie's users asked: a listed case that now passes is ``xpass`` and fails
the run (so the list shrinks as the engine is fixed), an entry that names no case is stale,
an expired entry fails the run, and a failure whose signature differs from the one recorded
is a plain ``fail``.

Every value in the file is text (a date is written as text too). A byte that is not UTF-8 or
a character YAML cannot hold (a NUL, a control character) is named at its own line and
column before the strict YAML reader sees the file, and a value that reader refuses because
YAML reads it as a number or a boolean is said to be not text (the reader is shared with the
rulesets, and its own words speak of a ruleset's numbers and exact formulas).
"""

from __future__ import annotations

import datetime
import fnmatch
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import jsonschema

from baloot_conformance.errors import BalootError, Location
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.strict_yaml import load_yaml_located, plain_yaml
from baloot_conformance.suite.cases import CaseResult


class ExpectationsError(BalootError):
    """An expectations file that cannot be read or breaks its schema."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One expected failure."""

    pattern: str
    reason: str
    signature: Mapping[str, str]
    link: str | None = None
    expires: datetime.date | None = None
    where: Location | None = None

    def matches(self, case_id: str) -> bool:
        return fnmatch.fnmatchcase(case_id, self.pattern)


@cache
def schema() -> dict[str, Any]:
    """The JSON Schema of an expectations file."""
    loaded: dict[str, Any] = json.loads(
        spec_path("schema", "expectations.schema.json").read_text(encoding="utf-8")
    )
    return loaded


def load(path: str, missing_ok: bool = False) -> list[Entry]:
    """The entries of an expectations file (``missing_ok``: a missing file has none, for
    ``--update-expectations``, which creates it).

    Raises:
        ExpectationsError: the file is missing, is not strict YAML or breaks the schema, at
            file:line:col.
    """
    try:
        with open(path, "rb") as stream:
            data_bytes = stream.read()
    except FileNotFoundError:
        if missing_ok:
            return []
        raise ExpectationsError(
            f"{path}: no such file",
            hint="check the path, or create the file with --update-expectations",
        ) from None
    except OSError as exc:
        raise ExpectationsError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    text = _decoded(data_bytes, path)
    _check_characters(text, path)
    try:
        data, where = load_yaml_located(text, path, dates_as_text=True)
    except BalootError as exc:
        raise _as_text_error(exc, text, path) from None
    if data is None:
        data = {"expectations": {}}
    errors = sorted(
        jsonschema.Draft202012Validator(schema()).iter_errors(data),
        key=lambda e: [str(p) for p in e.absolute_path],
    )
    if errors:
        first = errors[0]
        at = tuple(first.absolute_path)
        if first.validator == "additionalProperties" and isinstance(first.instance, dict):
            known = first.schema.get("properties", {})
            at += tuple(key for key in first.instance if key not in known)[:1]
        while at and at not in where:
            at = at[:-1]
        field = "/".join(str(p) for p in first.absolute_path) or "the file"
        raise ExpectationsError(
            f"{field}: {_short(first.message)}",
            location=where.get(at, Location(path, 1, 1)),
            hint="each entry is 'CASE-ID-OR-GLOB: {reason: ..., signature: {observable, "
            "position, rule}, link: URL, expires: YYYY-MM-DD}' under 'expectations:' (see "
            "spec/schema/expectations.schema.json)",
        )
    entries = []
    for pattern, body in data["expectations"].items():
        expires = body.get("expires")
        try:
            day = datetime.date.fromisoformat(expires) if expires else None
        except ValueError:
            raise ExpectationsError(
                f"expectations/{pattern}/expires: {expires!r} is not a date",
                location=where.get(("expectations", pattern, "expires")),
                hint="write it as YYYY-MM-DD",
            ) from None
        entries.append(
            Entry(
                pattern,
                body["reason"],
                dict(body.get("signature", {})),
                body.get("link"),
                day,
                where.get(("expectations", pattern)),
            )
        )
    return entries


def _at(text: str, index: int, path: str) -> Location:
    """The line and column of the character at ``index`` of ``text``."""
    line = text.count("\n", 0, index) + 1
    return Location(path, line, index - (text.rfind("\n", 0, index) + 1) + 1)


def _decoded(data: bytes, path: str) -> str:
    """The file's text (UTF-8, a BOM allowed), or an error at the first byte that is not."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8-sig")
        raise ExpectationsError(
            f"byte 0x{data[exc.start]:02x} is not UTF-8",
            location=_at(good + "?", len(good), path),
            hint="save the file as UTF-8",
        ) from None


#: What YAML cannot hold (its reader refuses it): controls other than tab and line ends.
_NOT_YAML = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: A plain value YAML reads as a number or a boolean, not as text.
_NOT_TEXT = re.compile(
    r"[-+]?(\.?[0-9][0-9_.:eE+-]*|0[xXoObB][0-9a-fA-F_]+|\.inf|\.nan)"
    r"|true|false|True|False|yes|no|on|off|y|n|Yes|No|On|Off|TRUE|FALSE"
)


def _check_characters(text: str, path: str) -> None:
    """Refuse, at its line and column, a character YAML cannot hold (the YAML reader would
    name only its offset in the file)."""
    found = _NOT_YAML.search(text)
    if found is None:
        return
    char = found.group()
    what = "a NUL character" if char == "\0" else "a control character"
    raise ExpectationsError(
        f"{what} ({_char_words(char)}): a YAML file cannot hold it",
        location=_at(text, found.start(), path),
        hint='remove it, or write it as an escape in a double-quoted string ("\\x07")',
    )


def _as_text_error(exc: BalootError, text: str, path: str) -> ExpectationsError:
    """The strict reader's error, said for an expectations file: where it points at a plain
    value that YAML reads as a number or a boolean, the problem is that it is not text
    (every value here is); any other error is kept as the reader says it."""
    where = exc.location
    lines = text.split("\n")
    if where is not None and where.line is not None and 0 < where.line <= len(lines):
        line = lines[where.line - 1]
        column = (where.column or 1) - 1
        value = line[column:].split(" #", 1)[0].strip()
        if value and _NOT_TEXT.fullmatch(value):
            key = line[:column].strip().rstrip(":").strip().lstrip("- ").strip("'\"")
            kind = "a number" if value[:1] in "+-.0123456789" else "a boolean"
            shown = value if len(value) <= 40 else value[:40] + "..."
            size = f", {len(value):,} characters" if len(value) > 40 else ""
            return ExpectationsError(
                f"{key or 'a value'}: expected text, found {kind} ({shown!r}{size})",
                location=where,
                hint="quote it ('...'): every key and value of an expectations file is text",
            )
    message = exc.message
    if where is not None and where.line is not None and where.line > len(lines):
        # The YAML reader's mark for the end of the stream is past the last line.
        where = Location(path, len(lines), len(lines[-1]) + 1)
        message += " (at the end of the file)"
    return ExpectationsError(message, location=where, hint=exc.hint, excerpt=exc.excerpt)


def _char_words(char: str) -> str:
    code = ord(char) if len(char) == 1 else 0
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _entry_for(case_id: str, entries: Sequence[Entry]) -> Entry | None:
    """The entry that names the case: its own id first, then the first glob."""
    exact = [e for e in entries if e.pattern == case_id]
    return exact[0] if exact else next((e for e in entries if e.matches(case_id)), None)


def apply(
    results: Iterable[CaseResult],
    entries: Sequence[Entry],
    known_ids: Iterable[str],
    today: datetime.date,
) -> tuple[list[CaseResult], list[str]]:
    """The results with the expectations applied (``xfail``, ``xpass``, a signature that
    changed), and the problems that fail the run on their own: entries that name no case
    of ``known_ids``, and expired entries."""
    problems: list[str] = []
    live = []
    for entry in entries:
        if entry.expires is not None and entry.expires < today:
            problems.append(
                f"{_where(entry)}the entry {entry.pattern!r} expired on {entry.expires}: fix "
                "the engine, or renew or remove the entry"
            )
        else:
            live.append(entry)
    ids = list(known_ids)
    for entry in entries:
        if not any(entry.matches(case_id) for case_id in ids):
            problems.append(
                f"{_where(entry)}the entry {entry.pattern!r} names no case: remove it (the "
                "case was renamed or removed)"
            )
    out = []
    for result in results:
        found = _entry_for(result.case.id, live)
        out.append(result if found is None else _expected(result, found))
    return out, problems


def _expected(result: CaseResult, entry: Entry) -> CaseResult:
    note = f"expected to fail: {entry.reason}" + (f" ({entry.link})" if entry.link else "")
    if result.verdict == "pass":
        return replace(
            result,
            verdict="xpass",
            message=f"passes, but is listed as an expected failure ({entry.reason}): remove "
            "its entry",
        )
    if result.verdict != "fail" or result.failure is None:
        return result
    signature = result.failure.signature()
    if any(signature.get(key) != value for key, value in entry.signature.items()):
        wanted = ", ".join(f"{k} {v}" for k, v in entry.signature.items())
        found = ", ".join(f"{k} {signature[k]}" for k in entry.signature)
        return replace(
            result,
            message=f"fails differently from its expectation ({wanted}; now {found})",
        )
    return replace(result, verdict="xfail", message=note)


def _where(entry: Entry) -> str:
    return f"{entry.where}: " if entry.where else ""


def updated(results: Iterable[CaseResult], entries: Sequence[Entry], engine: str) -> str:
    """The text of an expectations file that expects exactly the failures of ``results``,
    keeping each one's reason, link and expiry from the entry that named it."""
    body: dict[str, Any] = {}
    for result in results:
        if result.failure is None or result.verdict not in ("fail", "xfail"):
            continue
        old = _entry_for(result.case.id, entries)
        entry: dict[str, Any] = {
            "reason": old.reason if old else "not explained yet (written by --update-expectations)",
            "signature": result.failure.signature(),
        }
        if old is not None and old.link:
            entry["link"] = old.link
        if old is not None and old.expires:
            entry["expires"] = old.expires.isoformat()
        body[result.case.id] = entry
    head = (
        "# The cases this engine is known to fail, for 'baloot-conformance suite "
        "--expectations'.\n# Written by --update-expectations; keep the reasons and links "
        "up to date.\n"
    )
    data = {"engine": engine, "expectations": body}
    return head + plain_yaml(data, width=100)


def _short(text: str, limit: int = 300) -> str:
    """A schema message cut to one screen (it quotes the whole wrong value)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."
