"""Benchmark: BTN 2 hands read per second, one core.

Run ``python bench/bench_btn2.py [HANDS]``; it reads a transcript of HANDS copies of the
worked Bourré hand of docs/btn2.md (36 lines each; 1,000 by default) with
:func:`~baloot_conformance.family.btn.reader.read_btn2` and prints hands per second and
microseconds per hand, then the same for the statements alone and for the statements through
the Lark grammar alone (``lark_statements``, the reference front end). CPU time of this
process, the best of five rounds. Not a test: no figure here is asserted anywhere.

Until the trick rulesets' loader is merged, the table comes from the tests' stand-in
(``tests/btn2_table.py``); at the merge, swap in ``load_trick_ruleset``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from baloot_conformance.family.btn.grammar import lark_statements
from baloot_conformance.family.btn.lines import Errors, split_lines
from baloot_conformance.family.btn.reader import read_btn2
from baloot_conformance.family.btn.statements import statements

ROOT = Path(__file__).resolve().parent.parent


def transcript(hands: int) -> str:
    """The worked hand's header, then ``hands`` copies of its hand, numbered 1 up."""
    text = (ROOT / "tests" / "data" / "btn2" / "worked-hand.btn").read_text(encoding="utf-8")
    header, body = text.split("\nhand 1\n", 1)
    return header + "".join(f"\nhand {n}\n{body}" for n in range(1, hands + 1))


def best(run: Callable[[], object], rounds: int = 5) -> float:
    """The least CPU time of ``rounds`` runs, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from btn2_table import ruleset_for  # the stand-in (see above)

    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    text = transcript(hands)
    errors = Errors("bench.btn")
    figures = {
        "read_btn2": best(lambda: read_btn2(text, "bench.btn", ruleset_for)),
        "statements (fast path)": best(
            lambda: list(statements(enumerate(split_lines(text, errors), 1), errors))
        ),
        "statements (Lark alone)": best(lambda: lark_statements(text, "bench.btn"), rounds=1),
    }
    for name, seconds in figures.items():
        print(f"{name:26} {hands / seconds:10,.0f} hands/s  {seconds / hands * 1e6:7.1f} µs/hand")


if __name__ == "__main__":
    main()
