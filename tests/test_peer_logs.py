"""Two public engines' match logs, imported and checked hand for hand under their profiles.

Every hand of every logged match must pass under the engine's profile, except the hands where
the engine breaks its own rules; those are listed here and in the profile's notes, and must fail
exactly there. The default run checks a sample; ``-m peer_logs`` checks every log (CI runs
both).
"""

from __future__ import annotations

import io
import re
from functools import cache
from pathlib import Path

import pytest

from baloot_conformance.btn import TranscriptReader
from baloot_conformance.check.run import check_hands
from baloot_conformance.cli import main
from baloot_conformance.importers import import_file
from baloot_conformance.rules.loading import load_ruleset

LOGS = Path(__file__).parent / "data" / "peer-logs"
#: Each profile loaded once for the logs' tests, not once per log.
ruleset_named = cache(load_ruleset)

#: Hands where the engine breaks its own rules, by engine and seed: the hand and the defect the
#: profile lists for it (``defects:``), which makes the hand ``known-defect``.
ENGINE_DEFECTS = {
    ("tazjel", 50): ("h2", "random-first-dealer"),
    ("tazjel", 55): ("h2", "random-first-dealer"),
}

#: The sample of the default run: logs that show the readings the profiles encode.
SAMPLE = {
    "majlis": (12, 14, 28, 30, 61, 97),  # no reverse Kaboot; lock; tie; Four; risk pile; Gahwa
    "tazjel": (2, 10, 18, 24, 50, 52),  # Gablak; shared cards; swept projects; defect; blocking
}


def _seed(path: Path) -> int:
    return int(re.sub(r"\D", "", path.name.split(".")[0]))


def _logs(engine: str) -> list[Path]:
    return sorted((LOGS / engine).glob("*.json.gz"), key=_seed)


def _params() -> list[object]:
    params: list[object] = []
    for engine in ("majlis", "tazjel"):
        for path in _logs(engine):
            sampled = _seed(path) in SAMPLE[engine]
            marks = () if sampled else (pytest.mark.peer_logs,)
            params.append(pytest.param(engine, path, id=f"{engine}-{_seed(path)}", marks=marks))
    return params


def test_the_logs_are_there() -> None:
    # 60 matches from the first drive (seeds 2-31) and 60 driven later (seeds 32-91); for
    # majlis also seed 97, the first seed after them whose match has a Gahwa.
    assert [_seed(p) for p in _logs("majlis")] == [*range(2, 92), 97]
    assert [_seed(p) for p in _logs("tazjel")] == list(range(2, 92))


def test_a_majlis_coffee_is_imported_as_gahwa() -> None:
    """majlis-baloot logs a Gahwa as its 'coffee' call (seed 97, round 8); it is the raise
    gahwa, and the hand passes under majlis (the match is checked whole above)."""
    text = import_file("majlis", LOGS / "majlis" / "m97.json.gz")
    hand = text.split("\nhand 8\n")[1].split("\nhand 9\n")[0]
    raises = [line for line in hand.split("\n") if line.startswith("raise ")]
    assert raises == ["raise S double open", "raise W triple", "raise S four open", "raise W gahwa"]
    assert "= contract W hokum D x4 open" in hand


@pytest.mark.parametrize(("engine", "path"), _params())
def test_every_hand_passes_under_the_engines_profile(engine: str, path: Path) -> None:
    with TranscriptReader(io.StringIO(import_file(engine, path)), path.name) as reader:
        verdicts = list(check_hands(reader, path.name, ruleset_named(engine)))
    assert verdicts and all(v.status != "error" for v in verdicts)
    failed = {v.position: (v.status, v.defects) for v in verdicts if v.status != "pass"}
    defect = ENGINE_DEFECTS.get((engine, _seed(path)))
    assert failed == ({defect[0]: ("known-defect", (defect[1],))} if defect else {})


def test_engine_defects_are_listed_in_the_profile_with_their_witness() -> None:
    for (engine, seed), (hand, defect_id) in ENGINE_DEFECTS.items():
        defect = next(d for d in load_ruleset(engine).defects if d.id == defect_id)
        assert str(seed) in defect.witness and f"hand {hand[1:]}" in defect.witness


@pytest.mark.parametrize("engine", ["majlis", "tazjel"])
def test_imported_transcripts_are_canonical_and_name_their_profile(
    engine: str, tmp_path: Path
) -> None:
    log = _logs(engine)[0]
    out = tmp_path / "match.btn"
    assert main(["import", "--from", engine, str(log), "-o", str(out)]) == 0
    assert main(["fmt", "--check", str(out)], io.StringIO(), io.StringIO()) == 0
    assert f'[Ruleset "{engine}@{load_ruleset(engine).version.split(".")[0]}"]' in out.read_text(
        encoding="utf-8"
    )
