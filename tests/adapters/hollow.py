"""An engine adapter that checks nothing, for testing that such a run is never green.

``python tests/adapters/hollow.py MODE``:

- ``partial``: declares only the ``partial`` capability (no request it answers);
- ``nosuch``: declares every capability, for a ruleset ``nosuch`` that no case is under;
- ``skip``: declares saudi and every capability, and answers ``skip`` to every request.
"""

from __future__ import annotations

import json
import sys


def main() -> None:
    mode = sys.argv[1]
    rulesets = ["nosuch"] if mode == "nosuch" else ["saudi"]
    capabilities = ["partial"] if mode == "partial" else ["replay", "legal", "claims"]
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "stop":
            return
        if request["cmd"] == "start":
            answer = {
                "protocol": 1,
                "engine": {"name": f"hollow-{mode}", "version": "0"},
                "rulesets": rulesets,
                "capabilities": capabilities,
            }
        else:
            answer = {"seq": request["seq"], "skip": "not implemented"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
