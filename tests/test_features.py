"""Features: what each hand needs, derived from its replay, checked against a plain reading
of the hand; the handshake's ``features``; ``suite`` reporting a case that needs an
undeclared feature ``unsupported`` without asking the engine.

The derivation (:mod:`baloot_conformance.check.features`) reads the rules a replay counted;
the reading here reads the hand's lines and the replayed table (the cards dealt, the
contract, the tricks' winners, the auction's round) and never a trace, so that a rule
counted where it decided nothing (a ``doubling.*`` rule in a hand nobody could raise) shows
as a difference.
"""

from __future__ import annotations

import io
import json
import sys
from functools import cache
from typing import Any

import pytest

from baloot_conformance import btn
from baloot_conformance.cards import CARDS, Rank
from baloot_conformance.check import features
from baloot_conformance.check.events import HandChecker, unlogged_auction
from baloot_conformance.cli import main
from baloot_conformance.corpus.fixtures import Fixture, load_corpus, run_fixture
from baloot_conformance.errors import TranscriptSyntaxError
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.suite.cases import Case, ruleset_of, transcript_of
from baloot_conformance.suite.engine_process import declared_features
from baloot_conformance.suite.protocol import answer_problem, schema

PYTHON = sys.executable
REFERENCE = f"{PYTHON} -m baloot_conformance.suite.reference_adapter"


def _cards(cards: int) -> list[Any]:
    return [card for card in CARDS if cards >> card.index & 1]


def plain_reading(hand: btn.Hand, checker: HandChecker, rules: Ruleset) -> set[str]:
    """What the hand needs, read from its lines and its replayed table, without a trace."""
    found: set[str] = set()
    items = hand.items
    calls = [i for i in items if type(i) is btn.Call]
    raises = [c for c in calls if c.phase == "raise"]
    if unlogged_auction(hand):
        found.add("partial_transcripts")
    if raises:
        found.add("doubling")
    if any(c.word == "gahwa" for c in raises):
        found.add("gahwa")
    if any(c.word in ("closed", "open") or {"closed", "open"} & set(c.args) for c in raises):
        found.add("lock")
    if any(c.phase == "bid" and c.word == "ashkal" for c in calls):
        found.add("ashkal")
    for kind, name in ((btn.Declare, "projects"), (btn.Baloot, "baloot"), (btn.Sawa, "sawa")):
        if any(type(i) is kind for i in items):
            found.add(name)
    if any(type(i) is btn.Foul for i in items):
        found.add("fouls")
    if any(type(i) is btn.Kawesh for i in items):
        found.add("kawesh")
    engine = checker.engine
    if engine is None:
        return found
    if engine.auction.round >= 2:
        found.add("second_round")
    contract = engine.contract
    if contract is not None and contract.level > 1:
        found.add("doubling")
    scored = checker.result is not None and checker.result.score is not None
    if scored and engine.declarations.projects:
        found.add("projects")  # declared for the players, and counted in the score
    if contract is not None and contract.trump is not None and engine.initial:
        pair = {(Rank.KING, contract.trump), (Rank.QUEEN, contract.trump)}
        if any(pair <= {(c.rank, c.suit) for c in _cards(held)} for held in engine.initial):
            found.add("baloot")
    if rules.deal.kawesh.option != "disabled" and any(
        all(c.rank in rules.deal.kawesh.ranks for c in _cards(five)) for five in engine.first_five
    ):
        found.add("kawesh")  # the seat may call it: its legal calls say so
    winners = [winner for winner, _ in checker.tricks]
    if len(winners) == 8 and len({seat % 2 for seat in winners}) == 1:
        found.add("kaboot")
    if rules.play.fouls.option != "refused" and engine.fouls:
        found.add("fouls")
    return found


@cache
def corpus() -> tuple[Fixture, ...]:
    return tuple(load_corpus())


def fixture_hands(fixture: Fixture) -> tuple[btn.Hand, ...] | None:
    try:
        with btn.TranscriptReader.from_text(fixture.text, str(fixture.path)) as reader:
            return tuple(reader)
    except TranscriptSyntaxError:
        return None


#: What the plain reading cannot see: a rule that decided what the table does not show.
_TRACE_ONLY = {"lock"}  # a locked lead restricts a card; a plain reading sees no lock line


