"""Importers: from an engine's own match log to a BTN transcript.

An importer is a function ``convert(log, source) -> str`` that takes a log already parsed from
JSON and returns BTN text in canonical form. It places every field of the log: as an event, a
claim, a header tag or a comment, or it names the field in its module docstring as knowingly
left out; a field it does not know is an :class:`ImportLogError` with its JSON pointer, never
dropped in silence. Importers compute no rules: what the engine logged is what the transcript
says, and ``check`` judges it.

Built in: ``majlis`` (majlis-baloot) and ``tazjel`` (tazjel/baloot-ai). Third parties add their
own through the entry point group ``baloot_conformance.importers``::

    [project.entry-points."baloot_conformance.importers"]
    myengine = "myengine_btn:convert"
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from baloot_conformance.errors import BalootError, UnreadableInputError

#: An importer: a parsed log and the name of its file, to BTN text.
Convert = Callable[[Any, str], str]

ENTRY_POINT_GROUP = "baloot_conformance.importers"
BUILT_IN = ("majlis", "tazjel")


class ImportLogError(BalootError):
    """A log that an importer cannot turn into BTN: a field missing, of the wrong type, or
    unknown. ``pointer`` is the JSON pointer (RFC 6901) of the field."""

    def __init__(self, source: str, pointer: str, message: str, hint: str | None = None) -> None:
        super().__init__(f"{source}: {pointer or '/'}: {message}", hint=hint)
        self.source = source
        self.pointer = pointer


def importer(name: str) -> Convert:
    """The importer called ``name``: a built-in one (see :data:`BUILT_IN`), else the one an
    installed package declares under the entry point group (a package cannot replace a
    built-in importer).

    Raises:
        UnreadableInputError: no importer has that name.
    """
    if name == "majlis":
        from baloot_conformance.importers import majlis

        return majlis.convert
    if name == "tazjel":
        from baloot_conformance.importers import tazjel

        return tazjel.convert
    from importlib.metadata import entry_points  # slow to import: only when needed

    points = {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}
    if name not in points:
        raise UnreadableInputError(
            f"no importer named {name!r}",
            hint=f"the importers installed are: {', '.join([*BUILT_IN, *sorted(points)])}",
        )
    convert: Convert = points[name].load()
    return convert


def import_file(name: str, path: Path) -> str:
    """The BTN text of the log at ``path`` (JSON, or JSON compressed with gzip), converted by
    the importer ``name``.

    Raises:
        UnreadableInputError: no such importer, or the file cannot be read as JSON.
        ImportLogError: the log does not have the shape the importer knows.
    """
    convert = importer(name)
    try:
        data = path.read_bytes()
        text = (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode("utf-8")
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise UnreadableInputError(f"{path}: cannot read the log: {exc}") from None
    try:
        log = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableInputError(
            f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}",
            hint="an importer reads the engine's JSON log as the engine wrote it",
        ) from None
    except (ValueError, RecursionError) as exc:  # a huge integer, or nesting too deep
        raise UnreadableInputError(f"{path}: not a usable JSON log: {exc}") from None
    return convert(log, str(path))


class Node:
    """A value of a log being imported, with its JSON pointer, that knows which of its fields
    were placed: :meth:`done` refuses a mapping with a field nobody asked for."""

    __slots__ = ("_used", "pointer", "source", "value")

    def __init__(self, value: Any, source: str, pointer: str = "") -> None:
        self.value = value
        self.source = source
        self.pointer = pointer
        self._used: set[str] = set()

    def error(self, message: str, hint: str | None = None) -> ImportLogError:
        return ImportLogError(self.source, self.pointer, message, hint)

    def _mapping(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.error(f"expected an object, found {_kind(self.value)}")
        return self.value

    def has(self, key: str) -> bool:
        return key in self._mapping() and self._mapping()[key] is not None

    def __getitem__(self, key: str) -> Node:
        """The field ``key``, which must be there."""
        mapping = self._mapping()
        if key not in mapping:
            raise self.error(f"the field {key!r} is missing")
        self._used.add(key)
        return Node(mapping[key], self.source, f"{self.pointer}/{_escape(key)}")

    def get(self, key: str) -> Node | None:
        """The field ``key``, or ``None`` when it is absent or null."""
        if not self.has(key):
            self._used.add(key)
            return None
        return self[key]

    def ignore(self, *keys: str) -> None:
        """Fields the importer leaves out on purpose (each named in its module docstring)."""
        self._used.update(keys)

    def done(self) -> None:
        """Refuse the fields of this mapping that were neither placed nor ignored."""
        unknown = sorted(set(self._mapping()) - self._used)
        if unknown:
            pointer = f"{self.pointer}/{_escape(unknown[0])}"
            raise ImportLogError(
                self.source,
                pointer,
                f"a field this importer does not know ({len(unknown)} in this object: "
                f"{', '.join(unknown)})",
                hint="the log may come from a newer engine version; extend the importer to "
                "place the field, or report it",
            )

    def items(self) -> Iterator[Node]:
        """The elements of a list."""
        if not isinstance(self.value, list):
            raise self.error(f"expected a list, found {_kind(self.value)}")
        for index, value in enumerate(self.value):
            yield Node(value, self.source, f"{self.pointer}/{index}")

    def fields(self) -> list[str]:
        return list(self._mapping())

    def text(self) -> str:
        if not isinstance(self.value, str):
            raise self.error(f"expected a string, found {_kind(self.value)}")
        return self.value

    def integer(self) -> int:
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise self.error(f"expected an integer, found {_kind(self.value)}")
        return self.value

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"expected true or false, found {_kind(self.value)}")
        return self.value

    def choice(self, table: dict[Any, str], what: str) -> str:
        """The notation's word for a value the engine writes from a closed set."""
        word = table.get(self.value) if isinstance(self.value, (str, int)) else None
        if word is None:
            known = ", ".join(repr(k) for k in table)
            raise self.error(f"unknown {what} {self.value!r}", hint=f"known: {known}")
        return word


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else f"a {type(value).__name__}"
    )


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


SEATS = ("N", "W", "S", "E")
"""Both engines number the seats 0-3 in play order, which BTN names N W S E."""
TEAMS = ("NS", "EW")
RANKS = {"7": "7", "8": "8", "9": "9", "10": "T", "J": "J", "Q": "Q", "K": "K", "A": "A"}
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SUIT_NAMES = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}


def match(
    log: Any,
    source: str,
    ruleset: str,
    ignored: tuple[str, ...],
    round_: Callable[[Node], list[str]],
) -> str:
    """A match log as BTN: its header from the log's ``engine`` and ``seed``, then a hand for
    each of its ``rounds`` from ``round_`` (which places the round's fields)."""
    root = Node(log, source)
    lines = [
        "%btn 1",
        f'[Ruleset "{ruleset}"]',
        f'[Engine "{comment_text(root["engine"].text())}"]',
        f'[Seed "{root["seed"].integer()}"]',
    ]
    root.ignore(*ignored)
    for number, node in enumerate(root["rounds"].items(), start=1):
        lines += ["", f"hand {number}", *round_(node)]
        node.done()
    root.done()
    return "\n".join(lines) + "\n"


def pair(ns: int, ew: int) -> str:
    return f"NS {ns} EW {ew}"


def comment_text(text: str) -> str:
    """Free text from a log as a BTN comment: one line."""
    return " ".join(text.split())
