"""The protocol trace of a run (``suite --trace-protocol FILE``): every request and reply,
in order, as JSON Lines.

Each record names the case it belongs to (``case``: its id, ``null`` for the handshake the
kit sends before any case), who spoke (``dir``: ``kit→engine``, ``engine→kit``, ``engine
stderr``, or ``kit`` for the kit's own notes: the engine started, did not answer in time, was
killed), and what was said: ``message``, the JSON object sent or received, or ``line``, a
line that is not one (an answer that is not JSON, a line of standard error), or ``note``.
``t`` is the time since the trace began, in seconds, and ``run`` the run's number under
``--repeat``. Each record is written and flushed as it happens, so a run that hangs or is
killed still leaves its trace up to that point.

The engine's standard error is read on a thread of its own: its lines come where they are
read, which may be a little after the answer they were written with.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from typing import Any, TextIO

from baloot_conformance.suite.engine_process import Direction

__all__ = ["ProtocolTrace", "TraceContext"]

_UNSAFE = re.compile("[\x7f-\x9f\ud800-\udfff\u2028\u2029]")


class TraceContext:
    """What the runner tells the listeners a message belongs to: a case, and a run of it."""

    __slots__ = ("case", "run")

    def __init__(self, case: str | None = None, run: int | None = None) -> None:
        self.case = case
        self.run = run


class ProtocolTrace:
    """A :class:`~baloot_conformance.suite.engine_process.Listener` that writes what it hears
    to ``stream``, one JSON object per line, flushed at each."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.records = 0
        self._lock = threading.Lock()
        self._began = time.monotonic()

    def heard(
        self, direction: Direction, message: dict[str, Any] | None, text: str, context: Any
    ) -> None:
        record: dict[str, Any] = {
            "t": round(time.monotonic() - self._began, 3),
            "case": getattr(context, "case", None),
        }
        run = getattr(context, "run", None)
        if run is not None:
            record["run"] = run
        record["dir"] = direction
        if direction == "kit":
            record["note"] = text
        elif message is not None:
            record["message"] = message
        else:
            record["line"] = text
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        # One record a line of valid UTF-8, for every reader: no raw U+2028/U+2029, C1
        # control or lone surrogate (an engine's JSON may carry one as an escape).
        line = _UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", line)
        with self._lock, contextlib.suppress(OSError, ValueError):
            # A line of stderr read after the run closed the trace (the engine's reader
            # thread lags behind it), or a closed standard error, is dropped.
            self.stream.write(line + "\n")
            self.stream.flush()
            self.records += 1
