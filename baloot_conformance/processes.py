"""How the kit's processes end: a termination signal is an interruption like Ctrl-C.

The console entry point installs :func:`install_handlers`, so that ``SIGTERM`` (what CI
runners, ``timeout`` and ``kill`` send) raises :class:`Terminated` in the main thread. It is a
:class:`KeyboardInterrupt`, so every cleanup that an interrupted run does (temporary output
files removed, worker pools and engines stopped) also runs on a termination, and the run ends
with exit code 143 instead of leaving half-written files and processes behind.

Worker processes that the kit forks (``check --jobs``, ``suite --jobs``) start with
:func:`quiet_worker`: they ignore Ctrl-C, which the terminal sends to the whole process group
and which the parent handles for them, and they end silently on ``SIGTERM``, which the parent
sends when it stops them. Neither prints a traceback.
"""

from __future__ import annotations

import os
import signal
from types import FrameType

#: The exit code of a run ended by SIGTERM (128 + the signal's number), as a shell reports it.
EXIT_TERMINATED = 128 + signal.SIGTERM

MAX_JOBS = 256
"""The most worker processes ``--jobs`` may ask for: each is a fork of the kit, so that a typo
(``--jobs 99999``) is refused instead of forking until the machine runs out of memory."""


class Terminated(KeyboardInterrupt):
    """The process received ``SIGTERM``: it stops as on Ctrl-C, cleaning up as it goes."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


def install_handlers() -> None:
    """In the main process: ``SIGTERM`` raises :class:`Terminated` (Ctrl-C already raises
    :class:`KeyboardInterrupt`)."""
    signal.signal(signal.SIGTERM, _raise_terminated)


def jobs_problem(jobs: int) -> str | None:
    """What is wrong with ``--jobs jobs``, if anything (a usage error)."""
    if jobs < 1:
        return "--jobs must be at least 1"
    if jobs > MAX_JOBS:
        cores = os.cpu_count()
        return f"--jobs {jobs}: at most {MAX_JOBS} workers (this machine has {cores} cores)"
    return None


def quiet_worker() -> None:
    """In a forked worker (a pool's initializer): ignore Ctrl-C, end on ``SIGTERM`` at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
