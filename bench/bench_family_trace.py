"""Benchmark: what the rule trace costs a Bourré check, one core.

Run ``python bench/bench_family_trace.py [ROUNDS]``; it checks every Bourré fixture that reads
(``fixtures/bourre/``, the hands of ``check_btn2``) ROUNDS times (5 by default) without a
trace and with one, and prints hands per second for each. The plain path is the family's
:class:`~baloot_conformance.family.engine.hand.TrickHand`, untouched by the trace (the hooks
are in its subclass :class:`~baloot_conformance.family.engine.trace.TracedHand`); the traced
path decides each card a second time to name the stage that narrowed it. CPU time of this
process, the best of three runs. Not a test: no figure here is asserted anywhere.
"""

from __future__ import annotations

import sys
import time

from baloot_conformance.corpus.family_fixtures import family_fixture_paths
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import TranscriptSyntaxError
from baloot_conformance.family.check.run import check_btn2


def texts() -> list[tuple[bytes, str]]:
    return [(path.read_bytes(), str(path)) for path in family_fixture_paths()]


def check_all(files: list[tuple[bytes, str]], traced: bool) -> int:
    hands = 0
    for data, path in files:
        try:
            for _ in check_btn2(data, path, trace=Trace() if traced else None):
                hands += 1
        except TranscriptSyntaxError:
            continue
    return hands


def rate(files: list[tuple[bytes, str]], traced: bool, rounds: int) -> float:
    best = float("inf")
    hands = 0
    for _ in range(3):
        start = time.process_time()
        hands = sum(check_all(files, traced) for _ in range(rounds))
        best = min(best, time.process_time() - start)
    return hands / best


def main(argv: list[str]) -> int:
    rounds = int(argv[0]) if argv else 5
    files = texts()
    check_all(files, True)  # load the rulesets and tables once
    plain, traced = rate(files, False, rounds), rate(files, True, rounds)
    print(f"no trace: {plain:,.0f} hands/s; traced: {traced:,.0f} hands/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