def test_every_hand_needs_what_a_plain_reading_of_it_finds() -> None:
    """Over the corpus and 40 generated games under saudi and majlis, each hand's features
    are those of its lines and table: none counted where nothing decided, none missed."""
    differences: list[str] = []
    checked = 0

    def visit(name: str, hands: tuple[btn.Hand, ...], rules: Ruleset) -> None:
        nonlocal checked
        for hand, (_, checker, needed) in zip(
            hands, features.traced_hands(hands, "", rules), strict=True
        ):
            read = plain_reading(hand, checker, rules)
            extra = needed - read - _TRACE_ONLY
            if extra or read - needed:
                differences.append(f"{name} {hand.position}: {sorted(needed)} vs {sorted(read)}")
            checked += 1

    for fixture in corpus():
        hands = fixture_hands(fixture)
        if hands is not None:
            visit(fixture.id, hands, ruleset_of(fixture.tag or fixture.ruleset_id))
    for ruleset in ("saudi", "majlis"):
        for seed in range(20):
            transcript, rules = transcript_of(Case("g", "generated", ruleset, seed))
            visit(f"generated.{ruleset}.{seed}", transcript.hands, rules)
    assert checked > 700
    assert differences == []


def test_no_feature_is_decoration() -> None:
    """Every feature is needed by some fixture and not needed by most: each one tells cases
    apart somewhere in the corpus."""
    needs = {name: 0 for name in features.NAMES}
    total = 0
    for fixture in corpus():
        hands = fixture_hands(fixture)
        if hands is None:
            continue
        rules = ruleset_of(fixture.tag or fixture.ruleset_id)
        run = run_fixture(fixture, rules)
        total += 1
        for name in features.transcript_features(run.trace.rules(), hands, rules):
            needs[name] += 1
    assert all(0 < count < total for count in needs.values()), needs


def test_the_derivation_on_real_hands() -> None:
    """Generated game 3 under saudi: a plain Sun without a project needs nothing; a Hokum
    raised with its lock chosen in the second round needs doubling, lock, second_round."""
    transcript, rules = transcript_of(Case("g", "generated", "saudi", 3))
    needed = features.hands_features(transcript.hands, rules)
    plain = transcript.hands[4]  # hand 5: 'bid ... sun', no declare, no raise
    assert [i.word for i in plain.items if type(i) is btn.Call] == ["pass", "sun"]
    assert needed[4] == frozenset()
    assert {"doubling", "lock", "second_round"} <= needed[3]
    assert "sawa" not in frozenset().union(*needed)
    # A fixture's illegal card under saudi (which refuses it) needs no 'fouls'; the fixtures
    # of play.fouls (a card standing, a foul called) do.
    for fixture in corpus():
        if fixture.id in ("play.hokum.overruff.fail-1", "play.fouls.pass-1", "claims.sawa.pass-1"):
            rules = ruleset_of(fixture.tag or fixture.ruleset_id)
            hands = fixture_hands(fixture)
            assert hands is not None
            got = features.transcript_features(
                run_fixture(fixture, rules).trace.rules(), hands, rules
            )
            assert ("fouls" in got) == (fixture.id == "play.fouls.pass-1"), fixture.id
            assert ("sawa" in got) == (fixture.id == "claims.sawa.pass-1"), fixture.id


def test_feature_lists_are_parsed_with_a_suggestion() -> None:
    assert features.parse_features("doubling, sawa") == {"doubling", "sawa"}
    assert features.parse_features("none") == frozenset()
    with pytest.raises(Exception) as raised:
        features.parse_features("doubling,sawwa")
    text = str(raised.value)
    assert "'sawwa' is not a feature (did you mean 'sawa'?)" in text
    assert ", ".join(features.NAMES) in text


# --- the handshake ------------------------------------------------------------------------


def _started(**extra: Any) -> dict[str, Any]:
    return {
        "protocol": 1,
        "engine": {"name": "x", "version": "1"},
        "rulesets": ["saudi"],
        "capabilities": ["replay"],
        **extra,
    }


def test_the_schema_lists_exactly_the_features() -> None:
    started = schema()["$defs"]["started"]["properties"]
    assert started["features"]["items"]["enum"] == list(features.NAMES)


def test_an_unknown_feature_is_a_handshake_error_naming_it_and_the_known_ones() -> None:
    wrong = answer_problem("start", _started(features=["doubling", "gahwah"]))
    assert wrong is not None
    assert wrong.startswith("at /features/1: 'gahwah' is not a feature (did you mean 'gahwa'?)")
    assert "partial_transcripts" in wrong
    assert answer_problem("start", _started(features=["doubling"])) is None


