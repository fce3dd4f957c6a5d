"""Benchmark: full random hands (deal, auction, raises, declarations, play, scoring).

Run ``python bench/bench_engine.py [HANDS]``; it prints hands per second on one core for the
default ruleset and a profile, the best of five runs (this machine's speed varies by a third
from run to run), and the median. Not a test: no figure here is asserted anywhere.
"""

from __future__ import annotations

import random
import sys
import time

from baloot_conformance.engine.playout import random_hand
from baloot_conformance.rules.loading import load_ruleset


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000
    for name in ("saudi", "majlis"):
        rules = load_ruleset(name)
        random_hand(rules, random.Random(0))  # warm up caches
        rates = []
        for run in range(5):
            rng = random.Random(run)
            played = 0
            start = time.perf_counter()
            for _ in range(count):
                played += random_hand(rules, rng).contract is not None
            rates.append(count / (time.perf_counter() - start))
        rates.sort()
        print(
            f"{name}: best {rates[-1]:,.0f} hands/s, median {rates[2]:,.0f} "
            f"({count:,} hands a run, {played} played to the end in the last)"
        )


if __name__ == "__main__":
    main()
