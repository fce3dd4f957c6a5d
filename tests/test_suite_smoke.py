"""``suite --smoke``, the rerun command each failure prints, ``--trace-protocol`` and
``--repeat``.

The smoke selection is fixed (one case per rule area, a Sawa and a foul call to judge, one
generated game), and the deviant adapter fails it; each failure's printed command, run as
printed, reruns exactly that case and leaves its protocol trace. ``--repeat`` makes an engine
whose answers differ between two runs of a case fail the run, and lets one whose answers only
come in another order pass.
"""

from __future__ import annotations

import argparse
import io
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from baloot_conformance.cli import main
from baloot_conformance.cli.suite_commands import register
from baloot_conformance.corpus.fixtures import AREAS, corpus_root
from baloot_conformance.report.suite_report import SuiteRun, write_report
from baloot_conformance.resources import spec_path
from baloot_conformance.suite.cases import CaseResult, Failure
from baloot_conformance.suite.runner import (
    Case,
    fixture_cases,
    generated_cases,
    run_cases,
)
from baloot_conformance.suite.smoke import SMOKE_FIXTURES, rerun_command, smoke_cases
from baloot_conformance.suite.trace import ProtocolTrace

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
REFERENCE = f"{PYTHON} -m baloot_conformance.suite.reference_adapter"
DEVIANT = f"{REFERENCE} --rules {ROOT / 'examples/adapters/deviant.yaml'} --as saudi"
FICKLE = f"{PYTHON} {ROOT / 'tests/adapters/fickle.py'}"
MISBEHAVE = f"{PYTHON} {ROOT / 'tests/adapters/misbehave.py'}"
FOLLOW = ROOT / "fixtures/play/play.follow-suit.pass-1.btn"

