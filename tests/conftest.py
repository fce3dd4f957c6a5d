"""The test session's set-up: the package's bytecode, compiled once before any test.

The tests start hundreds of child processes (``python -m baloot_conformance ...``, the
adapters that ``suite`` drives, the scripts under ``tests/``), and from the repository's
folder each of them imports the checkout's sources. Where the environment sets
``PYTHONDONTWRITEBYTECODE`` (CI machines do), no process writes the bytecode it compiles, so
every child would compile the whole package again: about 0.4 s of CPU each. Compiling it
here once (``compileall`` writes the files whatever that variable says; Python checks each
against its source's time stamp, so an edited module is compiled afresh) leaves the children
only their own work. It changes no test's outcome, only its time.
"""

from __future__ import annotations

import compileall
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller has done it
        return
    for folder in ("baloot_conformance", "tests", "tools"):
        compileall.compile_dir(ROOT / folder, quiet=1)
