"""An engine adapter that misbehaves on purpose, for testing ``suite``'s robustness.

``python tests/adapters/misbehave.py MODE [N]``: the reference adapter, except that its N-th
request after the handshake (default 3) goes wrong as MODE says:

- ``hang``: never answers; ``crash``: a traceback on stderr, exit 3;
- ``garbage``: a line that is not JSON; ``noise``: a log line on stdout before the answer;
- ``flood``: a line of 20 MiB without an end; ``lines``: thousands of extra lines;
- ``order``: the wrong seq; ``field``: a legal answer with a card that does not exist;
- ``skip``, ``refuse``: answers ``skip`` or ``error``;
- ``reject``: rejects a legal event in every ``replay``; ``claims``: a claim with a field of
  the wrong type in every ``claims`` answer;
- ``nostart``: exits before the handshake.

Every engine process counts its own requests, so the fresh engine the kit starts after a
failure misbehaves again at its own N-th request.
"""

from __future__ import annotations

import json
import sys
import time

from baloot_conformance.suite.reference_adapter import ReferenceAdapter


def main() -> None:
    mode = sys.argv[1]
    when = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    if mode == "nostart":
        print("cannot find my engine library", file=sys.stderr)
        sys.exit(1)
    adapter = ReferenceAdapter()
    count = 0
    for line in sys.stdin:
        request = json.loads(line)
        answer = adapter.answer(request)
        if answer is None:
            return
        if request["cmd"] != "start":
            count += 1
        if count == when:
            if mode == "hang":
                time.sleep(3600)
            elif mode == "crash":
                print("Traceback (most recent call last):\nValueError: boom", file=sys.stderr)
                sys.exit(3)
            elif mode == "garbage":
                sys.stdout.write("hello, I am an engine\n")
            elif mode == "flood":
                sys.stdout.write("x" * (20 * 1024 * 1024))
            elif mode == "lines":
                for _ in range(5000):
                    sys.stdout.write(json.dumps(answer) + "\n")
            elif mode == "order":
                answer["seq"] += 1
            elif mode == "field" and request["cmd"] == "legal":
                answer["cards"] = ["1X"]
            elif mode == "noise":
                sys.stdout.write("debug: thinking...\n")
            elif mode == "skip":
                answer = {"seq": request["seq"], "skip": "not yet", "issue": "https://x.test/1"}
            elif mode == "refuse":
                answer = {"seq": request["seq"], "error": "KeyError: 'dealer'"}
        if mode == "reject" and request["cmd"] == "replay":
            answer = {"seq": request["seq"], "accepted": False, "hand": 1, "event": 9}
        if mode == "claims" and request["cmd"] == "claims":
            answer["claims"][1]["winner"] = 4
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
