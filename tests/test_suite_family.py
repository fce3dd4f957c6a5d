"""The adapter protocol's version 2: ``suite`` drives an engine over the trick family's fixtures
(BTN 2) and judges it against each fixture's own reading (``docs/protocol.md``, Version 2).

The family reference adapter passes every case of every fixture ``family_fixture_paths()``
finds (Bourré's, and Barbu's and Hearts' once they are there); deviant adapters
(``tests/data/family_deviant_adapter.py``) fail exactly the cases their deviation reaches; a
version 1 engine and version 1's runs are as before.
"""

from __future__ import annotations

import dataclasses
import io
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

from baloot_conformance.cli import main
from baloot_conformance.corpus.family_fixtures import (
    family_fixture_paths,
    load_family_fixture,
    readings,
)
from baloot_conformance.suite import protocol2
from baloot_conformance.suite.family_cases import family_cases
from baloot_conformance.suite.family_reference_adapter import FamilyReferenceAdapter

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
REFERENCE2 = f"{PYTHON} -m baloot_conformance.suite.reference_adapter --protocol 2"
REFERENCE1 = f"{PYTHON} -m baloot_conformance.suite.reference_adapter"
DEVIANT = f"{PYTHON} {ROOT / 'tests/data/family_deviant_adapter.py'}"
PATHS = family_fixture_paths()


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["suite", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def case_records(text: str) -> dict[str, dict[str, Any]]:
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    return {r["id"]: r for r in lines if r["record"] == "case"}


def summary(text: str) -> dict[str, Any]:
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    found: dict[str, Any] = next(r for r in lines if r["record"] == "summary")
    return found


@cache
def reference_run() -> tuple[int, str]:
    """Every fixture under its own ruleset (the other readings: the deviant run's)."""
    own = ",".join(f"={load_family_fixture(path).id}" for path in PATHS)
    code, out, _ = run(
        "--engine", REFERENCE2, "--jobs", "2", "--format", "json", "--fixtures", own
    )  # fmt: skip
    return code, out


@cache
def expectations() -> dict[str, Any]:
    """Each family case's id and the reading it is judged against."""
    found = {}
    for path in PATHS:
        fixture = load_family_fixture(path)
        for ruleset_id, expect in readings(fixture).items():
            case_id = (
                fixture.id if ruleset_id == fixture.ruleset_id else f"{fixture.id}@{ruleset_id}"
            )
            found[case_id] = expect
    return found


def test_the_family_corpus_is_there() -> None:
    bourre = [p for p in PATHS if p.parent.parent.name == "bourre"]
    assert len(bourre) >= 80
    assert {c.id for c in family_cases()} == set(expectations())


def test_the_reference_adapter_passes_every_fixture() -> None:
    """One green run over every fixture (one test: a run in each test worker would double
    its cost)."""
    code, out = reference_run()
    assert code == 0, out[-3000:]
    totals = summary(out)
    assert totals["ok"] is True and totals["pass"] >= 80 + 70 + 30
    header = json.loads(out.splitlines()[0])
    assert header["engine"]["name"] == "baloot-conformance family reference"
    records = case_records(out)
    games = set()
    for path in PATHS:
        fixture = load_family_fixture(path)
        record = records[fixture.id]
        assert record["ruleset"] == fixture.ruleset_id, fixture.id
        games.add(path.parent.parent.name)
        if fixture.expect.syntax_error is not None:  # a notation test: nothing to send
            assert record["verdict"] == "skip", record
        else:
            assert record["verdict"] == "pass", record
            assert record["requests"] >= 1, record
    assert games == {"bourre", "barbu", "hearts"}


def test_a_deviant_replay_fails_exactly_the_cases_of_its_rule() -> None:
    rule = "play.head"
    code, out, _ = run(
        "--engine", f"{DEVIANT} --accept {rule}", "--jobs", "2", "--format", "json",
        "--fixtures", "*head*,bourre.play.follow_suit.*,bourre.play.overruff.*",
    )  # fmt: skip
    records = case_records(out)
    reached = {i for i, e in expectations().items() if e.rule == rule and i in records}
    assert reached, "no fixture breaks play.head"
    failed = {i for i, r in records.items() if r["verdict"] not in ("pass", "skip")}
    assert failed == reached
    for case_id, record in records.items():  # every reading of these fixtures is asked
        if record["verdict"] == "skip":
            assert expectations()[case_id].syntax_error is not None
    assert any("@" in case_id for case_id in records)
    for case_id in reached:
        failure = records[case_id]["failure"]
        assert failure["observable"] == "replay"
        assert failure["rule"] == rule
        assert failure["position"] == expectations()[case_id].position
        assert failure["expected"] == "rejected"
    assert code == 1
    assert summary(out)["ok"] is False


def test_an_engine_that_lets_a_heart_be_led_in_barbu_fails_exactly_those_cases() -> None:
    """The issue's deviant: an engine that lets a heart (the King among them) be led in no
    hearts and no King of hearts fails the Barbu cases of that rule, at their position, and
    passes the others it is run on."""
    rule = "play.hearts_lead"
    code, out, _ = run(
        "--engine", f"{DEVIANT} --accept {rule}", "--jobs", "2", "--format", "json",
        "--fixtures", "barbu*hearts_lead*,barbu*barbu_lead*,barbu.play.follow_suit.*",
    )  # fmt: skip
    records = case_records(out)
    reached = {i for i, e in expectations().items() if e.rule == rule and i in records}
    assert reached, "no Barbu fixture breaks play.hearts_lead"
    assert any(case_id.startswith("barbu-seed.") for case_id in reached)  # the seed's K♥ hand
    failed = {i for i, r in records.items() if r["verdict"] not in ("pass", "skip")}
    assert failed == reached
    for case_id in reached:
        failure = records[case_id]["failure"]
        assert failure["rule"] == rule and failure["position"] == expectations()[case_id].position
    assert code == 1


def test_a_wrong_claim_fails_at_the_claims() -> None:
    code, out, _ = run(
        "--engine", f"{DEVIANT} --score", "--format", "json", "--jobs", "1", "--ruleset", "bourre",
        "--fixtures", "bourre.scoring.*,bourre.play.head.*",
    )  # fmt: skip
    records = case_records(out)
    assert code == 1
    for case_id, record in records.items():
        expect = expectations()[case_id]
        if expect.position is None:  # every hand played out: its claims are asked for
            assert record["verdict"] == "fail", record
            assert record["failure"]["observable"] == "claims"
            assert record["failure"]["position"].endswith(".score")
            assert record["failure"]["rule"] == "scoring.outcome"


def test_a_wrong_legal_set_fails_at_the_card() -> None:
    code, out, _ = run(
        "--engine", f"{DEVIANT} --all-cards", "--format", "json", "--jobs", "1",
        "--ruleset", "bourre", "--fixtures", "bourre.play.follow_suit.*",
    )  # fmt: skip
    records = case_records(out)
    assert code == 1
    failures = [r["failure"] for r in records.values() if r["verdict"] == "fail"]
    assert failures
    for failure in failures:
        assert failure["observable"] == "legal"
        assert failure["position"].endswith(".legal")
        assert failure["rule"].startswith("play.")
        assert "which the ruleset forbids" in failure["message"]


def test_a_ruleset_the_engine_does_not_play_is_unsupported() -> None:
    # --protocol 2: the handshake itself asks for version 2
    code, out, _ = run(
        "--engine", f"{REFERENCE2} --rulesets bourre", "--format", "json", "--jobs", "1",
        "--fixtures", "=bourre.play.ruff.pass-1,=bourre.play.ruff.pass-1@bourre-cajun",
        "--protocol", "2",
    )  # fmt: skip
    records = case_records(out)
    assert code == 0
    for case_id, record in records.items():
        played = record["ruleset"] == "bourre"
        assert record["verdict"] == ("pass" if played else "unsupported"), case_id
    assert any(r["verdict"] == "unsupported" for r in records.values())


def test_the_protocol_flag() -> None:
    # a version 2 engine under --protocol 1: its handshake is refused (version 1's schema)
    code, out, _ = run(
        "--engine", REFERENCE2, "--protocol", "1", "--fixtures", "play.follow-suit.*"
    )
    assert code == 2
    assert "the engine cannot start" in out and "1 was expected" in out
    # a version 1 engine under --protocol 2: refused too
    code, out, _ = run(
        "--engine", REFERENCE1, "--protocol", "2", "--fixtures", "bourre.play.ruff.*"
    )
    assert code == 2
    assert "the engine cannot start" in out and "2 was expected" in out


def test_the_reference_answers_are_valid_messages() -> None:
    adapter = FamilyReferenceAdapter()
    started = adapter.answer({"cmd": "start", "protocol": 2, "kit": "0"})
    assert protocol2.answer_problem("start", started) is None
    assert protocol2.problem({"cmd": "start", "protocol": 2, "kit": "0"}, "start") is None
    text = (ROOT / "tests/data/btn2/worked-barbu.btn").read_text(encoding="utf-8")
    from baloot_conformance.family.btn.json_form import to_json
    from baloot_conformance.family.btn.reader import Btn2Reader
    from baloot_conformance.family.rules.loading import load_trick_ruleset

    rules = load_trick_ruleset("barbu")
    reader = Btn2Reader(text, "worked-barbu.btn", lambda reference, location: rules)
    head = reader.head()
    hands = list(reader)
    document = to_json(dataclasses.replace(head, hands=tuple(hands)))
    for hand in document["hands"]:
        hand["items"] = [i for i in hand["items"] if "event" in i]
    ruleset = {"id": rules.id, "version": rules.version, "digest": rules.digest}
    replay = {"cmd": "replay", "seq": 1, "ruleset": ruleset, "transcript": document}
    assert protocol2.problem(replay, "replay") is None
    assert adapter.answer(replay) == {"seq": 1, "accepted": True}
    items = document["hands"][0]["items"]
    bid = next(i for i, item in enumerate(items) if item["event"] == "bid")
    cut = {**document, "hands": [{"hand": 1, "items": items[:bid]}]}
    legal = adapter.answer(
        {"cmd": "legal", "seq": 2, "ruleset": ruleset, "seat": "E", "transcript": cut}
    )
    assert protocol2.answer_problem("legal", legal) is None
    assert legal is not None and legal["cards"] == []
    assert "bid E no_hearts" in legal["actions"] and "bid E trumps S" in legal["actions"]
    claims = adapter.answer({"cmd": "claims", "seq": 3, "ruleset": ruleset, "transcript": document})
    assert protocol2.answer_problem("claims", claims) is None
    assert claims is not None
    score = next(c for c in claims["claims"] if c["claim"] == "score")
    assert score["values"] == {"N": -4, "E": -20, "S": -4, "W": -2}


def _points_fixture(folder: Path, game: str, hands: int, seed: int) -> Path:
    """A generated session of a points game as a fixture (its readings the kit's own)."""
    import yaml

    from baloot_conformance.corpus.family_fixtures import FamilyRun, run_family_text, trick_rulesets
    from baloot_conformance.family.corpus.generate import generate_session
    from baloot_conformance.family.rules.loading import load_trick_ruleset

    rules = load_trick_ruleset(game)
    text = "".join(generate_session(rules, 4, hands, seed))

    def outcome(ruleset: Any) -> dict[str, Any]:
        verdicts, trace, error = run_family_text(text, "x", ruleset)
        found: dict[str, Any] = FamilyRun(None, ruleset, verdicts, trace, error).outcome.to_json()  # type: ignore[arg-type]
        return found

    fixture_id = f"{game}.generated.pass-{seed}"
    meta = {
        "id": fixture_id,
        "description": f"a generated {game} session of {hands} hands, for the suite's test",
        "rules": ["play.trick_winner"],
        "expect": outcome(rules),
        "ruleset": {"id": game, "versions": ">=1 <2"},
        "readings": {r: outcome(x) for r, x in trick_rulesets(game).items() if r != game},
        "sources": ["SEED-004"],
        "status": "stable",
    }
    head, rest = text.split("\n", 1)
    path = folder / f"{fixture_id}.btn"
    path.write_text(f"{head}\n---\n{yaml.safe_dump(meta, sort_keys=False)}---\n{rest}", "utf-8")
    return path


def test_points_games_over_version_2(tmp_path: Path) -> None:
    """A Barbu and a Hearts hand (a shipped fixture, else a generated session, whose later
    hands open with the kit's own start line): the reference passes, a wrong score fails at
    the claims."""
    from baloot_conformance.suite.cases import Case
    from baloot_conformance.suite.runner import run_cases

    cases = []
    for game, hands, seed in (("barbu", 3, 1), ("hearts", 2, 7)):
        shipped = [p for p in PATHS if p.parent.parent.name == game and ".pass-" in p.name]
        path = shipped[0] if shipped else _points_fixture(tmp_path, game, hands, seed)
        fixture = load_family_fixture(path)
        assert fixture.expect.position is None  # a pass under its own ruleset
        cases.append(Case(fixture.id, str(path), fixture.ruleset_id, protocol=2))
    results = list(run_cases(cases, REFERENCE2, 20, jobs=1, protocol=0))
    assert [r.verdict for r in results] == ["pass", "pass"], results
    assert all(r.requests > 20 for r in results)
    wrong = list(run_cases(cases, f"{DEVIANT} --score", 20, jobs=1, protocol=2))
    for result in wrong:
        assert result.verdict == "fail" and result.failure is not None
        assert result.failure.observable == "claims"
        assert result.failure.position == "h1.score"
        assert result.failure.rule_id in ("scoring.outcome", "scoring.wagers")