#: The smoke cases the deviant adapter fails, with the rule (its two deviations).
DEVIANT_SMOKE_FAILS = {
    "play.hokum.overruff.pass-2": "play.hokum.overruff",
    "sun-split-65-65": "scoring.sun.conversion",
}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["suite", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def parse_suite(argv: list[str]) -> argparse.Namespace:
    """A suite command line as the CLI reads it."""
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(argv)


def trace_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# --- the selection ---------------------------------------------------------------------------


def test_the_smoke_selection_is_one_case_per_area_two_calls_to_judge_and_a_game() -> None:
    cases = smoke_cases()
    assert [c.id for c in cases] == [*SMOKE_FIXTURES, "generated.saudi.0"]
    whole = [c for c in cases if c.seed is None and not c.talk]
    root = corpus_root()
    areas = [Path(c.path).relative_to(root).parts[0] for c in whole]
    assert areas == list(AREAS)  # each area once, in order
    assert sorted(c.talk for c in cases if c.talk) == ["h1.foul1", "h1.sawa"]
    # What the README and the protocol's page say of it.
    assert f"`--smoke` runs {len(cases)} fixed cases" in (ROOT / "README.md").read_text()
    protocol = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    assert f"a fixed selection of {len(cases)} cases" in protocol
    # Under a ruleset, what --ruleset selects: its fixtures (saudi's here), its game.
    assert [c.id for c in smoke_cases("saudi")] == [
        i for i in [*SMOKE_FIXTURES, "generated.saudi.0"] if i != "tazjel-game-1"
    ]


def test_smoke_takes_no_other_selection() -> None:
    code, out, err = run("--engine", REFERENCE, "--smoke", "--generated", "5")
    assert code == 2 and out == ""
    assert "--smoke is a fixed selection of cases: drop --generated" in err
    code, _, err = run("--engine", REFERENCE, "--smoke", "--fixtures", "play.*", "--seed", "3")
    assert code == 2 and "drop --fixtures, --seed" in err


@pytest.mark.parametrize(
    ("case", "selected"),
    [
        (Case("generated.majlis.7", "generated.majlis.7", "majlis", 7), "generated"),
        (Case("sun-split-65-65", "x", "saudi@1"), "fixture"),
        (Case("claims.sawa.pass-1.h1.sawa", "x", "saudi@1", talk="h1.sawa"), "fixture"),
        # a fixture that records a perft count: the fixture alone, then the count alone
        (Case("play.hokum.overruff.pass-2", "x", "saudi@1"), "fixture"),
        (
            Case("play.hokum.overruff.pass-2.h1.t5.p1.perft", "x", "saudi@1", perft="h1.t5.p1"),
            "fixture",
        ),
    ],
)
def test_a_rerun_command_selects_exactly_its_case(case: Case, selected: str) -> None:
    command = rerun_command(case, f"{PYTHON} my adapter.py", 2.5, repeat=3)
    argv = shlex.split(command)
    assert argv[:2] == ["baloot-conformance", "suite"]
    args = parse_suite(argv[1:])
    assert args.engine == f"{PYTHON} my adapter.py" and args.expectations is None
    assert args.timeout == 2.5 and args.jobs == 1 and args.repeat == 3
    assert args.trace_protocol == f"trace-{case.id}.jsonl"
    chosen = fixture_cases(args.fixtures, args.ruleset)
    chosen += generated_cases(args.ruleset or "saudi", args.generated, args.seed)
    assert [c.id for c in chosen] == [case.id]
    if selected == "generated":
        assert chosen == [case]


# --- acceptance: smoke against the deviant adapter, and the rerun as printed -----------------


def test_smoke_fails_the_deviant_adapter_and_each_printed_command_reruns_its_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run("--engine", DEVIANT, "--smoke")
    assert code == 1
    assert "note: a smoke run: one case per rule area, not a conformance run" in out
    assert out.splitlines()[-1].startswith("FAIL 13 cases: 10 pass, 2 fail, 0 error")
    failed = {
        line.split()[1]: line.rsplit("[", 1)[1].rstrip("]")
        for line in out.splitlines()
        if line.startswith("FAIL ") and "[" in line
    }
    assert failed == DEVIANT_SMOKE_FAILS
    commands = [line.split("rerun: ", 1)[1] for line in out.splitlines() if "rerun: " in line]
    assert len(commands) == len(DEVIANT_SMOKE_FAILS)
    monkeypatch.chdir(tmp_path)  # each command writes its trace where it runs
    for command, (case_id, rule) in zip(commands, DEVIANT_SMOKE_FAILS.items(), strict=True):
        argv = shlex.split(command)
        assert argv[0] == "baloot-conformance"
        again, text, _ = run(*argv[2:])
        assert again == 1
        heads = [line for line in text.splitlines() if line.startswith(("PASS ", "FAIL "))]
        assert heads[0].startswith(f"FAIL {case_id}  ") and heads[0].endswith(f"[{rule}]")
        assert heads[-1] == "FAIL 1 cases: 0 pass, 1 fail, 0 error"
        assert f"rerun: {command}" in text  # the rerun prints itself
        # The trace: the handshake, then every request of the case and its answer, in order.
        records = trace_records(tmp_path / f"trace-{case_id}.jsonl")
        assert records[0]["dir"] == "kit" and records[0]["note"].startswith("started")
        assert records[1] == {**records[1], "case": None, "dir": "kit→engine"}
        assert records[1]["message"]["cmd"] == "start"
        assert records[-1]["message"] == {"cmd": "stop"}
        talk = [r for r in records if r["case"] == case_id and "message" in r]
        requests = [r["message"] for r in talk if r["dir"] == "kit→engine"]
        answers = [r["message"] for r in talk if r["dir"] == "engine→kit"]
        assert requests[0]["cmd"] == "start" and "seq" in answers[1]
        seqs = [m["seq"] for m in requests[1:]]
        assert seqs == list(range(1, len(seqs) + 1)) == [a["seq"] for a in answers[1:]]
        assert {m["cmd"] for m in requests[1:]} == {"replay", "legal", "claims"}
        assert all(r["case"] in (None, case_id) for r in records)


def test_the_reports_carry_the_rerun_command(tmp_path: Path) -> None:
    case = Case("sun-split-65-65", "fixtures/scoring/sun-split-65-65.btn", "saudi@1")
    failure = Failure("claims", "h1.cardscore", "scoring.sun.conversion", "13, not 14")
    command = rerun_command(case, "./my-adapter --odd 'x'", 10.0)
    passed = Case("worked-hand", "fixtures/scoring/worked-hand.btn", "saudi@1")
    results = [CaseResult(case, "fail", failure, requests=3), CaseResult(passed, "pass")]
    run_ = SuiteRun("0", "./my-adapter", None, results, reruns={case.id: command}, smoke=True)
    written = {}
    for fmt in ("text", "json", "junit", "markdown"):
        stream = io.StringIO()
        write_report(fmt, run_, stream)
        written[fmt] = stream.getvalue()
        if fmt != "json":  # where it is a JSON string, below
            assert written[fmt].count(command) == 1, fmt
    schema = json.loads(spec_path("schema", "suite-report.schema.json").read_text())
    records = [json.loads(line) for line in written["json"].splitlines()]
    for record in records:
        jsonschema.validate(record, schema)
    assert records[0]["smoke"] is True
    assert records[1]["rerun"] == command and "rerun" not in records[2]
    assert f"```sh\n{command}\n```" in written["markdown"]
    assert "not a conformance run" in written["markdown"]


# --- the trace -------------------------------------------------------------------------------


def test_a_trace_keeps_a_hang() -> None:
    stream = io.StringIO()
    case = Case("play.follow-suit.pass-1", str(FOLLOW), "saudi@1")
    results = list(run_cases([case], f"{MISBEHAVE} hang 2", 1.0, trace=ProtocolTrace(stream)))
    assert results[0].verdict == "error"
    records = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert {r["case"] for r in records} == {case.id}  # killed: no stop
    kinds = [(r["dir"], (r.get("message") or {}).get("cmd")) for r in records]
    # The hand's replay is answered; the first legal request is not, and the kit says so.
    assert kinds == [
        ("kit", None), ("kit→engine", "start"), ("engine→kit", None),
        ("kit→engine", "replay"), ("engine→kit", None), ("kit→engine", "legal"), ("kit", None),
    ]  # fmt: skip
    assert records[-1]["note"].startswith("timeout: no answer to 'legal' within 1 s")
    assert records[4]["message"] == {"seq": 1, "accepted": True}


def test_a_trace_to_standard_error_has_the_engines_own_lines() -> None:
    code, out, err = run(
        "--engine", f"{MISBEHAVE} nostart", "--fixtures", "none", "--generated", "1",
        "--trace-protocol", "-",
    )  # fmt: skip
    assert code == 2 and "the engine cannot start" in out
    records = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    said = [(r["dir"], r.get("line") or r.get("note", "")[:6]) for r in records]
    assert said[1:] == [
        ("kit→engine", ""), ("engine stderr", "cannot find my engine library"), ("kit", "crash:"),
    ]  # fmt: skip
    assert records[1]["message"]["cmd"] == "start"


# --- repeat ----------------------------------------------------------------------------------


TWO = ("play.follow-suit.pass-1", "play.hokum.ruff.pass-1")


def _results(command: str, repeat: int) -> list[CaseResult]:
    return list(run_cases(fixture_cases(",".join(TWO)), command, repeat=repeat))


def test_repeat_fails_an_engine_whose_answers_differ_between_runs() -> None:
    once = _results(f"{FICKLE} again", 1)
    assert [r.verdict for r in once] == ["pass", "pass"]  # one run cannot tell
    code, out, _ = run(
        "--engine", f"{FICKLE} again", "--fixtures", ",".join(TWO), "--generated", "0",
        "--repeat", "2", "--jobs", "2", "--format", "json",
    )  # fmt: skip
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and not records[-1]["ok"]
    twice = {r["id"]: r for r in records if r["record"] == "case"}
    assert [r["verdict"] for r in twice.values()] == ["error", "error"]
    assert "--repeat 2" in twice[TWO[0]]["rerun"]
    message = twice[TWO[0]]["message"]
    assert message.startswith("the engine's answers differ between runs of the case (--repeat 2)")
    assert "request 7 of the case ('legal' for E after h1.bid5): run 1 got " in message
    first, second = message.split(" got ")[1:]
    dropped = set(json.loads(first.split(", run 2")[0])["cards"]) - set(json.loads(second)["cards"])
    assert len(dropped) == 1


def test_repeat_passes_an_engine_whose_answers_only_change_order() -> None:
    results = _results(f"{FICKLE} shuffle", 3)
    assert [r.verdict for r in results] == ["pass", "pass"]
    assert results[0].requests == 39  # the first run's requests, not three runs'
