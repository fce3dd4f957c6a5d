"""Every benchmark in one run, compared with the figures stored in ``bench/baseline.json``.

``python bench/run.py [--hands N] [--repeat R] [--write]`` measures, in child processes as a
user runs them (best of R runs; these machines' speed swings by a third between runs):

- ``check`` start-up (a one-hand file), seconds;
- ``check --jobs 1`` on generated games under saudi, hands/s after start-up, with plain
  claims and with a ``= legal`` claim before every card;
- ``check --jobs 2`` on the same file, and its ratio to ``--jobs 1``;
- the bare judge of ``bench/bare_judge.py`` on the same file, hands/s, and ``check``'s share
  of its speed (the least a judge in plain Python must do, measured in the same run);
- ``PlayRules.legal``, µs per call;
- peak memory of ``check`` on 1 MB and on 100 MB of transcript;
- with ``--callgrind`` (needs valgrind; some 30 s more), the instructions per hand of
  ``check --jobs 1`` and of its start-up, counted by callgrind (``bench/callgrind.py``): the
  figures that do not move with the machine's load.

Each figure is printed with its ratio to the baseline (above 1 is better). ``--write``
stores this run's figures as the new baseline. Not a test: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bare_judge import judge
from bench_check import compile_package, write_games
from bench_legal import positions
from bench_memory import build, peak_kb

from baloot_conformance.generate import generate_games
from baloot_conformance.ruleset import load_ruleset

BASELINE = Path(__file__).resolve().parent / "baseline.json"
CLI = [sys.executable, "-m", "baloot_conformance"]
#: Whether a larger figure is better, per figure.
HIGHER_IS_BETTER = {
    "startup_s": False,
    "check_jobs1_hands_per_s": True,
    "check_legal_jobs1_hands_per_s": True,
    "check_jobs2_hands_per_s": True,
    "jobs2_speedup": True,
    "bare_judge_hands_per_s": True,
    "check_share_of_bare": True,
    "legal_us_per_call": False,
    "peak_mb_1mb": False,
    "peak_mb_100mb": False,
    "check_instructions_per_hand": False,
    "startup_instructions": False,
}


def best_seconds(argv: list[str], repeat: int) -> float:
    return best_of(repeat, argv)[0]


def best_of(repeat: int, *commands: list[str]) -> list[float]:
    """Each command's best time of ``repeat`` runs, the commands taking turns, so that a
    slow spell of the machine falls on all of them alike (their ratios are then fair)."""
    best = [float("inf")] * len(commands)
    for _ in range(repeat):
        for k, argv in enumerate(commands):
            start = time.perf_counter()
            subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def check_argv(path: Path, jobs: int) -> list[str]:
    return [*CLI, "check", str(path), "--jobs", str(jobs), "--format", "json", "-o", os.devnull]


def legal_file(path: Path, hands: int) -> int:
    """A file of about ``hands`` hands with a ``= legal`` claim before every card."""
    rules = load_ruleset("saudi")
    with path.open("w", encoding="utf-8") as out:
        for chunk in generate_games(rules, 5, games=max(1, hands // 9), legal_claims=True):
            out.write(chunk)
    return path.read_text(encoding="utf-8").count("\nhand ")


def measure(hands: int, repeat: int, folder: Path) -> dict[str, float]:
    figures: dict[str, float] = {}
    one = folder / "one.btn"
    one.write_text("".join(generate_games(load_ruleset("saudi"), 3, hands=1)), encoding="utf-8")
    games = folder / "games.btn"
    count = write_games(games, hands, 1)
    startup, jobs1, jobs2 = best_of(
        repeat, check_argv(one, 1), check_argv(games, 1), check_argv(games, 2)
    )
    figures["startup_s"] = startup
    figures["check_jobs1_hands_per_s"] = count / (jobs1 - startup)
    figures["check_jobs2_hands_per_s"] = count / (jobs2 - startup)
    figures["jobs2_speedup"] = (jobs1 - startup) / (jobs2 - startup)
    bare = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        judge(str(games))
        bare = min(bare, time.perf_counter() - start)
    figures["bare_judge_hands_per_s"] = count / bare
    figures["check_share_of_bare"] = figures["check_jobs1_hands_per_s"] / (count / bare)
    legal = folder / "legal.btn"
    legal_count = legal_file(legal, hands // 2)
    figures["check_legal_jobs1_hands_per_s"] = legal_count / (
        best_seconds(check_argv(legal, 1), repeat) - startup
    )
    sample = positions(20_000)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for rules, hand, trick, leader in sample:
            rules.legal(hand, trick, leader)
        best = min(best, time.perf_counter() - start)
    figures["legal_us_per_call"] = best / len(sample) * 1e6
    for size in (1, 100):
        path = build(size, folder, wrong=False)
        _, kb = peak_kb(check_argv(path, 1))
        figures[f"peak_mb_{size}mb"] = kb / 1024
    return figures


def callgrind_figures() -> dict[str, float]:
    """Instructions per hand and of start-up, from ``bench/callgrind.py``."""
    from callgrind import per_hand

    each, startup = per_hand(100, 600, [])
    return {"check_instructions_per_hand": each, "startup_instructions": startup}


def main() -> None:
    compile_package()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per file (20,000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure, best kept (5)")
    parser.add_argument("--write", action="store_true", help="store the figures as baseline")
    parser.add_argument(
        "--callgrind", action="store_true", help="also count instructions (needs valgrind)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        figures = measure(args.hands, args.repeat, Path(temp))
    if args.callgrind:
        figures.update(callgrind_figures())
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    stored = baseline.get("figures", {})
    print(f"{'figure':<32} {'now':>12} {'baseline':>12} {'ratio':>7}")
    for name, value in figures.items():
        old = stored.get(name)
        ratio = ""
        if old:
            ratio = f"{(value / old if HIGHER_IS_BETTER[name] else old / value):.2f}"
        print(f"{name:<32} {value:>12,.2f} {old or 0:>12,.2f} {ratio:>7}")
    if args.write:
        note = f"best of {args.repeat}, {args.hands} hands, {time.strftime('%Y-%m-%d')}"
        BASELINE.write_text(json.dumps({"measured": note, "figures": figures}, indent=2) + "\n")
        print(f"wrote {BASELINE}")


if __name__ == "__main__":
    main()
