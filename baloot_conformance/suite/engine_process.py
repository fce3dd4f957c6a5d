"""An engine adapter run as a child process and spoken to in JSON Lines.

The kit never trusts the engine: every answer waits at most ``timeout`` seconds (the
handshake :data:`START_FACTOR` times that: an engine loads its code first), a line is
read up to :data:`MAX_LINE` bytes, standard error is kept (its last :data:`STDERR_KEEP`
bytes) for the report, and an engine that hangs, exits, writes garbage or answers out of
order is killed with its whole process group; the next request starts a fresh one and sends
the handshake again. Two failed handshakes in a row, with no answer in between, and the
engine is not started again (:attr:`Engine.broken`).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, Literal, Protocol

from baloot_conformance.check import features as features_
from baloot_conformance.suite import protocol2
from baloot_conformance.suite.protocol import PROTOCOL, answer_problem
from baloot_conformance.version import __version__

MAX_LINE = 16 * 1024 * 1024
"""The longest answer line read, in bytes."""
STDERR_KEEP = 16 * 1024
"""How much of the engine's standard error is kept for a report, in bytes (the last)."""
MAX_STDERR_LINE = 64 * 1024
"""The longest line of standard error a listener is told (the rest is cut), in bytes."""
_STOP_GRACE = 2.0
"""How long an engine may take to exit after ``stop``, in seconds."""
START_FACTOR = 3
"""How many times ``timeout`` the handshake may take (start-up loads libraries, on a busy CI
machine too); every later answer has ``timeout``."""

FailureKind = Literal["timeout", "crash", "protocol", "answer", "start"]

Direction = Literal["kit→engine", "engine→kit", "engine stderr", "kit"]
"""Who said it: a request the kit sends, a line the engine answers, a line of the engine's
standard error, or the kit's own note (the engine started, timed out, was killed)."""


class Listener(Protocol):
    """Something that hears an engine's traffic as it happens (from the engine's reader
    threads too: standard error is read on a thread of its own)."""

    def heard(
        self, direction: Direction, message: dict[str, Any] | None, text: str, context: Any
    ) -> None:
        """``message`` is the JSON object sent or received (``None`` for a line that is not
        one, a line of standard error, a note), ``text`` the line as it went (or the note),
        ``context`` the engine's :attr:`Engine.context` at that moment (the case it runs)."""


