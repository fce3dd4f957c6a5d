"""Reading BTN, layer 1: bytes or text to numbered lines.

Every source (a path, a binary or text stream, a string) becomes ``(line number, text)`` pairs
with the same checks: a line longer than :data:`MAX_LINE_BYTES` is an error, not a memory
spike; a byte that is not UTF-8 or a NUL stops the reading at its line, with the hands before
it still read; line ends (LF, CRLF) are dropped. Every source is read once, forward only (a
pipe as a file). The lines a reader may quote (those of the hand it is at) are kept in a
:class:`_Window` as they are read, so that quoting a line costs what the line costs, never a
second reading of the source. :func:`decode_utf8` gives a whole text with the
same checks, for the few readers that hold a file whole (fixtures). :class:`_Errors` makes the
:class:`~baloot_conformance.errors.TranscriptSyntaxError` of every layer above, with its
``file:line:col`` and a caret under the column.
"""

from __future__ import annotations

import io
import os
from collections import deque
from collections.abc import Iterator
from typing import IO, Any, Protocol

from baloot_conformance.errors import Location, TranscriptSyntaxError, caret_excerpt

#: The longest line accepted, in bytes (UTF-8); longer lines are an error, not a memory spike.
MAX_LINE_BYTES = 16_384

#: The most lines a hand spans (from its ``hand`` line to the line before the next one, or to
#: the end of the file, blank lines and comments included), and the most lines the header
#: spans (the lines before the first hand, the metadata block included). A hand's statements
#: are kept until it is judged, so this bounds the memory of one hand, and the cutting of a
#: file into runs can stop at it; a real hand has about a hundred lines.
MAX_HAND_LINES = 1_000

_BLOCK = 1 << 18  # bytes (or characters) read and split at a time
_WINDOW_COST = 8 << 20  # what the window keeps at most, in bytes (see _Window)


Source = str | os.PathLike[str] | IO[bytes] | IO[str]


class _Errors:
    """Builds :class:`TranscriptSyntaxError` for one source path."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def at(
        self,
        message: str,
        line: int,
        column: int,
        text: str | None = None,
        hint: str | None = None,
        token: str | None = None,
    ) -> TranscriptSyntaxError:
        excerpt = caret_excerpt(text, column, line) if text is not None else None
        return TranscriptSyntaxError(
            message,
            location=Location(self.path, line, column),
            excerpt=excerpt,
            hint=hint,
            token=token,
        )


Errors = _Errors
"""The public name of :class:`_Errors`: BTN 2's reader builds its errors with it too."""


class _Window:
    """The lines read since a mark, for quoting: the reader marks each hand's first line, and
    a divergence or a structural error in that hand quotes its line from here (from a file, a
    compressed stream, a pipe or a run of hands alike). The lines come in the blocks the line
    readers split anyway, so keeping them costs nothing per line; what is kept is bounded
    (:data:`_WINDOW_COST`), the oldest block dropped first, so a hand too long to keep whole
    (refused by the reader anyway, at :data:`MAX_HAND_LINES`) costs its quotes, not memory."""

    __slots__ = ("blocks", "cost")

    def __init__(self) -> None:
        self.blocks: deque[tuple[int, list[str], int]] = deque()  # first line, lines, cost
        self.cost = 0

    def add(self, first: int, lines: list[str], size: int) -> None:
        """Keep ``lines`` (the first is line ``first``), ``size`` bytes of source text."""
        cost = size + 8 * len(lines)
        self.blocks.append((first, lines, cost))
        self.cost += cost
        while self.cost > _WINDOW_COST and len(self.blocks) > 1:
            self.cost -= self.blocks.popleft()[2]

    def keep_from(self, number: int) -> None:
        """Forget the lines before line ``number`` (a block that holds it is kept whole)."""
        blocks = self.blocks
        while len(blocks) > 1 and blocks[0][0] + len(blocks[0][1]) <= number:
            self.cost -= blocks.popleft()[2]

    def last_line(self) -> int:
        """The number of the last line read (0 before any)."""
        if not self.blocks:
            return 0
        first, lines, _ = self.blocks[-1]
        return first + len(lines) - 1

    def line(self, number: int) -> str | None:
        """Line ``number`` if it is kept, without its line end."""
        for first, lines, _ in reversed(self.blocks):
            if first <= number:
                return lines[number - first] if number - first < len(lines) else None
        return None


