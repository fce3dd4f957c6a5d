"""Instructions per hand of ``check --jobs 1``, counted by callgrind: a figure that does not
move with the machine's load, for comparing two versions of the code.

``python bench/callgrind.py [--small N] [--large M] [--game G] [-- extra check flags]`` writes
two files of generated games (N and M hands, 100 and 600 by default; saudi Baloot, or ``--game
barbu``, ``hearts`` or ``bourre`` for the trick family), runs ``check --jobs 1
--format json`` on each under ``valgrind --tool=callgrind`` (both at once), and prints the
instructions of each run and their difference per hand: start-up cancels out. The runs are
about 60 times slower than native (some 30 s). Needs valgrind; not a test.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check import compile_package, write_games
from bench_family_check import game_text


def instructions(argv: list[str], out: Path) -> subprocess.Popen[str]:
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def collected(child: subprocess.Popen[str]) -> int:
    _, err = child.communicate()
    found = re.search(r"Collected : ([0-9]+)", err)
    if child.returncode != 0 or found is None:
        raise SystemExit(f"the run under callgrind failed:\n{err[-2000:]}")
    return int(found.group(1))


def write_family(path: Path, hands: int, game: str) -> int:
    """A file of about ``hands`` hands of a trick-family ``game`` (whole games, or a Bourré
    session at five players); returns the real count."""
    text = game_text(game, hands, players=5, seed=7)
    path.write_text(text, encoding="utf-8")
    return text.count("\nhand ")


def per_hand(small: int, large: int, extra: list[str], game: str = "saudi") -> tuple[float, float]:
    """Instructions per hand, and of start-up (what the small run spends on no hand)."""
    n1, i1, n2, i2 = measure(small, large, extra, game)
    each = (i2 - i1) / (n2 - n1)
    return each, i1 - each * n1


def measure(
    small: int, large: int, extra: list[str], game: str = "saudi"
) -> tuple[int, int, int, int]:
    """Hands and instructions of the small and the large run."""
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        runs = []
        for size in (small, large):
            path = folder / f"games-{size}.btn"
            count = (
                write_games(path, size, 7) if game == "saudi" else write_family(path, size, game)
            )
            argv = [sys.executable, "-m", "baloot_conformance", "check", str(path)]
            argv += ["--jobs", "1", "--format", "json", "--output", os.devnull, *extra]
            runs.append((count, instructions(argv, folder / f"cg-{size}.out")))
        (n1, c1), (n2, c2) = runs
        return n1, collected(c1), n2, collected(c2)


def main() -> None:
    compile_package()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=100, help="hands in the small file (100)")
    parser.add_argument("--large", type=int, default=600, help="hands in the large file (600)")
    parser.add_argument(
        "--game",
        default="saudi",
        choices=("saudi", "bourre", "barbu", "hearts"),
        help="what the files hold: saudi Baloot games (the default) or a trick-family game",
    )
    parser.add_argument("extra", nargs="*", help="more flags for check (after --)")
    args = parser.parse_args()
    each, startup = per_hand(args.small, args.large, args.extra, args.game)
    print(f"per hand: {each:,.0f} instructions (start-up: about {startup:,.0f})")


if __name__ == "__main__":
    main()
