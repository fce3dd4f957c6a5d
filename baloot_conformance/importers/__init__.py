"""Importers: from an engine's own match log to a BTN transcript.

An importer is a function ``convert(log, source) -> str`` that takes a log already parsed from
JSON and returns BTN text in canonical form. It places every field of the log: as an event, a
claim, a header tag or a comment, or it names the field in its module docstring as knowingly
left out; a field it does not know is an :class:`ImportLogError` with its JSON pointer, never
dropped in silence. Importers compute no rules: what the engine logged is what the transcript
says, and ``check`` judges it.

What an importer writes is canonical BTN that ``check`` reads, or an error with the JSON
pointer of the value at fault, whatever the log holds: every value enters the text through
:class:`Node`, which checks list lengths, BTN's number range and strings (a lone surrogate or a
NUL refused, free text on one line), :class:`Deck` keeps each card given and played once,
:func:`tag` and :func:`pair` write tags and team values, and :func:`match` refuses a line that
would still break in two. A log is read in bounded memory, at most :data:`MAX_LOG_BYTES`.

Built in: ``majlis`` (majlis-baloot), ``tazjel`` (tazjel/baloot-ai), ``bloot352``
(mohamed352/bloot) and ``bloot7`` (7oossam/bloot). Third parties add their own through the
entry point group ``baloot_conformance.importers``::

    [project.entry-points."baloot_conformance.importers"]
    myengine = "myengine_btn:convert"
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from baloot_conformance.errors import BalootError, UnreadableInputError

#: An importer: a parsed log and the name of its file, to BTN text.
Convert = Callable[[Any, str], str]

ENTRY_POINT_GROUP = "baloot_conformance.importers"
BUILT_IN = ("majlis", "tazjel", "bloot352", "bloot7")


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
    if name == "bloot352":
        from baloot_conformance.importers import bloot352

        return bloot352.convert
    if name == "bloot7":
        from baloot_conformance.importers import bloot7

        return bloot7.convert
    from importlib.metadata import entry_points  # slow to import: only when needed

    points = {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}
    if name not in points:
        raise UnreadableInputError(
            f"no importer named {name!r}",
            hint=f"the importers installed are: {', '.join([*BUILT_IN, *sorted(points)])}",
        )
    convert: Convert = points[name].load()
    return convert


#: The largest log read, in bytes after decompression: a real match log is well under a
#: megabyte, and a larger one is refused rather than read (a small gzip file can inflate to
#: gigabytes). The log is read in bounded memory up to this size.
MAX_LOG_BYTES = 64 * 1024 * 1024

#: The longest line BTN accepts, in bytes (the notation's ``MAX_LINE_BYTES``, which importers
#: cannot import: they stand beside the notation's package, not above it).
MAX_LINE_BYTES = 16_384

#: The longest free text of a log (an engine's name, a reason, a message) placed in the
#: transcript, in bytes: well within one line.
MAX_TEXT_BYTES = 4_096

#: The largest number the notation writes (nine digits); BTN numbers are never negative.
MAX_NUMBER = 999_999_999


def import_file(name: str, path: Path) -> str:
    """The BTN text of the log at ``path`` (JSON, or JSON compressed with gzip), converted by
    the importer ``name``. Whatever the importer, the text returned is one that BTN can
    carry (:func:`checked_text`).

    Raises:
        UnreadableInputError: no such importer, or the file cannot be read as JSON, or it is
            larger than :data:`MAX_LOG_BYTES` (decompressed).
        ImportLogError: the log does not have the shape the importer knows.
    """
    convert = importer(name)
    text = _read_log(path)
    try:
        log = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableInputError(
            f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}",
            hint="an importer reads the engine's JSON log as the engine wrote it",
        ) from None
    except (ValueError, RecursionError) as exc:  # a huge integer, or nesting too deep
        raise UnreadableInputError(f"{path}: not a usable JSON log: {exc}") from None
    return checked_text(convert(log, str(path)), str(path), name)


def _read_log(path: Path) -> str:
    """The text of a log file, decompressed when it is gzip, read in bounded memory: a log
    larger than :data:`MAX_LOG_BYTES` is an error, never read whole."""
    try:
        with path.open("rb") as raw:
            compressed = raw.read(2) == b"\x1f\x8b"
            raw.seek(0)
            stream = gzip.GzipFile(fileobj=raw) if compressed else raw
            data = stream.read(MAX_LOG_BYTES + 1)  # decompressed a block at a time
        if len(data) > MAX_LOG_BYTES:
            raise UnreadableInputError(
                f"{path}: the log is larger than {MAX_LOG_BYTES // (1 << 20)} MiB"
                + (" once decompressed" if compressed else ""),
                hint="a match log is well under a megabyte; split a larger one by match",
            )
        return data.decode("utf-8")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        raise UnreadableInputError(f"{path}: cannot read the log: {exc}") from None


def checked_text(text: Any, source: str, name: str) -> str:
    """``text``, the output of the importer ``name`` for the log ``source``, if BTN can carry
    it: a string that UTF-8 can encode (no lone surrogate), with no NUL, no carriage return
    and no line longer than :data:`MAX_LINE_BYTES`. A third-party importer is held to the
    same as the built-in ones, whose values are checked where they are read (:class:`Node`)."""
    if not isinstance(text, str):
        raise ImportLogError(source, "", f"the importer {name!r} returned {_kind(text)}, not text")
    for number, line in enumerate(text.split("\n"), start=1):
        problem = line_problem(line)
        if problem is not None:
            raise ImportLogError(
                source,
                "",
                f"the importer {name!r} wrote a line BTN cannot hold (line {number}: {problem})",
                hint="a fault of the importer: report it with the log",
            )
    return text


def line_problem(line: str) -> str | None:
    """What keeps ``line`` from being one line of a BTN file, or ``None``."""
    for char, what in (("\n", "a line break"), ("\r", "a carriage return"), ("\x00", "a NUL")):
        if char in line:
            return f"{what} at character {line.index(char) + 1}"
    try:
        size = len(line.encode("utf-8"))
    except UnicodeEncodeError as exc:
        return f"a lone surrogate at character {exc.start + 1}, which UTF-8 cannot encode"
    if size > MAX_LINE_BYTES:
        return f"{size} bytes, more than the {MAX_LINE_BYTES} of a BTN line"
    return None


class Node:
    """A value of a log being imported, with its JSON pointer, that knows which of its fields
    were placed: :meth:`done` refuses a mapping with a field nobody asked for.

    Every value of a log reaches the transcript through these accessors, and each refuses,
    with its JSON pointer, what the notation cannot write: a list of another length than the
    line needs, a number out of BTN's range (0 to 999,999,999), a string with a lone
    surrogate or a NUL; :meth:`note` gives free text as one line. So no value of a log can
    make an importer write a line ``check`` rejects, nor a line of its own."""

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
                f"{shown(', '.join(unknown))})",
                hint="the log may come from a newer engine version; extend the importer to "
                "place the field, or report it",
            )

    def items(self, length: int | None = None, at_least: int = 0) -> Iterator[Node]:
        """The elements of a list: exactly ``length`` of them when it is given, else at least
        ``at_least`` (a line of the notation lists a fixed number of cards, or one or more)."""
        if not isinstance(self.value, list):
            raise self.error(f"expected a list, found {_kind(self.value)}")
        size = len(self.value)
        if length is not None and size != length:
            raise self.error(f"expected a list of {length}, found {size} elements")
        if size < at_least:
            raise self.error(f"expected a list of at least {at_least}, found {size} elements")
        for index, value in enumerate(self.value):
            yield Node(value, self.source, f"{self.pointer}/{index}")

    def fields(self) -> list[str]:
        return list(self._mapping())

    def text(self) -> str:
        """A string, which UTF-8 can encode and which holds no NUL.

        A lone surrogate (``"\\ud800"`` in the JSON) is refused, not replaced: it is no
        character, a transcript is UTF-8, and a U+FFFD in its place would be the importer's
        invention written as the engine's data."""
        if not isinstance(self.value, str):
            raise self.error(f"expected a string, found {_kind(self.value)}")
        try:
            self.value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise self.error(
                f"a lone surrogate (U+{ord(self.value[exc.start]):04X}) at character "
                f"{exc.start + 1} of the string: not a character, and a BTN transcript is UTF-8",
                hint="the engine wrote half of a UTF-16 pair; fix the log at its source",
            ) from None
        if "\x00" in self.value:
            raise self.error(
                f"a NUL at character {self.value.index(chr(0)) + 1} of the string",
                hint="a log's strings are text; a NUL is binary data",
            )
        return self.value

    def note(self) -> str:
        """Free text (a name, a reason, a message) for a comment or a tag: :meth:`text` on one
        line, each run of white space, line breaks included, written as one space. Text
        longer than :data:`MAX_TEXT_BYTES` is refused."""
        text = " ".join(self.text().split())
        if len(text.encode("utf-8")) > MAX_TEXT_BYTES:
            raise self.error(f"a string longer than the {MAX_TEXT_BYTES} bytes a transcript takes")
        return text

    def integer(self, any_size: bool = False) -> int:
        """An integer the notation can write: 0 to 999,999,999, unless ``any_size`` (for a
        number the transcript holds as text, such as a seed)."""
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise self.error(f"expected an integer, found {_kind(self.value)}")
        if not any_size and not 0 <= self.value <= MAX_NUMBER:
            raise self.error(
                f"the number {shown(self.value)} is out of range: BTN writes 0 to {MAX_NUMBER:,}"
            )
        return self.value

    def pair(self) -> tuple[int, int]:
        """A list of two numbers: one for each team, NS first."""
        ns, ew = (item.integer() for item in self.items(2))
        return ns, ew

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"expected true or false, found {_kind(self.value)}")
        return self.value

    def choice(self, table: dict[Any, str], what: str) -> str:
        """The notation's word for a value the engine writes from a closed set."""
        value = self.value
        usable = isinstance(value, (str, int)) and not isinstance(value, bool)
        word = table.get(value) if usable else None
        if word is None:
            known = ", ".join(repr(k) for k in table)
            raise self.error(f"unknown {what} {shown(value)}", hint=f"known: {known}")
        return word


