"""Reading BTN, the Baloot Transcript Notation: text to typed events and claims.

Reading is streaming: :class:`TranscriptReader` reads the header, then yields one
:class:`Hand` at a time, so memory is bounded by the largest hand, not by the file. This
module is the reader and the public face of reading; its layers live in modules of their own
(each usable alone: the tests use them to compare the front ends), and nothing outside them
parses BTN text:

1. lines, 2. statements, 3. layout (:mod:`~baloot_conformance.btn_statements`): bytes or text
   to ``(line number, text)`` with a line-length limit and UTF-8 checks; one :data:`Stmt` tuple
   per line (a fast path, or the Lark grammar ``grammar/btn.lark`` for the hard cases); the
   version line first, the metadata block, header tags, then hands;
4. hands (:mod:`~baloot_conformance.btn_builder`): structural checks that need no rules (a
   card dealt twice, a missing seat, a claim before the event it refers to, ...) and the
   stable positions (``h2.t5.p3``).

The items they build (events, claims, hands, transcripts) are in
:mod:`~baloot_conformance.btn_items`, and are re-exported here.
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from baloot_conformance.btn_builder import HandBuilder
from baloot_conformance.btn_items import (
    SEATS,
    TEAM_CLAIMS,
    TEAMS,
    Baloot,
    Call,
    Claim,
    Comment,
    ContractClaim,
    Deal,
    Dealer,
    Declare,
    Event,
    FaceUp,
    Foul,
    Hand,
    HandItem,
    Hold,
    Item,
    KabootClaim,
    LegalCallsClaim,
    LegalClaim,
    Play,
    Rest,
    ResultClaim,
    Start,
    Tag,
    TeamClaim,
    Transcript,
    TrickClaim,
    WinnerClaim,
)
from baloot_conformance.btn_statements import (
    _HEADER_ONLY,
    MAX_LINE_BYTES,
    Source,
    Stmt,
    _Errors,
    _layout_error,
    _layout_step,
    _lines_from_binary,
    _lines_from_stream,
    _lines_from_text,
    _Readable,
    _statements,
    fast_statements,
    lark_parser,
    lark_statements,
)
from baloot_conformance.errors import SpecError, TranscriptSyntaxError, caret_excerpt
from baloot_conformance.ruleset import load_yaml

__all__ = [
    "COMPRESSED",
    "MAX_LINE_BYTES",
    "SEATS",
    "TEAMS",
    "TEAM_CLAIMS",
    "Baloot",
    "Call",
    "Claim",
    "Comment",
    "ContractClaim",
    "Deal",
    "Dealer",
    "Declare",
    "Event",
    "FaceUp",
    "Foul",
    "Hand",
    "HandBuilder",
    "HandChunk",
    "HandItem",
    "Hold",
    "Item",
    "KabootClaim",
    "LegalCallsClaim",
    "LegalClaim",
    "Play",
    "Rest",
    "ResultClaim",
    "Source",
    "Start",
    "Stmt",
    "Tag",
    "TeamClaim",
    "Transcript",
    "TranscriptReader",
    "TrickClaim",
    "WinnerClaim",
    "fast_statements",
    "game_runs",
    "iter_game_runs",
    "iter_hands",
    "lark_parser",
    "lark_statements",
    "load_metadata",
    "open_source",
    "parse_transcript",
    "read_transcript",
    "repeats_hand_numbers",
]


#: The major version of BTN this reader knows.
KNOWN_MAJOR = 1

# ---------------------------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------------------------


def load_metadata(text: str, first_line: int, errors_path: str = "<string>") -> dict[str, Any]:
    """Parse the YAML of a metadata block whose first YAML line is ``first_line``, with the
    kit's strict YAML reader (:func:`baloot_conformance.ruleset.load_yaml`)."""
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


class _NumberSet:
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


class _LineIndex:
    """Lines of a byte source fetched by number without holding the source: the offset of
    every 1,024th line, found on the first request (a source that cannot seek, a Zstandard
    stream, is read up to the line instead)."""

    STEP = 1024

    def __init__(self, opener: Callable[[], IO[bytes]]) -> None:
        self._open = opener
        self._marks: list[int] | None = None

    def line(self, number: int) -> str | None:
        try:
            with self._open() as source:
                if not source.seekable():  # a compressed stream: read up to the line
                    raw = _nth_line(iter(lambda: source.readline(MAX_LINE_BYTES + 2), b""), number)
                    return raw.decode("utf-8", "replace").rstrip("\r\n") if raw else None
                if self._marks is None:
                    self._marks = self._index(source)
                mark, skip = divmod(number - 1, self.STEP)
                if number < 1 or mark >= len(self._marks):
                    return None
                source.seek(self._marks[mark])
                for _ in range(skip):
                    if not source.readline(MAX_LINE_BYTES + 2):
                        return None
                raw = source.readline(MAX_LINE_BYTES + 2)
        except OSError:
            return None
        return raw.decode("utf-8", "replace").rstrip("\r\n") if raw else None

    def _index(self, source: IO[bytes]) -> list[int]:
        marks, offset, count = [0], 0, 0
        while raw := source.readline(MAX_LINE_BYTES + 2):
            offset += len(raw)
            count += 1
            if count % self.STEP == 0:
                marks.append(offset)
        source.seek(0)
        return marks


