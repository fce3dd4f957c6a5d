"""``suite``: engines driven through the adapter protocol, judged case by case.

The reference adapter must pass the whole corpus and 200 generated games; an adapter that
deviates on purpose must fail exactly the cases where its two deviations change an
observable; adapters that hang, crash, print garbage, flood their output or answer out of
order must give ``error`` verdicts within the timeout while the run completes.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from baloot_conformance.cli import main
from baloot_conformance.resources import spec_path
from baloot_conformance.suite.engine_process import Engine
from baloot_conformance.suite.protocol import answer_problem, problem
from baloot_conformance.suite.reference_adapter import ReferenceAdapter
from baloot_conformance.suite.runner import Case, corpus_ids, run_case

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
REFERENCE = f"{PYTHON} -m baloot_conformance.suite.reference_adapter"
DEVIANT = f"{REFERENCE} --rules {ROOT / 'examples/adapters/deviant.yaml'} --as saudi"
MISBEHAVE = f"{PYTHON} {ROOT / 'tests/adapters/misbehave.py'}"
FOLLOW = str(ROOT / "fixtures/play/play.follow-suit.pass-1.btn")

#: The cases the deviant adapter fails (saudi fixtures, their perft counts and generated
#: games 0-19): every one where rounding Sun 65 to 14 or dropping the over-ruff changes an
#: observable.
DEVIANT_FAILS = {
    "deal.dealer.rotation.pass-1": "scoring.sun.conversion",
    "full-game-gahwa": "play.hokum.overruff",
    "full-game-kaboot": "scoring.sun.conversion",
    "full-game-plain": "scoring.sun.conversion",
    "play.hokum.overruff.pass-2": "play.hokum.overruff",
    "play.hokum.overruff.pass-2.h1.t5.p1.perft": "play.hokum.overruff",
    "game.tie-at-target": "scoring.sun.conversion",
    "game.tie-at-target.fail-1": "scoring.sun.conversion",
    "scoring.contract.tie.pass-1": "scoring.sun.conversion",
    "sun-split-55-75": "scoring.sun.conversion",
    "sun-split-65-65": "scoring.sun.conversion",
    "sun-split-75-55": "scoring.sun.conversion",
    **{
        f"generated.saudi.{n}": "scoring.sun.conversion"
        for n in (4, 5, 7, 8, 10, 11, 14, 15, 16, 17, 18)
    },
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["suite", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def cases(text: str) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in records(text) if r["record"] == "case"}


@pytest.fixture(scope="module")
def reference_run() -> tuple[int, str]:
    code, out, _ = run(
        "--engine", REFERENCE, "--generated", "200", "--jobs", "2", "--format", "json"
    )
    return code, out


@pytest.fixture(scope="module")
def deviant_run() -> tuple[int, str]:
    code, out, _ = run(
        "--engine", DEVIANT, "--ruleset", "saudi", "--generated", "20", "--format", "json"
    )
    return code, out


# --- the two adapters of the repository ------------------------------------------------------


def assert_follows_the_schema(out: str) -> None:
    """Every record of a JSON Lines suite report is valid under its schema. (Each run is
    checked in the test that owns it, so that no two tests share a run: under xdist, two
    workers would each make it.)"""
    validator = jsonschema.Draft202012Validator(
        json.loads(spec_path("schema", "suite-report.schema.json").read_text())
    )
    for record in records(out):
        validator.validate(record)


def test_reference_adapter_passes_the_corpus_and_200_generated_games(
    reference_run: tuple[int, str],
) -> None:
    code, out = reference_run
    found = cases(out)
    summary = records(out)[-1]
    assert code == 0 and summary["ok"]
    corpus = corpus_ids()  # every fixture, and each Sawa and foul call they judge
    generated = {f"generated.saudi.{n}" for n in range(200)}
    assert set(found) == corpus | generated
    assert {r["verdict"] for r in found.values()} == {"pass"}
    assert summary["pass"] == len(corpus) + 200
    # Every case was really asked: a game asks legal before every call and card.
    assert min(r["requests"] for id_, r in found.items() if id_ in generated) > 100
    assert_follows_the_schema(out)


def test_deviant_adapter_fails_exactly_its_deviations(deviant_run: tuple[int, str]) -> None:
    code, out = deviant_run
    found = cases(out)
    failed = {id_: r["failure"]["rule"] for id_, r in found.items() if r["verdict"] == "fail"}
    assert code == 1
    assert failed == DEVIANT_FAILS
    assert {r["verdict"] for r in found.values()} == {"pass", "fail"}
    # The example: Sun 65 rounded to 14, against the ruleset's 13.
    split = found["sun-split-65-65"]["failure"]
    assert split["observable"] == "claims" and split["position"] == "h1.cardscore"
    assert (split["expected"], split["actual"]) == ("NS 13 EW 13", "NS 14 EW 14")
    assert split["location"].endswith("sun-split-65-65.btn:39:1")
    # The over-ruff: the engine offers a card the rule forbids, before it is played.
    ruff = found["full-game-gahwa"]["failure"]
    assert ruff["observable"] == "legal" and ruff["position"].endswith(".legal")
    # And perft, from a position before the trick where it matters, walked down to that card.
    perft = found["play.hokum.overruff.pass-2.h1.t5.p1.perft"]["failure"]
    assert perft["observable"] == "perft" and perft["position"] == "h1.t5.p1"
    assert (perft["expected"], perft["actual"]) == ("96", "144")
    assert "E QH: the engine allows N 8H, which the ruleset forbids" in perft["message"]
    assert_follows_the_schema(out)


def test_deviant_adapter_does_not_play_other_rulesets() -> None:
    code, out, _ = run(
        "--engine", DEVIANT, "--fixtures", "kuwait/*", "--generated", "0", "--format", "json"
    )
    found = cases(out)
    assert code == 1 and found  # nothing was checked: never green
    assert {r["verdict"] for r in found.values()} == {"unsupported"}
    assert "does not play the kuwait ruleset" in next(iter(found.values()))["message"]
    assert "nothing was checked" in records(out)[-1]["problems"][0]


def test_jobs_do_not_change_the_report() -> None:
    argv = ("--engine", DEVIANT, "--fixtures", "scoring/*,game/*", "--generated", "6")
    one = run(*argv, "--jobs", "1", "--format", "json")
    two = run(*argv, "--jobs", "2", "--format", "json")
    assert one[0] == two[0] == 1
    assert one[1] == two[1]


# --- misbehaving engines ---------------------------------------------------------------------

FEW = ("--fixtures", "play.follow-suit.*,play.trick-winner.pass-1", "--generated", "0")


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("hang", "no answer to 'legal' within 1 s"),
        ("crash", "the engine exited (code 3) instead of answering 'legal'"),
        ("garbage", "the answer to 'legal' is not JSON: 'hello, I am an engine'"),
        ("noise", "is not JSON: 'debug: thinking...' (standard output is for answers only"),
        ("flood", "the answer to 'legal' is longer than 16 MiB"),
        ("lines", "but the request was seq"),
        ("order", "the answer has seq 4, but the request was seq 3"),
        ("field", "at /cards/0: '1X' does not match '^[789TJQKA][SHDC]$'"),
    ],
)
def test_a_misbehaving_engine_gives_errors_and_the_run_completes(mode: str, message: str) -> None:
    started = time.monotonic()
    code, out, _ = run(
        "--engine", f"{MISBEHAVE} {mode}", *FEW, "--timeout", "1", "--jobs", "1",
        "--format", "json",
    )  # fmt: skip
    found = cases(out)
    assert code == 1
    assert len(found) == 3 and {r["verdict"] for r in found.values()} == {"error"}
    first = found["play.follow-suit.fail-1"]
    assert message in first["message"]
    assert time.monotonic() - started < 30  # three timeouts of 1 s at most, plus start-ups


def test_an_engine_may_skip_or_report_its_own_error() -> None:
    code, out, _ = run("--engine", f"{MISBEHAVE} skip 1", *FEW, "--jobs", "1", "--format", "json")
    found = cases(out)
    skipped = found["play.follow-suit.fail-1"]  # its first request; the engine goes on
    assert code == 0 and skipped["verdict"] == "skip"
    assert skipped["message"] == "the engine skips it: not yet (https://x.test/1)"
    assert found["play.follow-suit.pass-1"]["verdict"] == "pass"
    code, out, _ = run("--engine", f"{MISBEHAVE} refuse 1", *FEW, "--jobs", "1")
    assert code == 1 and "the engine reports an error: KeyError: 'dealer'" in out


def test_an_engine_that_rejects_a_legal_event_fails_at_it() -> None:
    code, out, _ = run("--engine", f"{MISBEHAVE} reject", *FEW, "--jobs", "1", "--format", "json")
    failure = cases(out)["play.follow-suit.pass-1"]["failure"]
    assert code == 1
    assert failure["observable"] == "replay" and failure["position"] == "h1.bid3"
    assert failure["message"].startswith("the engine rejects h1.bid3 (")
    assert failure["rule"] == "bidding.order"
    assert (failure["expected"], failure["actual"]) == ("accepted", "rejected")


def test_a_malformed_claim_is_named() -> None:
    code, out, _ = run("--engine", f"{MISBEHAVE} claims", *FEW, "--jobs", "1")
    assert code == 1
    assert "not a valid answer to 'claims': at /claims/1: /winner: 4 is not one of" in out


def test_a_fixture_that_contradicts_the_interpreter_is_invalid(tmp_path: Path) -> None:
    source = ROOT / "fixtures/play/play.follow-suit.pass-1.btn"
    broken = tmp_path / "play.follow-suit.pass-1.btn"
    broken.write_text(
        source.read_text().replace(
            "expect: pass", "expect: {position: h1.t2.p1, rule: play.follow_suit}"
        )
    )
    engine = Engine(REFERENCE)
    try:
        result = run_case(Case("play.follow-suit.pass-1", str(broken), "saudi@1"), engine)
    finally:
        engine.close()
    assert result.verdict == "invalid"
    assert result.message is not None and "a defect of the corpus" in result.message


def test_the_engine_is_restarted_after_a_failure() -> None:
    # It crashes at its 40th request: the first case errs, a fresh engine passes the next.
    code, out, _ = run(
        "--engine", f"{MISBEHAVE} crash 40", *FEW, "--timeout", "2", "--jobs", "1",
        "--format", "json",
    )  # fmt: skip
    found = cases(out)
    verdicts = [r["verdict"] for r in found.values()]
    assert code == 1 and "error" in verdicts and "pass" in verdicts
    crashed = next(r for r in found.values() if r["verdict"] == "error")
    assert "ValueError: boom" in crashed["stderr"]


def test_an_engine_that_never_starts_is_not_started_forever() -> None:
    engine = Engine(f"{MISBEHAVE} nostart", timeout=5)
    try:
        for _ in range(2):
            result = run_case(Case("play.follow-suit.pass-1", FOLLOW, "saudi@1"), engine)
            assert result.verdict == "error" and "cannot find my engine library" in result.stderr
        result = run_case(Case("play.follow-suit.pass-1", FOLLOW, "saudi@1"), engine)
        assert result.message is not None and "not started again" in result.message
    finally:
        engine.close()


def test_a_command_that_does_not_exist() -> None:
    code, out, _ = run("--engine", "/no/such/engine --flag", *FEW, "--jobs", "1")
    assert code == 2  # one error for the run (tests/test_suite_off_path.py)
    assert "cannot run '/no/such/engine'" in out


# --- expectations ----------------------------------------------------------------------------

SPLITS = ("--fixtures", "sun-split-*,play.follow-suit.pass-1", "--generated", "0", "--jobs", "1")


def test_expectations_turn_failures_into_xfail_and_are_strict(tmp_path: Path) -> None:
    expected = tmp_path / "expectations.yaml"
    code, _, err = run(
        "--engine", DEVIANT, *SPLITS, "--expectations", str(expected), "--update-expectations"
    )
    assert code == 0 and "wrote" in err
    written = expected.read_text()
    assert "sun-split-65-65:" in written and "rule: scoring.sun.conversion" in written
    code, out, _ = run("--engine", DEVIANT, *SPLITS, "--expectations", str(expected))
    assert code == 0 and "XFAIL sun-split-65-65" in out
    # The reference adapter passes what the file expects to fail: xpass fails the run.
    code, out, _ = run("--engine", REFERENCE, *SPLITS, "--expectations", str(expected))
    assert code == 1 and "XPASS sun-split-65-65: passes, but is listed" in out
    # A signature that changed is a plain failure; a glob, an expiry and a stale entry.
    expected.write_text(
        "expectations:\n"
        "  sun-split-65-65:\n"
        "    reason: rounds half up\n"
        "    signature: {observable: claims, position: h1.score}\n"
        "  'sun-split-5*':\n"
        "    reason: rounds half up\n"
        "    link: https://example.org/issues/1\n"
        "  sun-split-75-55:\n"
        "    reason: expired\n"
        "    expires: 2020-01-01\n"
        "  no.such.case:\n"
        "    reason: gone\n"
    )
    code, out, _ = run("--engine", DEVIANT, *SPLITS, "--expectations", str(expected))
    assert code == 1
    assert "FAIL sun-split-65-65" in out and "fails differently from its expectation" in out
    assert "XFAIL sun-split-55-75" in out and "https://example.org/issues/1" in out
    assert "FAIL sun-split-75-55" in out
    assert "'sun-split-75-55' expired on 2020-01-01" in out
    assert "'no.such.case' names no case" in out


def test_a_broken_expectations_file_is_a_usage_error(tmp_path: Path) -> None:
    expected = tmp_path / "e.yaml"
    expected.write_text("expectations:\n  some.case:\n    reasn: typo\n")
    code, out, err = run("--engine", REFERENCE, *SPLITS, "--expectations", str(expected))
    assert code == 2 and out == ""
    assert f"{expected}:3:5:" in err and "('reasn' was unexpected)" in err
    code, _, err = run("--engine", REFERENCE, *SPLITS, "--expectations", str(tmp_path / "no"))
    assert code == 2 and "no such file" in err and "--update-expectations" in err
    expected.write_text("expectations: [unclosed\n")
    code, _, err = run("--engine", REFERENCE, *SPLITS, "--expectations", str(expected))
    assert code == 2 and f"{expected}:" in err


# --- reports ---------------------------------------------------------------------------------


def test_junit_and_markdown_reports(tmp_path: Path) -> None:
    report = tmp_path / "suite.xml"
    argv = ("--engine", DEVIANT, *SPLITS)
    summary = tmp_path / "summary.md"
    summary.write_text("# earlier steps\n")
    code, _, _ = run(*argv, "--format", "junit", "--output", str(report), "--summary", str(summary))
    assert summary.read_text().startswith("# earlier steps\n## Baloot conformance: ")
    root = ET.parse(report).getroot()
    failed = [c.get("name", "") for c in root.iter("testcase") if c.find("failure") is not None]
    assert code == 1 and root.get("tests") == "16" and root.get("failures") == "3"
    assert sorted(failed) == ["sun-split-55-75", "sun-split-65-65", "sun-split-75-55"]
    code, out, _ = run(*argv, "--format", "markdown")
    assert "| sun-split-65-65 | fail | h1.cardscore claims | scoring.sun.conversion |" in out


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert run("--engine", REFERENCE, "--update-expectations")[0] == 2
    code, _, err = run("--engine", REFERENCE, "--fixtures", "nothing.like.this", "--generated", "0")
    assert code == 2 and "no case selected" in err
    code, _, err = run("--engine", REFERENCE, "--ruleset", "nosuch")
    assert code == 2 and "nosuch" in err
    code, _, _ = run("--engine", REFERENCE, "--timeout", "0")
    assert code == 2 and "above 0" in capsys.readouterr().err  # argparse writes it


# --- the protocol ----------------------------------------------------------------------------


def test_answers_are_named_precisely() -> None:
    assert answer_problem("legal", {"seq": 2, "calls": ["pass"], "cards": ["7H"]}) is None
    wrong = answer_problem("legal", {"seq": 2, "calls": ["pass"]})
    assert wrong == "at /: 'cards' is a required property"
    wrong = answer_problem("replay", {"seq": 1, "accepted": False})
    assert wrong is not None and "'hand' is a required property" in wrong
    assert answer_problem("claims", {"seq": 3, "skip": "not yet"}) is None
    started = {"protocol": 1, "engine": {"name": "x", "version": "1"}, "rulesets": ["saudi"]}
    assert problem(started, "started") == "at /: 'capabilities' is a required property"


def test_the_reference_adapter_answers_each_request() -> None:
    adapter = ReferenceAdapter()
    hello = adapter.answer({"cmd": "start", "protocol": 1, "kit": "0"})
    assert hello is not None and answer_problem("start", hello) is None
    assert adapter.answer({"cmd": "stop"}) is None
    broken = adapter.answer({"cmd": "legal", "seq": 5, "ruleset": {"id": "saudi"}})
    assert broken == {"seq": 5, "error": "KeyError: 'transcript'"}


# --- the CI recipe ---------------------------------------------------------------------------


def test_the_github_action_and_the_hooks_call_real_options() -> None:
    import re

    import yaml

    from baloot_conformance.cli import build_parser

    action = yaml.safe_load((ROOT / "action.yml").read_text())
    script = next(step["run"] for step in action["runs"]["steps"] if "suite" in step.get("run", ""))
    flags = set(re.findall(r"(--[a-z-]+)", script))
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    suite = commands.choices["suite"]
    options = {flag for act in suite._actions for flag in act.option_strings}
    assert flags and flags <= options
    for name in re.findall(r"\$\{\{ inputs\.([a-z-]+) \}\}", (ROOT / "action.yml").read_text()):
        assert name in action["inputs"]
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    for hook in hooks:
        argv = hook["entry"].split()[1:]
        assert parser.parse_args([*argv, "game.btn"]).handler is not None
