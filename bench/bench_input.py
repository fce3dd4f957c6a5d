"""Peak memory and time of ``check --jobs 2`` on the inputs that used to cost the most
(issue 24): a large comment-heavy file, a large failing file, and comments past the bound of
one hand, plain and gzip-compressed.

The inputs, built in a temporary folder (``--mb`` sets the size of the large ones):

- ``comments``: generated games with 40 comment lines in every hand (inside the bound of
  :data:`~baloot_conformance.btn.MAX_HAND_LINES`, so the whole file is read and passes);
- ``failing``: generated games with one wrong total in each game (a divergence quoted every
  game, in every run of hands the workers get);
- ``failing.gz``: the same, gzip-compressed (each quote once read the stream again);
- ``flood.gz``: a game followed by 200 MB of ``#`` lines, compressed to about 200 KB (once
  a MemoryError after minutes; now an error at the line where the hand passes the bound).

Each is checked by ``check --jobs 2 --format json`` in a process of its own. Printed: the exit
code, the wall time, and the peak memory of the whole process tree (the resident memory of
the parent and its workers, summed, sampled every 20 ms) beside the largest single process's
peak (``ru_maxrss``). Not a test: nothing here is asserted.

    .venv/bin/python bench/bench_input.py [--mb 50] [--jobs 2] [--only comments,flood.gz]
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_memory import build

CLI = [sys.executable, "-m", "baloot_conformance"]


def commented(source: Path, target: Path) -> Path:
    """``source`` with 40 comment lines after every ``hand`` line."""
    notes = "".join(
        f"# note {i}: the table as the engine saw it, for a reader\n" for i in range(40)
    )
    with source.open(encoding="utf-8") as read, target.open("w", encoding="utf-8") as out:
        for line in read:
            out.write(line)
            if line.startswith("hand "):
                out.write(notes)
    return target


def compressed(source: Path, target: Path) -> Path:
    with source.open("rb") as read, gzip.open(target, "wb", compresslevel=1) as out:
        while block := read.read(1 << 20):
            out.write(block)
    return target


def flood(target: Path) -> Path:
    game = (
        Path(__file__).resolve().parent.parent / "examples" / "conforming-game.btn"
    ).read_bytes()
    with gzip.open(target, "wb", compresslevel=9) as out:
        out.write(game)
        for _ in range(100):
            out.write(b"#\n" * (1 << 20))
    return target


def _tree_rss(root: int) -> int:
    """The resident kilobytes of ``root`` and its descendants, from ``/proc``."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        children.setdefault(int(fields[1]), []).append(pid)
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo += children.get(pid, [])
    return total


def measure(argv: list[str]) -> tuple[int, float, int, int]:
    """Exit code, seconds, peak summed resident KB of the tree, largest process's peak KB."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(process.pid))
            done.wait(0.02)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    return os.waitstatus_to_exitcode(status), seconds, peak, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=50, help="size of the large inputs, in MB")
    parser.add_argument("--jobs", default="2", help="check's --jobs (default 2)")
    parser.add_argument("--only", default="", help="comma-separated inputs to run (default all)")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        plain = build(args.mb, folder, wrong=False)
        wrong = build(args.mb, folder, wrong=True)
        inputs = {
            "comments": commented(plain, folder / "comments.btn"),
            "failing": wrong,
            "failing.gz": compressed(wrong, folder / "failing.btn.gz"),
            "flood.gz": flood(folder / "flood.btn.gz"),
        }
        plain.unlink()
        print(
            f"{'input':<12} {'size MB':>8} {'exit':>4} {'seconds':>8} {'tree MB':>8} {'max MB':>7}"
        )
        for name, path in inputs.items():
            if only and name not in only:
                continue
            argv = [*CLI, "check", str(path), "--jobs", args.jobs, "--format", "json", "-o",
                    str(folder / "report.jsonl")]  # fmt: skip
            code, seconds, tree, largest = measure(argv)
            size = path.stat().st_size / 2**20
            print(
                f"{name:<12} {size:>8.1f} {code:>4} {seconds:>8.1f} {tree / 1024:>8.1f} "
                f"{largest / 1024:>7.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