def _nth_line(lines: Iterator[Any], number: int) -> Any:
    for i, line in enumerate(lines, 1):
        if i == number:
            return line
    return None


COMPRESSED = (".gz", ".zst")
"""The file name endings read as compressed transcripts (``.btn.gz``, ``.btn.zst``)."""


def open_source(name: str) -> IO[bytes]:
    """A transcript file opened for reading as bytes: gzip (``.gz``) and Zstandard (``.zst``,
    with the optional ``zstandard`` package) are decompressed as they are read, so a large
    archive never sits in memory.

    Raises:
        TranscriptSyntaxError: the file cannot be opened, or ``.zst`` without the package.
    """
    try:
        if name.endswith(".gz"):
            return cast(IO[bytes], gzip.open(name, "rb"))
        raw = open(name, "rb")  # noqa: SIM115 - the reader closes it
    except OSError as exc:
        raise TranscriptSyntaxError(f"cannot read {name}: {exc.strerror or exc}") from None
    if not name.endswith(".zst"):
        return raw
    try:
        import zstandard
    except ImportError:
        raw.close()
        raise TranscriptSyntaxError(
            f"cannot read {name}: a .zst file needs the zstandard package",
            hint="pip install 'baloot-conformance[zstd]', or decompress it first",
        ) from None
    return io.BufferedReader(_Zstd(zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)))


