"""The reference adapter: the kit's own interpreter behind the adapter protocol.

``python -m baloot_conformance.suite.reference_adapter`` answers every request from the
reference interpreter, so ``suite`` passes it on every case: it shows the protocol at work
and is the model for an engine's own adapter. With ``--rules FILE --as ID`` it plays the ruleset of
``FILE`` while it says it plays ``ID``: an engine that deviates on purpose, which ``suite``
must catch at exactly the cases where the two rulesets part. With ``--features LIST`` or
``--without LIST`` it declares only some features in its handshake (and answers as before):
an engine that implements part of the game, whose other cases ``suite`` must report
``unsupported`` without asking. With ``--protocol 2`` it speaks the protocol's version 2
instead, for the trick family (:mod:`.family_reference_adapter`).

The kit uses :func:`first_rejection` for the answer ``replay`` must give.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TextIO

from baloot_conformance import btn
from baloot_conformance.btn import json_form
from baloot_conformance.check import features as features_
from baloot_conformance.check.events import HandChecker, ReplayStop
from baloot_conformance.check.hand_check import replay_items
from baloot_conformance.check.perft import count as perft_count
from baloot_conformance.check.perft import engine_now
from baloot_conformance.check.run import replay_hands
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.check.words import contract_claim, result_claims
from baloot_conformance.engine.model import SEAT_NAMES, cards_of, seat_from_name
from baloot_conformance.errors import BalootError
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.suite.protocol import PROTOCOL
from baloot_conformance.version import __version__


@dataclass(frozen=True, slots=True)
class Rejection:
    """The first event a ruleset forbids: its hand's number, its index in that hand's items,
    the rule and why."""

    hand: int
    event: int
    position: str
    rule_id: str | None
    reason: str


def first_rejection(transcript: btn.Transcript, rules: Ruleset) -> Rejection | None:
    """The first event of ``transcript`` (events only) that ``rules`` forbid, or ``None``
    when it forbids none."""
    replay = replay_hands(transcript.hands, "", rules)
    return rejection_in(transcript.hands, [verdict for verdict, _ in replay])


def rejection_in(hands: Sequence[btn.Hand], verdicts: Sequence[HandVerdict]) -> Rejection | None:
    """The first event the hands' verdicts find illegal. A hand the interpreter cannot
    follow (an inconsistent deal) is rejected at its first event."""
    for hand, verdict in zip(hands, verdicts, strict=True):
        if verdict.divergences:
            root = verdict.divergences[0]
            index = next(
                (
                    i
                    for i, item in enumerate(hand.items)
                    if isinstance(item, btn.Item) and item.position == root.position
                ),
                0,
            )
            return Rejection(hand.number, index, root.position, root.rule_id, root.message)
        if verdict.status == "error":
            first = next((item for item in hand.items if isinstance(item, btn.Item)), None)
            position = first.position if first else hand.position
            return Rejection(hand.number, 0, position, None, verdict.error or "")
    return None


def replayed(transcript: btn.Transcript, rules: Ruleset) -> HandChecker:
    """The checker of the transcript's last hand, replayed after the hands before it."""
    *_, (_, checker) = replay_hands(transcript.hands, "", rules)
    return checker


def legal_now(checker: HandChecker, hand: btn.Hand, seat: str) -> dict[str, list[str]]:
    """The calls and cards ``seat`` may make at the end of ``hand`` (replayed by
    ``checker``)."""
    if checker.partial and not any(isinstance(i, btn.ContractClaim) for i in hand.items):
        checker.partial = ""  # not a partial hand: its auction has not begun yet
    probe = btn.LegalClaim(position=f"{hand.position}.next", seat=seat, cards=())
    try:
        calls, cards = checker.legal_now(probe, seat_from_name(seat))
    except ReplayStop:  # the hand cannot go on: nothing is legal
        calls, cards = frozenset(), 0
    return {"calls": sorted(calls), "cards": [card.code for card in cards_of(cards)]}


def judged_now(
    data: dict[str, Any], event: dict[str, Any], rules: Ruleset, validate: bool = False
) -> dict[str, str]:
    """The verdict on the Sawa or foul call ``event`` made at the end of the transcript
    ``data`` (JSON form): ``verdict`` and ``reason``, or an ``error`` when the call is not
    allowed there (the kit asks only about calls that are)."""
    hands = data["hands"]
    last = {**hands[-1], "items": [*hands[-1]["items"], event]}
    transcript = json_form.from_json({**data, "hands": [*hands[:-1], last]}, "<request>", validate)
    *_, (verdict, checker) = replay_hands(transcript.hands, "", rules)
    if verdict.divergences:
        root = verdict.divergences[0]
        return {"error": f"not a call to judge: {root.position}: {root.message}"}
    engine = checker.engine
    judged = engine.claim if engine is not None else None
    if judged is None or event.get("event") != judged.kind:
        return {"error": "not a call to judge: the event is neither a Sawa nor a foul call"}
    return {"verdict": "right" if judged.right else "wrong", "reason": judged.reason}


