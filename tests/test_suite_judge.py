"""``suite`` asks an engine to judge table talk: the ``judge`` request and its cases.

The inputs are games generated under a ruleset that allows table talk (saudi where an
illegal card stands until called and any player may claim Sawa on their turn, for the side),
written as fixtures: every Sawa and foul call they judge (``= sawa right``, ``= foul wrong``)
becomes a case of its own. The reference adapter passes them all; an engine that believes
every call fails exactly the wrong ones, at the verdict's position, under the call's rule; an
engine that does not declare ``judge`` gets them ``unsupported``; the expected verdict is the
kit's, whatever the fixture's claim says.
"""

from __future__ import annotations

import datetime
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from talk_rulesets import ON_TURN, changed

from baloot_conformance import btn
from baloot_conformance.btn import json_form
from baloot_conformance.cli import main
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.engine.playout import Policy
from baloot_conformance.report.suite_report import SuiteRun, write_report
from baloot_conformance.resources import spec_path
from baloot_conformance.rules.loading import load_ruleset, resolved_yaml
from baloot_conformance.suite import expectations
from baloot_conformance.suite.cases import CaseResult, start_events, strip
from baloot_conformance.suite.judging import talk_cases, talk_positions, with_talk
from baloot_conformance.suite.protocol import answer_problem, problem
from baloot_conformance.suite.reference_adapter import ReferenceAdapter
from baloot_conformance.suite.runner import Case, corpus_ids, fixture_cases, run_cases

ROOT = Path(__file__).resolve().parent.parent
CREDULOUS = f"{sys.executable} {ROOT / 'tests/adapters/credulous.py'}"
SAUDI = load_ruleset("saudi")
POLICY = Policy(sawa=0.3, fouls=0.2, foul_calls=0.3)
GAMES = 8


#: Fouls stand until called; any player may claim Sawa on his turn, for the side.
TALK = ON_TURN
#: TALK without Sawa: every Sawa of its games is an illegal event.
NO_SAWA = changed(TALK, {"claims.sawa": {"who": "nobody"}})

_META = """---
id: {id}
description: "A game generated with Sawa claims, standing fouls and foul calls."
rules: [claims.sawa, play.fouls]
expect: {expect}
ruleset: {{id: saudi-variant, versions: ">=1 <2"}}
sources: [HOBBY]
status: stable
---
"""


def as_fixture(text: str, fixture_id: str, expect: str = "pass") -> str:
    head, body = text.split("\n", 1)
    return f"{head}\n{_META.format(id=fixture_id, expect=expect)}{body}"


def judged_calls(text: str) -> dict[str, str]:
    """Every call a verdict claim judges in a transcript's text: its position, the verdict
    (read from the text, not replayed)."""
    found = {}
    for block in re.split(r"\n(?=hand \d+\n)", text):
        head = re.match(r"hand (\d+)\n", block)
        if not head:
            continue
        fouls = 0
        last = ""
        for line in block.split("\n"):
            word = line.split(" ", 1)[0]
            if word == "sawa":
                last = f"h{head.group(1)}.sawa"
            elif word == "foul":
                fouls += 1
                last = f"h{head.group(1)}.foul{fouls}"
            elif re.match(r"= (sawa|foul) (right|wrong)$", line):
                found[last] = line.rsplit(" ", 1)[1]
    return found


class Corpus:
    """Generated games as fixture files, and the ruleset file their cases name."""

    def __init__(self, folder: Path) -> None:
        self.rules = folder / "talk.yaml"
        self.rules.write_text(resolved_yaml(TALK), encoding="utf-8")
        self.texts: dict[str, str] = {}
        self.cases: list[Case] = []
        area = folder / "play"
        area.mkdir()
        for seed in range(GAMES):
            fixture_id = f"talk.generated-{seed}"
            text = "".join(generate_games(TALK, seed, games=1, hands=4, policy=POLICY))
            self.texts[fixture_id] = as_fixture(text, fixture_id)
            self.cases.append(self.write(area, fixture_id, self.texts[fixture_id]))

    def write(self, area: Path, fixture_id: str, text: str) -> Case:
        """A fixture file under ``area``, and its case."""
        path = area / f"{fixture_id}.btn"
        path.write_text(text, encoding="utf-8")
        return Case(fixture_id, str(path), str(self.rules))

    def verdicts(self) -> dict[str, str]:
        """Each judged call's case id and its verdict, as the generator wrote it."""
        return {
            f"{fixture_id}.{position}": verdict
            for fixture_id, text in self.texts.items()
            for position, verdict in judged_calls(text).items()
        }

    def engine(self, mode: str) -> str:
        if mode == "reference":
            return (
                f"{sys.executable} -m baloot_conformance.suite.reference_adapter "
                f"--rules {self.rules} --as {TALK.id}"
            )
        return f"{CREDULOUS} {mode} {self.rules} {TALK.id}"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return Corpus(tmp_path_factory.mktemp("talk"))


