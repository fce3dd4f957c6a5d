"""An engine adapter that hangs and will not go, for testing that ``suite`` ends every process
it started when it is stopped.

``python tests/adapters/lingering.py DIR``: on start it writes ``DIR/<pid>.pid`` holding its
pid and its parent's (the kit, or one of the kit's workers), ignores SIGINT and SIGTERM
(only SIGKILL ends it), answers the handshake as the reference adapter does, and at its first
request after the handshake writes ``DIR/<pid>.hung`` and never answers.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

from baloot_conformance.suite.reference_adapter import ReferenceAdapter


def main() -> None:
    folder = Path(sys.argv[1])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    pid = os.getpid()
    (folder / f"{pid}.pid").write_text(f"{pid} {os.getppid()}\n")
    adapter = ReferenceAdapter()
    for line in sys.stdin:
        request = json.loads(line)
        if request["cmd"] == "stop":
            return
        if request["cmd"] == "start":
            sys.stdout.write(json.dumps(adapter.answer(request)) + "\n")
            sys.stdout.flush()
            continue
        (folder / f"{pid}.hung").write_text("")
        while True:
            time.sleep(3600)


if __name__ == "__main__":
    main()