def test_absent_features_mean_every_feature_and_partial_is_the_same_as_partial_transcripts() -> (
    None
):
    everything = features.ALL - {"partial_transcripts"}
    assert declared_features(_started()) == everything
    assert declared_features(_started(capabilities=["replay", "partial"])) == features.ALL
    assert declared_features(_started(features=["sawa"])) == {"sawa"}
    both = _started(capabilities=["replay", "partial"], features=["sawa"])
    assert declared_features(both) == {"sawa", "partial_transcripts"}
    named = _started(features=["partial_transcripts"])
    assert declared_features(named) == {"partial_transcripts"}


# --- suite ----------------------------------------------------------------------------------


def _suite(*argv: str) -> tuple[int, list[dict[str, Any]]]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["suite", *argv, "--format", "json", "--jobs", "1"], stdout=out, stderr=err)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_a_reference_adapter_without_sawa_reports_every_sawa_case_unsupported_and_passes() -> None:
    """Acceptance: the Sawa cases are every fixture whose replay counts ``claims.sawa`` and
    each Sawa it judges (``*.sawa``); the run selects them all, with a few others (a foul
    call judged, a plain fixture), which pass."""
    sawa_fixtures = {
        f.id
        for f in corpus()
        if "claims.sawa" in run_fixture(f, ruleset_of(f.tag or f.ruleset_id)).trace.rules()
    }
    assert len(sawa_fixtures) >= 8
    others = "play.fouls.pass-1,play.follow-suit.pass-1"
    code, records = _suite(
        "--engine",
        f"{REFERENCE} --without sawa",
        "--fixtures",
        ",".join(sorted(sawa_fixtures)) + "," + others,
        "--generated",
        "1",
    )
    cases = {r["id"]: r for r in records if r["record"] == "case"}
    unsupported = {id_ for id_, r in cases.items() if r["verdict"] == "unsupported"}
    judged_sawas = {id_ for id_ in cases if id_.endswith(".sawa")}
    assert judged_sawas and all(id_.rsplit(".", 2)[0] in sawa_fixtures for id_ in judged_sawas)
    assert unsupported == sawa_fixtures | judged_sawas
    assert {r["verdict"] for id_, r in cases.items() if id_ not in unsupported} == {"pass"}
    assert {"play.fouls.pass-1.h1.foul1", "generated.saudi.0"} <= set(cases)
    for id_ in unsupported:
        assert cases[id_]["requests"] == 0
        assert "sawa" in cases[id_]["features"]
        assert "needs the feature sawa, which the engine does not declare" in cases[id_]["message"]
    assert "fouls" in cases["play.fouls.pass-1.h1.foul1"]["features"]
    header = records[0]
    assert "sawa" not in header["engine"]["features"]
    assert code == 0 and records[-1]["ok"]


# --- fixtures list, and rule IDs as selectors -------------------------------------------------


def _list(*argv: str) -> tuple[int, list[dict[str, Any]], str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["fixtures", "list", *argv, "--format", "json"], stdout=out, stderr=err)
    return code, [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_fixtures_list_filters_combine_with_and() -> None:
    code, bidding, _ = _list("--area", "bidding")
    assert code == 0 and {e["area"] for e in bidding} == {"bidding"}
    _, ashkal, _ = _list("--feature", "ashkal")
    _, both, _ = _list("--area", "bidding", "--feature", "ashkal")
    ids = {e["id"] for e in both}
    assert ids == {e["id"] for e in bidding} & {e["id"] for e in ashkal}
    assert 0 < len(ids) < min(len(bidding), len(ashkal))
    assert all("ashkal" in e["features"] for e in both)
    # A Sun bought for the partner is what makes them need it: each one logs one.
    for entry in both:
        text = next(f.text for f in corpus() if f.id == entry["id"])
        assert " ashkal" in text.split("\n---\n", 2)[-1]


def test_a_rule_id_selects_the_fixtures_naming_it_in_list_and_suite() -> None:
    from baloot_conformance.suite.runner import fixture_cases

    named = {f.id for f in corpus() if "play.hokum.overruff" in f.rules}
    code, listed, _ = _list("--rule", "play.hokum.overruff")
    assert code == 0 and {e["id"] for e in listed} == named and len(named) >= 3
    selected = {c.id for c in fixture_cases("play.hokum.overruff") if not (c.talk or c.perft)}
    assert selected == named
    # An item is a rule ID and a glob at once: both select.
    both = {
        c.id
        for c in fixture_cases("play.hokum.overruff,full-game-plain")
        if not (c.talk or c.perft)
    }
    assert both == named | {"full-game-plain"}


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--rule", "play.hokum.overuff", "'play.hokum.overuff' is not a rule ID (did you mean "
         "'play.hokum.overruff'?)"),
        ("--area", "biding", "'biding' is not an area (did you mean 'bidding'?)"),
        ("--feature", "sawwa", "'sawwa' is not a feature (did you mean 'sawa'?)"),
    ],
)  # fmt: skip
def test_fixtures_list_names_an_unknown_filter_with_the_closest(
    option: str, value: str, said: str
) -> None:
    code, listed, err = _list(option, value)
    assert code == 2 and listed == []
    assert said in err and "Traceback" not in err
    assert len(err.splitlines()) <= 3


