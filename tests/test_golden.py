"""Baloot is frozen while the trick-taking family joins the kit (issue 28): its reports byte
for byte, its rulesets' digests, its schemas, grammars and ruleset files, and a Baloot check
loads no module of the family.

The reports are ``tools/golden.py``'s (its docstring says what they cover, what is masked and
when a refresh is legitimate); the manifest (``tests/data/golden/manifest.json``) names the
rulesets, files and transcripts that are frozen, so a ruleset, fixture or file added later
(Bourré's) changes nothing here. A Baloot ruleset added later must be pinned: the manifest
must name every shipped ruleset of format ``baloot-ruleset/1``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import golden  # noqa: E402

from baloot_conformance.resources import data_root  # noqa: E402
from baloot_conformance.rules.loading import load_ruleset  # noqa: E402

MANIFEST = golden.load_manifest()
INPUTS = golden.Inputs.of(MANIFEST)
UNITS = golden.units(INPUTS)
REFRESH = (
    "\nBaloot is frozen (issue 28): no change of the trick-taking family may move a byte of "
    "it. Only a deliberate change of Baloot refreshes the record, with the ruleset's major "
    "version bumped where its verdicts change: python tools/golden.py --write (its docstring "
    "says when)."
)


def test_every_baloot_ruleset_is_pinned() -> None:
    shipped = golden.baloot_rulesets()
    pinned = MANIFEST["rulesets"]
    unpinned = sorted(set(shipped) - set(pinned))
    gone = sorted(set(pinned) - set(shipped))
    assert not unpinned and not gone, (
        f"shipped Baloot rulesets ({golden.BALOOT_FORMAT}) not pinned in "
        f"{golden.MANIFEST.relative_to(ROOT)}: {', '.join(unpinned) or 'none'}; pinned but no "
        f"longer shipped: {', '.join(gone) or 'none'}" + REFRESH
    )
    moved = {n: golden.data_file(shipped[n]) for n in pinned if n in shipped}
    assert moved == {n: pin["file"] for n, pin in pinned.items()}


def test_the_digests_of_baloots_rulesets_are_unchanged() -> None:
    changed = []
    for name, pin in MANIFEST["rulesets"].items():
        ruleset = load_ruleset(name)
        if (ruleset.version, ruleset.digest) != (pin["version"], pin["digest"]):
            changed.append(
                f"{name}: {pin['version']} {pin['digest']} is now "
                f"{ruleset.version} {ruleset.digest}"
            )
    assert not changed, "ruleset digests changed:\n" + "\n".join(changed) + REFRESH


def test_baloots_schemas_grammars_and_ruleset_files_are_frozen() -> None:
    changed = []
    for file, digest in MANIFEST["frozen"].items():
        path = data_root() / file
        now = golden.sha256(path.read_bytes()) if path.exists() else "(missing)"
        if now != digest:
            changed.append(f"{file}: sha256 {digest} is now {now}")
    assert not changed, (
        "Baloot's files are frozen, and these changed:\n"
        + "\n".join(changed)
        + "\nThe trick-taking family adds its own schema, grammar and ruleset files beside "
        "these and never edits them; put the change in a file of the family." + REFRESH
    )
    assert set(golden.FROZEN) <= set(MANIFEST["frozen"])


def test_the_frozen_witnesses_are_the_pages() -> None:
    on_page = golden.page_witnesses()
    missing = [
        f"{rule} ({ruleset})"
        for rule, ruleset in INPUTS.witnesses
        if (rule, ruleset) not in on_page
    ]
    assert not missing, (
        "witnesses of docs/disagreements.md the golden reports check are gone from the page: "
        + ", ".join(missing)
        + REFRESH
    )


def test_the_stored_reports_are_the_manifests() -> None:
    for name, entry in MANIFEST["reports"].items():
        data = golden.stored_report(name)
        assert golden.sha256(data) == entry["sha256"], f"{entry['file']} is not the manifest's"
        assert len(data.splitlines()) == entry["records"]
    kept = {p.name for p in golden.GOLDEN.glob("*.jsonl.xz")}
    assert kept == {entry["file"] for entry in MANIFEST["reports"].values()}


@pytest.mark.parametrize("unit", UNITS, ids=[unit[0] for unit in UNITS])
def test_the_reports_are_byte_identical(unit: golden.Unit) -> None:
    name = unit[0]
    expected = {
        report: entry
        for report, entry in MANIFEST["reports"].items()
        if report == name or report.startswith(name + ".")
    }
    runs = golden.run_unit(INPUTS, unit)
    assert sorted(runs) == sorted(expected)
    problems = []
    for report, run in runs.items():
        entry = expected[report]
        if golden.sha256(run.report) != entry["sha256"]:
            problems.append(golden.difference(report, golden.stored_report(report), run.report))
        if run.inputs != entry["inputs"]:
            problems.append(
                f"{report}: the transcripts it checks are not the pinned ones (sha256 "
                f"{entry['inputs']} is now {run.inputs}): a fixture, example or witness was "
                "edited, or generate's or an importer's output changed"
            )
        if (run.exit, run.stderr) != (entry["exit"], entry["stderr"]):
            problems.append(
                f"{report}: exit {entry['exit']} and standard error {entry['stderr']!r} are "
                f"now exit {run.exit} and {run.stderr!r}"
            )
    assert not problems, "\n\n".join(problems) + REFRESH


def test_a_changed_report_is_shown_by_its_file_hand_and_field() -> None:
    """The message of a mismatch names the report, the file and hand of the first record that
    differs, and each differing field with both values."""
    stored = golden.stored_report("fixtures")
    lines = stored.splitlines()
    at = next(i for i, line in enumerate(lines) if b'"rule_id":"play.hokum.overruff"' in line)
    record = json.loads(lines[at])
    record["divergences"][0]["message"] = "changed"
    lines[at] = json.dumps(record, separators=(",", ":")).encode()
    shown = golden.difference("fixtures", stored, b"\n".join(lines) + b"\n")
    assert f"1 of {len(lines)} stored records differ" in shown
    assert f"record {at + 1}, hand {record['position']} of {record['path']}" in shown
    assert "/divergences/0/message" in shown and '"changed"' in shown
    shorter = golden.difference("fixtures", stored, b"\n".join(stored.splitlines()[:-1]))
    assert f"record {len(lines)} is missing now: summary record" in shorter


def test_a_baloot_check_loads_no_family_module() -> None:
    """A fresh interpreter checks Baloot transcripts (a failing hand, so the reference path
    runs, and a passing one, for the fast lane); ``-X importtime`` lists every module it
    imported, from start-up to exit. None is of ``baloot_conformance.family``, and the ones a
    check needs are there (so the list is real)."""
    argv = [sys.executable, "-X", "importtime", "-m", "baloot_conformance", "check"]
    argv += ["--jobs", "1", "--format", "json", "examples/nonconforming-game.btn"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr[-2000:]
    assert '"record":"summary"' in done.stdout and '"failed":2' in done.stdout
    loaded = set(re.findall(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", done.stderr, re.M))
    ours = {name for name in loaded if name.split(".")[0] == "baloot_conformance"}
    needed = {
        "baloot_conformance.engine.hand",
        "baloot_conformance.check.hand_check",
        "baloot_conformance.check.fast_lane",
        "baloot_conformance.report.jsonl",
        "baloot_conformance.rules.loading",
    }
    assert needed <= ours, sorted(ours)
    family = sorted(
        n
        for n in ours
        if n == "baloot_conformance.family" or n.startswith("baloot_conformance.family.")
    )
    assert not family, f"a Baloot check imported the trick-taking family: {family}"
