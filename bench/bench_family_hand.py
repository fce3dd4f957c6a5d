"""Benchmark: random Bourré hands per second through the family phase machine, one core.

Run ``python bench/bench_family_hand.py``; it prints, at each table size and overall, random
hands per second (a session from a fixed seed: every decision from ``legal_actions``, ``push``
checking each: what ``generate`` does) and replayed hands per second (the same hands' actions
pushed again into recorded hands: what the checker does, which later needs at least 1,000
hands per second, so the machine should do several thousand). CPU time of this process, the
best of five rounds. Not a test: no figure here is asserted anywhere.

Until the Bourré ruleset and the generic obligations are merged, the hands run on the tests'
stand-ins (``tests/family_bourre_standin.py``); at the merge, swap in the loaded
``bourre`` ruleset and ``family.engine.obligations.compile_play``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from family_bourre_standin import bourre_rules, compile_play

from baloot_conformance.family.engine.hand import Play, TrickHand
from baloot_conformance.family.engine.playout import random_session

HANDS = 400


def main() -> None:
    rules = bourre_rules()
    totals = {"random": 0.0, "replayed": 0.0}
    for players in range(2, 9):
        best = {"random": float("inf"), "replayed": float("inf")}
        for _ in range(5):
            start = time.process_time()
            hands = random_session(rules, players, HANDS, compile_play, seed=players)
            best["random"] = min(best["random"], time.process_time() - start)
            start = time.process_time()
            for done in hands:
                again = TrickHand(rules, done.ledger, compile_play)
                for action in done.history:
                    again.push(action)
            best["replayed"] = min(best["replayed"], time.process_time() - start)
        plays = sum(isinstance(a, Play) for h in hands for a in h.history)
        for kind in totals:
            totals[kind] += best[kind]
        print(
            f"{players} players: {HANDS / best['random']:,.0f} random hands/s, "
            f"{HANDS / best['replayed']:,.0f} replayed hands/s "
            f"({plays / HANDS:.1f} cards a hand)"
        )
    count = HANDS * 7
    print(
        f"all tables: {count / totals['random']:,.0f} random hands/s, "
        f"{count / totals['replayed']:,.0f} replayed hands/s"
    )


if __name__ == "__main__":
    main()
