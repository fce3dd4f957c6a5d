"""The trick family's fixtures run against an engine of the adapter protocol's version 2.

A case is one fixture of :func:`~baloot_conformance.corpus.family_fixtures.family_fixture_paths`
under one of the rulesets it is read under (:func:`~baloot_conformance.corpus.family_fixtures.
readings`): id ``<fixture id>`` under its own ruleset, ``<fixture id>@<ruleset>`` under
another. The fixture is first replayed by the kit: a fixture whose reading is not what the
reference engine gives is ``invalid`` (a defect of the corpus). Then the engine is shown the
events only and asked, as version 1 asks (``docs/protocol.md``, Version 2):

1. ``replay``: its answer is compared with the reference engine's first rejected event;
2. ``legal`` before every card, layout move, knock, ``bid`` and ``raise`` up to that event,
   each a one-hand transcript opening with its ``start``: the cards and the decisions, as
   sets, against :func:`~.family_truth.legal_now`;
3. ``claims`` on every hand played out before it: each claim checked as ``check`` checks a
   transcript's (the engine's claims put after the hand's events), and each claim the
   reference engine writes must be there, with every seat it lists.

The case fails at its first diverging observable, in the order of the hand.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import functools
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from baloot_conformance.check.verdicts import Divergence
from baloot_conformance.corpus.family_fixtures import (
    family_fixture_paths,
    load_family_fixture,
    readings,
    run_family_fixture,
)
from baloot_conformance.corpus.fixtures import Fixture, corpus_root
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import BalootError, Location
from baloot_conformance.family.btn import items as b2
from baloot_conformance.family.btn import json_form
from baloot_conformance.family.btn.reader import Btn2Reader
from baloot_conformance.family.check.hand_check import replay_hand
from baloot_conformance.family.check.partial import is_partial
from baloot_conformance.family.check.points_check import CLAIM_RULES, is_points_game
from baloot_conformance.family.engine.deck import Ring
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.rules.loading import load_trick_ruleset
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.suite import family_truth as truth
from baloot_conformance.suite.cases import Case, CaseResult, Failure, Observable, Verdict
from baloot_conformance.suite.engine_process import Engine, EngineFailure, EngineInfo
from baloot_conformance.suite.protocol2 import PROTOCOL2, REQUESTS

#: The rule each closing claim of a pot game is judged under (a points game's: CLAIM_RULES).
POT_CLAIM_RULES = {
    "tricks": "play.trick_winner",
    "pot": "scoring.outcome",
    "pays": "scoring.pot.bourre",
    "score": "scoring.outcome",
}


# --- cases ----------------------------------------------------------------------------------


def family_cases(selector: str = "*", ruleset: str | None = None) -> list[Case]:
    """A case per family fixture and ruleset it is read under, whose id, fixture id,
    ``area/id`` or ``game/area/id`` matches one of the comma-separated globs of ``selector``
    (``none`` for none; ``=ID`` selects exactly that case), under ``ruleset`` only when
    given. A fixture that cannot be read is one case, ``invalid`` when run."""
    if selector.strip() == "none":
        return []
    items = [g.strip() for g in selector.split(",") if g.strip()]
    exact = frozenset(item[1:] for item in items if item.startswith("="))
    globs = [item for item in items if not item.startswith("=")]
    root = corpus_root()
    cases: list[Case] = []
    for path in family_fixture_paths():
        shown = _corpus_path(path, root)
        area, game = path.parent.name, path.parent.parent.name
        try:
            fixture = _fixture(str(path))
        except BalootError:
            names = [path.stem]
            found = [(path.stem, "")]
        else:
            names = [fixture.id]
            found = [
                (fixture.id if rid == fixture.ruleset_id else f"{fixture.id}@{rid}", rid)
                for rid in readings(fixture)
            ]
        for case_id, ruleset_id in found:
            if ruleset is not None and ruleset_id != ruleset:
                continue
            keys = [case_id, *names, *(f"{area}/{n}" for n in names)]
            keys += [f"{game}/{area}/{n}" for n in names]
            if case_id in exact or any(fnmatch.fnmatchcase(k, g) for g in globs for k in keys):
                cases.append(Case(case_id, str(path), ruleset_id, shown=shown, protocol=PROTOCOL2))
    return cases


def _corpus_path(path: Path, root: Path) -> str:
    """``fixtures/<game>/<area>/<file>.btn``: a shipped fixture's path in the repository."""
    try:
        return (Path(root.name) / path.relative_to(root)).as_posix()
    except ValueError:
        return str(path)