class Deck:
    """The cards of one hand as an importer writes them: each given out (dealt, face up,
    completed) once and played once, at most eight tricks, so that the hand it writes passes
    the notation's structural checks whatever the log says. A card given or played twice is
    an error at the pointer of its second time."""

    __slots__ = ("given", "played")

    def __init__(self) -> None:
        self.given: set[str] = set()
        self.played: set[str] = set()

    def give(self, card: str, node: Node) -> str:
        if card in self.given:
            raise node.error(f"the card {card} is given out twice in this round")
        self.given.add(card)
        return card

    def play(self, card: str, node: Node) -> str:
        if card in self.played:
            raise node.error(f"the card {card} is played twice in this round")
        if len(self.played) == 32:
            raise node.error("a 33rd card played: a hand has eight tricks of four cards")
        self.played.add(card)
        return card


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), "null" if value is None else f"a {type(value).__name__}"
    )


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


SEATS = ("N", "W", "S", "E")
"""The engines number the seats 0-3 in play order, which BTN names N W S E."""
TEAMS = ("NS", "EW")
RANKS = {"7": "7", "8": "8", "9": "9", "10": "T", "J": "J", "Q": "Q", "K": "K", "A": "A"}
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def symbol_card(node: Node) -> str:
    """A card logged as its rank and suit sign (``10♥``, ``A♠``: tazjel and mohamed352/bloot),
    in the notation's letters (``TH``)."""
    text = node.text()
    rank, suit = text[:-1], text[-1:]
    if rank not in RANKS or suit not in SUIT_SYMBOLS:
        raise node.error(f"expected a card like '10♥', found {shown(text)}")
    return RANKS[rank] + SUIT_SYMBOLS[suit]


