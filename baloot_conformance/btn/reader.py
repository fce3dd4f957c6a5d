"""Reading BTN, layer 5: the reader, text to typed events and claims, one hand at a time.

:class:`TranscriptReader` reads the version line, the metadata block and the header tags at
once, then yields one :class:`~baloot_conformance.btn.items.Hand` at a time, so memory is
bounded by the largest hand, not by the file. Its layers below are lines
(:mod:`~baloot_conformance.btn.lines`), statements (:mod:`~baloot_conformance.btn.statements`,
with :mod:`~baloot_conformance.btn.grammar` for the lines the fast path leaves) and hands
(:mod:`~baloot_conformance.btn.builder`); files are opened by
:mod:`~baloot_conformance.btn.sources`.
"""

from __future__ import annotations

import dataclasses
import io
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from baloot_conformance.btn.builder import HandBuilder
from baloot_conformance.btn.grammar import Stmt
from baloot_conformance.btn.items import Comment, Hand, Tag, Transcript
from baloot_conformance.btn.lines import (
    MAX_HAND_LINES,
    Source,
    _Errors,
    _lines_from_binary,
    _lines_from_stream,
    _lines_from_text,
    _Window,
)
from baloot_conformance.btn.sources import open_source
from baloot_conformance.btn.statements import _HEADER_ONLY, _layout_error, _layout_step, _statements
from baloot_conformance.errors import SpecError, TranscriptSyntaxError, caret_excerpt
from baloot_conformance.rules.strict_yaml import load_yaml

#: The major version of BTN this reader knows.
KNOWN_MAJOR = 1


class UnknownVersion(TranscriptSyntaxError):
    """The version line names a major version this reader does not read (``major``): the
    one point where the command line turns a BTN 2 file over to the trick family."""

    def __init__(self, error: TranscriptSyntaxError, major: int) -> None:
        super().__init__(
            error.message, location=error.location, excerpt=error.excerpt, hint=error.hint
        )
        self.major = major


# ---------------------------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------------------------


def load_metadata(text: str, first_line: int, errors_path: str = "<string>") -> dict[str, Any]:
    """Parse the YAML of a metadata block whose first YAML line is ``first_line``, with the
    kit's strict YAML reader (:func:`baloot_conformance.rules.strict_yaml.load_yaml`)."""
    errors = _Errors(errors_path)
    try:
        data = load_yaml(text, errors_path, first_line, dates_as_text=True)
    except SpecError as exc:
        line = exc.location.line if exc.location else first_line
        column = exc.location.column if exc.location else 1
        lines = text.split("\n")
        shown = lines[line - first_line] if 0 <= line - first_line < len(lines) else None
        what = exc.message.removeprefix("invalid YAML: ")
        words = "is not valid YAML" if what != exc.message else "is not plain YAML data"
        message = f"the metadata block {words}: {what}"
        raise errors.at(message, line, column, shown, hint=exc.hint) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise errors.at(
            "the metadata block must be a YAML mapping (key: value lines)", first_line, 1
        )
    return data


class NumberSet:
    """The hand numbers seen so far, in a bit map (12 KB for 100,000 hands, where a set of
    ints would take megabytes); very large numbers go to a plain set."""

    __slots__ = ("bits", "large")
    LIMIT = 1 << 24

    def __init__(self) -> None:
        self.bits = bytearray()
        self.large: set[int] = set()

    def __contains__(self, number: int) -> bool:
        if number >= self.LIMIT:
            return number in self.large
        byte = number >> 3
        return byte < len(self.bits) and bool(self.bits[byte] & (1 << (number & 7)))

    def add(self, number: int) -> None:
        if number >= self.LIMIT:
            self.large.add(number)
            return
        byte = number >> 3
        if byte >= len(self.bits):
            self.bits.extend(bytes(max(byte + 1 - len(self.bits), len(self.bits))))
        self.bits[byte] |= 1 << (number & 7)


@dataclass(frozen=True, slots=True)
class HandChunk:
    """One hand of a file as its statements (:meth:`TranscriptReader.chunks`): ``head`` is
    its ``hand`` statement, ``body`` the statements up to the next hand, and ``problem`` the
    syntax error that cut the body short, if any."""

    head: Stmt
    body: list[Stmt]
    problem: TranscriptSyntaxError | None = None

    @property
    def number(self) -> int:
        number: int = self.head[1][0]
        return number