@cache
def _ruleset(reference: str) -> TrickRuleset:
    return load_trick_ruleset(reference)


# --- running one case -------------------------------------------------------------------------


class _Declined(Exception):
    def __init__(self, message: str, skip: bool) -> None:
        super().__init__(message)
        self.skip = skip


class _Defect(Exception):
    """The reference engine cannot follow the case: it is ``invalid``."""


@functools.lru_cache(maxsize=4096)
def _fixture(path: str) -> Fixture:
    """A fixture's metadata, read once per process (a worker forked after the cases were
    listed has them all already)."""
    return load_family_fixture(Path(path))


@functools.lru_cache(maxsize=4096)
def _defect(path: str, ruleset: str) -> str | None:
    """Why the fixture's reading under ``ruleset`` is not what the reference engine gives,
    or ``None`` when it is (the case is then run)."""
    fixture = _fixture(path)
    rules = _ruleset(ruleset)
    expect = readings(fixture)[ruleset]
    run = run_family_fixture(fixture, rules)
    if run.as_expected(expect):
        return None
    return (
        f"the fixture expects {expect} under {rules.id}, but the reference engine gives "
        f"{run.outcome}: a defect of the corpus, please report it"
    )


def run_family_case(case: Case, engine: Engine) -> CaseResult:
    """Drive a version 2 ``engine`` through one family case and judge it."""
    try:
        fixture = _fixture(case.path)
        rules = _ruleset(case.ruleset)
        expect = readings(fixture)[case.ruleset]
    except (BalootError, KeyError) as exc:
        return CaseResult(case, "invalid", message=f"the fixture cannot be read: {exc}")
    if expect.syntax_error is not None:
        return CaseResult(case, "skip", message="tests the notation's syntax, not an engine")
    try:
        defect = _defect(case.path, case.ruleset)
    except BalootError as exc:
        return CaseResult(case, "invalid", message=f"the fixture cannot be replayed: {exc}")
    if defect is not None:
        return CaseResult(case, "invalid", message=defect)
    try:
        info = engine.start()
    except EngineFailure as exc:
        return CaseResult(case, "error", message=str(exc), stderr=exc.stderr)
    missing = _unsupported(rules, info)
    if missing:
        return CaseResult(case, "unsupported", message=missing)
    try:
        family_run = _FamilyRun(case, fixture, rules, engine, info)
    except BalootError as exc:  # read once already (the defect check): cannot happen
        return CaseResult(case, "invalid", message=f"the fixture cannot be read: {exc}")
    try:
        failure = family_run.judge()
    except EngineFailure as exc:
        return CaseResult(
            case, "error", message=str(exc), stderr=exc.stderr, requests=family_run.sent
        )
    except _Declined as exc:
        verdict: Verdict = "skip" if exc.skip else "error"
        return CaseResult(case, verdict, message=str(exc), requests=family_run.sent)
    except (_Defect, truth.NotPlayable, BalootError) as exc:
        return CaseResult(case, "invalid", message=str(exc), requests=family_run.sent)
    if failure is None and family_run.sent == 0:
        return CaseResult(
            case,
            "unsupported",
            message="nothing to ask the engine: what it declares "
            f"({', '.join(sorted(info.capabilities))}) does not apply to this case",
        )
    if failure is None:
        return CaseResult(case, "pass", requests=family_run.sent)
    return CaseResult(case, "fail", failure, requests=family_run.sent)


def _unsupported(rules: TrickRuleset, info: EngineInfo) -> str | None:
    if info.protocol != PROTOCOL2:
        return (
            f"a BTN 2 case of the trick family: the engine speaks version {info.protocol} of "
            "the protocol, which carries Baloot only"
        )
    if not REQUESTS & info.capabilities:
        return (
            "the engine declares none of replay, legal, claims (its capabilities: "
            f"{', '.join(sorted(info.capabilities))}), so there is nothing to ask it"
        )
    if rules.id not in info.rulesets:
        return (
            f"the engine does not play the {rules.id} ruleset (it plays {', '.join(info.rulesets)})"
        )
    return None


def _events_only(hand: b2.Hand) -> b2.Hand:
    return dataclasses.replace(hand, items=tuple(i for i in hand.items if isinstance(i, b2.Event)))


