"""An engine adapter whose answers are not a function of the request, for testing
``suite --repeat``.

``python tests/adapters/fickle.py MODE``: the reference adapter, except that

- ``again``: a ``legal`` request it has been asked before (the same request, its ``seq``
  aside) is answered without its last card when it allows more than one: an engine that
  keeps state from one request to the next, caught only when a case runs twice;
- ``random``: each ``legal`` answer with more than one card drops its last card half the
  time, drawn from an unseeded generator (an engine with unseeded randomness);
- ``shuffle``: each ``legal`` answer's cards in a random order (unseeded), which means
  nothing (a set), so the answers do not differ.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from baloot_conformance.suite.reference_adapter import ReferenceAdapter


def main() -> None:
    mode = sys.argv[1]
    adapter = ReferenceAdapter()
    seen: set[str] = set()
    for line in sys.stdin:
        request: dict[str, Any] = json.loads(line)
        answer = adapter.answer(request)
        if answer is None:
            return
        cards = answer.get("cards")
        if request["cmd"] == "legal" and isinstance(cards, list):
            key = json.dumps({k: v for k, v in request.items() if k != "seq"}, sort_keys=True)
            again = key in seen
            seen.add(key)
            if mode == "shuffle":
                random.shuffle(cards)
            elif len(cards) > 1 and (again if mode == "again" else random.random() < 0.5):
                answer["cards"] = cards[:-1]
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