def decode_utf8(data: bytes, path: str) -> str:
    """``data`` as text, checked as the line readers check it (UTF-8, no NUL, no line over
    :data:`MAX_LINE_BYTES`): a problem is the same
    :class:`~baloot_conformance.errors.TranscriptSyntaxError`, with its ``file:line:col``, as
    ``check`` gives for the file. For readers that hold a small file whole (a fixture)."""
    errors = _Errors(path)
    for _ in _lines_from_binary(io.BytesIO(data), errors):
        pass
    return data.decode("utf-8")


def _decode(raw: bytes, number: int, errors: _Errors) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", "replace")
        shown = raw.decode("utf-8", "replace")
        raise errors.at(
            f"invalid UTF-8: byte 0x{raw[exc.start]:02x} cannot start or continue a character",
            number,
            len(good) + 1,
            shown,
            hint="BTN files are UTF-8 text; save the file as UTF-8",
        ) from None


def _check_line(text: str, number: int, errors: _Errors) -> str:
    if "\x00" in text:
        raise errors.at(
            "binary data: a NUL byte in the text",
            number,
            text.index("\x00") + 1,
            text.replace("\x00", "?"),
            hint="BTN files are UTF-8 text, one statement per line",
        )
    return text


def _too_long(number: int, errors: _Errors) -> TranscriptSyntaxError:
    return errors.at(
        f"line {number} is longer than {MAX_LINE_BYTES} bytes",
        number,
        MAX_LINE_BYTES + 1,
        hint="one statement per line; no BTN statement is that long",
    )


def _strip_eol(text: str) -> str:
    if text.endswith("\n"):
        text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
    return text


def _split_block(block: str, number: int, errors: _Errors) -> list[str]:
    """The lines of a block of whole lines (without their line ends), the first being line
    ``number + 1``, each checked: no NUL, none longer than :data:`MAX_LINE_BYTES`."""
    lines = block.split("\n")
    if "\r" in block:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if "\x00" in block:
        for offset, line in enumerate(lines, number + 1):
            _check_line(line, offset, errors)
    quarter = MAX_LINE_BYTES // 4
    if max(map(len, lines)) > quarter:  # a line of 4,096 characters may be 16,384 bytes
        for offset, line in enumerate(lines, number + 1):
            if len(line) > MAX_LINE_BYTES or (
                len(line) > quarter and len(line.encode("utf-8", "replace")) > MAX_LINE_BYTES
            ):
                raise _too_long(offset, errors)
    return lines


def _lines_from_text(
    text: str, errors: _Errors, first_line: int = 1, window: _Window | None = None
) -> Iterator[tuple[int, str]]:
    """Split a string into lines (``\\n`` or ``\\r\\n``), checking each; the first is number
    ``first_line`` (a run of hands cut from a longer file keeps the file's line numbers). The
    string is split a block at a time, each block kept in ``window``."""
    number = first_line - 1
    pos = 0
    size = len(text)
    while pos < size:
        cut = size if pos + _BLOCK >= size else text.rfind("\n", pos, pos + _BLOCK)
        if cut < 0:  # a line longer than a block: it is refused below
            cut = text.find("\n", pos + _BLOCK)
            cut = size if cut < 0 else cut
        block = text[pos:cut]
        if cut == size and block.endswith("\n"):
            block = block[:-1]
        lines = _split_block(block, number, errors)
        if window is not None:
            window.add(number + 1, lines, len(block))
        yield from enumerate(lines, number + 1)
        number += len(lines)
        pos = cut + 1


