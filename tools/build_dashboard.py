"""Build the example conformance dashboard (``docs/dashboard/``) from the four public engines'
logged matches.

    .venv/bin/python tools/build_dashboard.py [--to DIR]

For each engine a fixed sample of its logged matches (``tests/data/peer-logs/``; the same
matches the default test run checks) is imported with ``baloot-conformance import``, checked
with ``check --format json`` under the engine's own profile (the transcripts' ``[Ruleset]``
tag) and under the default ``saudi``, and the eight reports make the site, each engine
named with the commit its logs were made at: a row per engine and ruleset, so that the
matrix shows where each engine passes but for known defects, and, area by area, how it
departs from the default reading. Everything runs in a temporary folder with relative paths,
so the site holds no absolute path and the same sources give the same bytes
(``tests/test_dashboard.py`` rebuilds it and compares).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
from pathlib import Path

from baloot_conformance.cli import main

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "data" / "peer-logs"
OUT = ROOT / "docs" / "dashboard"

#: Each engine: its importer, its name and the commit of its logs, the log files' prefix
#: and the seeds of the sample.
ENGINES = (
    ("majlis", "majlis-baloot@4bb936fd20b7", "m", (12, 14, 28, 30, 61, 97)),
    ("tazjel", "tazjel/baloot-ai@1c20390d3b21", "t", (2, 10, 18, 24, 50, 52)),
    ("bloot7", "7oossam/bloot@a75647faa8fd", "b", (1, 4, 6, 8, 12, 13, 16, 24)),
    ("bloot352", "mohamed352/bloot@f4cf4ac18650", "x", (1, 2, 16, 20)),
)

NOTE = (
    "Built by tools/build_dashboard.py from the logged matches of four public engines: "
    "a fixed sample of each one's logs (majlis-baloot seeds 12, 14, 28, 30, 61, 97; "
    "tazjel/baloot-ai 2, 10, 18, 24, 50, 52; 7oossam/bloot 1, 4, 6, 8, 12, 13, 16, 24; "
    "mohamed352/bloot 1, 2, 16, 20), imported with 'baloot-conformance import' and checked "
    "under the engine's own profile and under the default saudi: a row for each. Under its "
    "profile each engine passes but for the defects the profile lists; under saudi the "
    "cells show, rule area by rule area, where its reading departs from the default."
)


def _run(*argv: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    if code not in (0, 1):  # 1: a check that finds divergences, which is the point
        raise SystemExit(f"{' '.join(argv)} exited {code}:\n{err.getvalue()}")


def build(to: Path) -> None:
    """Build the site into ``to``."""
    to = to.resolve()
    here = Path.cwd()
    with tempfile.TemporaryDirectory() as work:
        os.chdir(work)
        try:
            reports: list[str] = []
            labels: list[str] = []
            for importer, label, prefix, seeds in ENGINES:
                logs = [str(LOGS / importer / f"{prefix}{seed}.json.gz") for seed in seeds]
                _run("import", "--from", importer, *logs, "-o", f"{importer}/")
                for name, ruleset in (
                    (importer, ()),
                    (f"{importer}-saudi", ("--ruleset", "saudi")),
                ):
                    report = f"reports/{name}.jsonl"
                    Path("reports").mkdir(exist_ok=True)
                    _run("check", f"{importer}/", *ruleset, "--format", "json", "-o", report)
                    reports.append(report)
                    labels += ["--engine", f"{report}={label}"]
            _run(
                "dashboard", *reports, *labels, "--to", str(to), "--note", NOTE,
                "--diagrams", "2", "--quiet",
            )  # fmt: skip
        finally:
            os.chdir(here)


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--to", type=Path, default=OUT, help=f"the folder (default {OUT})")
    args = parser.parse_args(argv)
    build(args.to)
    return 0


if __name__ == "__main__":
    sys.exit(main_())
