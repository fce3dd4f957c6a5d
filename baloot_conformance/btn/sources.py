"""Opening transcript files: compressed ones decompressed as they are read, and any
line fetched again by its number.

:func:`open_source` reads ``.btn``, ``.btn.gz`` and ``.btn.zst`` files as a byte stream, so
that a large archive never sits in memory; :class:`_LineIndex` finds a line by number for a
divergence that quotes it, without holding the file.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Callable, Iterator
from typing import IO, Any, cast

from baloot_conformance.btn.lines import MAX_LINE_BYTES
from baloot_conformance.errors import TranscriptSyntaxError


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
