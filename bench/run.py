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
  figures that do not move with the machine's load, so they are a gate: each must stay within
  :data:`GATE_BAND` (2%) of the baseline, and the run ends with one line ``instruction gate:
  PASS`` or ``instruction gate: FAIL`` (exit code 1) saying which figure left the band (a
  figure far below it is a stale baseline: ``--write`` it with the change that earned it).
  ``--callgrind-only`` counts the instructions alone (about a minute, no timed runs and no
  compiled build), the check to run before and after a change that must not slow Baloot;
- the compiled build (``tools/mypyc_build.py``, built first into a temporary folder: about a
  minute, and it needs a C compiler): start-up, ``--jobs 1`` with plain claims and with
  ``= legal`` claims, ``--jobs 2``, its share of the bare judge, and its speed-up over the
  pure build; its runs take turns with the pure build's, so the ratios are fair.
  ``--pure-only`` leaves it out.

Each figure is printed with its ratio to the baseline (above 1 is better). ``--write``
stores this run's figures as the new baseline (with ``--callgrind-only``, the two instruction
figures only; the others are kept). Not a test: timing is never asserted in one.
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

from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.rules.loading import load_ruleset

BASELINE = Path(__file__).resolve().parent / "baseline.json"
TOOLS = Path(__file__).resolve().parent.parent / "tools"
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
    "compiled_startup_s": False,
    "compiled_check_jobs1_hands_per_s": True,
    "compiled_check_legal_jobs1_hands_per_s": True,
    "compiled_check_jobs2_hands_per_s": True,
    "compiled_jobs2_speedup": True,
    "compiled_share_of_bare": True,
    "compiled_speedup": True,
}
#: The figures of the instruction gate, and how far from the baseline each may move.
GATE = ("check_instructions_per_hand", "startup_instructions")
GATE_BAND = 0.02
#: A command: its argv and the PYTHONPATH it runs with (None: the environment's own kit).
Command = tuple[list[str], "str | None"]


def best_of(repeat: int, *commands: Command) -> list[float]:
    """Each command's best time of ``repeat`` runs, the commands taking turns, so that a
    slow spell of the machine falls on all of them alike (their ratios are then fair). The
    commands run in an empty folder: ``python -m`` would put a checkout ahead of PYTHONPATH."""
    best = [float("inf")] * len(commands)
    with tempfile.TemporaryDirectory() as empty:
        for _ in range(repeat):
            for k, (argv, path) in enumerate(commands):
                env = dict(os.environ)
                env.pop("PYTHONPATH", None)
                if path is not None:
                    env["PYTHONPATH"] = path
                start = time.perf_counter()
                done = subprocess.run(argv, cwd=empty, env=env, capture_output=True, check=False)
                best[k] = min(best[k], time.perf_counter() - start)
                if done.returncode != 0:
                    raise SystemExit(f"{argv} failed:\n{done.stderr.decode()[-2000:]}")
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