def _lines_up_to_bad_bytes(
    chunk: bytes, first: int, errors: _Errors, window: _Window | None
) -> Iterator[tuple[int, str]]:
    """The lines of ``chunk`` (the first is line ``first``) before its first line that holds
    a NUL or is not UTF-8, then that line's error: the hands before it are still checked."""
    kept: list[str] = []
    if window is not None:
        window.add(first, kept, len(chunk))
    for offset, raw in enumerate(chunk.split(b"\n")):
        if b"\x00" in raw:
            _check_line(raw.decode("utf-8", "replace"), first + offset, errors)
        if len(raw) > MAX_LINE_BYTES:
            raise _too_long(first + offset, errors)
        line = _decode(raw, first + offset, errors)
        line = line[:-1] if line.endswith("\r") else line
        kept.append(line)
        yield first + offset, line
    raise AssertionError("no bad byte found")  # pragma: no cover


def _lines_from_binary(
    stream: _Readable, errors: _Errors, first_line: int = 1, window: _Window | None = None
) -> Iterator[tuple[int, str]]:
    """Read a binary stream in blocks, once and forward only (a pipe reads as a file does); a
    line longer than the limit stops the reading. The first line is number ``first_line`` (a
    run of hands cut from a longer file keeps the file's line numbers); each block's lines are
    kept in ``window``."""
    number = first_line - 1
    pending = b""
    limit = MAX_LINE_BYTES
    # One read at a time, what has come (read1): a pipe's hands are checked as they arrive, and
    # a signal is seen between reads, not only once a block of the full size is in.
    read = getattr(stream, "read1", stream.read)
    while True:
        try:
            block = read(_BLOCK)
        except (OSError, EOFError) as exc:  # a damaged compressed file
            raise errors.at(
                f"the file cannot be read{f' after line {number}' if number else ''}: {exc}",
                number + 1,
                1,
                hint="a compressed transcript is damaged or cut short: compress it again",
            ) from None
        if block:
            pending += block
            cut = pending.rfind(b"\n")
            if cut < 0:
                if len(pending) > limit + 1:
                    raise _too_long(number + 1, errors)
                continue
            chunk = pending[:cut]
            pending = pending[cut + 1 :]
        else:
            if not pending:
                return
            chunk, pending = pending, b""
        try:
            if b"\x00" in chunk:
                raise ValueError("a NUL byte")
            text = chunk.decode("utf-8")
        except ValueError:  # a NUL, or not UTF-8 (UnicodeDecodeError is a ValueError)
            yield from _lines_up_to_bad_bytes(chunk, number + 1, errors, window)
        lines = _split_block(text, number, errors)
        if window is not None:
            window.add(number + 1, lines, len(chunk))
        yield from enumerate(lines, number + 1)
        number += len(lines)
        if not block:
            return


def _lines_from_stream(
    stream: IO[Any], errors: _Errors, window: _Window | None = None
) -> Iterator[tuple[int, str]]:
    """Read lines from a text stream without ever reading more than one long line; each is
    kept in ``window``."""
    number = 0
    while True:
        try:
            raw = stream.readline(MAX_LINE_BYTES + 2)
        except UnicodeDecodeError as exc:  # a text stream opened with strict decoding
            raise errors.at(
                f"invalid UTF-8 near line {number + 1}: {exc.reason}",
                number + 1,
                1,
                hint="BTN files are UTF-8 text; save the file as UTF-8",
            ) from None
        if not raw:
            return
        if isinstance(raw, bytes):  # a binary stream after all
            yield from _lines_from_binary(_Prepend(raw, stream), errors, 1, window)
            return
        number += 1
        text = str(raw)
        if len(text) > MAX_LINE_BYTES and not (
            text.endswith("\n") and len(text.rstrip("\r\n")) <= MAX_LINE_BYTES
        ):
            raise _too_long(number, errors)
        line = _check_line(_strip_eol(text), number, errors)
        if window is not None:
            window.add(number, [line], len(text))
        yield number, line


class _Readable(Protocol):
    def read(self, size: int, /) -> bytes: ...


class _Prepend:
    """A binary stream with some bytes already read put back in front."""

    def __init__(self, head: bytes, stream: _Readable) -> None:
        self.head = head
        self.stream = stream

    def read(self, size: int, /) -> bytes:
        if self.head:
            head, self.head = self.head, b""
            return head
        return self.stream.read(size)
