"""Benchmark of the BTN reader: hands per second and peak memory as a file grows.

Run ``python bench/bench_parse.py`` (optionally with sizes, e.g. ``1000 10000``). It writes
transcripts of 1,000, 10,000 and 100,000 hands (each about 40 lines, like the worked hand of
docs/btn.md) to a temporary folder, then reads each one in a fresh process with
:func:`baloot_conformance.btn.iter_hands`, and prints the speed and the peak resident
memory of that process. Memory should stay flat: the reader holds one hand at a time.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SEATS = ("N", "W", "S", "E")
CARDS = [r + s for s in "SHDC" for r in "789TJQKA"]


def hand_text(number: int, rng: random.Random) -> str:
    """One plausible hand (random cards, not a legal game) in canonical BTN."""
    deck = CARDS[:]
    rng.shuffle(deck)
    dealer = rng.randrange(4)
    order = [SEATS[(dealer + 1 + k) % 4] for k in range(4)]
    lines = [f"hand {number}", f"dealer {SEATS[dealer]}"]
    for k, seat in enumerate(SEATS):
        lines.append(f"deal {seat} {' '.join(deck[k * 5 : k * 5 + 5])}")
    lines.append(f"faceup {deck[20]}")
    buyer = order[0]
    lines.append(f"bid {buyer} hokum")
    lines += [f"bid {s} pass" for s in order[1:]]
    lines.append(f"raise {order[1]} pass")
    lines.append(f"= contract {buyer} hokum {deck[20][1]}")
    rest = deck[21:]
    hands = {s: deck[k * 5 : k * 5 + 5] for k, s in enumerate(SEATS)}
    hands[buyer].append(deck[20])
    pos = 0
    for seat in SEATS:
        n = 2 if seat == buyer else 3
        lines.append(f"rest {seat} {' '.join(rest[pos : pos + n])}")
        hands[seat] += rest[pos : pos + n]
        pos += n
    lines.append(f"declare {order[1]} sira {' '.join(hands[order[1]][:3])}")
    leader = SEATS.index(order[0])
    for t in range(1, 9):
        seats = [SEATS[(leader + k) % 4] for k in range(4)]
        plays = ", ".join(f"{s} {hands[s][t - 1]}" for s in seats)
        winner = rng.choice(SEATS)
        lines.append(f"trick {t}: {plays} = {winner} {rng.randrange(40)}")
        leader = SEATS.index(winner)
    a = rng.randrange(163)
    lines += [
        f"= abnat NS {a} EW {162 - a}",
        f"= aklat NS {max(0, a - 10)} EW {162 - a}",
        "= projects EW 20",
        f"= result {rng.choice(['made', 'failed'])}",
        f"= score NS {a // 10} EW {16 - a // 10}",
        f"= total NS {number} EW {number * 2}",
    ]
    return "\n".join(lines) + "\n"


def write_file(path: Path, hands: int) -> None:
    rng = random.Random(hands)
    with path.open("w", encoding="utf-8") as out:
        out.write('%btn 1\n[Ruleset "saudi@1"]\n[Engine "bench"]\n')
        for number in range(1, hands + 1):
            out.write("\n" + hand_text(number, rng))


def measure(path: str, repeats: int) -> None:
    """Child process: read the file ``repeats`` times; print the hands, the best time and the
    peak RSS in KiB (the machine is shared, so the best of a few runs is the fair figure)."""
    from baloot_conformance.btn import iter_hands

    seconds = float("inf")
    count = 0
    for _ in range(repeats):
        start = time.perf_counter()
        count = 0
        for _hand in iter_hands(path):
            count += 1
        seconds = min(seconds, time.perf_counter() - start)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(count, seconds, peak)


def main(argv: list[str]) -> int:
    if len(argv) == 4 and argv[1] == "--measure":
        measure(argv[2], int(argv[3]))
        return 0
    sizes = [int(a) for a in argv[1:]] or [1_000, 10_000, 100_000]
    print(f"{'hands':>8} {'lines':>9} {'MB':>7} {'seconds':>8} {'hands/s':>8} {'peak RSS':>10}")
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            path = Path(folder) / f"bench-{size}.btn"
            write_file(path, size)
            lines = sum(1 for _ in path.open("rb"))
            mb = path.stat().st_size / 1e6
            done = subprocess.run(
                [sys.executable, __file__, "--measure", str(path), "3" if size <= 10_000 else "1"],
                capture_output=True,
                text=True,
                check=True,
            )
            count, seconds, peak = done.stdout.split()
            rate = int(count) / float(seconds)
            print(
                f"{int(count):>8} {lines:>9} {mb:>7.1f} {float(seconds):>8.2f} "
                f"{rate:>8.0f} {int(peak) / 1024:>8.1f} MB"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
