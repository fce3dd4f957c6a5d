"""Benchmark: full random hands (deal, auction, raises, declarations, play, scoring).

Run ``python bench/bench_engine.py [HANDS]``; it prints hands per second on one core for the
default ruleset and a profile. Not a test: no figure here is asserted anywhere.
"""

from __future__ import annotations

import random
import sys
import time

from baloot_conformance.engine.playout import random_hand
from baloot_conformance.ruleset import load_ruleset


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 5_000
    for name in ("saudi", "majlis"):
        rules = load_ruleset(name)
        rng = random.Random(1)
        random_hand(rules, rng)  # warm up caches
        played = 0
        start = time.perf_counter()
        for _ in range(count):
            hand = random_hand(rules, rng)
            played += hand.contract is not None
        seconds = time.perf_counter() - start
        print(
            f"{name}: {count / seconds:,.0f} hands/s "
            f"({played} played to the end, {count - played} void), {seconds:.2f} s"
        )


if __name__ == "__main__":
    main()
