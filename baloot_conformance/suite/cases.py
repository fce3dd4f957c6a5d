"""What a case of the suite is, what its verdict is, and what an engine is shown of it.

A :class:`Case` is a fixture's file, a generated game, or one Sawa or foul call of either to
be judged; :class:`CaseResult` is its verdict, with the first :class:`Failure` when it fails.
An engine sees a case's events only (:func:`strip`), with the completion of each deal written
out (:func:`with_completion`), and each ``legal``, ``claims`` or ``judge`` request carries
one hand that opens with the totals before it (:func:`start_events`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from baloot_conformance import btn
from baloot_conformance.check.events import HandChecker, unlogged_auction
from baloot_conformance.check.features import hands_features, transcript_features
from baloot_conformance.check.run import replay_hands
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.check.words import rest_events
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.errors import Location
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset

Verdict = Literal["pass", "fail", "error", "skip", "unsupported", "xfail", "xpass", "invalid"]
VERDICTS: tuple[Verdict, ...] = (
    "pass", "fail", "error", "skip", "unsupported", "xfail", "xpass", "invalid",
)  # fmt: skip
Observable = Literal["replay", "legal", "claims", "judge", "perft"]


@dataclass(frozen=True, slots=True)
class Case:
    """What a case is, small enough to send to a worker: a fixture's file, or a generated
    game's ruleset and seed; with ``talk``, one Sawa or foul call of it to judge."""

    id: str
    path: str
    """The fixture file, or ``generated`` for a generated game."""
    ruleset: str
    """The ruleset it is played under (a reference :func:`load_ruleset` takes)."""
    seed: int | None = None
    shown: str = ""
    """How reports name the file, when not by ``path``: a shipped fixture by its corpus path
    (``fixtures/play/x.btn``), as the kit's repository has it, never by where the package is
    installed (``site-packages/.../_data/...``), which a CI annotation cannot point into."""
    talk: str = ""
    """The position of the Sawa or foul call the engine is asked to judge (``h1.sawa``,
    ``h2.foul1``): the case is then that ``judge`` request alone. Empty for the case that
    replays the whole transcript."""
    features: frozenset[str] | None = None
    """The features the case needs (:mod:`~baloot_conformance.check.features`), from its
    replay: ``None`` until :func:`case_features` has computed them (the runner does, before
    it sends a request)."""
    perft: str = ""
    """The position of the perft count the engine is asked for (``h1.t5.p1``), one its
    fixture records: the case is then that ``perft`` request alone."""
    protocol: int = 1
    """The protocol version that carries it: 1 for Baloot (BTN 1), 2 for a fixture of the
    trick family (BTN 2, :mod:`~baloot_conformance.suite.family_cases`)."""

    @property
    def where(self) -> str:
        """The file as every report names it (and every ``file:line:col`` in them)."""
        return self.shown or self.path


@dataclass(frozen=True, slots=True)
class Failure:
    """The first observable on which the engine and the ruleset part."""

    observable: Observable
    position: str
    rule_id: str | None
    message: str
    expected: str | None = None
    actual: str | None = None
    location: Location | None = None

    def signature(self) -> dict[str, str]:
        """What an expectations entry records of it: observable, position and rule."""
        return {
            "observable": self.observable,
            "position": self.position,
            "rule": self.rule_id or "",
        }


@dataclass(frozen=True, slots=True)
class CaseResult:
    """The verdict on one case."""

    case: Case
    verdict: Verdict
    failure: Failure | None = None
    message: str | None = None
    """Why it is error, skip, unsupported, invalid, or what its expectation says."""
    stderr: str = ""
    """The end of the engine's standard error, for an ``error``."""
    requests: int = 0


@cache
def ruleset_of(reference: str) -> Ruleset:
    """The ruleset a case names (cached: a run has hundreds of cases under a few)."""
    return load_ruleset(reference)


def transcript_of(case: Case) -> tuple[btn.Transcript, Ruleset]:
    """The case's transcript, every hand read, and its ruleset.

    Raises:
        BalootError: the file cannot be read, or is not BTN.
    """
    rules = ruleset_of(case.ruleset)
    if case.seed is not None:
        reader = btn.TranscriptReader.from_text("".join(generate_games(rules, case.seed)), case.id)
    else:
        reader = btn.TranscriptReader(Path(case.path), case.where)
    with reader:
        head = reader.head()
        return dataclasses.replace(head, hands=tuple(reader)), rules