def perft_now(transcript: btn.Transcript, rules: Ruleset, depth: int) -> dict[str, Any]:
    """The ``perft`` answer at the end of the transcript's last hand: its count to ``depth``
    and the count of each first ply."""
    checker = replayed(transcript, rules)
    hand = transcript.hands[-1]
    if checker.partial and not any(isinstance(i, btn.ContractClaim) for i in hand.items):
        checker.partial = ""  # not a partial hand: its auction has not begun yet
    probe = btn.LegalClaim(position=f"{hand.position}.next", seat="N", cards=())
    try:
        engine = engine_now(checker, probe, auction=True)
    except ReplayStop as exc:
        return {"error": f"no position to count from: {exc}"}
    counted = perft_count(engine, depth, divide=True)
    return {"nodes": counted.nodes, "divide": dict(counted.divide or ())}


def hand_claims(checker: HandChecker, hand: btn.Hand) -> list[dict[str, Any]]:
    """The claims of ``hand``, played out (replayed by ``checker``), in their JSON form."""
    engine = checker.engine
    prefix = hand.position
    if engine is None or not engine.is_over():
        return []
    claims: list[btn.Claim] = [contract_claim(engine, prefix)]
    for number, (winner, points) in enumerate(checker.tricks, 1):
        claims.append(
            btn.TrickClaim(
                position=f"{prefix}.t{number}.winner",
                trick=number,
                winner=SEAT_NAMES[winner],
                points=points,
            )
        )
    claims += result_claims(engine, checker.game, prefix, checker.totals)
    return [json_form.item_json(claim) for claim in claims]


class _Walk:
    """The last ``legal`` request's hand, read and replayed: the next request of a walk
    through a hand extends it by an event or two, so reading and replay go on from there
    instead of from the start (as long as what the hand's scan found has not changed)."""

    def __init__(
        self, key: Any, items: list[Any], feed: json_form.HandFeed, checker: HandChecker
    ) -> None:
        self.key, self.items, self.feed, self.checker = key, items, feed, checker
        self.scanned = _scanned(checker)


def _scanned(checker: HandChecker) -> Any:
    return (checker.partial, checker.rest, checker.holds, checker.played)