class EngineFailure(Exception):
    """The engine did not give a valid answer: ``kind`` says how, the message what happened
    and what to do, ``stderr`` the end of its standard error."""

    def __init__(self, kind: FailureKind, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.stderr = stderr


@dataclass(frozen=True, slots=True)
class EngineInfo:
    """What the engine said of itself in its handshake."""

    name: str
    version: str
    rulesets: tuple[str, ...]
    capabilities: frozenset[str]
    language: str | None = None
    features: frozenset[str] = features_.ALL
    """The features it implements (:mod:`~baloot_conformance.check.features`), as
    :func:`declared_features` reads its handshake."""
    declared: bool = False
    """Whether the handshake listed its ``features`` (else it is taken to have them all)."""
    protocol: int = PROTOCOL
    """The protocol version it speaks: 1 (BTN 1, Baloot) or 2 (BTN 2, the trick family)."""


def declared_features(answer: dict[str, Any]) -> frozenset[str]:
    """The features a ``started`` answer declares: its ``features`` list, every feature
    when it has none (an adapter written before features existed keeps passing as it did),
    except ``partial_transcripts`` without the capability ``partial``. That capability is
    protocol 1's first spelling of the feature ``partial_transcripts``: either one declares
    it, and neither can take it away from the other."""
    listed = answer.get("features")
    base = features_.ALL - {"partial_transcripts"} if listed is None else frozenset(listed)
    if "partial" in answer["capabilities"]:
        base |= {"partial_transcripts"}
    return base


class _Eof:
    """The reader's mark: standard output is closed."""


class _TooLong:
    """The reader's mark: a line longer than :data:`MAX_LINE`."""


_Line = bytes | _Eof | _TooLong


class Engine:
    """One engine adapter, started on first use, restarted after each failure."""

    def __init__(
        self,
        command: str,
        timeout: float = 10.0,
        listeners: Sequence[Listener] = (),
        protocol: int = PROTOCOL,
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.protocol = protocol
        """The version asked for: 1 or 2, or 0 to let the engine's answer choose (the
        handshake is version 1's, and an engine that answers ``"protocol": 2`` speaks 2)."""
        self._speaks = PROTOCOL if protocol != protocol2.PROTOCOL2 else protocol2.PROTOCOL2
        self.listeners = list(listeners)
        """Who hears every message, standard error line and failure (:class:`Listener`)."""
        self.context: Any = None
        """What the listeners are told the engine is running (the runner sets the case)."""
        self.info: EngineInfo | None = None
        self.broken: str | None = None
        """Why the engine is not started again (two failed handshakes in a row)."""
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[_Line] = queue.Queue(maxsize=4)
        self._gone = threading.Event()
        self._outbox: queue.Queue[bytes] = queue.Queue()
        self._stderr: deque[bytes] = deque()
        self._stderr_size = 0
        self._stderr_lock = threading.Lock()
        self._stderr_done = threading.Event()
        self._seq = 0
        self._failed_starts = 0

    # --- life cycle -----------------------------------------------------------------------

    def _spawn(self) -> subprocess.Popen[bytes]:
        try:
            argv = shlex.split(self.command)
        except ValueError as exc:
            raise EngineFailure("start", f"cannot split the engine command: {exc}") from None
        if not argv:
            raise EngineFailure("start", "the engine command is empty")
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,  # its own process group, killed as a whole
            )
        except OSError as exc:
            raise EngineFailure(
                "start",
                f"cannot run {argv[0]!r}: {exc.strerror or exc}; check the --engine command "
                "(it is run without a shell)",
            ) from None
        self._heard("kit", None, f"started the engine (pid {process.pid}): {shlex.join(argv)}")
        self._lines = queue.Queue(maxsize=4)  # bounded: a flooding engine blocks, not us
        self._gone = threading.Event()
        with self._stderr_lock:
            self._stderr.clear()
            self._stderr_size = 0
        assert process.stdout is not None and process.stderr is not None
        reader = threading.Thread(
            target=_read, args=(process.stdout, self._lines, self._gone), daemon=True
        )
        reader.start()
        # Sent from a thread: an engine that does not read must not block the kit.
        self._outbox = queue.Queue()
        writer = threading.Thread(
            target=_write, args=(process.stdin, self._outbox, self._gone), daemon=True
        )
        writer.start()
        self._stderr_done = threading.Event()
        errors = threading.Thread(
            target=self._read_stderr, args=(process.stderr, self._stderr_done), daemon=True
        )
        errors.start()
        return process

    def start(self) -> EngineInfo:
        """Start the engine if it is not running, with its handshake; the engine's info."""
        if self.broken is not None:
            raise EngineFailure("start", self.broken)
        if self._process is not None and self.info is not None:
            return self.info
        try:
            self._process = self._spawn()
            asked = protocol2.PROTOCOL2 if self.protocol == protocol2.PROTOCOL2 else PROTOCOL
            answer = self._exchange({"cmd": "start", "protocol": asked, "kit": __version__})
        except EngineFailure as exc:
            self.kill()
            self._failed_starts += 1
            failure = EngineFailure("start", f"the handshake failed: {exc}", exc.stderr)
            if self._failed_starts >= 2:
                self.broken = f"{failure} (twice in a row: the engine is not started again)"
            raise failure from None
        if answer["protocol"] == protocol2.PROTOCOL2:
            self.info = EngineInfo(
                name=answer["engine"]["name"],
                version=answer["engine"]["version"],
                rulesets=tuple(answer["rulesets"]),
                capabilities=frozenset(answer["capabilities"]),
                language=answer["engine"].get("language"),
                features=frozenset(),
                protocol=protocol2.PROTOCOL2,
            )
            return self.info
        self.info = EngineInfo(
            name=answer["engine"]["name"],
            version=answer["engine"]["version"],
            rulesets=tuple(answer["rulesets"]),
            capabilities=frozenset(answer["capabilities"]),
            language=answer["engine"].get("language"),
            features=declared_features(answer),
            declared="features" in answer,
        )
        return self.info

    def kill(self) -> None:
        """Kill the engine and its children (after a failure); the next request restarts it."""
        process, self._process = self._process, None
        self.info = None
        if process is None:
            return
        self._gone.set()  # its reader stops waiting for room in the queue
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()

    def close(self) -> None:
        """Send ``stop`` and let the engine exit; kill it if it does not within 2 seconds
        (or when the wait is interrupted: a second Ctrl-C must not leave it running)."""
        process = self._process
        if process is None:
            return
        try:
            self._heard("kit→engine", {"cmd": "stop"}, '{"cmd":"stop"}')
            self._outbox.put(b'{"cmd":"stop"}\n')
            self._outbox.put(b"")  # then the writer closes standard input
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(_STOP_GRACE)
        finally:
            self.kill()

    def abandon(self) -> None:
        """Kill the engine's process group at once, waiting for nothing: for a process that
        is about to end (a worker's signal handler), where :meth:`kill` could block."""
        process = self._process
        if process is not None:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)

    # --- requests -------------------------------------------------------------------------

    def request(self, command: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return the engine's valid answer (which may be a ``skip``
        or ``error`` answer). Raises :class:`EngineFailure`, after killing the engine, when
        the answer does not come in time or is not a valid answer."""
        self.start()
        self._seq += 1
        seq = self._seq
        answer = self._exchange({"cmd": command, "seq": seq, **fields})
        self._failed_starts = 0
        if answer["seq"] != seq:
            raise self._failure(
                "protocol",
                f"the answer has seq {answer['seq']}, but the request was seq {seq}: answer "
                "each request once, in order",
            )
        return answer

    def _exchange(self, message: dict[str, Any]) -> dict[str, Any]:
        process = self._process
        assert process is not None
        command = message["cmd"]
        sent = json.dumps(message, separators=(",", ":"))
        self._heard("kit→engine", message, sent)
        self._outbox.put(sent.encode("utf-8") + b"\n")
        wait = self.timeout * (START_FACTOR if command == "start" else 1)
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            raise self._failure(
                "timeout",
                f"no answer to {command!r} within {wait:g} s (a hang, or an answer "
                "without its newline; raise --timeout if the engine is only slow)",
            ) from None
        if isinstance(line, _Eof):
            try:
                what = f"exited (code {process.wait(1.0)})"
            except subprocess.TimeoutExpired:
                what = "closed its standard output"
            raise self._failure("crash", f"the engine {what} instead of answering {command!r}")
        if isinstance(line, _TooLong):
            raise self._failure(
                "protocol",
                f"the answer to {command!r} is longer than {MAX_LINE // (1024 * 1024)} MiB: "
                "write one JSON object per line",
            )
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            self._heard("engine→kit", None, _text(line))
            raise self._failure(
                "protocol",
                f"the answer to {command!r} is not JSON: {_quote(line)} (standard output is "
                "for answers only; log to standard error)",
            ) from None
        self._heard("engine→kit", answer if isinstance(answer, dict) else None, _text(line))
        version = self._speaks
        if command == "start":
            version = self._version_of(answer)
        if version == protocol2.PROTOCOL2:
            wrong = protocol2.answer_problem(command, answer)
            schema_file = protocol2.SCHEMA_FILE
        else:
            wrong = answer_problem(command, answer)
            schema_file = "protocol.schema.json"
        if wrong is not None:
            raise self._failure(
                "protocol",
                f"not a valid answer to {command!r}: {wrong}; the message definitions are "
                f"in spec/schema/{schema_file}",
            )
        if command == "start":
            self._speaks = version
        assert isinstance(answer, dict)
        return answer

    def _version_of(self, answer: Any) -> int:
        """The version a ``started`` answer is judged under: the one asked for, or, when
        the answer chooses (``protocol`` 0), 2 for an answer that says 2 and 1 otherwise."""
        if self.protocol in (PROTOCOL, protocol2.PROTOCOL2):
            return self.protocol
        said = answer.get("protocol") if isinstance(answer, dict) else None
        return protocol2.PROTOCOL2 if said == protocol2.PROTOCOL2 else PROTOCOL

    def _failure(self, kind: FailureKind, message: str) -> EngineFailure:
        """The failure to raise, with the engine's standard error, once the engine is killed
        (an engine that exited first has its standard error read to the end)."""
        if self._process is not None and self._process.poll() is not None:
            self._stderr_done.wait(1.0)
        stderr = self.stderr()
        self.kill()
        self._heard("kit", None, f"{kind}: {message}; the engine is killed")
        return EngineFailure(kind, message, stderr)

    def _heard(self, direction: Direction, message: dict[str, Any] | None, text: str) -> None:
        for listener in self.listeners:
            listener.heard(direction, message, text, self.context)

    # --- the engine's output ----------------------------------------------------------------

    def _read_stderr(self, stream: IO[bytes], done: threading.Event) -> None:
        partial = b""  # a line of standard error not ended yet (for the listeners)
        with contextlib.suppress(OSError, ValueError):
            while chunk := stream.read1(65536):  # type: ignore[attr-defined]
                with self._stderr_lock:
                    self._stderr.append(chunk)
                    self._stderr_size += len(chunk)
                    while self._stderr_size - len(self._stderr[0]) >= STDERR_KEEP:
                        self._stderr_size -= len(self._stderr.popleft())
                if self.listeners:
                    *lines, partial = (partial + chunk).split(b"\n")
                    partial = partial[-MAX_STDERR_LINE:]
                    for line in lines:
                        self._heard("engine stderr", None, _text(line[:MAX_STDERR_LINE]))
        if partial:
            self._heard("engine stderr", None, _text(partial))
        done.set()

    def stderr(self) -> str:
        """The end of the engine's standard error since it was (re)started."""
        with self._stderr_lock:
            data = b"".join(self._stderr)[-STDERR_KEEP:]
        return data.decode("utf-8", "replace")


