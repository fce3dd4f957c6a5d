"""Benchmark: ``check`` end to end (read, parse, replay, compare, report) on generated games
with every claim.

Run ``python bench/bench_check.py [HANDS]`` (default 10,000). It writes generated games to a
temporary folder, then times the real command, ``python -m baloot_conformance check ...
--format json``, in a child process, best of three runs (this machine's speed varies by a
third from run to run):

- start-up alone (a file of one hand): imports, grammar, ruleset;
- one file of HANDS and of 10 x HANDS hands, with ``--jobs 1`` (one core) and ``--jobs 2``
  (cut into runs of games), and the child's peak memory, which should not grow with the file;
- four files of HANDS / 4 hands with ``--jobs 1`` and ``--jobs 2``.

The package's bytecode is compiled first, as ``pip install`` does, so that start-up is what an
installed kit pays. Not a test: no figure here is asserted anywhere.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import baloot_conformance
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.rules.loading import load_ruleset


def compile_package() -> None:
    """Compile the package's bytecode first, as ``pip install`` does, so that start-up is what
    an installed kit pays (in an environment with PYTHONDONTWRITEBYTECODE, a changed module
    would otherwise be compiled again on every run)."""
    compileall.compile_dir(Path(baloot_conformance.__file__).parent, quiet=1)


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
    """Seconds (best of three) and peak RSS (kB, the largest) of ``check`` in a child."""
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
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    compile_package()
    folder = Path(tempfile.mkdtemp(prefix="bench-check-"))

    one_hand = folder / "one-hand.btn"
    header, first_hand, *_ = generate_games(load_ruleset("saudi"), 1, games=1)
    one_hand.write_text(header + first_hand, encoding="utf-8")
    startup, _ = run_check([one_hand], 1)
    print(f"start-up (a file of one hand): {startup:.2f} s")

    for size in (hands, hands * 10):
        path = folder / f"games-{size}.btn"
        count = write_games(path, size, 99)
        seconds, peak = run_check([path], 1)
        rate = count / seconds
        steady = count / (seconds - startup)
        print(
            f"one file of {count:,} hands, --jobs 1: {seconds:.2f} s = {rate:,.0f} hands/s "
            f"({steady:,.0f} after start-up), peak RSS {peak / 1024:.1f} MB"
        )
        seconds, _ = run_check([path], 2)
        print(f"one file of {count:,} hands, --jobs 2: {count / seconds:,.0f} hands/s")

    files = [folder / f"part-{i}.btn" for i in range(4)]
    total = sum(write_games(path, hands // 4, seed) for seed, path in enumerate(files))
    for jobs in (1, 2):
        seconds, _ = run_check(files, jobs)
        print(f"four files, {total:,} hands, --jobs {jobs}: {total / seconds:,.0f} hands/s")


if __name__ == "__main__":
    main()
