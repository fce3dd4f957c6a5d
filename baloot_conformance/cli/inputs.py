"""The files a command reads, as its command line names them: one mechanism for every command.

A name is a file, a folder (every file below it whose name has one of the command's endings),
a glob, or ``-`` for standard input. What cannot be read is never dropped: it stays in the list
with a one-line reason, so that the command reports it (``check`` as a file error in every
report format, the others as an error line) instead of going green on less than it was given.
A folder walk reports what it finds but cannot read (a dangling or looping link, a named pipe)
the same way; a pipe named on its own is read once, as a stream.
"""

from __future__ import annotations

import glob
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from baloot_conformance import btn

TRANSCRIPTS = (".btn", *(f".btn{ending}" for ending in btn.COMPRESSED))
"""The files a folder given to ``check`` and ``coverage`` contributes."""


class Inputs(NamedTuple):
    """The names a command line gave, expanded, and why some of them cannot be read."""

    names: list[str]
    problems: dict[str, str]
    """Name -> a one-line reason, for each name that cannot be read."""


def expand(patterns: Iterable[str], endings: tuple[str, ...] = TRANSCRIPTS) -> Inputs:
    """Files named, folders walked (sorted), globs expanded in order. A name that matches
    nothing stays in the list with its reason, and so does a folder with no file to read."""
    names: list[str] = []
    problems: dict[str, str] = {}
    for pattern in patterns:
        if pattern != "-" and Path(pattern).is_dir():
            found = sorted(
                str(path)
                for path in Path(pattern).rglob("*")
                if path.name.endswith(endings) and not path.is_dir()
            )
            if not found:
                kinds = ", ".join(endings)
                problems[pattern] = f"{pattern}: a folder with no {kinds} file below it"
            for name in found:
                why = _unreadable(name, in_folder=True)
                if why:
                    problems[name] = why
            names.extend(found or [pattern])
            continue
        matches = (
            [] if pattern == "-" or os.path.lexists(pattern) else glob.glob(pattern, recursive=True)
        )
        for name in sorted(matches) or [pattern]:
            why = _unreadable(name, in_folder=False)
            if why:
                problems[name] = why
            names.append(name)
    return Inputs(names, problems)


def _unreadable(name: str, in_folder: bool) -> str | None:
    """Why ``name`` cannot be read, or ``None`` when it can be opened (it may still turn out
    not to be what the command reads: the reader says so then)."""
    if name == "-":
        return None
    path = Path(name)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if path.is_symlink():
            return f"{name}: a link to {os.readlink(path)}, which does not exist"
        return f"{name}: no such file"
    except OSError as exc:  # a looping link, a folder that cannot be entered
        return f"{name}: cannot read it: {exc.strerror}"
    if in_folder and not stat.S_ISREG(mode):
        return f"{name}: not a regular file (a pipe or a device in a folder is not read)"
    return None


def is_stream(name: str) -> bool:
    """Whether ``name`` is read once, as a stream: standard input, a pipe, a FIFO, a device."""
    if name == "-":
        return True
    try:
        return not stat.S_ISREG(os.stat(name).st_mode)
    except OSError:
        return False
