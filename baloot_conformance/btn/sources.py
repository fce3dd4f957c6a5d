"""Opening transcript sources: files, compressed files, pipes and standard input, each read
once as a byte stream.

:func:`open_source` reads ``.btn``, ``.btn.gz`` and ``.btn.zst`` files, named pipes, ``/dev/fd``
paths (``<(cat file)``) and ``-`` (standard input) as a byte stream, forward only, so that a
large archive never sits in memory and a pipe is read once; compressed data is recognised by
its name or by its first bytes (a pipe has no name ending). :func:`is_stream` tells a source
that can be read only once, which a caller must not open twice.
"""

from __future__ import annotations

import gzip
import io
import os
import stat
import sys
from typing import IO, Any, cast

from baloot_conformance.errors import TranscriptSyntaxError

STDIN = "-"
"""The name that stands for standard input."""

_GZIP_MAGIC = b"\x1f\x8b"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def is_stream(name: str) -> bool:
    """Whether ``name`` is a source that can be read only once: ``-`` (standard input), a
    named pipe, a ``/dev/fd`` pipe (``<(cat file)``), a socket or a character device (not a
    regular file, which can be opened again). A name that cannot be looked up is not a stream
    (opening it reports why)."""
    if name == STDIN:
        return True
    try:
        mode = os.stat(name).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


COMPRESSED = (".gz", ".zst")
"""The file name endings read as compressed transcripts (``.btn.gz``, ``.btn.zst``)."""


def open_source(name: str) -> IO[bytes]:
    """A transcript source opened for reading as bytes, forward only: a file, a named pipe, a
    ``/dev/fd`` path, or ``-`` for standard input (left open when the stream is closed). Gzip
    and Zstandard data (with the optional ``zstandard`` package) are decompressed as they
    are read, so a large archive never sits in memory; they are known by the name's ending
    (``.gz``, ``.zst``) or, on a source without one, by their first bytes (no BTN text starts
    with them: they are not UTF-8).

    Raises:
        TranscriptSyntaxError: the source cannot be opened, or Zstandard without the package.
    """
    try:
        if name == STDIN:
            stdin = getattr(sys.stdin, "buffer", None)
            if stdin is None:
                raise OSError("standard input is not open for reading bytes")
            raw: IO[bytes] = cast(IO[bytes], io.BufferedReader(_Borrowed(stdin)))
        else:
            raw = open(name, "rb")  # noqa: SIM115 - the reader closes it
        kind = _kind(name, raw)
        if kind == "gz":
            return cast(IO[bytes], _Gzip(raw, name))
    except OSError as exc:
        raise TranscriptSyntaxError(f"cannot read {name}: {exc.strerror or exc}") from None
    if kind != "zst":
        return raw
    try:
        import zstandard
    except ImportError:
        raw.close()
        raise TranscriptSyntaxError(
            f"cannot read {name}: Zstandard data needs the zstandard package",
            hint="pip install 'baloot-conformance[zstd]', or decompress it first",
        ) from None
    return io.BufferedReader(_Zstd(zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)))


def _kind(name: str, raw: IO[bytes]) -> str:
    """``gz``, ``zst`` or ``""`` (plain text): by the name's ending, else by the first bytes
    (peeked, not consumed: a pipe cannot go back)."""
    if name.endswith(".gz"):
        return "gz"
    if name.endswith(".zst"):
        return "zst"
    peek = getattr(raw, "peek", None)
    head = peek(4)[:4] if peek is not None else b""
    if head.startswith(_GZIP_MAGIC):
        return "gz"
    return "zst" if head.startswith(_ZSTD_MAGIC) else ""


class _Gzip(gzip.GzipFile):
    """Gzip data read from a stream opened here, closed with it."""

    def __init__(self, raw: IO[bytes], name: str) -> None:
        super().__init__(filename=name, fileobj=raw, mode="rb")
        self._raw = raw

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._raw.close()


class _Borrowed(io.RawIOBase):
    """A binary stream read through without being closed (standard input stays open)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        read = getattr(self._stream, "read1", self._stream.read)
        data = read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


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
