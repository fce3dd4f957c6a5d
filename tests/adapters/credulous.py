"""An engine adapter that believes every Sawa and every foul call, for testing ``judge``.

``python tests/adapters/credulous.py MODE RULES ID``: the reference adapter playing the
ruleset file ``RULES`` as ``ID``, except that

- ``believes``: it answers every ``judge`` request ``right``;
- ``deaf``: it does not declare ``judge`` (so it is never asked).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.suite.reference_adapter import ReferenceAdapter


def main() -> None:
    mode, rules, play_as = sys.argv[1:4]
    adapter = ReferenceAdapter(load_ruleset(rules), play_as)
    for line in sys.stdin:
        request: dict[str, Any] = json.loads(line)
        answer = adapter.answer(request)
        if answer is None:
            return
        if request["cmd"] == "start" and mode == "deaf":
            answer["capabilities"].remove("judge")
        if request["cmd"] == "judge" and mode == "believes":
            answer = {"seq": request["seq"], "verdict": "right", "reason": "I believe it"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
