"""Perft in the protocol and the corpus: the ``perft`` request, the fixtures' recorded counts,
the cases that ask an engine for them, and the walk that names where an engine parts.

The engines here are the reference adapter in the test's own process, its answers changed
on the way out (a count off by one, no divide, a legal card left out): each change must fail
the case with the line of play and the rule that decides the card.
"""

from __future__ import annotations

import dataclasses
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from baloot_conformance import btn
from baloot_conformance.btn import json_form
from baloot_conformance.check.perft import perft_at
from baloot_conformance.cli import main
from baloot_conformance.corpus.fixtures import corpus_root, load_fixture
from baloot_conformance.corpus.lint import LintProblem, lint
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.suite.cases import index_of, strip
from baloot_conformance.suite.engine_process import EngineInfo
from baloot_conformance.suite.protocol import answer_problem, problem
from baloot_conformance.suite.reference_adapter import ReferenceAdapter
from baloot_conformance.suite.runner import CaseResult, fixture_cases, run_case

ROOT = Path(__file__).resolve().parent.parent
OVERRUFF = "play.hokum.overruff.pass-2.h1.t5.p1.perft"
Change = Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]]


class InProcess:
    """An engine: the reference adapter, its ``perft`` answers passed through ``change``."""

    def __init__(
        self, change: Change | None = None, declares: bool = True, rules: Path | None = None
    ) -> None:
        self.adapter = (
            ReferenceAdapter(load_ruleset(str(rules)), "saudi") if rules else ReferenceAdapter()
        )
        self.change = change
        self.declares = declares
        self.seq = 0
        self.perft_requests: list[dict[str, Any]] = []

    def start(self) -> EngineInfo:
        answer = self.adapter.answer({"cmd": "start", "protocol": 1, "kit": "test"})
        assert answer is not None
        capabilities = set(answer["capabilities"]) - (set() if self.declares else {"perft"})
        return EngineInfo("in-process", "1", tuple(answer["rulesets"]), frozenset(capabilities))

    def request(self, command: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        request = {"cmd": command, "seq": self.seq, **fields}
        assert problem(json.loads(json.dumps(request)), command) is None
        answer = self.adapter.answer(request)
        assert answer is not None
        if command == "perft":
            self.perft_requests.append(request)
            if self.change is not None:
                answer = self.change(request, answer)
        assert answer_problem(command, answer) is None
        return answer


def perft_case(case_id: str = OVERRUFF) -> Any:
    return next(c for c in fixture_cases("*.perft") if c.id == case_id)


def judged(engine: InProcess, case_id: str = OVERRUFF) -> CaseResult:
    return run_case(perft_case(case_id), engine)  # type: ignore[arg-type]


def test_the_corpus_records_perft_counts_as_cases() -> None:
    ids = {c.id for c in fixture_cases("*.perft")}
    assert ids == {
        "bidding.hokum-confirmation.pass-1.h1.bid1.perft",
        "doubling.lock.pass-1.h1.bid6.perft",
        OVERRUFF,
        "play.hokum.trump-lead.pass-1.h1.t1.p1.perft",
        "play.sun.void.pass-1.h1.t3.p1.perft",
    }
    # Selected with their fixture too, right after its own case.
    chosen = [c.id for c in fixture_cases("play.hokum.overruff.pass-2")]
    assert chosen == ["play.hokum.overruff.pass-2", OVERRUFF]


def test_the_reference_engine_passes_with_one_request() -> None:
    engine = InProcess()
    result = judged(engine)
    assert (result.verdict, result.requests) == ("pass", 1)
    (request,) = engine.perft_requests
    assert request["depth"] == 8
    items = request["transcript"]["hands"][0]["items"]
    assert items[0]["event"] == "start" and items[1]["event"] == "dealer"
    assert items[-1]["event"] == "play" and items[-1]["card"] == "7H"  # trick 4's last card
    assert sum(1 for i in items if i["event"] == "rest") == 4


def test_an_engine_that_does_not_declare_perft_is_not_asked() -> None:
    engine = InProcess(declares=False)
    result = judged(engine)
    assert result.verdict == "unsupported" and "does not declare 'perft'" in (result.message or "")
    assert engine.perft_requests == []


def test_a_wrong_total_without_divide_fails_at_the_position() -> None:
    result = judged(InProcess(lambda _, a: {"seq": a["seq"], "nodes": a["nodes"] + 1}))
    failure = result.failure
    assert result.verdict == "fail" and failure is not None
    assert (failure.observable, failure.position, failure.rule_id) == ("perft", "h1.t5.p1", None)
    assert (failure.expected, failure.actual) == ("96", "97")
    assert "gives no divide" in failure.message
    assert failure.location is not None and failure.location.line == 44


def drop_first_card(request: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
    """An engine that never lets E lead the Ten of clubs (it leaves the ply out)."""
    divide = {k: v for k, v in answer["divide"].items() if k != "E TC"}
    return {"seq": answer["seq"], "nodes": sum(divide.values()), "divide": divide}


def test_a_legal_ply_left_out_is_named_with_its_rule() -> None:
    engine = InProcess(drop_first_card)
    result = judged(engine)
    failure = result.failure
    assert result.verdict == "fail" and failure is not None
    assert "the engine does not count any sequence after E TC, which the ruleset allows" in (
        failure.message
    )
    assert len(engine.perft_requests) == 1  # nothing deeper to ask: the engine has no E TC


def test_the_walk_goes_down_to_the_card() -> None:
    """An engine without the over-ruff obligation (the deviant ruleset): the walk follows
    the first ply counted differently, one request a ply, to the card it allows."""
    engine = InProcess(rules=ROOT / "examples/adapters/deviant.yaml")
    failure = judged(engine).failure
    assert failure is not None
    assert (failure.observable, failure.rule_id) == ("perft", "play.hokum.overruff")
    assert failure.message == (
        "perft from h1.t5.p1 to depth 8: the engine counts 144 sequences, the ruleset 96; "
        "after E TC, N TH, W 9H, S AC, W 7S, S TS, E QH: the engine allows N 8H, which the "
        "ruleset forbids: N played 8H but must over-ruff E's QH with KH (holds KH 8H 7D)"
    )
    assert [r["depth"] for r in engine.perft_requests] == [8, 7, 6, 5, 4, 3, 2, 1]


def test_an_illegal_ply_allowed_is_named_with_the_rule_it_breaks() -> None:
    """At the raises, an engine that lets the buyer's partner double."""

    def partner_doubles(request: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        divide = dict(answer["divide"])
        if request["depth"] == 3:
            divide["W double"] = 5
        return {"seq": answer["seq"], "nodes": sum(divide.values()), "divide": divide}

    result = judged(InProcess(partner_doubles), "doubling.lock.pass-1.h1.bid6.perft")
    failure = result.failure
    assert failure is not None and failure.rule_id == "doubling.chain"
    assert "the engine allows W double, which the ruleset forbids: 'double' is called by" in (
        failure.message
    )


# --- the protocol -----------------------------------------------------------------------------


def test_the_reference_adapter_answers_perft_in_the_auction() -> None:
    """Cut before the first call (no contract claim, no rest lines): the calls are counted,
    as the command counts them."""
    path = corpus_root() / "doubling/doubling.lock.pass-1.btn"
    with btn.TranscriptReader(path, str(path)) as reader:
        hands = list(reader)
    rules = load_ruleset("saudi")
    hand = hands[0]
    cut = dataclasses.replace(hand, items=hand.items[: index_of(hand, "h1.bid1")])
    header = [{"tag": "Ruleset", "value": "saudi@1"}]
    data = {"btn": "1", "header": header, "hands": [json_form.hand_json(strip(cut))]}
    answer = ReferenceAdapter().answer(
        {"cmd": "perft", "seq": 1, "ruleset": {"id": "saudi"}, "transcript": data, "depth": 3}
    )
    counted = perft_at(hands, rules, "h1.bid1", 3, divide=True)
    assert answer == {"seq": 1, "nodes": counted.nodes, "divide": dict(counted.divide or ())}
    assert counted.nodes > 0 and next(iter(answer["divide"])) == "E pass"


def test_the_answer_schema() -> None:
    assert answer_problem("perft", {"seq": 1, "nodes": 3, "divide": {"S 7H": 3}}) is None
    assert answer_problem("perft", {"seq": 1, "nodes": 3}) is None
    wrong = answer_problem("perft", {"seq": 1, "nodes": -1})
    assert wrong is not None and "/nodes" in wrong
    wrong = answer_problem("perft", {"seq": 1, "nodes": 1, "divide": {"seven of hearts": 1}})
    assert wrong is not None and "/divide" in wrong
    schema = json.loads(spec_path("schema", "protocol.schema.json").read_text(encoding="utf-8"))
    assert "perft" in schema["$defs"]["started"]["properties"]["capabilities"]["items"]["enum"]


# --- the corpus's records -------------------------------------------------------------------


def relinted(tmp_path: Path, old: str, new: str) -> list[LintProblem]:
    source = corpus_root() / "play/play.hokum.overruff.pass-2.btn"
    text = source.read_text(encoding="utf-8")
    assert old in text
    target = tmp_path / source.name
    target.write_text(text.replace(old, new), encoding="utf-8")
    return [p for p in lint([target]) if isinstance(p, LintProblem)]


def test_lint_recounts_each_record(tmp_path: Path) -> None:
    assert relinted(tmp_path, "nodes: 96", "nodes: 96") == []
    (wrong,) = relinted(tmp_path, "nodes: 96", "nodes: 95")
    assert "perft at h1.t5.p1 to depth 8 counts 96 sequences, not 95" in wrong.message
    assert wrong.hint is not None and "record nodes: 96" in wrong.hint
    assert wrong.location.line == 10  # the perft: key


@pytest.mark.parametrize(
    ("new", "message"),
    [
        (
            "perft: [{position: h1.t5.p1, depth: 8, nodes: 96}, "
            "{position: h1.t5.p1, depth: 1, nodes: 4}]",
            "perft at h1.t5.p1 is recorded twice",
        ),
        ("perft: [{position: h1.t9.p1, depth: 8, nodes: 96}]", "position"),  # the schema's
        ("perft: [{position: h2.t5.p1, depth: 8, nodes: 96}]", "there is no hand 2"),
    ],
)
def test_lint_refuses_records_it_cannot_count(tmp_path: Path, new: str, message: str) -> None:
    problems = relinted(tmp_path, "perft: [{position: h1.t5.p1, depth: 8, nodes: 96}]", new)
    assert problems and message in problems[0].message


def test_the_records_are_in_the_fixtures_metadata() -> None:
    fixture = load_fixture(corpus_root() / "play/play.hokum.overruff.pass-2.btn")
    (record,) = fixture.perft
    assert dataclasses.astuple(record) == ("h1.t5.p1", 8, 96)


def test_the_export_lists_the_records(tmp_path: Path) -> None:
    source = corpus_root() / "play/play.hokum.overruff.pass-2.btn"
    plain = corpus_root() / "play/play.hokum.overruff.pass-1.btn"
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["fixtures", "export", "--to", str(tmp_path / "out"), str(source), str(plain)], out, err
    )
    assert code == 0, err.getvalue()
    manifest = json.loads((tmp_path / "out/manifest.json").read_text(encoding="utf-8"))
    entries = {e["id"]: e for e in manifest["fixtures"]}
    assert entries["play.hokum.overruff.pass-2"]["perft"] == [
        {"position": "h1.t5.p1", "depth": 8, "nodes": 96}
    ]
    assert "perft" not in entries["play.hokum.overruff.pass-1"]


def test_an_engine_that_counts_past_the_auction_is_told_it_is_a_leaf() -> None:
    """From the first call, an engine that goes on after a Sun (which ends this auction)."""

    def past_the_auction(request: dict[str, Any], answer: dict[str, Any]) -> dict[str, Any]:
        divide = dict(answer["divide"])
        if request["depth"] == 5:
            divide["W sun"] = 7
        return {"seq": answer["seq"], "nodes": sum(divide.values()), "divide": divide}

    engine = InProcess(past_the_auction)
    failure = judged(engine, "bidding.hokum-confirmation.pass-1.h1.bid1.perft").failure
    assert failure is not None and failure.rule_id is None
    assert failure.message.endswith(
        "after W sun: the auction is over, a leaf: the completion of the deal is no ply, but "
        "the engine counts 7 sequences after W sun"
    )
