"""Benchmark: loading rulesets and evaluating their formulas.

Run ``python bench/bench_ruleset.py``; it prints figures for the issue notes. Not a test: no
figure here is asserted anywhere.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from baloot_conformance.rules.loading import load_ruleset


def per_call(function: Callable[[], object], repeat: int) -> float:
    """Seconds per call, best of three runs of ``repeat`` calls."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            function()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def main() -> None:
    start = time.perf_counter()
    saudi = load_ruleset("saudi")
    print(f"first load (schema, grammar, formulas built): {time.perf_counter() - start:.3f} s")
    print(f"load saudi:    {per_call(lambda: load_ruleset('saudi'), 10) * 1e3:.1f} ms")
    print(f"load kammelna: {per_call(lambda: load_ruleset('kammelna'), 10) * 1e3:.1f} ms")
    sun = saudi.scoring.sun_conversion.formula
    hokum = saudi.scoring.hokum_conversion.formula
    env = {"raw": 65, "other_raw": 65, "is_buyer": True}
    sun_us = per_call(lambda: sun.evaluate_int(env), 100_000) * 1e6
    hokum_us = per_call(lambda: hokum.evaluate_int({**env, "raw": 86, "other_raw": 76}), 100_000)
    print(f"Sun conversion evaluate_int:   {sun_us:.2f} µs")
    print(f"Hokum conversion evaluate_int: {hokum_us * 1e6:.2f} µs")


if __name__ == "__main__":
    main()
