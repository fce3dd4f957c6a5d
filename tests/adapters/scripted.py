"""An engine adapter that answers from a script, for tests and fuzzing of ``suite``.

``python tests/adapters/scripted.py SCRIPT.json``: the script is a JSON object
``{"start": ACTION, "answers": [ACTION, ...], "then": ACTION}``. The handshake is answered by
``start``, the n-th request after it by ``answers[n]`` and every later one by ``then``
(default: close). An action is one of

- ``{"answer": VALUE}``: VALUE written as one JSON line (ASCII, so a lone surrogate arrives as
  its ``\\ud800`` escape); a string ``"$seq"`` anywhere in it becomes the request's seq;
- ``{"line": TEXT}``: TEXT written as it stands, encoded with ``surrogatepass`` (so it may be
  bytes that are not UTF-8), then a newline;
- ``{"close": true}``: exit 0 without answering; ``{"exit": N}``: exit N;
- ``{"hang": true}``: never answer (the kit's timeout ends it).

Every process reads the script afresh, so the engine the kit restarts after a failure
follows it again from its start.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any


def _filled(value: Any, seq: Any) -> Any:
    if value == "$seq":
        return seq
    if isinstance(value, list):
        return [_filled(v, seq) for v in value]
    if isinstance(value, dict):
        return {k: _filled(v, seq) for k, v in value.items()}
    return value


def _act(action: dict[str, Any], seq: Any) -> None:
    out = sys.stdout.buffer
    if "answer" in action:
        out.write(json.dumps(_filled(action["answer"], seq)).encode("ascii") + b"\n")
    elif "line" in action:
        out.write(action["line"].encode("utf-8", "surrogatepass") + b"\n")
    elif "exit" in action:
        sys.exit(int(action["exit"]))
    elif action.get("hang"):
        time.sleep(3600)
    else:
        sys.exit(0)
    out.flush()


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        script = json.load(handle)
    answers = list(script.get("answers", []))
    then = script.get("then", {"close": True})
    count = 0
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("cmd") == "stop":
            return
        if request.get("cmd") == "start":
            _act(script["start"], None)
            continue
        action = answers[count] if count < len(answers) else then
        count += 1
        _act(action, request.get("seq"))


if __name__ == "__main__":
    main()
