"""Writing a command's output file without ever harming the user's files.

Every file a command writes (a report, a converted transcript, a generated game, a page) goes
to a temporary file in the target's folder and is renamed over the target only when the
command has written all of it, so an interrupted or failed run leaves the old file as it was.
A target that is also one of the command's inputs is refused before anything is read, and a
target that cannot be written (a missing folder, a directory, a read-only place) is a usage
error naming the path, not a traceback. A target that is not a regular file (``/dev/null``,
``/dev/stdout``, a named pipe) is written to in place: renaming over it would replace the
device with a file, and what a device receives cannot be half-written into a file anyway.

Every output is UTF-8, and a character UTF-8 cannot carry (a lone surrogate, as an engine's
JSON reply or a log may hold) is written as its backslash escape: the same policy as the
console entry point sets for standard output, so no text from outside ends a run.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO, cast

from baloot_conformance.errors import BalootError

#: How every output encodes a character UTF-8 cannot carry (``\\ud800``, written escaped).
TEXT_ERRORS = "backslashreplace"


class OutputError(BalootError):
    """An output file that cannot or must not be written (exit 2, like a usage error)."""


def check_target(target: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]]) -> Path:
    """``target`` as a path (a symbolic link resolved: its file is the one written), refused
    when it is one of ``inputs`` or cannot be written."""
    if str(target).endswith(("/", os.sep)):
        raise OutputError(
            f"{target}: the output names a folder, and this command writes one file",
            hint="name a file (in that folder, e.g. report.txt)",
        )
    path = Path(target)
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    for source in inputs:
        if str(source) == "-":
            continue
        with contextlib.suppress(OSError):
            if path.exists() and path.samefile(source):
                raise OutputError(
                    f"{path}: the output is one of the inputs; writing it would destroy it",
                    hint="name another output file",
                )
    if path.is_dir():
        raise OutputError(f"{path}: the output is a folder", hint="name a file inside it")
    if _is_special(path):  # written in place (see replaced): its folder is not written
        return path
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OutputError(f"{path}: the folder {folder} does not exist", hint="create it first")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{path}: the folder {folder} is not writable")
    return path


@contextlib.contextmanager
def replaced(
    target: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = ()
) -> Iterator[TextIO]:
    """A text stream whose content replaces ``target`` when the block ends normally (UTF-8,
    ``\\n`` line ends); on an exception the target is left untouched. A symbolic link is
    followed: the file it points to is replaced, the link stays.

    Raises:
        OutputError: ``target`` is one of ``inputs``, or cannot be written (a missing or
            read-only folder, a full disk, ...), raised by the stream's writes too.
    """
    path = check_target(target, inputs)
    temp: Path | None = None
    try:
        if _is_special(path):  # a device or a pipe: never renamed over, written as it stands
            raw = path.open("w", encoding="utf-8", errors=TEXT_ERRORS, newline="\n")
        else:
            handle, name = tempfile.mkstemp(prefix=f".{path.name[:50]}.", dir=path.parent)
            temp = Path(name)
            raw = os.fdopen(handle, "w", encoding="utf-8", errors=TEXT_ERRORS, newline="\n")
    except OSError as exc:
        if temp is not None:
            temp.unlink()
        raise OutputError(f"{path}: cannot write it: {exc.strerror}") from None
    stream = _Written(raw, path)
    try:
        try:
            yield cast(TextIO, stream)
        except BaseException:
            with contextlib.suppress(OutputError):
                stream.close()
            raise
        stream.close()
        if temp is not None:
            try:
                _give_mode(temp, path)
                os.replace(temp, path)
            except OSError as exc:
                raise OutputError(f"{path}: cannot write it: {exc.strerror}") from None
    finally:
        if temp is not None and temp.exists():
            temp.unlink()


class _Written(io.TextIOBase):
    """An output file's stream whose failures (a full disk, a lost device) are
    :class:`OutputError` naming the file, never a traceback."""

    def __init__(self, stream: TextIO, path: Path) -> None:
        self._stream, self._path = stream, path

    def _failed(self, exc: OSError) -> OutputError:
        return OutputError(f"{self._path}: cannot write it: {exc.strerror}")

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise self._failed(exc) from None

    def flush(self) -> None:
        if self._stream.closed:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._failed(exc) from None

    def close(self) -> None:
        if self.closed:
            return
        try:
            self._stream.close()  # its last flush may fail; it is closed all the same
        except OSError as exc:
            raise self._failed(exc) from None
        finally:
            super().close()

    def isatty(self) -> bool:
        return False


def _is_special(path: Path) -> bool:
    """Whether ``path`` exists and is not a regular file (a device, a pipe, a socket)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode)


def _give_mode(temp: Path, target: Path) -> None:
    """The target's permissions, or a new file's usual ones (mkstemp makes it private)."""
    try:
        mode = target.stat().st_mode
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temp, mode & 0o7777)


class Unbroken(io.TextIOBase):
    """Standard output or error that a closed pipe (``check ... | head``) does not stop: what
    cannot be said any more is dropped, the command runs to its end (its files written), and
    the exit code tells its verdict."""

    def __init__(self, stream: TextIO) -> None:
        self._stream: TextIO | None = stream

    def write(self, text: str) -> int:
        if self._stream is not None:
            try:
                self._stream.write(text)
            except (BrokenPipeError, ValueError):  # a closed pipe, a closed stream
                self._drop()
        return len(text)

    def flush(self) -> None:
        if self._stream is not None:
            try:
                self._stream.flush()
            except (BrokenPipeError, ValueError):
                self._drop()

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def _drop(self) -> None:
        stream, self._stream = self._stream, None
        for standard in (sys.stdout, sys.stderr):
            if stream is not standard or standard is None:
                continue
            with contextlib.suppress(OSError, ValueError):  # Python's own flush at exit
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, standard.fileno())