def case_features(
    case: Case,
    transcript: btn.Transcript,
    rules: Ruleset,
    decided: frozenset[str] | None = None,
) -> frozenset[str]:
    """The features ``case`` needs: what the reference replay of its transcript decided, and
    its events (:func:`~baloot_conformance.check.features.hand_features`). ``decided``: the
    rules a replay of the whole transcript already counted (a fixture's, which the runner
    replays to check the fixture itself), so as not to replay it again. A case that judges a
    Sawa or foul call needs what the call's hand needs (the engine is shown that hand), and
    ``sawa`` or ``fouls``."""
    if case.features is not None:
        return case.features
    hands = transcript.hands
    if case.talk:
        number = case.talk.split(".")[0]
        needed = hands_features(hands, rules)
        found = next((f for h, f in zip(hands, needed, strict=True) if h.position == number), None)
        talk = "sawa" if case.talk.split(".")[1].startswith("sawa") else "fouls"
        return (found or frozenset()) | {talk}
    if decided is None:
        return frozenset().union(*hands_features(hands, rules))
    return transcript_features(decided, hands, rules)


# --- what the engine is shown ----------------------------------------------------------------


def is_partial(hand: btn.Hand) -> bool:
    """A hand that logs no auction (it is played under its ``= contract`` claim)."""
    return bool(unlogged_auction(hand))


def strip(hand: btn.Hand) -> btn.Hand:
    """The hand as an engine sees it: events only, and the ``= contract`` claim of a hand
    that logs no auction (it says what is played)."""
    keep_contract = is_partial(hand)
    items = tuple(
        item
        for item in hand.items
        if isinstance(item, btn.Event) or (keep_contract and isinstance(item, btn.ContractClaim))
    )
    return dataclasses.replace(hand, items=items)


def with_completion(
    hands: Sequence[btn.Hand], rules: Ruleset
) -> tuple[tuple[btn.Hand, ...], list[tuple[HandVerdict, HandChecker]]]:
    """The hands, with the completion of the deal written out as ``rest`` events where a
    hand leaves it to be read from the play (a hand cut before a card must still tell each
    seat's eight cards), and their replay (the same with or without the ``rest`` events)."""
    out = []
    replayed = list(replay_hands(hands, "", rules))
    for hand, (_, checker) in zip(hands, replayed, strict=True):
        engine = checker.engine
        kinds = {type(item) for item in hand.items}
        if (
            btn.Rest in kinds
            or btn.Hold in kinds
            or engine is None
            or engine.contract is None
            or not engine.initial
            or is_partial(hand)
        ):
            out.append(hand)
            continue
        at = next(
            i
            for i, item in enumerate(hand.items)
            if isinstance(item, btn.Event)
            and not isinstance(item, (btn.Start, btn.Dealer, btn.Deal, btn.FaceUp))
            and not (type(item) is btn.Call and item.phase == "bid")
        )
        rests = tuple(rest_events(engine, hand.position))
        out.append(dataclasses.replace(hand, items=hand.items[:at] + rests + hand.items[at:]))
    return tuple(out), replayed


def start_events(hand: btn.Hand, totals: tuple[int, int]) -> list[dict[str, Any]]:
    """A ``start`` event with the totals before the hand, unless it has its own: each
    ``legal``, ``claims`` and ``judge`` request carries one hand."""
    first = next((i for i in hand.items if isinstance(i, btn.Event)), None)
    if isinstance(first, btn.Start):
        return []
    return [{"event": "start", "NS": totals[0], "EW": totals[1]}]


def cut(hand: btn.Hand, upto: int) -> btn.Hand:
    """The hand's first ``upto`` items."""
    return dataclasses.replace(hand, items=hand.items[:upto])


def index_of(hand: btn.Hand, position: str) -> int:
    """Where ``position`` is among the hand's items (after them all when it is not there)."""
    items = hand.items
    found = (
        i
        for i, item in enumerate(items)
        if isinstance(item, btn.Item) and item.position == position
    )
    return next(found, len(items))