class TranscriptReader:
    """A BTN transcript read as a stream: the header at once, then one hand at a time.

    ``source`` is a path (``-`` for standard input; see :func:`~baloot_conformance.btn.
    sources.open_source`), a binary or text stream, and ``path`` names it in errors. The
    source is read once, forward only, so a pipe, a FIFO or standard input reads as a file
    does. Iterate to get the hands; :meth:`close` (or ``with``) closes a file the reader opened
    itself.

    Memory is bounded by one hand, whatever the source's size: a hand (or the header) spans at
    most :data:`~baloot_conformance.btn.lines.MAX_HAND_LINES` lines, each at most
    :data:`~baloot_conformance.btn.lines.MAX_LINE_BYTES`; the lines of the hand being read are
    kept (:class:`~baloot_conformance.btn.lines._Window`) for :meth:`source_line` to quote.
    """

    def __init__(self, source: Source, path: str | None = None) -> None:
        self._owned: IO[bytes] | None = None
        self._window = _Window()
        if isinstance(source, (str, os.PathLike)):
            name = os.fspath(source)
            self._owned = open_source(name)
            stream: IO[Any] = self._owned
            path = path or name
        else:
            stream = source
            path = path or str(getattr(source, "name", "<stream>"))
        errors = _Errors(path)
        try:
            lines = (
                _lines_from_binary(stream, errors, 1, self._window)
                if self._owned is not None or isinstance(stream, (io.RawIOBase, io.BufferedIOBase))
                else _lines_from_stream(stream, errors, self._window)
            )
            self._start(path, errors, lines)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_text(cls, text: str, path: str = "<string>") -> TranscriptReader:
        """A reader over a string held in memory."""
        reader = cls.__new__(cls)
        reader._owned = None
        reader._window = _Window()
        errors = _Errors(path)
        reader._start(path, errors, _lines_from_text(text, errors, 1, reader._window))
        return reader

    @classmethod
    def for_hands(
        cls, data: bytes, path: str, first_line: int, seen: Iterable[int] = ()
    ) -> TranscriptReader:
        """A reader over a run of whole hands cut from a file whose header was read already:
        ``data`` starts with a ``hand`` line, which is line ``first_line`` of ``path``. Used to
        check the games of one file in parallel; errors keep the file's line numbers, and
        quotes come from ``data`` itself (``path`` is never opened: it may be a pipe read
        once). ``seen``: the hand numbers of the file before the run (those that the run
        repeats are enough; see :func:`~baloot_conformance.btn.runs.iter_stream_runs`), so
        that the run's reader reports a repeat where it is."""
        reader = cls.__new__(cls)
        reader._owned = None
        reader._window = _Window()
        reader.path = path
        reader._errors = _Errors(path)
        reader._stmts = _statements(
            _lines_from_binary(io.BytesIO(data), reader._errors, first_line, reader._window),
            reader._errors,
            versioned=False,
        )
        reader.version = str(KNOWN_MAJOR)
        reader.metadata = None
        reader.metadata_text = None
        reader.header = ()
        reader._seen_hands = NumberSet()
        for number in seen:
            reader._seen_hands.add(number)
        reader._pending = reader._next()
        if reader._pending is None or reader._pending[0] != "hand":
            raise reader._errors.at("a run of hands starts with a 'hand' line", first_line, 1)
        return reader

    def _start(self, path: str, errors: _Errors, lines: Iterator[tuple[int, str]]) -> None:
        self.path = path
        self._errors = errors
        self._stmts = _statements(lines, errors)
        self.version = "1"
        self.metadata: dict[str, Any] | None = None
        self.metadata_text: str | None = None
        self.header: tuple[Tag | Comment, ...] = ()
        self._pending: Stmt | None = None
        self._seen_hands = NumberSet()
        try:
            self._read_header()
        except TranscriptSyntaxError as exc:
            raise self._with_excerpt(exc) from None

    def _next(self) -> Stmt | None:
        try:
            return next(self._stmts)
        except StopIteration:
            return None
        except RecursionError:  # pragma: no cover - Lark on pathological input
            raise TranscriptSyntaxError("input nested too deeply to parse") from None

    def _read_header(self) -> None:
        errors = self._errors
        first = self._next()
        if first is None:
            raise errors.at(
                "empty file: expected the version line '%btn 1'",
                1,
                1,
                hint="a BTN file starts with the line '%btn 1'",
            )
        _layout_step(0, first, errors)
        version = first[1][0]
        major = int(version.split(".")[0])
        if major != KNOWN_MAJOR:
            hint = (
                "BTN 2 is the trick family's notation: 'baloot-conformance check' reads it"
                if major == 2
                else "upgrade baloot-conformance, or write the file as '%btn 1'"
            )
            error = errors.at(
                f"unknown BTN version {version}: this reader knows version {KNOWN_MAJOR}",
                1,
                first[3] + 5,
                f"%btn {version}",
                hint=hint,
            )
            raise UnknownVersion(error, major)
        self.version = version
        header: list[Tag | Comment] = []
        names: dict[str, int] = {}
        state = 1
        while True:
            stmt = self._next()
            if stmt is None:
                break
            state = _layout_step(state, stmt, errors)
            kind, v, number, column, comment = stmt
            if number > MAX_HAND_LINES and (kind != "hand" or number > MAX_HAND_LINES + 1):
                raise _too_many_lines("the header", 1, errors)
            if kind == "hand":
                self._pending = stmt
                break
            if kind == "meta":
                self.metadata_text = v[0]
                self.metadata = load_metadata(v[0], number + 1, self.path)
            elif kind == "tag":
                if v[0] in names:
                    raise errors.at(
                        f"a second [{v[0]} ...] tag (the first is on line {names[v[0]]})",
                        number,
                        column,
                    )
                names[v[0]] = number
                header.append(
                    Tag(name=v[0], value=v[1], comment=comment, line=number, column=column)
                )
            else:
                header.append(Comment(text=v[0], line=number, column=column))
        self.header = tuple(header)
        if self._pending is None and self._window.last_line() > MAX_HAND_LINES:
            raise _too_many_lines("the header", 1, errors)
        if "Ruleset" not in names:
            number = self._pending[2] if self._pending else 1
            raise errors.at(
                'the header has no [Ruleset "..."] tag',
                number,
                1,
                hint='name the rules the game was played under, e.g. [Ruleset "saudi@1"]',
            )

    def head(self) -> Transcript:
        """The transcript read so far without its hands: version, header and metadata."""
        return Transcript(
            version=self.version,
            header=self.header,
            hands=(),
            metadata=self.metadata,
            metadata_text=self.metadata_text,
        )

    def source_line(self, number: int) -> str | None:
        """Line ``number`` of the source, for quoting: a line of the hand being read (or of the
        header), kept as it was read, so that quoting costs what the line costs, from a file,
        a compressed stream, a pipe or a run of hands alike; ``None`` for a line already
        left behind."""
        return self._window.line(number)

    def __iter__(self) -> Iterator[Hand]:
        for chunk in self.chunks():
            yield self.build(chunk)

    def _with_excerpt(self, exc: TranscriptSyntaxError) -> TranscriptSyntaxError:
        """Add the source line to a structural error (the statements keep no line text; the
        line is one of the hand being read, kept by :meth:`source_line`)."""
        location = exc.location
        if exc.excerpt is not None or location is None or location.line < 1:
            return exc
        line = self.source_line(location.line)
        if line is None:
            return exc
        if exc.token is not None:  # the word it is about: its last use before any comment
            at = line.split("#", 1)[0].rfind(exc.token)
            if at >= location.column - 1:
                location = exc.location = dataclasses.replace(location, column=at + 1)
        exc.excerpt = caret_excerpt(line, location.column, location.line)
        return exc

    def chunks(self) -> Iterator[HandChunk]:
        """Each hand as its statements, not yet checked: give each to :meth:`build` for its
        :class:`Hand`, or judge it straight from the statements (the fast lane of
        :mod:`baloot_conformance.check.fast_lane`, which builds the hands it does not take). The
        hands read the same either way; errors carry their source line as in iteration."""
        try:
            yield from self._chunks()
        except TranscriptSyntaxError as exc:
            raise self._with_excerpt(exc) from None
        finally:
            self.close()

    def build(self, chunk: HandChunk) -> Hand:
        """The hand of a chunk from :meth:`chunks`, checked statement by statement (raises
        :class:`TranscriptSyntaxError` at the first problem, as iteration does)."""
        try:
            return self._build(chunk)
        except TranscriptSyntaxError as exc:
            raise self._with_excerpt(exc) from None

    def _chunks(self) -> Iterator[HandChunk]:
        errors = self._errors
        window = self._window
        while self._pending is not None:
            _, v, number, column, _ = head = self._pending
            self._pending = None
            window.keep_from(number)  # the hands before are judged: their lines can go
            if v[0] in self._seen_hands:
                raise errors.at(
                    f"a second 'hand {v[0]}'",
                    number,
                    column,
                    hint="hand numbers are unique in a file",
                )
            if v[0] < 1:
                raise errors.at("hand numbers start at 1", number, column)
            self._seen_hands.add(v[0])
            body: list[Stmt] = []
            append = body.append
            problem: TranscriptSyntaxError | None = None
            last = number + MAX_HAND_LINES - 1  # the hand's last line, at most
            try:
                for stmt in self._stmts:
                    if stmt[2] > last and (stmt[0] != "hand" or stmt[2] > last + 1):
                        raise _too_many_lines(f"hand {v[0]}", number, errors)
                    if stmt[0] == "hand":
                        self._pending = stmt
                        break
                    append(stmt)
                else:  # the end of the source: its last lines may be blank
                    if window.last_line() > last:
                        raise _too_many_lines(f"hand {v[0]}", number, errors)
            except TranscriptSyntaxError as exc:
                # A line that does not parse: the hand's statements before it are checked
                # first (their problem is reported, being earlier), then this one.
                problem = exc
            except RecursionError:  # pragma: no cover - Lark on pathological input
                problem = TranscriptSyntaxError("input nested too deeply to parse")
            yield HandChunk(head, body, problem)

    def builder(self, chunk: HandChunk) -> HandBuilder:
        """A fresh builder for the hand of ``chunk`` (its errors name this reader's file)."""
        _, v, number, column, comment = chunk.head
        return HandBuilder(v[0], number, column, comment, self._errors)

    def _build(self, chunk: HandChunk) -> Hand:
        errors = self._errors
        builder = self.builder(chunk)
        add = builder.add
        add_trick = builder.add_trick
        for stmt in chunk.body:
            kind = stmt[0]
            if kind == "trick":
                add_trick(stmt)
            else:
                if kind in _HEADER_ONLY:
                    raise _layout_error(stmt, errors)
                add(stmt)
        if chunk.problem is not None:
            raise chunk.problem
        return builder.finish()

    def close(self) -> None:
        if self._owned is not None:
            self._owned.close()
            self._owned = None

    def __enter__(self) -> TranscriptReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _too_many_lines(part: str, first: int, errors: _Errors) -> TranscriptSyntaxError:
    """The error of a hand (or header) that runs past :data:`MAX_HAND_LINES` lines: at the
    first line past the bound, whatever that line holds (the cutting of runs,
    :mod:`~baloot_conformance.btn.runs`, stops there too)."""
    return errors.at(
        f"{part} (from line {first}) runs past {MAX_HAND_LINES:,} lines: the most one part "
        "of a file may span",
        first + MAX_HAND_LINES,
        1,
        hint="a hand has about a hundred lines; start each hand with its 'hand N' line, and "
        "keep long notes out of the transcript",
    )


def iter_hands(source: Source, path: str | None = None) -> Iterator[Hand]:
    """The hands of a transcript, one at a time (the header is read and checked first)."""
    reader = TranscriptReader(source, path)
    try:
        yield from reader
    finally:
        reader.close()


def _transcript(reader: TranscriptReader) -> Transcript:
    with reader:
        hands = tuple(reader)
    return dataclasses.replace(reader.head(), hands=hands)


def parse_transcript(text: str | bytes, path: str = "<string>") -> Transcript:
    """Parse a whole transcript held in memory."""
    if isinstance(text, bytes):
        return _transcript(TranscriptReader(io.BytesIO(text), path))
    return _transcript(TranscriptReader.from_text(text, path))


def read_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Read a whole transcript file (use :func:`iter_hands` for very large files)."""
    return _transcript(TranscriptReader(Path(path)))
