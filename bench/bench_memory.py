"""Peak memory of ``check``, ``fmt --check`` and ``convert`` (both ways) as the input grows.

Each command runs in a process of its own on transcripts of 1, 10 and 50 MB (``--sizes`` to
change), built by repeating generated games (each starting with its own ``start`` line, so
the file is many independent games); half the runs use a copy with one wrong claim per game,
so that divergences are quoted too. Prints the peak resident memory (``ru_maxrss``) of each
run: it must stay flat as the input grows, well under 100 MB.

    .venv/bin/python bench/bench_memory.py [--sizes 1,10,50]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.rules.loading import load_ruleset

CLI = [sys.executable, "-m", "baloot_conformance"]


def build(size_mb: int, folder: Path, wrong: bool) -> Path:
    """A transcript of about ``size_mb`` MB: generated games, renumbered, repeated."""
    games = "".join(generate_games(load_ruleset("saudi"), seed=7, games=20))
    header, _, body = games.partition("\nhand ")
    body = "hand " + body
    if wrong:  # one wrong total in each game's first hand
        body = re.sub(r"= total NS (\d+)", lambda m: f"= total NS {int(m[1]) + 1}", body, count=1)
    hands = re.split(r"\n(?=hand \d+\n)", body.strip("\n"))
    path = folder / f"{size_mb}mb{'-wrong' if wrong else ''}.btn"
    number = 0
    written = 0
    with path.open("w", encoding="utf-8") as out:
        out.write(header.rstrip("\n") + "\n")
        while written < size_mb << 20:
            for hand in hands:
                number += 1
                text = "\n" + re.sub(r"^hand \d+", f"hand {number}", hand.strip("\n")) + "\n"
                written += out.write(text)
    return path


def peak_kb(argv: list[str]) -> tuple[int, int]:
    """Exit code and peak resident kilobytes of a command run alone (its own rusage)."""
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,50", help="input sizes in MB (ascending)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        print(f"{'command':<28} {'input':>8} {'exit':>4} {'peak MB':>8}")
        for size in sizes:
            for wrong in (False, True):
                btn = build(size, folder, wrong)
                json_path = folder / f"{btn.stem}.json"
                runs = {
                    "check": [*CLI, "check", str(btn), "--format", "json", "-o",
                              str(folder / "r.jsonl")],
                    "fmt --check": [*CLI, "fmt", "--check", str(btn)],
                    "convert --to json": [*CLI, "convert", "--to", "json", str(btn), "-o",
                                          str(json_path)],
                    "convert --to btn": [*CLI, "convert", "--to", "btn", str(json_path), "-o",
                                         str(folder / "back.btn")],
                }  # fmt: skip
                label = f"{btn.stat().st_size / 2**20:.0f} MB" + (" (x)" if wrong else "")
                for name, argv in runs.items():
                    code, kb = peak_kb(argv)
                    print(f"{name:<28} {label:>8} {code:>4} {kb / 1024:>8.1f}", flush=True)
                btn.unlink()
                json_path.unlink()


if __name__ == "__main__":
    main()
