"""``infer`` on a real engine's logged match names that engine's profile first: the four
public engines' logs (tests/data/peer-logs), each imported with its importer, are explained
best by the profile written for the engine, and only by it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from baloot_conformance import btn
from baloot_conformance.compare.inference import infer
from baloot_conformance.importers import import_file
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets

LOGS = Path(__file__).parent / "data" / "peer-logs"
ALL = [load_ruleset(name) for name in shipped_rulesets()]

#: One logged match per engine (the importer's name is the profile's id).
MATCHES = {
    "tazjel": "tazjel/t2.json.gz",
    "majlis": "majlis/m2.json.gz",
    "bloot352": "bloot352/x3.json.gz",
}


@pytest.mark.parametrize("engine", list(MATCHES))
def test_infer_names_the_engines_profile_first(engine: str) -> None:
    path = LOGS / MATCHES[engine]
    with btn.TranscriptReader(io.StringIO(import_file(engine, path)), path.name) as reader:
        result = infer([(path.name, list(reader))], ALL, ())
    me = load_ruleset(engine)
    assert result.best == (f"{me.id}@{me.version}",)
    top, runner_up = result.ranking[:2]
    assert top.failed == 0 < runner_up.failed
