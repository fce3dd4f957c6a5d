"""Benchmark: ``suite`` with the reference adapter, end to end (the kit, the adapter process
and the protocol between them).

Run ``python bench/bench_suite.py [GAMES]`` (default 50). It times the real command in a child
process, best of three runs (this machine's speed varies by a third from run to run), and
prints cases per second and protocol requests per second:

- the whole fixture corpus, ``--jobs 1`` and ``--jobs 2``;
- GAMES generated games, ``--jobs 1`` and ``--jobs 2``.

A generated game asks about 360 ``legal`` requests (one before each call and card) and one
``claims`` request per hand, each carrying the hand so far: the figures are dominated by
the round trip. Not a test: no figure here is asserted anywhere.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

ADAPTER = f"{sys.executable} -m baloot_conformance.suite.reference_adapter"


def run_suite(argv: list[str], jobs: int) -> tuple[float, int, int]:
    """Seconds (best of three), cases and requests of one ``suite`` run."""
    best = float("inf")
    cases = requests = 0
    for _ in range(3):
        command = [sys.executable, "-m", "baloot_conformance", "suite", "--engine", ADAPTER]
        command += [*argv, "--jobs", str(jobs), "--format", "json"]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        best = min(best, time.perf_counter() - start)
        records = [json.loads(line) for line in done.stdout.splitlines()]
        if not records or not records[-1]["ok"]:
            raise SystemExit(f"suite did not pass: {done.stderr[-2000:]}")
        found = [r for r in records if r["type"] == "case"]
        cases, requests = len(found), sum(r["requests"] for r in found)
    return best, cases, requests


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    runs = {
        "corpus": ["--generated", "0"],
        f"{games} games": ["--fixtures", "none", "--generated", str(games)],
    }
    for name, argv in runs.items():
        for jobs in (1, 2):
            seconds, cases, requests = run_suite(argv, jobs)
            print(
                f"{name:>10}, --jobs {jobs}: {seconds:6.2f} s, {cases / seconds:6.1f} cases/s, "
                f"{requests / seconds:7.0f} requests/s ({cases} cases, {requests} requests)"
            )


if __name__ == "__main__":
    main()