# --- check --features -------------------------------------------------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent
BLOOT7_LOG = ROOT / "tests/data/peer-logs/bloot7/b1.json.gz"
WITHOUT_DOUBLING = ",".join(name for name in features.NAMES if name != "doubling")


def _check(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", "--jobs", "1", *argv], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def bloot7_match(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A logged match of 7oossam/bloot, imported: some of its hands are raised."""
    target = tmp_path_factory.mktemp("features") / "b1.btn"
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["import", "--from", "bloot7", str(BLOOT7_LOG), "-o", str(target)], stdout=out, stderr=err
    )
    assert code == 0, err.getvalue()
    return target


def test_check_features_reports_the_raised_hands_of_a_log_unsupported(bloot7_match: Any) -> None:
    """Checked as from an engine without doubling, the hands that log a raise (an explicit
    pass included) are unsupported, the others pass, and the run passes."""
    import jsonschema

    from baloot_conformance.resources import spec_path

    with btn.TranscriptReader(bloot7_match) as reader:
        hands = list(reader)
    raised = {
        h.position
        for h in hands
        if any(type(i) is btn.Call and i.phase == "raise" for i in h.items)
    }
    assert 0 < len(raised) < len(hands)
    code, out, _ = _check(str(bloot7_match), "--features", WITHOUT_DOUBLING, "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    validator = jsonschema.Draft202012Validator(
        json.loads(spec_path("schema", "report.schema.json").read_text(encoding="utf-8"))
    )
    for record in records:
        validator.validate(record)
    status = {r["position"]: r for r in records if r["record"] == "hand"}
    assert {p for p, r in status.items() if r["status"] == "unsupported"} == raised
    assert {r["status"] for p, r in status.items() if p not in raised} == {"pass"}
    assert all(status[p]["missing_features"] == ["doubling"] for p in raised)
    summary = records[-1]
    assert summary["unsupported"] == len(raised) and summary["ok"] and code == 0
    # Every feature: the report is the one without --features (a hand known-defect there).
    every = _check(str(bloot7_match), "--features", ",".join(features.NAMES))
    assert every == _check(str(bloot7_match)) and "1 known defect" in every[1]
    # JUnit: skipped; Markdown: a section; text: a line per hand.
    _, junit, _ = _check(str(bloot7_match), "--features", WITHOUT_DOUBLING, "--format", "junit")
    assert f'skipped="{len(raised)}"' in junit and junit.count('type="unsupported"') == len(raised)
    _, markdown, _ = _check(
        str(bloot7_match), "--features", WITHOUT_DOUBLING, "--format", "markdown"
    )
    assert "### Unsupported (features the engine does not declare)" in markdown
    _, html, _ = _check(str(bloot7_match), "--features", WITHOUT_DOUBLING, "--format", "html")
    assert f'data-count="unsupported">{len(raised)}<' in html
    assert html.count('class="status-unsupported">h') == len(raised)
    _, text, _ = _check(str(bloot7_match), "--features", WITHOUT_DOUBLING)
    assert text.count("unsupported: needs the feature doubling") == len(raised)
    assert f"{len(hands) - len(raised)} passed, {len(raised)} unsupported" in text


def test_check_features_that_leave_every_hand_unsupported_fail_the_run(bloot7_match: Any) -> None:
    code, out, _ = _check(str(bloot7_match), "--features", "none")
    assert code == 1
    assert "nothing was checked: every hand needs a feature that --features does not list" in out
    code, out, err = _check(str(bloot7_match), "--features", "none", "--format", "json")
    assert code == 1 and json.loads(out.splitlines()[-1])["ok"] is False
    assert "error: nothing was checked" in err
    code, _, err = _check(str(bloot7_match), "--features", "doubling,sawwa")
    assert code == 2 and "'sawwa' is not a feature (did you mean 'sawa'?)" in err


def test_the_protocol_page_lists_every_feature_as_the_module_derives_it() -> None:
    page = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    assert features.markdown_table() in page