def measure(hands: int, repeat: int, folder: Path, compiled: str | None) -> dict[str, float]:
    """Every figure; those of the compiled build too when ``compiled`` (its folder) is given."""
    figures: dict[str, float] = {}
    one = folder / "one.btn"
    one.write_text("".join(generate_games(load_ruleset("saudi"), 3, hands=1)), encoding="utf-8")
    games = folder / "games.btn"
    count = write_games(games, hands, 1)
    legal = folder / "legal.btn"
    legal_count = legal_file(legal, hands // 2)
    builds = [None] if compiled is None else [None, compiled]
    if compiled is not None:
        same_reports(compiled, [games, legal], folder)
    commands = [
        (check_argv(path, jobs), kit)
        for kit in builds
        for path, jobs in ((one, 1), (games, 1), (games, 2), (legal, 1))
    ]
    times = best_of(repeat, *commands)
    bare = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        judge(str(games))
        bare = min(bare, time.perf_counter() - start)
    figures["bare_judge_hands_per_s"] = count / bare
    for k, kit in enumerate(builds):
        startup, jobs1, jobs2, legal_s = times[4 * k : 4 * k + 4]
        prefix = "" if kit is None else "compiled_"
        figures[f"{prefix}startup_s"] = startup
        figures[f"{prefix}check_jobs1_hands_per_s"] = count / (jobs1 - startup)
        figures[f"{prefix}check_jobs2_hands_per_s"] = count / (jobs2 - startup)
        figures[f"{prefix}jobs2_speedup"] = (jobs1 - startup) / (jobs2 - startup)
        figures[f"{prefix}check_legal_jobs1_hands_per_s"] = legal_count / (legal_s - startup)
        share = "check_share_of_bare" if kit is None else "compiled_share_of_bare"
        figures[share] = figures[f"{prefix}check_jobs1_hands_per_s"] / (count / bare)
    if compiled is not None:
        figures["compiled_speedup"] = (
            figures["compiled_check_jobs1_hands_per_s"] / figures["check_jobs1_hands_per_s"]
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


def same_reports(compiled: str, files: list[Path], folder: Path) -> None:
    """Stop unless the compiled build's JSON reports on ``files`` are the pure build's."""
    for path in files:
        reports: list[bytes] = []
        for kit in (None, compiled):
            out = folder / f"report-{len(reports)}.jsonl"
            argv = [*check_argv(path, 1)[:-1], str(out)]
            best_of(1, (argv, kit))
            reports.append(out.read_bytes())
        if reports[0] != reports[1]:
            raise SystemExit(f"the compiled build's report on {path} differs from the pure one's")
    print(f"the compiled build's reports equal the pure build's on {len(files)} files")


def callgrind_figures() -> dict[str, float]:
    """Instructions per hand and of start-up, from ``bench/callgrind.py``."""
    from callgrind import per_hand

    each, startup = per_hand(100, 600, [])
    return {"check_instructions_per_hand": each, "startup_instructions": startup}


def gate(figures: dict[str, float], stored: dict[str, float]) -> bool:
    """Print each instruction figure against its baseline and the band, then the verdict line;
    whether every figure measured is inside the band."""
    passed = True
    for name in GATE:
        if name not in figures or not stored.get(name):
            continue
        change = figures[name] / stored[name] - 1
        inside = abs(change) <= GATE_BAND
        passed = passed and inside
        where = "inside" if inside else ("above" if change > 0 else "below")
        print(
            f"  {name}: {figures[name]:,.0f} against {stored[name]:,.0f} ({change:+.2%}, "
            f"{where} the band of ±{GATE_BAND:.0%})"
        )
    print(f"instruction gate: {'PASS' if passed else 'FAIL'}")
    return passed


def main() -> None:
    compile_package()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands per file (20,000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure, best kept (5)")
    parser.add_argument("--write", action="store_true", help="store the figures as baseline")
    parser.add_argument(
        "--callgrind", action="store_true", help="also count instructions (needs valgrind)"
    )
    parser.add_argument(
        "--pure-only", action="store_true", help="leave out the compiled build (no compiler)"
    )
    parser.add_argument(
        "--callgrind-only",
        action="store_true",
        help="count instructions only (the gate): no timed runs, no compiled build",
    )
    args = parser.parse_args()
    if args.callgrind_only:
        callgrind_gate(args.write)
        return
    with tempfile.TemporaryDirectory() as temp:
        compiled = None
        if not args.pure_only:
            print("building the compiled build (about a minute)...", file=sys.stderr)
            with open(Path(temp) / "build.log", "w") as log:
                subprocess.run(
                    [sys.executable, str(TOOLS / "mypyc_build.py"), str(Path(temp) / "compiled")],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    check=True,
                )
            compiled = str(Path(temp) / "compiled")
        figures = measure(args.hands, args.repeat, Path(temp), compiled)
    if args.callgrind:
        figures.update(callgrind_figures())
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    stored = baseline.get("figures", {})
    print(f"{'figure':<40} {'now':>12} {'baseline':>12} {'ratio':>7}")
    for name, value in figures.items():
        old = stored.get(name)
        ratio = ""
        if old:
            ratio = f"{(value / old if HIGHER_IS_BETTER[name] else old / value):.2f}"
        print(f"{name:<40} {value:>12,.2f} {old or 0:>12,.2f} {ratio:>7}")
    passed = gate(figures, stored) if args.callgrind else True
    if args.write:
        note = f"best of {args.repeat}, {args.hands} hands, {time.strftime('%Y-%m-%d')}"
        BASELINE.write_text(json.dumps({"measured": note, "figures": figures}, indent=2) + "\n")
        print(f"wrote {BASELINE}")
    elif not passed:
        sys.exit(1)


def callgrind_gate(write: bool) -> None:
    """``--callgrind-only``: the two instruction figures against the baseline, and the gate."""
    figures = callgrind_figures()
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    stored = baseline.get("figures", {})
    passed = gate(figures, stored)
    if write:
        baseline["figures"] = {**stored, **figures}
        baseline["instructions_measured"] = f"callgrind, {time.strftime('%Y-%m-%d')}"
        BASELINE.write_text(json.dumps(baseline, indent=2) + "\n")
        print(f"wrote {BASELINE}")
    elif not passed:
        sys.exit(1)


if __name__ == "__main__":
    main()