class _FamilyRun:
    """One family case against one engine."""

    def __init__(
        self, case: Case, fixture: Fixture, rules: TrickRuleset, engine: Engine, info: EngineInfo
    ) -> None:
        self.case = case
        self.rules = rules
        self.engine = engine
        self.info = info
        self.sent = 0
        reader = Btn2Reader(fixture.text, case.where, lambda reference, location: rules)
        self.ring: Ring = Ring.of_table(reader.head().table.seats, rules.table.direction.option)
        original = list(reader)
        self.hands = [_events_only(hand) for hand in original]
        self.where: dict[str, Location] = {
            item.position: item.location
            for hand in original
            for item in hand.items
            if isinstance(item, b2.Item) and item.location is not None
        }
        self._ledgers: list[Ledger | None] | None = None
        self.walk = truth.HandWalk()
        """The kit's own walk through each hand, a card at a time."""
        self.ruleset = {"id": rules.id, "version": rules.version, "digest": rules.digest}
        self.header: list[dict[str, str]] = [
            {"tag": "Ruleset", "value": f"{rules.id}@{rules.version}"}
        ]
        seats = reader.tags.get("Seats")
        if seats is not None:
            self.header.append({"tag": "Seats", "value": seats})

    # --- talking to the engine ---------------------------------------------------------------

    def _ask(self, command: str, **fields: Any) -> dict[str, Any]:
        self.sent += 1
        answer = self.engine.request(command, ruleset=self.ruleset, **fields)
        if "skip" in answer:
            link = f" ({answer['issue']})" if answer.get("issue") else ""
            raise _Declined(f"the engine skips it: {answer['skip']}{link}", skip=True)
        if "error" in answer:
            raise _Declined(f"the engine reports an error: {answer['error']}", skip=False)
        return answer

    def _document(self, hands: Sequence[dict[str, Any]]) -> dict[str, Any]:
        return {"btn": "2", "header": self.header, "hands": list(hands)}

    def _at(self, position: str) -> Location | None:
        return self.where.get(position)

    # --- the case ----------------------------------------------------------------------------

    def judge(self) -> Failure | None:
        rejection = truth.first_rejection(self.hands, self.rules, self.ring)
        failures: list[tuple[tuple[int, int], Failure]] = []
        if "replay" in self.info.capabilities:
            found = self._replay(rejection)
            if found is not None:
                failures.append(found)
        if {"legal", "claims"} & self.info.capabilities:
            found = self._observe(rejection)
            if found is not None:
                failures.append(found)
        return min(failures, key=lambda f: f[0])[1] if failures else None

    def _order(self, position: str) -> tuple[int, int]:
        for h_index, hand in enumerate(self.hands):
            for i_index, item in enumerate(hand.items):
                if isinstance(item, b2.Item) and item.position == position:
                    return h_index, i_index
        return len(self.hands), 0

    def _replay(
        self, rejection: truth.FamilyRejection | None
    ) -> tuple[tuple[int, int], Failure] | None:
        document = self._document(
            [{"hand": h.number, "items": _shown(h.items)} for h in self.hands]
        )
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
        h_index = numbers.index(answer["hand"])
        hand = self.hands[h_index]
        index = answer["event"]
        if index >= len(hand.items):
            raise EngineFailure(
                "answer",
                f"the engine rejects event {index} of hand {hand.number}, which has no such event",
            )
        item = hand.items[index]
        at = (h_index, index)
        if rejection is not None and self._order(rejection.position) <= at:
            if rejection.position == item.position:
                return None
            return self._order(rejection.position), self._accepted(rejection)
        reason = answer.get("reason") or "no reason given"
        return at, Failure(
            "replay",
            item.position,
            self._deciding_rule(h_index, index),
            f"the engine rejects {_words(item)}, which the ruleset allows "
            f"(the engine says: {reason})",
            expected="accepted",
            actual="rejected",
            location=self._at(item.position),
        )

    def _accepted(self, rejection: truth.FamilyRejection) -> Failure:
        return Failure(
            "replay",
            rejection.position,
            rejection.rule_id,
            f"the engine accepts {rejection.position}, which the ruleset forbids: "
            f"{rejection.reason}",
            expected="rejected",
            actual="accepted",
            location=self._at(rejection.position),
        )

    def _deciding_rule(self, h_index: int, index: int) -> str | None:
        """The rule that decided a legal event: the first rule its replay counted."""

        def counts(upto: int) -> dict[str, int]:
            trace = Trace()
            ledger = None
            for hand in self.hands[:h_index]:
                _, ledger = replay_hand(hand, self.rules, self.ring, ledger, "", trace=trace)
            hand = self.hands[h_index]
            cut = dataclasses.replace(hand, items=hand.items[:upto])
            replay_hand(cut, self.rules, self.ring, ledger, "", trace=trace)
            return trace.counts

        before, after = counts(index), counts(index + 1)
        return next((rule for rule, n in after.items() if n > before.get(rule, 0)), None)

    # --- legal and claims --------------------------------------------------------------------

    def _observe(
        self, rejection: truth.FamilyRejection | None
    ) -> tuple[tuple[int, int], Failure] | None:
        for h_index, hand in enumerate(self.hands):
            stop = len(hand.items)
            if rejection is not None and rejection.hand == hand.number:
                stop = rejection.event
            if is_partial(hand.items, self.ring) and not is_points_game(self.rules):
                if stop < len(hand.items):
                    return None
                continue  # a hand that records only some deals: replay judges it
            opening = self._opening(h_index)
            events = _shown(hand.items)
            lead = _shown(opening)
            for index, item in enumerate(hand.items[:stop]):
                if "legal" in self.info.capabilities and isinstance(item, truth.ASKED_EVENTS):
                    failure = self._legal(hand, opening, lead, events, index, item)
                    if failure is not None:
                        return (h_index, index), failure
            if stop < len(hand.items):
                return None
            if "claims" in self.info.capabilities:
                failure = self._claims(hand, opening, lead, events)
                if failure is not None:
                    return (h_index, len(hand.items)), failure
        return None

    def _opening(self, h_index: int) -> list[b2.Start]:
        """The ``start`` event a request's hand opens with: the hand's own, else one stating
        the game the hands before it leave."""
        hand = self.hands[h_index]
        if hand.items and isinstance(hand.items[0], b2.Start):
            return []
        if self._ledgers is None:  # the ledger each hand starts from, replayed once
            replayed = truth.verdicts(self.hands, self.rules, self.ring)
            self._ledgers = [None, *(ledger for _, ledger in replayed)]
        ledger = self._ledgers[h_index]
        opened = truth.opening_hand(hand, ledger, self.rules, self.ring)
        if opened is None:
            raise _Defect(f"the reference engine cannot start {hand.position}")
        start = truth.start_json(opened)
        item = (
            truth.read_document(
                self._document([{"hand": hand.number, "items": [start]}]),
                self.rules,
                validate=False,
            )
            .hands[0]
            .items[0]
        )
        assert isinstance(item, b2.Start)
        return [item]

    def _legal(
        self,
        hand: b2.Hand,
        opening: list[b2.Start],
        lead: list[dict[str, Any]],
        events: list[dict[str, Any]],
        index: int,
        item: b2.Event,
    ) -> Failure | None:
        assert isinstance(item, truth.ASKED_EVENTS)
        seat = item.seat
        shown = [{"hand": hand.number, "items": [*lead, *events[:index]]}]
        answer = self._ask("legal", seat=seat, transcript=self._document(shown))
        cut = dataclasses.replace(hand, items=(*opening, *hand.items[:index]))
        state = truth.hand_after([cut], self.rules, self.ring, self.walk)
        kit = truth.legal_now(state, seat)
        position = f"{item.position}.legal"
        for key, noun in (("cards", "card"), ("actions", "decision")):
            want, got = set(kit[key]), set(answer[key])
            if want == got:
                continue
            extra, left_out = sorted(got - want), sorted(want - got)
            card = extra[0] if key == "cards" and extra else None
            words = extra[0] if key == "actions" and extra else None
            if not extra:
                card = left_out[0] if key == "cards" else None
                words = left_out[0] if key == "actions" else None
            rule = truth.legal_rule(state, seat, card, words)
            parts = []
            if extra:
                why = truth.why_not(state, seat, card, words)
                said = f": {why}" if why else ""
                parts.append(
                    f"the engine allows {', '.join(extra)}, which the ruleset forbids{said}"
                )
            if left_out:
                parts.append(
                    f"the engine leaves out {', '.join(left_out)}, which the ruleset allows"
                )
            return Failure(
                "legal",
                position,
                rule,
                f"before {_words(item)}, {seat}'s {noun}s: " + "; ".join(parts),
                expected=" ".join(kit[key]) or "(none)",
                actual=" ".join(sorted(got)) or "(none)",
                location=self._at(item.position),
            )
        return None

    def _claims(
        self,
        hand: b2.Hand,
        opening: list[b2.Start],
        lead: list[dict[str, Any]],
        events: list[dict[str, Any]],
    ) -> Failure | None:
        whole = dataclasses.replace(hand, items=(*opening, *hand.items))
        state = truth.hand_after([whole], self.rules, self.ring, self.walk)
        if not state.is_over():
            return None
        answer = self._ask(
            "claims",
            transcript=self._document([{"hand": hand.number, "items": [*lead, *events]}]),
        )
        claims = [{k: v for k, v in c.items() if k != "position"} for c in answer["claims"]]
        document = self._document([{"hand": hand.number, "items": [*lead, *events, *claims]}])
        try:
            with_claims = truth.read_document(document, self.rules, "<answers>", validate=False)
        except BalootError as exc:
            raise EngineFailure(
                "answer", f"the engine's claims do not fit the hand: {exc}"
            ) from None
        verdict, _ = replay_hand(with_claims.hands[0], self.rules, self.ring, None, "")
        if verdict.divergences:
            return self._claim_failure(verdict.divergences[0], hand)
        return self._missing(truth.closing_claims(state, hand.position), claims, hand)

    def _claim_location(self, position: str, hand: b2.Hand) -> Location | None:
        """Where a claim is in the fixture (its own claim of that name), else the hand's
        last event."""
        found = self._at(position)
        last = hand.items[-1] if hand.items else None
        if found is None and isinstance(last, b2.Item):
            found = self._at(last.position)
        return found

    def _claim_failure(self, divergence: Divergence, hand: b2.Hand) -> Failure:
        observable: Observable = "claims"
        return Failure(
            observable,
            divergence.position,
            divergence.rule_id,
            divergence.message,
            expected=divergence.expected,
            actual=divergence.claimed,
            location=self._claim_location(divergence.position, hand),
        )

    def _missing(
        self, kit: list[dict[str, Any]], given: list[dict[str, Any]], hand: b2.Hand
    ) -> Failure | None:
        """The first claim the reference engine writes that the answer leaves out, or holds
        without a seat the reference lists."""
        rules = CLAIM_RULES if is_points_game(self.rules) else POT_CLAIM_RULES
        for claim in kit:
            name = claim["claim"]
            same = [c for c in given if c["claim"] == name]
            rule = rules.get(name, "phases.layout")
            position = f"{hand.position}.{name}"
            if not same:
                return Failure(
                    "claims",
                    position,
                    rule,
                    f"the engine's claims leave out '{name}' (the closing claims the reference "
                    f"engine writes: {', '.join(c['claim'] for c in kit)})",
                    expected=_claim_text(claim),
                    actual=None,
                    location=self._claim_location(position, hand),
                )
            if "values" in claim:
                held = set().union(*(c.get("values", {}) for c in same))
                lacking = [s for s in claim["values"] if s not in held]
                if lacking:
                    return Failure(
                        "claims",
                        position,
                        rule,
                        f"the engine's '{name}' claim leaves out {', '.join(lacking)}",
                        expected=_claim_text(claim),
                        actual=" ; ".join(_claim_text(c) for c in same),
                        location=self._claim_location(position, hand),
                    )
        return None


def _shown(items: Sequence[b2.HandItem]) -> list[dict[str, Any]]:
    """Events as an engine is shown them: their JSON form without end-of-line comments
    (which could give an answer away)."""
    return [
        {k: v for k, v in json_form.item_json(item).items() if k != "comment"} for item in items
    ]


def _claim_text(claim: dict[str, Any]) -> str:
    if "values" in claim:
        return " ".join(f"{s} {n}" for s, n in claim["values"].items())
    if "seats" in claim:
        return " ".join(claim["seats"])
    return str(claim)


def _words(item: b2.Event) -> str:
    """An event as a report names it: ``h1.t3.p2 (P2 7H)``."""
    if isinstance(item, (b2.Play, b2.LayoutPlay)):
        return f"{item.position} ({item.seat} {item.card})"
    if isinstance(item, b2.Call):
        return f"{item.position} ({item.seat} {' '.join([item.word, *item.args])})"
    seat = getattr(item, "seat", None)
    return f"{item.position} ({seat})" if seat else item.position
