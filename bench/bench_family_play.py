"""Benchmark: decide calls per second, the generic trick engine against Baloot's PlayRules.

Run ``python bench/bench_family_play.py [--repeat R]``; it prints, best of R runs (5 by
default), the calls per second of ``PlayRules.decide`` (``engine/play.py``) and of the generic
``PlayTable.decide`` (``family/engine/obligations.py``) compiled from
``tests/data/baloot-as-trick.yaml`` (saudi's reading), on the same positions: a player's
remaining cards (1-8) and a trick prefix of 0-3 cards, in Sun, open Hokum, raised Hokum and
locked Hokum, dealt from a fixed seed. The generic figure is given with the context built
beforehand (what a checker holds for a card) and with it built in the call. Not a test:
nothing here is asserted.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from baloot_conformance.cards import Suit
from baloot_conformance.engine.model import Contract
from baloot_conformance.engine.play import PlayRules
from baloot_conformance.family.engine.deck import Ring, build_pack
from baloot_conformance.family.engine.obligations import (
    Context,
    ContractKey,
    PlayTable,
    play_table,
)
from baloot_conformance.family.rules import model as fm
from baloot_conformance.family.rules.play_build import build_play
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import _build, type_hints

DOCUMENT = Path(__file__).parent.parent / "tests" / "data" / "baloot-as-trick.yaml"
CONTRACTS = (
    Contract("sun", None, 0, 0),
    Contract("hokum", Suit.SPADES, 0, 0),
    Contract("hokum", Suit.HEARTS, 1, 1, level=2),
    Contract("hokum", Suit.CLUBS, 1, 1, locked=True),
)
Position = tuple[PlayRules, PlayTable, int, tuple[int, ...], int, Context]


def generic_tables() -> tuple[list[PlayTable], Ring]:
    """The generic tables of :data:`CONTRACTS`, read from the document (saudi's reading)."""
    doc: dict[str, Any] = yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))
    hints = type_hints(fm.TableSection)
    table = fm.TableSection(
        **{
            f.name: _build(hints[f.name], doc["table"][f.metadata["key"]], f.name, f.metadata)
            for f in dataclasses.fields(fm.TableSection)
        }
    )
    pack = build_pack(table.deck, table.order_plain, table.order_trump or table.order_plain)
    ring = Ring.of_table(table.seats.names, table.direction.option, teams=True)
    play = build_play(doc["play"], tuple(doc["contracts"]))
    keys = [ContractKey(c.kind, c.trump_index, c.locked, c.level > 1) for c in CONTRACTS]
    return [play_table(play, pack, key) for key in keys], ring


def positions(count: int, seed: int = 2028) -> list[Position]:
    """``count`` random positions: (Baloot's table, the generic one, hand, trick, leader,
    context)."""
    rng = random.Random(seed)
    rules = load_ruleset("saudi")
    baloot = [PlayRules(rules, c) for c in CONTRACTS]
    generic, ring = generic_tables()
    result: list[Position] = []
    for _ in range(count):
        deck = list(range(32))
        rng.shuffle(deck)
        hands = [deck[8 * s : 8 * s + 8] for s in range(4)]
        leader = rng.randrange(4)
        n = rng.randrange(4)
        trick = tuple(hands[(leader + i) % 4][0] for i in range(n))
        player = (leader + n) % 4
        hand = sum(1 << c for c in hands[player][: rng.randint(1, 8)])
        k = rng.randrange(len(CONTRACTS))
        context = Context(tuple((leader + i) % 4 for i in range(n + 1)), ring)
        result.append((baloot[k], generic[k], hand, trick, leader, context))
    return result


def best_of(repeat: int, run: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--positions", type=int, default=20_000)
    args = parser.parse_args()
    sample = positions(args.positions)
    ring = sample[0][5].ring

    def baloot() -> None:
        for rules, _, hand, trick, _, _ in sample:
            rules.decide(hand, trick)

    def generic() -> None:
        for _, table, hand, trick, _, context in sample:
            table.decide(hand, trick, context)

    def generic_context() -> None:
        for _, table, hand, trick, leader, _ in sample:
            seats = tuple((leader + i) % 4 for i in range(len(trick) + 1))
            table.decide(hand, trick, Context(seats, ring))

    n = len(sample)
    b = best_of(args.repeat, baloot)
    g = best_of(args.repeat, generic)
    c = best_of(args.repeat, generic_context)
    print(f"PlayRules.decide (Baloot):     {n / b:>11,.0f} calls/s ({b / n * 1e6:.2f} µs)")
    print(f"PlayTable.decide (generic):    {n / g:>11,.0f} calls/s ({g / n * 1e6:.2f} µs)")
    print(f"  with its context built:      {n / c:>11,.0f} calls/s ({c / n * 1e6:.2f} µs)")
    print(f"generic / Baloot:              {b / g:.2f}x the speed ({g / b:.1f}x the time)")


if __name__ == "__main__":
    main()
