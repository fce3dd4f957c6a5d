"""Reading BTN, layer 1: bytes or text to numbered lines.

Every source (a path, a binary or text stream, a string) becomes ``(line number, text)`` pairs
with the same checks: a line longer than :data:`MAX_LINE_BYTES` is an error, not a memory
spike; a byte that is not UTF-8 or a NUL stops the reading at its line, with the hands before
it still read; line ends (LF, CRLF) are dropped. :class:`_Errors` makes the
:class:`~baloot_conformance.errors.TranscriptSyntaxError` of every layer above, with its
``file:line:col`` and a caret under the column.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import IO, Any, Protocol

from baloot_conformance.errors import Location, TranscriptSyntaxError, caret_excerpt

#: The longest line accepted, in bytes (UTF-8); longer lines are an error, not a memory spike.
MAX_LINE_BYTES = 16_384


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
    ) -> TranscriptSyntaxError:
        excerpt = caret_excerpt(text, column, line) if text is not None else None
        return TranscriptSyntaxError(
            message, location=Location(self.path, line, column), excerpt=excerpt, hint=hint
        )


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


def _lines_from_text(text: str, errors: _Errors, first_line: int = 1) -> Iterator[tuple[int, str]]:
    """Split a string into lines (``\\n`` or ``\\r\\n``), checking each; the first is number
    ``first_line`` (a run of hands cut from a longer file keeps the file's line numbers)."""
    number = first_line - 1
    pos = 0
    size = len(text)
    while pos < size:
        number += 1
        end = text.find("\n", pos)
        stop = size if end < 0 else end
        width = stop - pos
        if width > MAX_LINE_BYTES:  # characters: a lower bound of the byte count
            raise _too_long(number, errors)
        chunk = text[pos:stop]
        if chunk.endswith("\r"):
            chunk = chunk[:-1]
        if width * 4 > MAX_LINE_BYTES and len(chunk.encode("utf-8", "replace")) > MAX_LINE_BYTES:
            raise _too_long(number, errors)
        yield number, _check_line(chunk, number, errors)
        pos = stop + 1


def _lines_up_to_bad_bytes(chunk: bytes, first: int, errors: _Errors) -> Iterator[tuple[int, str]]:
    """The lines of ``chunk`` (the first is line ``first``) before its first line that holds
    a NUL or is not UTF-8, then that line's error: the hands before it are still checked."""
    for offset, raw in enumerate(chunk.split(b"\n")):
        if b"\x00" in raw:
            _check_line(raw.decode("utf-8", "replace"), first + offset, errors)
        if len(raw) > MAX_LINE_BYTES:
            raise _too_long(first + offset, errors)
        line = _decode(raw, first + offset, errors)
        yield first + offset, line[:-1] if line.endswith("\r") else line
    raise AssertionError("no bad byte found")  # pragma: no cover


def _lines_from_binary(
    stream: _Readable, errors: _Errors, first_line: int = 1
) -> Iterator[tuple[int, str]]:
    """Read a binary stream in blocks; a line longer than the limit stops the reading. The
    first line is number ``first_line`` (a run of hands cut from a longer file keeps the
    file's line numbers)."""
    number = first_line - 1
    pending = b""
    limit = MAX_LINE_BYTES
    quarter = limit // 4
    while True:
        try:
            block = stream.read(1 << 18)
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
            yield from _lines_up_to_bad_bytes(chunk, number + 1, errors)
        lines = text.split("\n")
        if "\r" in text:
            lines = [line[:-1] if line.endswith("\r") else line for line in lines]
        if max(map(len, lines)) > quarter:
            for offset, line in enumerate(lines, number + 1):
                if len(line) > quarter and len(line.encode("utf-8", "replace")) > limit:
                    raise _too_long(offset, errors)
        yield from enumerate(lines, number + 1)
        number += len(lines)
        if not block:
            return


def _lines_from_stream(stream: IO[Any], errors: _Errors) -> Iterator[tuple[int, str]]:
    """Read lines from a text stream without ever reading more than one long line."""
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
            yield from _lines_from_binary(_Prepend(raw, stream), errors)
            return
        number += 1
        text = str(raw)
        if len(text) > MAX_LINE_BYTES and not (
            text.endswith("\n") and len(text.rstrip("\r\n")) <= MAX_LINE_BYTES
        ):
            raise _too_long(number, errors)
        yield number, _check_line(_strip_eol(text), number, errors)


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
