"""Benchmark: the Sawa judge (``judge_sawa``) on typical positions and on the worst cases.

Run ``python bench/bench_sawa.py [DEALS]`` (300 by default); it prints a small table of the
median and the maximum time and node count per judgement, each judgement timed as the best
of five runs (this machine's speed varies by a third from run to run). Not a test: no figure here is
asserted anywhere. Positions come from a fixed seed, eight random cards a seat under Sun,
open Hokum and locked Hokum and rulesets with different play obligations:

- typical: random play stopped with 1-5 tricks left (at a trick's start or in its middle), a
  random claimant, ``own_cards`` either way;
- 8 left, random: right after the deal or the first lead, every seat claiming, both ways;
- 8 left, strong: the same, but the claimant's side dealt mostly the strongest cards, so that
  claims are often right or nearly so: the deepest searches.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from baloot_conformance.cards import Suit
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import CardSet, Contract, Seat
from baloot_conformance.engine.play import PlayRules, play_rules
from baloot_conformance.engine.playout import random_card
from baloot_conformance.engine.sawa import SawaJudgement, judge_sawa
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset

RULESETS = ("saudi", "majlis", "saudi-federation", "gamerules", "qusaigazz-balote", "baloothub")
REPEATS = 5
Judge = Callable[[], SawaJudgement]


def contract(rng: random.Random) -> Contract:
    kind = rng.choice(("sun", "hokum", "locked"))
    if kind == "sun":
        return Contract("sun", None, 0, 0)
    suit = rng.choice(list(Suit))
    if kind == "hokum":
        return Contract("hokum", suit, 0, 0)
    return Contract("hokum", suit, 0, 0, level=2, locked=True, raisers=(1,))


def judge(
    rules: PlayRules,
    hands: list[CardSet],
    trick: tuple[int, ...],
    leader: Seat,
    done: int,
    claimant: Seat,
    own: bool,
) -> Judge:
    hands = list(hands)
    return lambda: judge_sawa(rules, hands, trick, leader, done, claimant, own)


def typical(rng: random.Random, rulesets: list[Ruleset], count: int) -> list[Judge]:
    judges = []
    for _ in range(count):
        deck = list(range(32))
        rng.shuffle(deck)
        n, w, s, e = (sum(1 << c for c in deck[8 * k : 8 * k + 8]) for k in range(4))
        hand = Hand.from_contract(rng.choice(rulesets), 3, (n, w, s, e), contract(rng))
        for _ in range(4 * (8 - rng.randint(1, 5)) + rng.randrange(4)):
            hand.push_play(random_card(hand, rng))
        assert hand.play_rules is not None
        judges.append(
            judge(
                hand.play_rules,
                hand.hands,
                hand.trick,
                hand.leader,
                hand.tricks_done,
                rng.randrange(4),
                rng.random() < 0.5,
            )
        )
    return judges


def full_hands(
    rng: random.Random, rulesets: list[Ruleset], deals: int, strong: bool
) -> list[Judge]:
    """Every seat's claim both ways, right after the deal or after the first lead."""
    judges = []
    for _ in range(deals):
        rules = play_rules(rng.choice(rulesets), contract(rng))
        deck = list(range(32))
        rng.shuffle(deck)
        seats: list[list[int]] = [[], [], [], []]
        if strong:  # the strongest cards go to N-S four times in five
            power = {c: sum(rules.winner((o, c)) for o in range(32) if o != c) for c in deck}
            deck.sort(key=lambda c: -power[c] - 3 * rng.random())
            for card in deck:
                side = (0, 2) if rng.random() < 0.8 else (1, 3)
                order = [
                    *rng.sample(side, 2),
                    *rng.sample([s for s in range(4) if s not in side], 2),
                ]
                seats[next(s for s in order if len(seats[s]) < 8)].append(card)
        else:
            seats = [deck[8 * s : 8 * s + 8] for s in range(4)]
        hands = [sum(1 << c for c in cards) for cards in seats]
        leader = rng.randrange(4)
        trick: tuple[int, ...] = ()
        if rng.random() < 0.5:  # the first lead is down
            lead = rules.legal(hands[leader], (), leader)
            card = rng.choice([c for c in range(32) if lead >> c & 1])
            hands[leader] &= ~(1 << card)
            trick = (card,)
        for claimant in range(4):
            for own in (False, True):
                judges.append(judge(rules, hands, trick, leader, 0, claimant, own))
    return judges


def measure(judges: list[Judge]) -> tuple[list[float], list[int], int]:
    """Best-of-REPEATS seconds and the node count of each judgement, and how many are right."""
    times, nodes, right = [], [], 0
    for run in judges:
        best = float("inf")
        for _ in range(REPEATS):
            start = time.perf_counter()
            verdict = run()
            best = min(best, time.perf_counter() - start)
        times.append(best)
        nodes.append(verdict.nodes)
        right += verdict.right
    return times, nodes, right


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "deals", nargs="?", type=int, default=300, help="deals per kind of position (300)"
    )
    deals = parser.parse_args().deals
    rng = random.Random(2026)
    rulesets = [load_ruleset(name) for name in RULESETS]
    cases = [
        ("typical, 1-5 left", typical(rng, rulesets, 4 * deals)),
        ("8 left, random", full_hands(rng, rulesets, deals, strong=False)),
        ("8 left, strong", full_hands(rng, rulesets, deals, strong=True)),
    ]
    print(f"{'positions':<19}{'count':>6}{'right':>7}{'median':>11}{'max':>11}"
          f"{'nodes med':>11}{'nodes max':>11}")  # fmt: skip
    for name, judges in cases:
        times, nodes, right = measure(judges)
        print(
            f"{name:<19}{len(judges):>6}{right:>7}"
            f"{statistics.median(times) * 1e3:>9.3f}ms{max(times) * 1e3:>9.1f}ms"
            f"{statistics.median(nodes):>11,.0f}{max(nodes):>11,}"
        )


if __name__ == "__main__":
    main()
