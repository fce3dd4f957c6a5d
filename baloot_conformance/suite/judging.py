"""Table talk judged by the engine: the ``judge`` request, and the cases that send it.

Every Sawa (``sawa N``) and every foul call (``foul E t3.p2``) of a case that its transcript
judges with a verdict claim (``= sawa right``, ``= foul wrong``) is a case of its own
(:func:`talk_cases`): the engine is shown the hand up to that call, is asked whether the
call is right, and its answer is compared with the reference interpreter's verdict under
the case's ruleset (:func:`judge_talk`): never with the transcript's own claim, which a
fixture may get wrong on purpose. A call the ruleset forbids where it stands (out of turn,
too early, after the hand is over), or that comes after the case's first illegal event, is
not judged: that is for ``replay`` to reject. The rule of a Sawa is ``claims.sawa``, of a
foul call ``play.fouls``.

Only an engine that declares the ``judge`` capability is asked; for any other, these cases
are ``unsupported``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from baloot_conformance import btn
from baloot_conformance.btn import json_form
from baloot_conformance.check.run import replay_hands
from baloot_conformance.errors import BalootError, Location
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.suite.cases import (
    Case,
    Failure,
    cut,
    index_of,
    start_events,
    strip,
    transcript_of,
)
from baloot_conformance.suite.reference_adapter import rejection_in

JUDGE = "judge"
"""The capability, and the request, by which an engine judges a Sawa or a foul call."""

_VERDICT_LINE = re.compile(r"^[ \t]*=[ \t]*(sawa|foul)[ \t]", re.M)
"""A verdict claim in a transcript's text: only a file that holds one is read for talk."""


class KitDefect(Exception):
    """The reference interpreter cannot replay the case: the case is ``invalid``."""


def may_hold_talk(text: str) -> bool:
    """Whether a transcript's text may hold a judged Sawa or foul call (a quick look)."""
    return _VERDICT_LINE.search(text) is not None


def talk_positions(transcript: btn.Transcript, rules: Ruleset) -> list[str]:
    """The positions of the Sawa claims and foul calls of ``transcript`` that a verdict
    claim judges and that ``rules`` allow where they stand, before the first illegal event."""
    hands = transcript.hands
    seen = [strip(hand) for hand in hands]
    replayed = [verdict for verdict, _ in replay_hands(seen, "", rules)]
    if any(v.status == "error" and not v.divergences for v in replayed):
        return []  # the interpreter cannot follow it: the case itself is invalid
    rejection = rejection_in(seen, replayed)
    found: list[str] = []
    for hand, shown in zip(hands, seen, strict=True):
        judged = {
            item.position.removesuffix(".verdict")
            for item in hand.items
            if isinstance(item, btn.CallVerdictClaim)
        }
        for item in shown.items:
            if not isinstance(item, btn.Item):
                continue
            if rejection is not None and item.position == rejection.position:
                return found
            if isinstance(item, (btn.Sawa, btn.Foul)) and item.position in judged:
                found.append(item.position)
    return found


def talk_cases(case: Case, text: str | None = None) -> list[Case]:
    """A case for each judged Sawa and foul call of ``case`` (a fixture, a generated game,
    any transcript): id ``<case id>.<position>`` (``claims.sawa.right-1.h1.sawa``), the same
    file and ruleset. ``text``: the file's text when already read, to skip files without a
    verdict claim. None when the case cannot be read (its own case says why)."""
    if case.talk or (text is not None and not may_hold_talk(text)):
        return []
    try:
        transcript, rules = transcript_of(case)
    except BalootError:
        return []
    return [
        dataclasses.replace(case, id=f"{case.id}.{position}", talk=position)
        for position in talk_positions(transcript, rules)
    ]


def with_talk(cases: Sequence[Case]) -> list[Case]:
    """Each case, followed by a case for each Sawa and foul call it judges."""
    return [derived for case in cases for derived in (case, *talk_cases(case))]


def _rule(rules: Ruleset, item: btn.Sawa | btn.Foul) -> str:
    return rules.claims.sawa.id if isinstance(item, btn.Sawa) else rules.play.fouls.id


def judge_talk(
    case: Case,
    hands: Sequence[btn.Hand],
    totals: Sequence[tuple[int, int]],
    rules: Ruleset,
    ask: Callable[..., dict[str, Any]],
    document: Callable[[list[dict[str, Any]]], dict[str, Any]],
    where: Mapping[str, Location],
) -> Failure | None:
    """Ask the engine to judge the case's Sawa or foul call (``hands`` as the engine is
    shown them, ``totals`` before each), and compare its verdict with the interpreter's.

    Raises:
        KitDefect: the case has no such call, or the interpreter does not judge it there.
    """
    position = case.talk
    h_index = next((i for i, h in enumerate(hands) if h.position == position.split(".")[0]), -1)
    hand = hands[h_index] if h_index >= 0 else None
    index = index_of(hand, position) if hand is not None else 0
    if hand is None or index == len(hand.items):
        raise KitDefect(f"the case has no Sawa or foul call at {position}")
    item = hand.items[index]
    if not isinstance(item, (btn.Sawa, btn.Foul)):
        raise KitDefect(f"{position} is not a Sawa or a foul call")
    *_, (verdict, checker) = replay_hands([*hands[:h_index], cut(hand, index + 1)], "", rules)
    judged = checker.engine.claim if checker.engine is not None else None
    kind = "sawa" if isinstance(item, btn.Sawa) else "foul"
    if verdict.divergences or judged is None or judged.kind != kind:
        raise KitDefect(f"the reference interpreter does not judge {position} where it stands")
    events = [json_form.item_json(i) for i in hand.items[:index]]
    answer = ask(
        JUDGE,
        transcript=document(
            [{"hand": hand.number, "items": [*start_events(hand, totals[h_index]), *events]}]
        ),
        event={k: v for k, v in json_form.item_json(item).items() if k != "position"},
    )
    expected = "right" if judged.right else "wrong"
    if answer["verdict"] == expected:
        return None
    said = f" (the engine says: {answer['reason']})" if answer.get("reason") else ""
    verdict_at = f"{position}.verdict"
    return Failure(
        "judge",
        verdict_at,
        _rule(rules, item),
        f"{judged.reason}{said}",
        expected=expected,
        actual=answer["verdict"],
        location=where.get(verdict_at) or where.get(position),
    )
