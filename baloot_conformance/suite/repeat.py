"""``suite --repeat N``: each case run N times, and an engine whose answers differ caught.

An engine's answer must depend on the request alone. One that reads a clock, draws from an
unseeded random generator or keeps state from one request to the next may pass a case once
and fail it the next time, or pass both times with other answers: a run that saw one answer
proves little. With ``--repeat N`` the kit runs each case N times in a row, on the same
engine process (fresh requests, new ``seq`` numbers), records every request and what came
back, and compares the runs. A case whose answers differ between two runs is an ``error``
(it fails the run, whatever each run's verdict was), and its message names the first
request whose answers differ, where it stands, and the two answers. Otherwise the case has
the first run's verdict.

Answers are compared as the kit judges them: a ``legal`` answer's calls and cards as sets
(their order means nothing), a ``replay`` or ``judge`` answer without its free-text
``reason``, an ``error`` answer as an error whatever its text says; a request that got no
valid answer (a hang, a crash, garbage) by what the kit said of it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from baloot_conformance import btn
from baloot_conformance.btn import json_form
from baloot_conformance.errors import BalootError
from baloot_conformance.suite.cases import Case, CaseResult
from baloot_conformance.suite.engine_process import Direction, Engine
from baloot_conformance.suite.trace import TraceContext

__all__ = ["run_repeated"]

_Outcome = tuple[str, Any]
"""What came back for a request: ``("answer", normalised answer)``, ``("line", text)`` for
a line that is not a JSON object, or ``("kit", note)`` for no valid answer."""


class _Exchanges:
    """A listener that keeps each request of a run (its ``seq`` aside) and what came back."""

    def __init__(self) -> None:
        self.pairs: list[tuple[dict[str, Any], _Outcome]] = []
        self._pending: dict[str, Any] | None = None

    def heard(
        self, direction: Direction, message: dict[str, Any] | None, text: str, context: Any
    ) -> None:
        if direction == "kit→engine":
            keep = message is not None and message.get("cmd") not in ("start", "stop")
            self._pending = _without(message, "seq") if keep and message else None
        elif direction in ("engine→kit", "kit") and self._pending is not None:
            request, self._pending = self._pending, None
            if direction == "kit":
                outcome: _Outcome = ("kit", text)
            elif message is None:
                outcome = ("line", text)
            else:
                outcome = ("answer", _normalised(request["cmd"], message))
            self.pairs.append((request, outcome))


def _without(message: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in message.items() if key not in keys}


def _normalised(command: str, answer: dict[str, Any]) -> dict[str, Any]:
    """An answer as the kit judges it (see the module's docstring)."""
    if "error" in answer:
        return {"error": True}
    answer = _without(answer, "seq", "reason")
    if command == "legal":
        for key in ("calls", "cards", "actions"):
            if isinstance(answer.get(key), list):
                answer[key] = sorted(answer[key], key=json.dumps)
    return answer


def run_repeated(
    case: Case, engine: Engine, times: int, run: Callable[[Case, Engine], CaseResult]
) -> CaseResult:
    """``case`` run ``times`` times with ``run`` on ``engine``: the first run's result, or an
    ``error`` naming the first request whose answers differ between two runs."""
    exchanges = _Exchanges()
    engine.listeners.append(exchanges)
    context = engine.context if isinstance(engine.context, TraceContext) else None
    runs: list[list[tuple[dict[str, Any], _Outcome]]] = []
    first: CaseResult | None = None
    try:
        for number in range(1, times + 1):
            if context is not None:
                context.run = number
            exchanges.pairs = []
            result = run(case, engine)
            first = first or result
            runs.append(exchanges.pairs)
            difference = _difference(runs[0], runs[-1], number)
            if difference is not None:
                return CaseResult(
                    case,
                    "error",
                    message=f"the engine's answers differ between runs of the case (--repeat "
                    f"{times}): {difference}",
                    requests=first.requests,
                )
    finally:
        engine.listeners.remove(exchanges)
    assert first is not None
    return first


def _difference(
    one: list[tuple[dict[str, Any], _Outcome]],
    other: list[tuple[dict[str, Any], _Outcome]],
    number: int,
) -> str | None:
    """Where run ``number`` (``other``) first parts from run 1 (``one``), in words."""
    for index, ((request, said), (asked, told)) in enumerate(zip(one, other, strict=False)):
        if request != asked:  # the kit asks the same whatever the answers: cannot happen
            return f"request {index + 1} of run {number} is not run 1's ({request['cmd']!r})"
        if said != told:
            return (
                f"request {index + 1} of the case ({_request_words(request)}): run 1 got "
                f"{_words(said)}, run {number} got {_words(told)}"
            )
    if len(one) != len(other):
        longer, shorter = (1, number) if len(one) > len(other) else (number, 1)
        return (
            f"run {longer} sent {max(len(one), len(other))} requests, run {shorter} "
            f"{min(len(one), len(other))}"
        )
    return None


def _request_words(request: dict[str, Any]) -> str:
    """``'legal' for E after h1.t3.p1``: a request as a report names it."""
    words = repr(request["cmd"])
    if "seat" in request:
        words += f" for {request['seat']}"
    if "event" in request:
        words += f" of {json.dumps(request['event'], ensure_ascii=False)}"
    where = _last_position(request.get("transcript"))
    if where:
        words += f" after {where}"
    return words


def _last_position(data: Any) -> str | None:
    """The position of the transcript's last item (where a ``legal`` request stands)."""
    try:
        transcript = json_form.from_json(data, "<request>", validate=False)
    except (BalootError, KeyError, TypeError, ValueError, IndexError):
        return None
    if not transcript.hands:
        return None
    hand = transcript.hands[-1]
    items = [item for item in hand.items if isinstance(item, btn.Item)]
    return items[-1].position if items else f"the start of {hand.position}"


def _words(outcome: _Outcome, limit: int = 300) -> str:
    kind, value = outcome
    if kind == "answer":
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    elif kind == "line":
        text = f"the line {value!r}"
    else:
        text = f"no answer ({value})"
    return text if len(text) <= limit else text[:limit] + "..."
