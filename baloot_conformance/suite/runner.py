"""The conformance suite run against an engine through the adapter protocol.

A *case* is one fixture of the corpus or one generated game. The engine sees the case's
events only; the kit asks it to ``replay`` them, for its ``legal`` calls and cards before
each call and card, and for its ``claims`` on each complete hand. Its answers become claims
in the hand (a ``= legal`` claim before each card, its calls before each call, its claims
after the last trick), and the reference interpreter checks them as it checks any
transcript's claims: the rule IDs, expected values and messages are the ones ``check``
gives. The case fails at its first diverging observable, in the order of the hand. Each Sawa
and foul call a case judges is a case of its own, a ``judge`` request
(:mod:`~baloot_conformance.suite.judging`).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import multiprocessing
import multiprocessing.util
import os
import signal
import threading
import time
from collections.abc import Generator, Iterable, Sequence
from pathlib import Path
from typing import Any

from baloot_conformance import btn, processes
from baloot_conformance.btn import json_form
from baloot_conformance.cards import Card
from baloot_conformance.check.features import missing_words, ordered
from baloot_conformance.check.run import replay_hands
from baloot_conformance.check.verdicts import Divergence
from baloot_conformance.corpus.fixtures import (
    Fixture,
    corpus_root,
    load_corpus,
    load_fixture,
    run_fixture,
)
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import BalootError, Location
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.suite.cases import (
    VERDICTS,
    Case,
    CaseResult,
    Failure,
    Observable,
    Verdict,
    case_features,
    cut,
    index_of,
    is_partial,
    ruleset_of,
    start_events,
    strip,
    transcript_of,
    with_completion,
)
from baloot_conformance.suite.engine_process import Engine, EngineFailure, EngineInfo, Listener
from baloot_conformance.suite.family_cases import run_family_case
from baloot_conformance.suite.judging import JUDGE, KitDefect, judge_talk, talk_cases
from baloot_conformance.suite.perft_cases import PERFT, judge_perft, perft_cases
from baloot_conformance.suite.protocol import PROTOCOL
from baloot_conformance.suite.protocol2 import PROTOCOL2
from baloot_conformance.suite.reference_adapter import Rejection, rejection_in
from baloot_conformance.suite.repeat import run_repeated
from baloot_conformance.suite.trace import TraceContext

__all__ = [
    "ASKED", "HAND_CLAIMS", "REQUIRED_CLAIMS", "VERDICTS", "Case", "CaseResult", "Failure",
    "Observable", "Verdict", "corpus_ids", "fixture_cases", "generated_cases", "run_case",
    "run_cases", "strip", "with_completion",
]  # fmt: skip

#: The claims every ``claims`` answer must hold (a trick claim per trick played).
REQUIRED_CLAIMS = frozenset({"contract", "trick", "score", "total"})
#: The claims an answer may hold.
HAND_CLAIMS = frozenset(
    {"contract", "trick", "abnat", "aklat", "projects", "cardscore", "projectscore", "score",
     "total", "result", "kaboot", "winner"}
)  # fmt: skip


# --- cases ---------------------------------------------------------------------------------


def fixture_cases(selector: str = "*", ruleset: str | None = None) -> list[Case]:
    """The corpus's fixtures whose id or ``area/id`` matches one of the comma-separated
    globs of ``selector`` (``none`` for none), or whose ``rules:`` name one of its items (a
    rule ID: ``play.hokum.overruff``; an item is tried both ways, so a rule ID never hides
    the fixture its glob matches), under ``ruleset`` only when given; each followed by a
    case for each Sawa and foul call it judges (selected with its fixture, or by its own
    id: ``*.sawa``), and by each perft count it records. An item ``=ID`` selects exactly the
    case of that id and nothing with it (a fixture alone: what a failure's rerun runs)."""
    if selector.strip() == "none":
        return []
    items = [g.strip() for g in selector.split(",") if g.strip()]
    exact = frozenset(item[1:] for item in items if item.startswith("="))
    globs = [item for item in items if not item.startswith("=")]
    named = frozenset(globs)

    def chosen(area: str, id_: str) -> bool:
        return id_ in exact or any(
            fnmatch.fnmatchcase(n, g) for g in globs for n in (id_, f"{area}/{id_}")
        )

    cases = []
    root = corpus_root()
    for fixture in load_corpus(root):
        if ruleset is not None and fixture.ruleset_id != ruleset:
            continue
        case = Case(
            fixture.id,
            str(fixture.path),
            fixture.tag or fixture.ruleset_id,
            shown=_corpus_path(fixture.path, root),
        )
        alone = fixture.id in exact
        whole = not alone and (
            chosen(fixture.area, fixture.id) or not named.isdisjoint(fixture.rules)
        )
        talk = [t for t in talk_cases(case, fixture.text) if whole or chosen(fixture.area, t.id)]
        talk += [p for p in perft_cases(case, fixture) if whole or chosen(fixture.area, p.id)]
        cases += [case, *talk] if whole or alone else talk
    return cases


def _corpus_path(path: Path, root: Path) -> str:
    """``fixtures/AREA/FILE.btn``: a shipped fixture's path in the kit's repository."""
    try:
        return (Path(root.name) / path.relative_to(root)).as_posix()
    except ValueError:  # not under the corpus (cannot happen for load_corpus's fixtures)
        return str(path)


def generated_cases(ruleset: str, games: int, seed: int = 0) -> list[Case]:
    """``games`` generated games under ``ruleset``, game ``n`` from seed ``seed + n``."""
    return [
        Case(
            f"generated.{ruleset}.{seed + n}", f"generated.{ruleset}.{seed + n}", ruleset, seed + n
        )
        for n in range(games)
    ]


# --- running one case ----------------------------------------------------------------------


def run_case(case: Case, engine: Engine) -> CaseResult:
    """Drive ``engine`` through one case and judge it (expectations aside)."""
    if case.protocol == PROTOCOL2:
        return run_family_case(case, engine)
    try:
        transcript, rules = transcript_of(case)
    except BalootError as exc:
        return CaseResult(case, "invalid", message=f"the case cannot be read: {exc}")
    decided: frozenset[str] | None = None
    if case.seed is None:
        invalid, decided = _fixture_defect(case)
        if invalid is not None:
            return invalid
        if not transcript.hands:
            return CaseResult(case, "skip", message="no hand to play (a notation fixture)")
    case = dataclasses.replace(case, features=case_features(case, transcript, rules, decided))
    try:
        info = engine.start()
    except EngineFailure as exc:
        return CaseResult(case, "error", message=str(exc), stderr=exc.stderr)
    missing = _unsupported(case, transcript, rules, info)
    if missing:
        return CaseResult(case, "unsupported", message=missing)
    run = _CaseRun(case, transcript, rules, engine, info)
    try:
        failure = (
            run.judge_perft() if case.perft else run.judge_talk() if case.talk else run.judge()
        )
    except EngineFailure as exc:
        return CaseResult(case, "error", message=str(exc), stderr=exc.stderr, requests=run.sent)
    except _Declined as exc:
        verdict: Verdict = "skip" if exc.skip else "error"
        return CaseResult(case, verdict, message=str(exc), requests=run.sent)
    except KitDefect as exc:
        return CaseResult(case, "invalid", message=str(exc), requests=run.sent)
    if failure is None and run.sent == 0:  # a pass is an engine's answers judged, never none
        return CaseResult(
            case,
            "unsupported",
            message="nothing to ask the engine: what it declares "
            f"({', '.join(sorted(info.capabilities))}) does not apply to this case",
        )
    if failure is None:
        return CaseResult(case, "pass", requests=run.sent)
    return CaseResult(case, "fail", failure, requests=run.sent)


def _fixture_defect(case: Case) -> tuple[CaseResult | None, frozenset[str] | None]:
    """``invalid`` when the fixture's own expectation is not what the interpreter gives;
    ``skip`` for a fixture that tests a syntax error (there are no events to send); else
    ``None`` and the rules the fixture's replay counted (what its features come from)."""
    try:
        fixture: Fixture = load_fixture(Path(case.path))
    except BalootError as exc:
        return CaseResult(case, "invalid", message=f"the fixture cannot be read: {exc}"), None
    if fixture.expect.syntax_error is not None:
        skip = CaseResult(case, "skip", message="tests the notation's syntax, not an engine")
        return skip, None
    run = run_fixture(fixture, ruleset_of(case.ruleset))
    if not run.as_expected:
        return CaseResult(
            case,
            "invalid",
            message=f"the fixture expects {fixture.expect}, but the reference interpreter gives "
            f"{run.outcome}: a defect of the corpus, please report it",
        ), None
    return None, run.trace.rules()


#: The capabilities that are requests: an engine must declare one for anything to be checked.
ASKED = frozenset({"replay", "legal", "claims", JUDGE, PERFT})


def _unsupported(
    case: Case, transcript: btn.Transcript, rules: Ruleset, info: EngineInfo
) -> str | None:
    if not ASKED & info.capabilities:
        return (
            "the engine declares none of replay, legal, claims, judge, perft (its capabilities: "
            f"{', '.join(sorted(info.capabilities))}), so there is nothing to ask it"
        )
    if case.talk and JUDGE not in info.capabilities:
        return "the engine does not judge a Sawa or a foul call (it does not declare 'judge')"
    if case.perft and PERFT not in info.capabilities:
        return "the engine does not count perft (it does not declare 'perft')"
    if rules.id not in info.rulesets:
        return (
            f"the engine does not play the {rules.id} ruleset (it plays {', '.join(info.rulesets)})"
        )
    lacking = missing_words(case.features or (), info.features)
    if lacking:
        return f"the case {lacking} (its 'start' answer lists {_declared(info)})"
    return None


def _declared(info: EngineInfo) -> str:
    """The features an engine declares, as an unsupported case's message quotes them."""
    if not info.declared:
        return "no features: every one but partial_transcripts, which needs 'partial'"
    if not info.features:
        return "no feature"
    return f"the features {', '.join(ordered(info.features))}"


class _Declined(Exception):
    """The engine answered ``skip`` (``skip`` true) or ``error``."""

    def __init__(self, message: str, skip: bool) -> None:
        super().__init__(message)
        self.skip = skip


class _CaseRun:
    """One case against one engine: the requests, and the hand with the answers in it."""

    def __init__(
        self,
        case: Case,
        transcript: btn.Transcript,
        rules: Ruleset,
        engine: Engine,
        info: EngineInfo,
    ) -> None:
        self.case = case
        self.original = transcript
        self.hands, self.replayed = with_completion([strip(h) for h in transcript.hands], rules)
        self.rules = rules
        self.engine = engine
        self.info = info
        self.sent = 0
        self.ruleset = {"id": rules.id, "version": rules.version, "digest": rules.digest}
        self.header = [{"tag": "Ruleset", "value": f"{rules.id}@{rules.version}"}]
        self.calls = frozenset(
            item.position for hand in self.hands for item in hand.items if type(item) is btn.Call
        )
        """The call events' positions: a divergence there is on the engine's legal calls."""
        self.where = {
            item.position: Location(case.where, item.line, item.column)
            for hand in transcript.hands
            for item in hand.items
            if isinstance(item, btn.Item) and item.line
        }

    def _ask(self, command: str, **fields: Any) -> dict[str, Any]:
        self.sent += 1
        answer = self.engine.request(command, ruleset=self.ruleset, **fields)
        if "skip" in answer:
            link = f" ({answer['issue']})" if answer.get("issue") else ""
            raise _Declined(f"the engine skips it: {answer['skip']}{link}", skip=True)
        if "error" in answer:
            raise _Declined(f"the engine reports an error: {answer['error']}", skip=False)
        return answer

    def _document(self, hands: Iterable[dict[str, Any]]) -> dict[str, Any]:
        return {"btn": "1", "header": self.header, "hands": list(hands)}

    def judge_talk(self) -> Failure | None:
        """The ``judge`` request of a case that judges one Sawa or foul call."""
        totals = [checker.totals for _, checker in self.replayed]
        return judge_talk(
            self.case, self.hands, totals, self.rules, self._ask, self._document, self.where
        )

    def judge_perft(self) -> Failure | None:
        """The ``perft`` request of a case that asks for a fixture's perft count."""
        totals = [checker.totals for _, checker in self.replayed]
        return judge_perft(
            self.case, self.hands, totals, self.rules, self._ask, self._document, self.where
        )

    def judge(self) -> Failure | None:
        replayed = self.replayed
        stopped = next((v for v, _ in replayed if v.status == "error" and not v.divergences), None)
        if stopped is not None:
            raise KitDefect(
                f"the reference interpreter cannot replay {stopped.position}: {stopped.error}"
            )
        rejection = rejection_in(self.hands, [verdict for verdict, _ in replayed])
        failures: list[tuple[tuple[int, int], Failure]] = []
        if "replay" in self.info.capabilities:
            found = self._replay(rejection)
            if found is not None:
                failures.append(found)
        if {"legal", "claims"} & self.info.capabilities:
            found = self._observe(
                rejection,
                [checker.totals for _, checker in replayed],
                [
                    checker.engine is not None and checker.engine.is_over()
                    for _, checker in replayed
                ],
            )
            if found is not None:
                failures.append(found)
        return min(failures, key=lambda f: f[0])[1] if failures else None

    # --- replay -------------------------------------------------------------------------

    def _replay(self, rejection: Rejection | None) -> tuple[tuple[int, int], Failure] | None:
        document = self._document(json_form.hand_json(h) for h in self.hands)
        answer = self._ask("replay", transcript=document)
        if answer["accepted"]:
            if rejection is None:
                return None
            return self._order(rejection.position), self._accepted(rejection)
        numbers = [hand.number for hand in self.hands]
        if answer["hand"] not in numbers:
            raise EngineFailure(
                "answer", f"the engine rejects hand {answer['hand']}, which the case does not have"
            )
        hand = self.hands[numbers.index(answer["hand"])]
        index = answer["event"]
        if index >= len(hand.items) or not isinstance(hand.items[index], btn.Event):
            raise EngineFailure(
                "answer",
                f"the engine rejects event {index} of hand {hand.number}, which has no such event",
            )
        item = hand.items[index]
        at = self._order(item.position)
        if rejection is not None and self._order(rejection.position) <= at:
            if rejection.position == item.position:
                return None
            return self._order(rejection.position), self._accepted(rejection)
        reason = answer.get("reason") or "no reason given"
        return at, Failure(
            "replay",
            item.position,
            self._deciding_rule(numbers.index(answer["hand"]), index),
            f"the engine rejects {_event_words(item)}, which the ruleset allows "
            f"(the engine says: {reason})",
            expected="accepted",
            actual="rejected",
            location=self.where.get(item.position),
        )

    def _accepted(self, rejection: Rejection) -> Failure:
        return Failure(
            "replay",
            rejection.position,
            rejection.rule_id,
            f"the engine accepts {rejection.position}, which the ruleset forbids: "
            f"{rejection.reason}",
            expected="rejected",
            actual="accepted",
            location=self.where.get(rejection.position),
        )

    def _deciding_rule(self, hand_index: int, index: int) -> str | None:
        """The rule that decided a legal event: the first rule its replay counted."""

        def counts(upto: int) -> dict[str, int]:
            trace = Trace()
            hands = [*self.hands[:hand_index], cut(self.hands[hand_index], upto)]
            for _ in replay_hands(hands, "", self.rules, trace=trace):
                pass
            return trace.counts

        before, after = counts(index), counts(index + 1)
        return next((rule for rule, n in after.items() if n > before.get(rule, 0)), None)

    def _order(self, position: str) -> tuple[int, int]:
        """Where a position comes in the case: its hand, then its item."""
        for h_index, hand in enumerate(self.hands):
            if position.split(".")[0] == hand.position:
                return h_index, index_of(hand, position)
        return len(self.hands), 0

    # --- legal and claims -----------------------------------------------------------------

    def _observe(
        self,
        rejection: Rejection | None,
        totals: Sequence[tuple[int, int]],
        over: Sequence[bool],
    ) -> tuple[tuple[int, int], Failure] | None:
        """Ask ``legal`` before each call and card up to the first illegal event, and
        ``claims`` on each hand played out before it, and check the answers as claims."""
        augmented: list[btn.Hand] = []
        asked_claims: set[str] = set()
        for h_index, hand in enumerate(self.hands):
            stop = len(hand.items)
            if rejection is not None and rejection.hand == hand.number:
                stop = rejection.event
            start = start_events(hand, totals[h_index])
            items: list[dict[str, Any]] = []
            asked: dict[str, btn.Claim] = {}
            events = [json_form.item_json(item) for item in hand.items]
            partial = is_partial(hand)
            for index, item in enumerate(hand.items[:stop]):
                if "legal" in self.info.capabilities and (
                    isinstance(item, btn.Play) or (isinstance(item, btn.Call) and not partial)
                ):
                    answer = self._ask(
                        "legal",
                        seat=item.seat,
                        transcript=self._document(
                            [{"hand": hand.number, "items": [*start, *events[:index]]}]
                        ),
                    )
                    asked[item.position] = _legal_claim(item, answer)
                items.append(events[index])
            complete = stop == len(hand.items)  # not cut at the first illegal event
            if complete and "claims" in self.info.capabilities and over[h_index]:
                every = [*start, *events]
                answer = self._ask(
                    "claims", transcript=self._document([{"hand": hand.number, "items": every}])
                )
                claims = self._claims(answer["claims"])
                if partial:  # its contract is the case's own claim, not an answer
                    claims = [c for c in claims if c["claim"] != "contract"]
                items += claims
                asked_claims.add(hand.position)
            augmented.append(self._augment(hand, items, asked))
            if not complete:
                break
        verdicts = replay_hands(
            augmented,
            self.case.where,
            self.rules,
            required=lambda h: REQUIRED_CLAIMS if h.position in asked_claims else frozenset(),
        )
        for h_index, (verdict, _) in enumerate(verdicts):
            if verdict.divergences:
                root = verdict.divergences[0]
                return (h_index, index_of(augmented[h_index], root.position)), self._failure(root)
        return None

    def _claims(self, claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for index, claim in enumerate(claims):
            wrong = json_form.item_problem(claim)
            if wrong is None and claim["claim"] not in HAND_CLAIMS:
                wrong = f"a '{claim['claim']}' claim is not a claim on a hand's outcome"
            if wrong is not None:
                raise EngineFailure(
                    "protocol", f"not a valid answer to 'claims': at /claims/{index}: {wrong}"
                )
        return [{k: v for k, v in claim.items() if k != "position"} for claim in claims]

    def _augment(
        self, hand: btn.Hand, items: list[dict[str, Any]], legal: dict[str, btn.Claim]
    ) -> btn.Hand:
        """The hand with the engine's answers in it, as claims the interpreter checks: its
        claims after the events, its legal calls and cards (``legal``, by the position of
        the event they precede) before each event."""
        try:
            built = json_form.hand_from_json(
                {"hand": hand.number, "items": items}, 0, "<answers>", set(), validate=False
            )
        except BalootError as exc:
            raise EngineFailure(
                "answer", f"the engine's claims do not fit the hand: {exc}"
            ) from None
        merged: list[btn.HandItem] = []
        for item in built.items:
            if isinstance(item, btn.Event) and item.position in legal:
                merged.append(legal[item.position])
            merged.append(item)
        return dataclasses.replace(built, items=tuple(merged))

    def _failure(self, divergence: Divergence) -> Failure:
        legal = divergence.position.endswith(".legal") or divergence.position in self.calls
        observable: Observable = "legal" if legal else "claims"
        message = divergence.message
        if divergence.kind == "missing_claim":
            name = divergence.position.rsplit(".", 1)[-1]
            message = (
                f"the engine's claims leave out '{name}' (contract, a trick claim per trick, "
                "score and total are required)"
            )
        position = divergence.position
        location = self.where.get(position) or self.where.get(position.removesuffix(".legal"))
        return Failure(
            observable,
            position,
            divergence.rule_id,
            message,
            expected=divergence.expected,
            actual=divergence.claimed,
            location=location,
        )


def _legal_claim(item: btn.Play | btn.Call, answer: dict[str, Any]) -> btn.Claim:
    """An engine's answer to ``legal`` as the claim the interpreter checks before ``item``:
    its cards before a card, its calls before a call."""
    if isinstance(item, btn.Play):
        cards = tuple(Card.from_code(code) for code in answer["cards"])
        return btn.LegalClaim(position=f"{item.position}.legal", seat=item.seat, cards=cards)
    calls = tuple(answer["calls"])
    return btn.LegalCallsClaim(
        position=item.position, seat=item.seat, phase=item.phase, calls=calls
    )


def _event_words(item: btn.Item) -> str:
    """An event as a report names it: ``h1.t3.p2 (E 7H)``."""
    if isinstance(item, btn.Play):
        return f"{item.position} ({item.seat} {item.card})"
    if isinstance(item, btn.Call):
        return f"{item.position} ({item.seat} {' '.join([item.word, *item.args])})"
    return item.position


# --- the run -------------------------------------------------------------------------------


def run_cases(
    cases: Sequence[Case],
    command: str,
    timeout: float = 10.0,
    jobs: int = 1,
    trace: Listener | None = None,
    repeat: int = 1,
    protocol: int = PROTOCOL,
) -> Generator[CaseResult, None, None]:
    """Each case's result, in case order. One engine process per job: with more than one
    job, worker processes each drive their own engine, and the results come back in the
    cases' order, so the report does not depend on ``jobs``. ``trace`` hears every message
    of the run (one engine: it is for one job only); with ``repeat`` above 1 each case runs
    that many times and an engine whose answers differ fails it (:mod:`.repeat`).

    Every process it starts ends with it: closing the iterator (as an interruption does)
    stops the engine, or terminates the workers, each of which kills its engine as it goes
    (:func:`_start_worker`). ``protocol``: the version the engines are asked for (1 or 2,
    or 0 to let each engine's answer choose: :class:`~.engine_process.Engine`)."""
    if jobs <= 1 or len(cases) <= 1 or trace is not None:
        engine = Engine(command, timeout, [trace] if trace is not None else [], protocol)
        try:
            for case in cases:
                yield _run_one(case, engine, repeat)
        finally:
            engine.context = None
            engine.close()
        return
    context = multiprocessing.get_context("fork")
    initargs = (command, timeout, repeat, protocol)
    with context.Pool(jobs, initializer=_start_worker, initargs=initargs) as pool:
        yield from pool.imap(_worker_case, cases, chunksize=1)
        pool.close()
        pool.join()


def _run_one(case: Case, engine: Engine, repeat: int) -> CaseResult:
    """One case's result, run ``repeat`` times when that is above 1; what the engine hears
    is the case's (its :class:`~.trace.TraceContext`)."""
    engine.context = TraceContext(case.id)
    if repeat > 1:
        return run_repeated(case, engine, repeat, run_case)
    return run_case(case, engine)


_WORKER_ENGINE: Engine | None = None
_WORKER_REPEAT = 1
_PARENT_POLL = 0.5
"""How often a worker checks that the kit still runs, in seconds."""


def _start_worker(command: str, timeout: float, repeat: int = 1, protocol: int = PROTOCOL) -> None:
    """A pool worker's start: quiet on Ctrl-C (the kit handles it), and its engine ends
    with it however it ends: closed at a normal exit, killed on ``SIGTERM`` (what the pool
    sends when the run is interrupted), killed when the kit itself is gone (killed, crashed),
    which a worker notices within :data:`_PARENT_POLL` seconds. An engine runs in its own
    process group (so Ctrl-C does not reach it): nothing else would end it."""
    global _WORKER_ENGINE, _WORKER_REPEAT
    processes.quiet_worker()
    _WORKER_ENGINE = engine = Engine(command, timeout, protocol=protocol)
    _WORKER_REPEAT = repeat
    parent = os.getppid()

    def end(signum: int, frame: object) -> None:
        engine.abandon()
        os._exit(processes.EXIT_TERMINATED)

    signal.signal(signal.SIGTERM, end)
    threading.Thread(target=_watch_parent, args=(parent, engine), daemon=True).start()
    multiprocessing.util.Finalize(None, engine.close, exitpriority=10)


def _watch_parent(parent: int, engine: Engine) -> None:
    """In a worker: once the kit is gone (the worker is re-parented), kill the engine, exit."""
    while os.getppid() == parent:
        time.sleep(_PARENT_POLL)
    engine.abandon()
    os._exit(processes.EXIT_TERMINATED)


def _worker_case(case: Case) -> CaseResult:
    assert _WORKER_ENGINE is not None
    return _run_one(case, _WORKER_ENGINE, _WORKER_REPEAT)


def corpus_ids() -> frozenset[str]:
    """Every case id of the shipped corpus, its fixtures' and the Sawa and foul calls they
    judge (to tell a stale expectation)."""
    return frozenset(case.id for case in fixture_cases())
