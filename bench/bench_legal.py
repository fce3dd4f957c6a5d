"""Benchmark: legal-card calls per second (PlayRules.legal) over random mid-hand positions.

Run ``python bench/bench_legal.py``; it prints the figure for the issue notes (the target is at
least 250,000 calls per second on one core). Not a test: no figure here is asserted anywhere.
Positions are dealt from a fixed seed: a player's remaining cards (1-8 of their eight) and a
trick prefix of 0-3 cards from the other hands, in Sun, open Hokum and locked Hokum.
"""

from __future__ import annotations

import random
import time

from baloot_conformance.cards import Suit
from baloot_conformance.engine.model import CardSet, Contract
from baloot_conformance.engine.play import PlayRules
from baloot_conformance.rules.loading import load_ruleset

Position = tuple[PlayRules, CardSet, tuple[int, ...], int]


def positions(count: int, seed: int = 2026) -> list[Position]:
    """``count`` random positions: (rules, hand, trick, leader)."""
    rng = random.Random(seed)
    rulesets = [load_ruleset(name) for name in ("saudi", "majlis", "saudi-federation")]
    contracts = [
        Contract("sun", None, 0, 0),
        Contract("hokum", Suit.SPADES, 0, 0),
        Contract("hokum", Suit.HEARTS, 1, 1, locked=True),
    ]
    tables = [PlayRules(rs, c) for rs in rulesets for c in contracts]
    result: list[Position] = []
    for _ in range(count):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [deck[8 * s : 8 * s + 8] for s in range(4)]
        leader = rng.randrange(4)
        n = rng.randrange(4)
        trick = tuple(hands[(leader + i) % 4][0] for i in range(n))
        player = (leader + n) % 4
        mine = hands[player][: rng.randint(1, 8)]
        hand = sum(1 << c for c in mine)
        result.append((rng.choice(tables), hand, trick, leader))
    return result


def main() -> None:
    sample = positions(20_000)
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for rules, hand, trick, leader in sample:
            rules.legal(hand, trick, leader)
        best = min(best, time.perf_counter() - start)
    print(f"PlayRules.legal: {len(sample) / best:,.0f} calls/s ({best / len(sample) * 1e6:.2f} µs)")


if __name__ == "__main__":
    main()