def results(cases: list[Case], engine: str) -> dict[str, CaseResult]:
    return {r.case.id: r for r in run_cases(cases, engine, timeout=30.0)}


def split(case_id: str) -> tuple[str, str]:
    """A judged call's case id as its fixture's id and the call's position."""
    found = re.fullmatch(r"(.*)\.(h[0-9]+\..*)", case_id)
    assert found is not None, case_id
    return found.group(1), found.group(2)


def read(text: str) -> btn.Transcript:
    with btn.TranscriptReader.from_text(text, "x.btn") as reader:
        head = reader.head()
        return btn.Transcript(version="1", header=head.header, hands=tuple(reader))


# --- the cases ---------------------------------------------------------------------------


def test_each_judged_sawa_and_foul_call_is_a_case(corpus: Corpus) -> None:
    verdicts = corpus.verdicts()
    kinds = {(i.rsplit(".", 1)[1][:4], v) for i, v in verdicts.items()}
    assert kinds == {("sawa", "right"), ("sawa", "wrong"), ("foul", "right"), ("foul", "wrong")}
    cases = with_talk(corpus.cases)
    derived = {case.id: case for case in cases if case.talk}
    assert set(derived) == set(verdicts)
    assert len(cases) == len(corpus.cases) + len(derived)
    parents = {case.id: case for case in corpus.cases}
    ids = [case.id for case in cases]
    for case_id, case in derived.items():  # the same file and ruleset, after its fixture
        parent, position = split(case_id)
        assert case.talk == position
        assert (case.path, case.ruleset) == (parents[parent].path, parents[parent].ruleset)
        assert ids.index(case_id) > ids.index(parent)


def test_a_call_without_a_verdict_claim_or_not_allowed_is_not_a_case(corpus: Corpus) -> None:
    case = corpus.cases[0]
    text = corpus.texts[case.id]
    silent = re.sub(r"^= (sawa|foul) (right|wrong)\n", "", text, flags=re.M)
    assert silent != text
    assert talk_positions(read(silent), TALK) == []
    assert talk_cases(case, silent) == []  # a text without a verdict claim is not read
    # Where Sawa is not allowed, the first Sawa is an illegal event: nothing from it on is
    # judged (replay rejects it), only the foul calls before it.
    for case in corpus.cases:
        transcript = read(corpus.texts[case.id])
        every = talk_positions(transcript, TALK)
        before = talk_positions(transcript, NO_SAWA)
        first = next((i for i, p in enumerate(every) if p.endswith(".sawa")), len(every))
        assert before == every[:first]


# --- three engines ---------------------------------------------------------------------------


def test_the_reference_adapter_judges_every_call_as_the_kit(corpus: Corpus) -> None:
    cases = with_talk(corpus.cases)
    found = results(cases, corpus.engine("reference"))
    assert {r.verdict for r in found.values()} == {"pass"}
    assert all(found[i].requests == 1 for i in corpus.verdicts())