SUIT_NAMES = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}


def match(
    log: Any,
    source: str,
    ruleset: str,
    ignored: tuple[str, ...],
    round_: Callable[[Node], list[str]],
    comments: Sequence[str] = (),
    last_lines: Sequence[str] = (),
) -> str:
    """A match log as BTN: its header from the log's ``engine`` and ``seed`` and the header's
    ``comments`` (``# ...`` lines), then a hand for each of its ``rounds`` from ``round_``
    (which places the round's fields), the last hand ending with ``last_lines`` (the match's
    own claims, such as its winner). Each line a round gives must be one line BTN can hold
    (:func:`line_problem`), else it is an error at the round's pointer: a value that slipped
    past :class:`Node` still cannot add a line."""
    root = Node(log, source)
    lines = [
        "%btn 1",
        tag("Ruleset", ruleset),
        tag("Engine", root["engine"].note()),
        tag("Seed", str(root["seed"].integer(any_size=True))),
        *comments,
    ]
    root.ignore(*ignored)
    rounds = list(root["rounds"].items())
    for number, node in enumerate(rounds, start=1):
        hand = round_(node) + (list(last_lines) if number == len(rounds) else [])
        for line in hand:
            problem = line_problem(line)
            if problem is not None:
                raise node.error(f"this round would make a line BTN cannot hold: {problem}")
        lines += ["", f"hand {number}", *hand]
        node.done()
    root.done()
    return "\n".join(lines) + "\n"


def tag(name: str, value: str) -> str:
    """A header tag line, its value quoted as BTN strings are (``\\"`` and ``\\\\``)."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def pair(ns: int, ew: int, at: Node) -> str:
    """Team values (``NS 92 EW 70``), each a number BTN writes; ``at`` is the value of the log
    they come from or are worked out from, whose pointer an error names."""
    for value in (ns, ew):
        if not 0 <= value <= MAX_NUMBER:
            raise at.error(f"works out to {value}, which BTN cannot write (0 to {MAX_NUMBER:,})")
    return f"NS {ns} EW {ew}"


def comment_text(text: str) -> str:
    """Free text as a BTN comment: one line. (:meth:`Node.note` also checks the text; this
    is for text an importer has already checked.)"""
    return " ".join(text.split())


def shown(value: Any) -> str:
    """A value as an error message shows it: its repr, cut to fit a line."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:50]}... ({len(text)} characters)"
