"""Hostile logs for every importer: real engine logs from tests/data, mutated at random.

The property (issue 24, F11): for any mutation of a real log (a key dropped, duplicated or
given a value of another type, a list one element too long or too short, a lone surrogate,
a huge or negative number, a string holding a line break, a quote, ``#`` or ``=``),
``baloot-conformance import`` either writes BTN that the reader ``check`` uses accepts (it
may fail verdicts, but it is never a syntax or structure error, and no text from the log
becomes a line of its own), or exits 2 with an error that names a JSON pointer. Never a
traceback.

Measured, per importer, with the fixed budget below: 0 tracebacks and 0 unparseable or
injected outputs over ``EXAMPLES`` mutated logs (each run also reports how many were
imported and how many refused, so that a strategy that only produces refusals shows).
"""

from __future__ import annotations

import copy
import gzip
import io
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot_conformance.btn import read_transcript
from baloot_conformance.cli import main
from baloot_conformance.errors import TranscriptSyntaxError

LOGS = Path(__file__).parent / "data" / "peer-logs"
EXAMPLES = 150
#: Small real logs of each engine, with a redealt round (majlis 42) and Gablak calls
#: (tazjel 10) among them.
SAMPLES = {"majlis": ("m71", "m42"), "tazjel": ("t7", "t10")}
#: Every string a mutation writes carries this, so that the output shows where it went.
MARK = "INJ"

Path_ = tuple[str | int, ...]


@cache
def _log(name: str) -> Any:
    engine = "majlis" if name.startswith("m") else "tazjel"
    return json.loads(gzip.decompress((LOGS / engine / f"{name}.json.gz").read_bytes()))


@cache
def _paths(name: str) -> tuple[Path_, ...]:
    """Every node of a log, by its path from the root (the root itself is ``()``)."""

    def walk(value: Any, path: Path_) -> Iterator[Path_]:
        yield path
        if isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from walk(item, (*path, index))

    return tuple(walk(_log(name), ()))


_TEXTS = st.sampled_from(
    [
        f"{MARK}\n= winner EW\n#",
        f'{MARK}" x="',
        f"{MARK} # = kaboot NS",
        f"{MARK}\r\n= result made",
        f"{MARK}\ud800",
        f"{MARK}\x00",
        f"{MARK}\u2028= score NS 1",
        MARK * 6000,
    ]
)
_NUMBERS = st.sampled_from([-1, -(10**12), 10**9, 9_999_999_999, 10**40, 0, 1])
_VALUES = st.one_of(
    _TEXTS,
    _NUMBERS,
    st.sampled_from([None, True, False, 1.5, [], {}, [1, 2, 3], {"x": 1}]),
)
_OPERATIONS = ("drop", "duplicate", "retype", "shorten", "lengthen", "text", "number")


class Mutated:
    """A mutated log, shown (when hypothesis reports a failure) by its mutations alone."""

    def __init__(self, name: str, log: Any, steps: list[str]) -> None:
        self.name, self.log, self.steps = name, log, steps

    def __repr__(self) -> str:
        return f"Mutated({self.name}: {'; '.join(self.steps)})"


@st.composite
def mutated(draw: st.DrawFn, engine: str) -> Mutated:
    """A real log of ``engine`` with one to three mutations."""
    name = draw(st.sampled_from(SAMPLES[engine]))
    log = copy.deepcopy(_log(name))
    steps = []
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(name)))
        path = path[: draw(st.integers(0, len(path)))]  # shallow nodes as well as leaves
        operation = draw(st.sampled_from(_OPERATIONS))
        detail = _mutate(log, path, operation, draw)
        steps.append(f"{operation} /{'/'.join(map(str, path))} {detail}")
    return Mutated(name, log, steps)


def _mutate(log: Any, path: Path_, operation: str, draw: st.DrawFn) -> str:
    """Apply one mutation at ``path``; what it did, for the report of a failure."""
    parent: Any = None
    node: Any = log
    for step in path:
        there = (
            step in node
            if isinstance(node, dict)
            else isinstance(node, list) and isinstance(step, int) and step < len(node)
        )
        if not there:  # an earlier mutation changed the shape
            return "(gone)"
        parent, node = node, node[step]
    key = path[-1] if path else None
    if operation in ("shorten", "lengthen") and isinstance(node, list) and node:
        index = draw(st.integers(0, len(node) - 1))
        if operation == "shorten":
            del node[index]
        else:
            node.append(copy.deepcopy(node[index]))
        return f"[{index}]"
    if operation in ("drop", "duplicate") and isinstance(node, dict) and node:
        field: str = draw(st.sampled_from(sorted(node)))
        if operation == "drop":
            del node[field]
            return field
        other = draw(st.sampled_from(sorted(node)))  # another field given this one's value
        node[other] = copy.deepcopy(node[field])
        return f"{field} -> {other}"
    if parent is None:
        return "(root)"
    value: Any
    if operation == "text" or (operation == "retype" and draw(st.booleans())):
        value = draw(_TEXTS)
    elif operation == "number":
        value = draw(_NUMBERS)
    else:  # a copy: a later step may mutate it, and the strategy's own [1, 2, 3] must not change
        value = copy.deepcopy(draw(_VALUES))
    parent[key] = value
    return f"= {value!r:.40}"


_POINTER = re.compile(r"\.json: /\S*: ")


def _check(engine: str, log: Any, folder: Path) -> str:
    """Import one mutated log; 'imported' or 'refused', or an assertion error."""
    source = folder / "log.json"
    source.write_text(json.dumps(log, ensure_ascii=True), encoding="ascii")
    target = folder / "log.btn"
    target.unlink(missing_ok=True)
    err = io.StringIO()
    code = main(["import", "--from", engine, str(source), "-o", str(target)], io.StringIO(), err)
    assert "Traceback" not in err.getvalue()
    if code == 2:
        assert _POINTER.search(err.getvalue()), err.getvalue()
        assert not target.exists()
        return "refused"
    assert code == 0, err.getvalue()
    try:
        read_transcript(target)
    except TranscriptSyntaxError as exc:
        raise AssertionError(f"import wrote BTN that check rejects: {exc}") from None
    for line in target.read_text(encoding="utf-8").splitlines():
        if MARK in line:  # text from the log sits in a comment or a tag value, nowhere else
            before = line[: line.index(MARK)]
            assert "#" in before or line.startswith("["), line
    return "imported"


@pytest.mark.parametrize("engine", ["majlis", "tazjel"])
def test_mutated_logs_import_or_are_refused_with_a_pointer(engine: str, tmp_path: Path) -> None:
    outcomes = {"imported": 0, "refused": 0}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(mutated(engine))
    def run(case: Mutated) -> None:
        outcomes[_check(engine, case.log, tmp_path)] += 1

    run()
    print(f"{engine}: {outcomes}")
    # Both outcomes occur: the strategies reach both the refusals and the logs that import.
    assert outcomes["imported"] > 0 and outcomes["refused"] > 0, outcomes