def test_an_engine_that_believes_every_call_fails_exactly_the_wrong_ones(corpus: Corpus) -> None:
    cases = with_talk(corpus.cases)
    found = results(cases, corpus.engine("believes"))
    verdicts = corpus.verdicts()
    failed = {i for i, r in found.items() if r.verdict == "fail"}
    assert failed == {i for i, v in verdicts.items() if v == "wrong"}
    assert {r.verdict for i, r in found.items() if i not in failed} == {"pass"}
    for case_id in failed:
        failure = found[case_id].failure
        assert failure is not None
        position = found[case_id].case.talk
        sawa = position.endswith(".sawa")
        assert failure.observable == "judge"
        assert failure.position == f"{position}.verdict"
        assert failure.rule_id == ("claims.sawa" if sawa else "play.fouls")
        assert (failure.expected, failure.actual) == ("wrong", "right")
        assert "(the engine says: I believe it)" in failure.message
        assert ("Sawa is wrong" if sawa else "is wrong: that card was legal") in failure.message
        # At the verdict claim's line in the fixture.
        assert failure.location is not None and failure.location.line is not None
        line = corpus.texts[split(case_id)[0]].split("\n")[failure.location.line - 1]
        assert line.startswith(f"= {'sawa' if sawa else 'foul'} wrong")


def test_an_engine_that_does_not_judge_gets_those_cases_unsupported(corpus: Corpus) -> None:
    cases = with_talk(corpus.cases)
    found = results(cases, corpus.engine("deaf"))
    talk = set(corpus.verdicts())
    assert {found[i].verdict for i in talk} == {"unsupported"}
    assert {r.verdict for i, r in found.items() if i not in talk} == {"pass"}
    assert all(found[i].requests == 0 for i in talk)
    run = SuiteRun("0", "deaf", None, list(found.values()))
    assert run.ok  # the fixtures were checked
    out = io.StringIO()
    write_report("text", run, out)
    said = [line for line in out.getvalue().splitlines() if "not declare 'judge'" in line]
    assert len(said) == 1 and said[0].startswith(f"UNSUPPORTED {len(talk)} cases")
    # Only the calls to judge: nothing was checked, so the run is not green.
    alone = SuiteRun("0", "deaf", None, [found[i] for i in sorted(talk)])
    assert not alone.ok
    assert any("nothing was checked" in p and "'judge'" in p for p in alone.problems)


def test_the_expected_verdict_is_the_kits_not_the_claims(corpus: Corpus, tmp_path: Path) -> None:
    """A fixture that claims the opposite verdict (and expects that divergence): its call is
    still asked, and the kit's verdict is the one the engine must give."""
    verdicts = corpus.verdicts()
    right = next(i for i, v in verdicts.items() if v == "right")
    wrong = next(i for i, v in verdicts.items() if v == "wrong" and split(i)[0] != split(right)[0])
    area = tmp_path / "play"
    area.mkdir()
    flipped = {}
    for case_id, was, now in ((right, "right", "wrong"), (wrong, "wrong", "right")):
        parent, position = split(case_id)
        hand, call = position.split(".", 1)
        kind = call[:4]
        blocks = re.split(r"(?=\nhand [0-9]+\n)", corpus.texts[parent])
        index = next(i for i, b in enumerate(blocks) if b.startswith(f"\nhand {hand[1:]}\n"))
        assert blocks[index].count(f"= {kind} {was}") == 1
        blocks[index] = blocks[index].replace(f"= {kind} {was}", f"= {kind} {now}")
        rule = "claims.sawa" if kind == "sawa" else "play.fouls"
        expect = f"expect: {{position: {position}.verdict, rule: {rule}}}"
        text = "".join(blocks).replace("expect: pass", expect).replace(parent, f"{parent}-x")
        flipped[was] = (corpus.write(area, f"{parent}-x", text), f"{parent}-x.{position}")
    cases = with_talk([case for case, _ in flipped.values()])
    assert {talk for _, talk in flipped.values()} <= {c.id for c in cases if c.talk}
    found = results(cases, corpus.engine("reference"))
    assert {r.verdict for r in found.values()} == {"pass"}  # the fixtures too: not invalid
    believes = results(cases, corpus.engine("believes"))
    assert believes[flipped["right"][1]].verdict == "pass"  # claimed wrong; the kit: right
    failure = believes[flipped["wrong"][1]].failure  # claimed right; the kit: wrong
    assert failure is not None and (failure.expected, failure.actual) == ("wrong", "right")


# --- the protocol ----------------------------------------------------------------------------


