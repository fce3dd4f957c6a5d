"""Benchmark: perft, in nodes (the sequences counted) per second, at a few depths.

Run ``python bench/bench_perft.py [--repeat R]``; it prints, best of R runs (these
machines' speed swings by a third between runs), the nodes per second of
:func:`~baloot_conformance.engine.perft.perft` from positions of generated games under
saudi: before the first card (the raises window, where each call is a copied hand) at
depths 4 and 6, from the third trick at depths 6 and 8 (the play alone: bit masks and an
undo), and from the first call of a hand dealt from its pack at depth 6 (through the
completion into the raises). Not a test: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import random
import time

from baloot_conformance import btn
from baloot_conformance.cards import CARDS
from baloot_conformance.check.perft import hand_at
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.perft import perft
from baloot_conformance.rules.loading import load_ruleset


def positions(position: str, count: int) -> list[Hand]:
    """The hand at ``position`` (``t1.p1``) of the first hand of games from seeds 0, 1, ...
    that have it (a void hand has no cards)."""
    rules = load_ruleset("saudi")
    found: list[Hand] = []
    seed = 0
    while len(found) < count:
        text = "".join(generate_games(rules, seed, hands=1))
        seed += 1
        with btn.TranscriptReader.from_text(text, "<generated>") as reader:
            hands = list(reader)
        events = {i.position for i in hands[0].items if isinstance(i, btn.Event)}
        if f"h1.{position}" in events:
            found.append(hand_at(hands, rules, f"h1.{position}"))
    return found


def dealt(count: int) -> list[Hand]:
    """Hands dealt from a shuffled pack, before their first call."""
    rules = load_ruleset("saudi")
    hands = []
    for seed in range(count):
        pack = list(CARDS)
        random.Random(seed).shuffle(pack)
        hands.append(Hand.shuffled(rules, seed % 4, pack))
    return hands


def rate(hands: list[Hand], depth: int, repeat: int) -> tuple[int, float]:
    """The nodes counted over ``hands`` and the best nodes per second of ``repeat`` runs."""
    best = float("inf")
    nodes = 0
    for _ in range(repeat):
        start = time.perf_counter()
        nodes = sum(perft(hand, depth) for hand in hands)
        best = min(best, time.perf_counter() - start)
    return nodes, nodes / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (best kept)")
    args = parser.parse_args()
    first, third = positions("t1.p1", 10), positions("t3.p1", 10)
    runs = [
        ("before the first card", first, 4),
        ("before the first card", first, 6),
        ("from trick 3", third, 6),
        ("from trick 3", third, 8),
        ("from the first call, dealt", dealt(10), 6),
    ]
    for name, hands, depth in runs:
        nodes, per_second = rate(hands, depth, args.repeat)
        print(f"{name:28} depth {depth}: {nodes:>11,} nodes, {per_second:>12,.0f} nodes/s")


if __name__ == "__main__":
    main()