class _Zstd(io.RawIOBase):
    """A Zstandard stream whose damage is an ``OSError``, as gzip's is."""

    def __init__(self, reader: Any) -> None:
        self._reader = reader

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        import zstandard

        try:
            data = self._reader.read(len(buffer))
        except zstandard.ZstdError as exc:
            raise OSError(f"damaged Zstandard data: {exc}") from None
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._reader.close()
        super().close()


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

    ``source`` is a path, a binary or text stream, and ``path`` names it in errors. Iterate to
    get the hands; :meth:`close` (or ``with``) closes a file the reader opened itself.
    """

    def __init__(self, source: Source, path: str | None = None) -> None:
        self._owned: IO[bytes] | None = None
        self._text: str | None = None
        self._file: str | None = None
        self._lines: _LineIndex | None = None
        if isinstance(source, io.BytesIO):  # in memory already (standard input): share it
            self._lines = _LineIndex(lambda: io.BytesIO(source.getbuffer()))
        if isinstance(source, (str, os.PathLike)):
            name = os.fspath(source)
            self._file = name
            self._owned = open_source(name)
            stream: IO[Any] = self._owned
            path = path or name
        else:
            stream = source
            path = path or str(getattr(source, "name", "<stream>"))
        errors = _Errors(path)
        try:
            lines = (
                _lines_from_binary(stream, errors)
                if self._owned is not None or isinstance(stream, (io.RawIOBase, io.BufferedIOBase))
                else _lines_from_stream(stream, errors)
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
        reader._text = text
        reader._file = None
        reader._lines = None
        errors = _Errors(path)
        reader._start(path, errors, _lines_from_text(text, errors))
        return reader

    @classmethod
    def for_hands(cls, data: bytes, path: str, first_line: int) -> TranscriptReader:
        """A reader over a run of whole hands cut from a file whose header was read already:
        ``data`` starts with a ``hand`` line, which is line ``first_line`` of ``path``. Used to
        check the games of one file in parallel; errors keep the file's line numbers."""
        reader = cls.__new__(cls)
        reader._owned = None
        reader._text = None
        reader._file = path
        reader._lines = None
        reader.path = path
        reader._errors = _Errors(path)
        reader._stmts = _statements(
            _lines_from_binary(io.BytesIO(data), reader._errors, first_line),
            reader._errors,
            versioned=False,
        )
        reader.version = str(KNOWN_MAJOR)
        reader.metadata = None
        reader.metadata_text = None
        reader.header = ()
        reader._seen_hands = _NumberSet()
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
        self._seen_hands = _NumberSet()
        self._read_header()

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
            raise errors.at(
                f"unknown BTN version {version}: this reader knows version {KNOWN_MAJOR}",
                1,
                first[3] + 5,
                f"%btn {version}",
                hint="upgrade baloot-conformance, or write the file as '%btn 1'",
            )
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
        """Line ``number`` of the source, for quoting (``None`` when it cannot be read back,
        e.g. from a pipe). The file is not held in memory: see :class:`_LineIndex`."""
        if self._lines is None:
            if self._file is not None:
                name = self._file
                self._lines = _LineIndex(lambda: open_source(name))
            elif self._text is not None:
                data = self._text.encode("utf-8")
                self._lines = _LineIndex(lambda: io.BytesIO(data))
            else:
                return None
        return self._lines.line(number)

    def __iter__(self) -> Iterator[Hand]:
        for chunk in self.chunks():
            yield self.build(chunk)

    def _with_excerpt(self, exc: TranscriptSyntaxError) -> TranscriptSyntaxError:
        """Add the source line to a structural error (read again: errors are rare, and the
        fast path keeps no line text)."""
        location = exc.location
        if exc.excerpt is not None or location is None or location.line < 1:
            return exc
        line: str | None = None
        if self._text is not None:
            line = _nth_line(iter(self._text.split("\n")), location.line)
        elif self._file is not None:
            try:
                with open_source(self._file) as handle:  # decompressed, as it was read
                    raw = _nth_line(iter(handle), location.line)
                line = None if raw is None else raw.decode("utf-8", "replace")
            except (OSError, EOFError, TranscriptSyntaxError):
                line = None
        if line is not None:
            line = line.rstrip("\r\n")
            exc.excerpt = caret_excerpt(line, location.column, location.line)
        return exc

    def chunks(self) -> Iterator[HandChunk]:
        """Each hand as its statements, not yet checked: give each to :meth:`build` for its
        :class:`Hand`, or judge it straight from the statements (the fast lane of
        :mod:`baloot_conformance.fast_lane`, which builds the hands it does not take). The
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
        while self._pending is not None:
            _, v, number, column, _ = head = self._pending
            self._pending = None
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
            try:
                for stmt in self._stmts:
                    if stmt[0] == "hand":
                        self._pending = stmt
                        break
                    append(stmt)
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


def game_runs(data: bytes, min_hands: int) -> list[tuple[bytes, int]]:
    """A transcript cut into runs of whole games, to check them in parallel: each cut falls
    before a ``hand`` line followed by a ``start`` line (a hand that begins a game of its
    own), once at least ``min_hands`` hands have passed. The first run keeps the header; each
    run comes with the file line it starts at (see :meth:`TranscriptReader.for_hands`).
    Joined with newlines, the runs give back the data.

    A file whose hand numbers seem to repeat is not cut: a reader of one run could not see the
    repeat, and the whole file's reader reports it where it is.
    """
    if repeats_hand_numbers(io.BytesIO(data)):
        return [(data, 1)]
    return list(iter_game_runs(io.BytesIO(data), min_hands)) or [(data, 1)]


def repeats_hand_numbers(stream: _Readable) -> bool:
    """Whether a hand number seems to appear twice in a binary stream (then a file is not cut
    into runs)."""
    numbers = _NumberSet()  # compact: a set of a million numbers would take megabytes
    for block in _line_blocks(stream):
        for _, _, digits in _hand_lines(block):
            if digits:
                number = int(digits[:12])  # a longer number is refused by the reader anyway
                if number in numbers:
                    return True
                numbers.add(number)
    return False


def iter_game_runs(stream: _Readable, min_hands: int) -> Iterator[tuple[bytes, int]]:
    """:func:`game_runs` over a binary stream, one run at a time, so that a large file is
    never held whole. The scanning is the regular-expression engine's (the parent process of
    a parallel check reads every byte of every file, and must not slow the workers down)."""
    run: list[bytes] = []  # the pieces of the current run
    first = 1  # the file line the current run starts at
    line = 1  # the file line the current block starts at
    hands = 0  # hand lines in the current run
    for block in _line_blocks(stream):
        start = 0  # the start of the part of the block not yet in ``run``
        counted, at = line, 0  # the file line at offset ``at`` of the block
        size = len(block)
        for where, indented, _ in _hand_lines(block):
            if hands >= min_hands and not indented:
                end = block.find(b"\n", where) + 1
                if 0 < end < size and block.startswith(b"start ", end):
                    run.append(block[start:where])
                    piece = b"".join(run)
                    yield piece[:-1] if piece.endswith(b"\n") else piece, first
                    counted += block.count(b"\n", at, where)
                    at = where
                    run, first, start, hands = [], counted, where, 0
            hands += 1
        run.append(block[start:])
        line += block.count(b"\n")
    if run:
        yield b"".join(run), first


def _line_blocks(stream: _Readable) -> Iterator[bytes]:
    """A binary stream in blocks of whole lines (the last may lack its line end). No block ends
    with a ``hand`` line: whether a run may be cut before one depends on the line after it."""
    carry = b""
    while True:
        data = stream.read(1 << 20)
        block = carry + data
        if not data:
            if block:
                yield block
            return
        cut = block.rfind(b"\n") + 1
        while cut:
            previous = block.rfind(b"\n", 0, cut - 1) + 1
            if _HAND_AT.match(block, previous) is None:
                break
            cut = previous
        carry = block[cut:]
        if cut:
            yield block[:cut]


def _hand_lines(block: bytes) -> Iterator[tuple[int, bool, bytes]]:
    """The ``hand`` lines of a block of whole lines: where each starts, whether it is
    indented, and the digits of its number. The word is searched for, then its line start
    checked (a pattern anchored at each line start is ten times slower)."""
    for m in _HAND_WORD.finditer(block):
        where = m.start()
        start = block.rfind(b"\n", 0, where) + 1
        if start == where:
            yield where, False, m.group(1)
        elif not block[start:where].strip(b" \t"):
            yield start, True, m.group(1)


_HAND_WORD = re.compile(rb"hand[ \t]+([0-9]*)")
_HAND_AT = re.compile(rb"[ \t]*hand[ \t]+")


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