def test_judge_answers_are_named_precisely() -> None:
    assert answer_problem("judge", {"seq": 3, "verdict": "right"}) is None
    assert answer_problem("judge", {"seq": 3, "verdict": "wrong", "reason": "t5 N AS"}) is None
    assert answer_problem("judge", {"seq": 3, "skip": "no Sawa yet"}) is None
    wrong = answer_problem("judge", {"seq": 3, "verdict": "maybe"})
    assert wrong == "at /verdict: 'maybe' is not one of ['right', 'wrong']"
    assert answer_problem("judge", {"seq": 3}) == "at /: 'verdict' is a required property"
    started = {
        "protocol": 1,
        "engine": {"name": "x", "version": "1"},
        "rulesets": ["saudi"],
        "capabilities": ["judge"],
    }
    assert answer_problem("start", started) is None
    hello = ReferenceAdapter().answer({"cmd": "start", "protocol": 1, "kit": "0"})
    assert hello is not None and "judge" in hello["capabilities"]


def requests_of(corpus: Corpus) -> list[tuple[dict[str, Any], str]]:
    """A ``judge`` request for each judged call of the corpus, as the kit builds one, and
    the verdict the generator wrote."""
    out: list[tuple[dict[str, Any], str]] = []
    verdicts = corpus.verdicts()
    for case in corpus.cases:
        for hand in (strip(h) for h in read(corpus.texts[case.id]).hands):
            for index, item in enumerate(hand.items):
                key = f"{case.id}.{getattr(item, 'position', '')}"
                if key not in verdicts:
                    continue
                event = {k: v for k, v in json_form.item_json(item).items() if k != "position"}
                items = [json_form.item_json(i) for i in hand.items[:index]]
                start = start_events(hand, (0, 0))  # the totals are not what is judged
                transcript = {
                    "btn": "1",
                    "header": [{"tag": "Ruleset", "value": f"{TALK.id}@{TALK.version}"}],
                    "hands": [{"hand": hand.number, "items": [*start, *items]}],
                }
                request = {
                    "cmd": "judge",
                    "seq": len(out) + 1,
                    "ruleset": {"id": TALK.id, "version": TALK.version, "digest": TALK.digest},
                    "transcript": transcript,
                    "event": event,
                }
                out.append((request, verdicts[key]))
    return out


def test_the_reference_adapter_answers_judge(corpus: Corpus) -> None:
    adapter = ReferenceAdapter(TALK, TALK.id, validate=True)
    asked = requests_of(corpus)
    assert len(asked) == len(corpus.verdicts())
    for request, verdict in asked:
        assert problem(request, "judge") is None
        answer = adapter.answer(request)
        assert answer is not None and answer_problem("judge", answer) is None
        assert answer["verdict"] == verdict, answer
        assert answer["reason"]
    # A Sawa where none is allowed, a call that is neither: an error, not a verdict.
    request, _ = next(r for r in asked if r[0]["event"]["event"] == "sawa")
    refused = ReferenceAdapter(NO_SAWA, TALK.id).answer(request)
    assert refused is not None and refused["error"].startswith("not a call to judge: ")
    kawesh = {**request, "event": {"event": "kawesh", "seat": "N"}}
    assert "error" in (adapter.answer(kawesh) or {})


def test_protocol_doc_and_schema_name_the_judge_request() -> None:
    schema = json.loads(spec_path("schema", "protocol.schema.json").read_text(encoding="utf-8"))
    assert "judge" in schema["$defs"]["started"]["properties"]["capabilities"]["items"]["enum"]
    assert {"judge", "judgeAnswer"} <= set(schema["$defs"])
    page = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert "[`judge`]" in page and "[`judgeAnswer`]" in page
    answer = re.search(r'^\{"seq": 40, "verdict".*\}$', page, flags=re.M)
    assert answer is not None and answer_problem("judge", json.loads(answer.group())) is None


# --- expectations and the shipped corpus -----------------------------------------------------


