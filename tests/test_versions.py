"""Version discipline: a ruleset's verdicts never change within a major version.

The verdicts of every shipped ruleset on a fixed corpus (the fixture and example transcripts,
and the witness hands of docs/disagreements.md) are recorded per ruleset version in
``tests/data/verdicts.json``. Replaying the corpus under the current rulesets must give the
recorded verdicts whenever the major version is the one recorded. After a deliberate change,
bump the major version of the ruleset and refresh the record:

    .venv/bin/python tests/test_versions.py --write

(a kit bug fix that changes verdicts refreshes the record in the same commit, and says so).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from baloot_conformance.compare.disagreements import committed_witnesses
from baloot_conformance.compare.witness import verdicts
from baloot_conformance.corpus.fixtures import baloot_fixture_files
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "data" / "verdicts.json"


def corpus() -> list[tuple[str, str]]:
    files = sorted([*baloot_fixture_files(ROOT / "fixtures"), *ROOT.glob("examples/*.btn")])
    texts = [(str(f.relative_to(ROOT)), f.read_text(encoding="utf-8")) for f in files]
    page = (ROOT / "docs" / "disagreements.md").read_text(encoding="utf-8")
    for (rule_id, ruleset_id), text in sorted(committed_witnesses(page).items()):
        texts.append((f"witness {rule_id} {ruleset_id}", text))
    return texts


def fingerprint(ruleset: Ruleset, texts: list[tuple[str, str]]) -> str:
    """A digest of each hand's status and root divergence (rule and position) under
    ``ruleset``: what a version must keep."""
    lines = []
    for name, text in texts:
        for verdict in verdicts(text, ruleset):
            root = next((d for d in verdict.divergences if d.root), None)
            where = f"{root.position} {root.rule_id}" if root else ""
            lines.append(f"{name} {verdict.position} {verdict.status} {where}")
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def current() -> dict[str, dict[str, str]]:
    texts = corpus()
    found = {}
    for name in shipped_rulesets():
        ruleset = load_ruleset(name)
        found[name] = {"version": ruleset.version, "verdicts": fingerprint(ruleset, texts)}
    return found


def test_verdicts_change_only_with_a_major_version() -> None:
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    problems = []
    for name, now in current().items():
        before = recorded.get(name)
        if before is None:
            problems.append(f"{name} {now['version']} is not recorded yet")
            continue
        same_major = before["version"].split(".")[0] == now["version"].split(".")[0]
        if same_major and before["verdicts"] != now["verdicts"]:
            problems.append(
                f"{name}: verdicts changed from {before['version']} to {now['version']} "
                "without a major version bump"
            )
        elif not same_major:
            problems.append(f"{name}: major version {now['version']} is not recorded yet")
    assert not problems, "\n".join(problems) + "\nsee this module's docstring"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_versions.py --write")
    RECORD.write_text(json.dumps(current(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {RECORD}")