def _read(stream: IO[bytes], lines: queue.Queue[_Line], gone: threading.Event) -> None:
    """Put each non-blank line of ``stream`` into ``lines``, then a mark at its end."""
    mark: _Line = _Eof()
    with contextlib.suppress(OSError, ValueError):
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                mark = _TooLong()
                break
            if line.strip() and not _put(lines, line, gone):
                return
    _put(lines, mark, gone)


def _put(lines: queue.Queue[_Line], line: _Line, gone: threading.Event) -> bool:
    """Wait for room in ``lines``, unless the engine is gone; whether the line went in."""
    while not gone.is_set():
        with contextlib.suppress(queue.Full):
            lines.put(line, timeout=0.2)
            return True
    return False


def _write(stream: IO[bytes], outbox: queue.Queue[bytes], gone: threading.Event) -> None:
    """Write each message of ``outbox`` to ``stream`` until the engine is gone."""
    with contextlib.suppress(OSError, ValueError):
        while not gone.is_set():
            with contextlib.suppress(queue.Empty):
                data = outbox.get(timeout=0.2)
                if not data:
                    stream.close()
                    return
                stream.write(data)
                stream.flush()


def _text(line: bytes) -> str:
    """A line as the listeners are told it: decoded, without its line end."""
    return line.decode("utf-8", "replace").rstrip("\r\n")


def _quote(line: bytes, limit: int = 120) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")