def test_an_expectation_may_name_a_judged_call(corpus: Corpus, tmp_path: Path) -> None:
    wrong = sorted(i for i, v in corpus.verdicts().items() if v == "wrong")[0]
    found = results(
        [c for c in with_talk(corpus.cases) if c.id == wrong], corpus.engine("believes")
    )
    position = found[wrong].case.talk
    rule = "claims.sawa" if position.endswith(".sawa") else "play.fouls"
    path = tmp_path / "expected.yaml"
    path.write_text(
        "expectations:\n"
        f"  {wrong}:\n"
        "    reason: we believe every claim\n"
        f"    signature: {{observable: judge, position: {position}.verdict, rule: {rule}}}\n",
        encoding="utf-8",
    )
    entries = expectations.load(str(path))
    judged, problems = expectations.apply(found.values(), entries, [wrong], datetime.date.today())
    assert problems == [] and [r.verdict for r in judged] == ["xfail"]


@pytest.fixture()
def saudi_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The corpus replaced by two saudi games with table talk (every foul call is wrong
    there: an illegal card is refused, so a call names a legal one); each judged call's case
    id and verdict."""
    from baloot_conformance.suite import runner

    area = tmp_path / "fixtures" / "play"
    area.mkdir(parents=True)
    verdicts: dict[str, str] = {}
    for seed in (0, 3):
        fixture_id = f"talk.saudi-{seed}"
        text = "".join(
            generate_games(SAUDI, seed, hands=4, policy=Policy(sawa=0.5, foul_calls=0.5))
        )
        text = as_fixture(text, fixture_id).replace("saudi-variant", "saudi")
        (area / f"{fixture_id}.btn").write_text(text, encoding="utf-8")
        verdicts |= {f"{fixture_id}.{p}": v for p, v in judged_calls(text).items()}
    monkeypatch.setattr(runner, "corpus_root", lambda: tmp_path / "fixtures")
    return verdicts


def test_the_corpus_gives_a_case_for_each_judged_call(saudi_corpus: dict[str, str]) -> None:
    assert {v for i, v in saudi_corpus.items() if i.endswith(".sawa")} == {"wrong"}
    cases = fixture_cases()
    assert [c.id for c in cases if not c.talk] == ["talk.saudi-0", "talk.saudi-3"]
    assert {c.id for c in cases if c.talk} == set(saudi_corpus)
    assert corpus_ids() == {c.id for c in cases}  # an expectation may name any of them
    # Selected with their fixture, or by their own ids without it.
    one = fixture_cases("play/talk.saudi-3")
    assert {c.id for c in one} == {"talk.saudi-3"} | {i for i in saudi_corpus if "-3." in i}
    sawa = fixture_cases("*.sawa")
    assert {c.id for c in sawa} == {i for i in saudi_corpus if i.endswith(".sawa")} != set()


def test_suite_reports_a_misjudged_call(saudi_corpus: dict[str, str], tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    engine = f"{CREDULOUS} believes saudi saudi"
    argv = ["suite", "--engine", engine, "--generated", "0", "--jobs", "1", "--format", "json"]
    code = main(argv, stdout=out, stderr=err)
    found = [json.loads(line) for line in out.getvalue().splitlines()]
    validator = jsonschema.Draft202012Validator(
        json.loads(spec_path("schema", "suite-report.schema.json").read_text(encoding="utf-8"))
    )
    for record in found:
        validator.validate(record)
    verdicts = {r["id"]: r for r in found if r["record"] == "case"}
    assert code == 1
    assert {i for i, r in verdicts.items() if r["verdict"] == "fail"} == set(saudi_corpus)
    sawa = next(r for i, r in verdicts.items() if i.endswith(".sawa"))
    assert sawa["failure"]["observable"] == "judge"
    assert sawa["failure"]["rule"] == "claims.sawa"
    assert sawa["failure"]["position"].endswith(".sawa.verdict")
    assert sawa["path"].endswith(".btn") and sawa["ruleset"] == "saudi@1"
    text = io.StringIO()
    main([*argv[:-2], "--fixtures", "*.sawa"], stdout=text, stderr=err)
    heads = [line for line in text.getvalue().splitlines() if line.startswith("FAIL talk")]
    assert heads and all(
        re.search(r"\.btn:[0-9]+:1: h[0-9]+\.sawa\.verdict judge \[claims\.sawa\]$", h)
        for h in heads
    )
    assert "expected: wrong" in text.getvalue() and "engine:   right" in text.getvalue()