class ReferenceAdapter:
    """Answers protocol requests (parsed JSON) with the reference interpreter."""

    def __init__(
        self,
        rules: Ruleset | None = None,
        play_as: str | None = None,
        validate: bool = False,
        features: frozenset[str] | None = None,
    ) -> None:
        self.rules = rules
        """The ruleset every request is played under (``--rules``), or ``None``: the one
        each request names."""
        self.rulesets = (play_as,) if play_as else tuple(shipped_rulesets())
        self.validate = validate
        """Whether requests are checked against the schema (slow; the kit's are valid)."""
        self.features = features
        """The features its handshake declares (``None``: it lists none, so it has them all)."""
        self._last: _Walk | None = None

    def answer(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The answer to one request, ``None`` for ``stop``."""
        command = request.get("cmd")
        if command == "start":
            started: dict[str, Any] = {
                "protocol": PROTOCOL,
                "engine": {
                    "name": "baloot-conformance reference",
                    "version": __version__,
                    "language": "Python",
                },
                "rulesets": list(self.rulesets),
                "capabilities": ["replay", "legal", "claims", "judge", "partial", "perft"],
            }
            if self.features is not None:
                started["features"] = features_.ordered(self.features)
                if "partial_transcripts" not in self.features:  # 'partial' would declare it
                    started["capabilities"].remove("partial")
            return started
        if command == "stop":
            return None
        seq = request.get("seq")
        try:
            rules = self.rules or _shipped(request["ruleset"]["id"])
            if command == "replay":
                transcript = json_form.from_json(request["transcript"], "<request>", self.validate)
                rejection = first_rejection(transcript, rules)
                if rejection is None:
                    return {"seq": seq, "accepted": True}
                return {
                    "seq": seq,
                    "accepted": False,
                    "hand": rejection.hand,
                    "event": rejection.event,
                    "reason": rejection.reason,
                }
            if command == "legal":
                checker, hand = self._walk(request["transcript"], rules)
                return {"seq": seq, **legal_now(checker, hand, request["seat"])}
            if command == "claims":
                transcript = json_form.from_json(request["transcript"], "<request>", self.validate)
                checker = replayed(transcript, rules)
                return {"seq": seq, "claims": hand_claims(checker, transcript.hands[-1])}
            if command == "judge":
                data, event = request["transcript"], request["event"]
                return {"seq": seq, **judged_now(data, event, rules, self.validate)}
            if command == "perft":
                transcript = json_form.from_json(request["transcript"], "<request>", self.validate)
                return {"seq": seq, **perft_now(transcript, rules, request["depth"])}
        except (BalootError, KeyError, TypeError, ValueError, IndexError) as exc:
            return {"seq": seq, "error": f"{type(exc).__name__}: {exc}"}
        return {"seq": seq, "error": f"unknown command {command!r}"}

    def _walk(self, data: dict[str, Any], rules: Ruleset) -> tuple[HandChecker, btn.Hand]:
        """The checker of the transcript's last hand, and that hand, going on from the last
        request's when this one extends it."""
        if self.validate:
            json_form.from_json(data, "<request>")  # only to check it
        hands = data["hands"]
        last_hand = hands[-1]
        key = (id(rules), json.dumps(data["header"]), json.dumps(hands[:-1]), last_hand["hand"])
        items = last_hand["items"]
        walk, self._last = self._last, None  # kept again only when this request succeeds
        if walk is not None and walk.key == key and items[: len(walk.items)] == walk.items:
            walk.feed.extend(items[len(walk.items) :])
            hand = walk.feed.hand()
            fresh = HandChecker(rules, "", "", walk.checker.game, None)
            fresh.scan(hand)
            if _scanned(fresh) == walk.scanned:
                try:
                    replay_items(walk.checker, hand.items[len(walk.items) :])
                    walk.items, self._last = items, walk
                    return walk.checker, hand
                except ReplayStop:
                    pass
        head = json_form.from_json({**data, "hands": hands[:-1]}, "<request>", validate=False)
        feed = json_form.HandFeed(last_hand["hand"], "<request>")
        feed.extend(items)
        hand = feed.hand()
        checker = replayed(dataclasses.replace(head, hands=(*head.hands, hand)), rules)
        self._last = _Walk(key, items, feed, checker)
        return checker, hand


@cache
def _shipped(ruleset_id: str) -> Ruleset:
    return load_ruleset(ruleset_id)


def serve(adapter: ReferenceAdapter, stdin: TextIO, stdout: TextIO) -> None:
    """Answer requests line by line until ``stop`` or the end of input."""
    for line in _lines(stdin):
        answer = adapter.answer(json.loads(line))
        if answer is None:
            return
        stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        stdout.flush()


def _lines(stream: TextIO) -> Iterator[str]:
    for line in stream:
        if line.strip():
            yield line


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m baloot_conformance.suite.reference_adapter",
        description="The reference engine adapter: answers the adapter protocol (JSON Lines on "
        "stdin/stdout) with the kit's own interpreter. Run it under 'baloot-conformance suite "
        "--engine'.",
    )
    parser.add_argument("--rules", metavar="ID|PATH", help="play this ruleset for every request")
    parser.add_argument(
        "--as", dest="play_as", metavar="ID", help="with --rules: the ruleset id to claim"
    )
    parser.add_argument(
        "--validate",
        action="store_true",
        help="check each request's transcript against the BTN schema (slow; for testing a "
        "client of the protocol)",
    )
    parser.add_argument(
        "--protocol",
        type=int,
        choices=(1, 2),
        default=1,
        help="the protocol version to speak: 1 (Baloot, BTN 1; the default) or 2 (the trick "
        "family, BTN 2: every shipped trick ruleset, with the family's engine)",
    )
    parser.add_argument(
        "--rulesets",
        metavar="LIST",
        help="with --protocol 2: declare only these trick rulesets (comma-separated)",
    )
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument(
        "--features",
        metavar="LIST",
        help="declare only these features in the handshake (comma-separated, 'none' for "
        "none; the features: " + ", ".join(features_.NAMES) + ")",
    )
    chosen.add_argument(
        "--without",
        metavar="LIST",
        help="declare every feature but these (e.g. --without sawa,fouls)",
    )
    args = parser.parse_args(argv)
    if args.protocol == 2:  # the trick family's adapter (its module is loaded only then)
        from baloot_conformance.suite import family_reference_adapter

        return family_reference_adapter.run(args.rulesets, args.validate)
    declared: frozenset[str] | None = None
    try:
        if args.features is not None:
            declared = features_.parse_features(args.features)
        elif args.without is not None:
            declared = features_.ALL - features_.parse_features(args.without, "--without")
    except BalootError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rules = None
    if args.rules:
        try:
            rules = load_ruleset(args.rules)
        except BalootError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    serve(
        ReferenceAdapter(rules, args.play_as or (rules.id if rules else None), features=declared),
        sys.stdin,
        sys.stdout,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
