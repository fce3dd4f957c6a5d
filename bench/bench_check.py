"""Benchmark: ``check`` end to end (read, parse, replay, compare, report) on generated games
with every claim.

Run ``python bench/bench_check.py [HANDS]``. It writes generated games to a temporary folder,
then times the real command in a child process: hands per second with ``--jobs 1`` and
``--jobs 2`` over four files and over one file (cut into games), and the child's peak memory
for one file as it grows tenfold, with ``--jobs 1`` (streaming). Not a test: no figure here is
asserted anywhere.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from baloot_conformance.cli import main as cli_main
from baloot_conformance.generate import generate_games
from baloot_conformance.ruleset import load_ruleset


def write_games(path: Path, hands: int, seed: int) -> int:
    """A file of about ``hands`` hands (whole games); returns the real count."""
    rules = load_ruleset("saudi")
    written = 0
    with path.open("w", encoding="utf-8") as out:
        for chunk in generate_games(rules, seed, games=max(1, hands // 9)):
            out.write(chunk)
            written += chunk.startswith("\nhand ")
    return written


def run_check(files: list[Path], jobs: int) -> tuple[float, int]:
    """Seconds (best of three runs: this machine's speed varies by a third from run to run)
    and peak RSS (kB) of ``check`` in a fresh child process."""
    runs = [_run_once(files, jobs) for _ in range(3)]
    return min(r[0] for r in runs), max(r[1] for r in runs)


def _run_once(files: list[Path], jobs: int) -> tuple[float, int]:
    argv = [sys.executable, "-m", "baloot_conformance", "check", *map(str, files)]
    argv += ["--format", "json", "--output", os.devnull, "--jobs", str(jobs)]
    start = time.perf_counter()
    child = subprocess.Popen(argv)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit("check did not pass on generated games")
    return seconds, usage.ru_maxrss


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    folder = Path(tempfile.mkdtemp(prefix="bench-check-"))
    files = [folder / f"games-{i}.btn" for i in range(4)]
    total = sum(write_games(path, hands // 4, seed) for seed, path in enumerate(files))
    for jobs in (1, 2):
        seconds, _ = run_check(files, jobs)
        print(f"--jobs {jobs}: {total:,} hands in {seconds:.2f} s = {total / seconds:,.0f} hands/s")
    for size in (hands // 4, hands * 5 // 2):
        one = folder / f"one-{size}.btn"
        count = write_games(one, size, 99)
        parallel, _ = run_check([one], 2)
        print(f"one file of {count:,} hands, --jobs 2: {count / parallel:,.0f} hands/s")
        seconds, peak = run_check([one], 1)
        rate = count / seconds
        print(f"one file of {count:,} hands: {rate:,.0f} hands/s, peak RSS {peak / 1024:.1f} MB")
    best = min(in_process(one) for _ in range(3))
    print(f"the same file in process (no start-up), JSON report: {count / best:,.0f} hands/s")


def in_process(path: Path) -> float:
    """Seconds for ``check`` run in this process, after start-up (imports, grammar, ruleset)."""
    cli_main(["check", str(path), "--format", "json", "--output", os.devnull, "--jobs", "1"])
    start = time.perf_counter()
    cli_main(["check", str(path), "--format", "json", "--output", os.devnull, "--jobs", "1"])
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
