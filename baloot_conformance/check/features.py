"""Features: the parts of the game an engine implements, and what each hand needs of them.

Every public engine is partial (no doubling in one, no Gahwa in another, Sawa in some), so an
engine declares the features it implements (the adapter protocol's handshake, ``check
--features``) and a hand needing a feature the engine does not declare is *unsupported*:
counted apart, never a failure. What a hand needs is never written by hand: it is what the
reference interpreter's replay of the hand did, read from a
:class:`~baloot_conformance.engine.trace.Trace` (the rules that *decided* something in it,
see :mod:`~baloot_conformance.engine.trace`) and, where a rule's decisions do not tell,
from the hand's events (:func:`hand_features`).

The list is fixed (:data:`FEATURES`), one entry per part of the rule sections an engine may
leave out; each says which rules' decisions make a hand need it and which events do. A rule
that decides in every hand of the kind (the trick's winner, the card points) is no feature:
an engine without it plays no Baloot at all. Three rules decide more than their feature:
``doubling.lock`` is counted at every raise of a Hokum (whether or not the ruleset lets
anyone choose a lock), so ``lock`` is read from the lock the events choose and from the
locked lead it restricts; ``play.fouls`` is counted at every illegal card, which a ruleset
that refuses such cards treats as any illegal event, so ``fouls`` is needed only where the
card stands (``play.fouls`` not ``refused``) or a foul is called; ``deal.kawesh`` is counted
for every seat dealt a Kawesh hand, so ``kawesh`` is needed only where the ruleset lets it be
claimed (not ``disabled``) or it is.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from baloot_conformance import btn
from baloot_conformance.check.events import HandChecker, unlogged_auction
from baloot_conformance.check.run import engine_of, replay_hands
from baloot_conformance.check.verdicts import EngineId, HandVerdict
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import UnreadableInputError
from baloot_conformance.rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class Feature:
    """One feature: its name, what an engine that implements it does, the rules whose
    decisions in a hand make the hand need it, and (in words) the events that do."""

    name: str
    summary: str
    rules: tuple[str, ...]
    events: str = ""


FEATURES: tuple[Feature, ...] = (
    Feature(
        "doubling",
        "the raises after the contract (Double, Triple, Four) and their scoring",
        ("doubling.chain", "doubling.window", "doubling.sun", "doubling.tie", "scoring.raised"),
        "a `raise` line (an explicit pass included: the window is open), or a partial "
        "hand's contract claim with a multiplier",
    ),
    Feature(
        "gahwa",
        "the last raise, the Gahwa (قهوة), and what it scores",
        ("doubling.gahwa",),
        "a `raise ... gahwa` line",
    ),
    Feature(
        "lock",
        "a raised Hokum played closed or open (مقفول / مفتوح), and the closed lead",
        ("play.hokum.locked_lead",),
        "a `raise` line choosing `closed` or `open`, or a partial hand's contract claim naming one",
    ),
    Feature(
        "projects",
        "projects (مشاريع: Sira, Fifty, Hundred, Four Hundred), declared and compared",
        (
            "projects.sira",
            "projects.fifty",
            "projects.hundred.sequence",
            "projects.hundred.four_of_a_kind",
            "projects.four_hundred",
            "projects.comparison",
            "projects.ranking",
            "projects.tie",
            "projects.limits",
        ),
        "a `declare` line",
    ),
    Feature(
        "baloot",
        "the Baloot (بلوت: the King and Queen of trump held by one player) and its points",
        ("projects.baloot", "projects.baloot.inside_hundred"),
        "a `baloot` line",
    ),
    Feature(
        "ashkal",
        "Ashkal (أشكل): a Sun bought for the partner",
        ("bidding.ashkal", "bidding.ashkal.eligibility"),
        "a `bid ... ashkal` line (one the auction refuses, or that comes where no call is "
        "checked, still has to be read)",
    ),
    Feature(
        "second_round",
        "the auction's second round (a Hokum in another suit than the face-up card's)",
        ("bidding.rounds", "bidding.round2.hokum_suit"),
    ),
    Feature(
        "kaboot",
        "Kaboot (كبوت): one side takes every trick, and the sweep's scoring",
        ("scoring.kaboot", "scoring.reverse_kaboot"),
    ),
    Feature(
        "sawa",
        "Sawa (سوا): a claim of every remaining trick, judged",
        ("claims.sawa",),
        "a `sawa` line",
    ),
    Feature(
        "fouls",
        "an illegal card left standing until called, and the foul call (قيد)",
        (),
        "a `foul` line, or an illegal card that stands (the rule `play.fouls` counted "
        "where the ruleset does not refuse such a card)",
    ),
    Feature(
        "kawesh",
        "Kawesh (كوش): a new deal for a hand without scoring cards",
        (),
        "a `kawesh` line, or a seat dealt a Kawesh hand where the ruleset allows the claim "
        "(the rule `deal.kawesh` counted where it is not `disabled`: the seat may call it)",
    ),
    Feature(
        "partial_transcripts",
        "hands that log no auction, played from their contract claim",
        (),
        "a hand without `bid` lines, `faceup` or `dealer` (a partial transcript)",
    ),
)

NAMES: tuple[str, ...] = tuple(f.name for f in FEATURES)
ALL: frozenset[str] = frozenset(NAMES)

_BY_RULE: dict[str, str] = {rule: f.name for f in FEATURES for rule in f.rules}
_LOCKS = frozenset({"closed", "open"})


def hand_features(decided: Iterable[str], hand: btn.Hand, rules: Ruleset) -> frozenset[str]:
    """The features ``hand`` needs: those of the rules that ``decided`` something in its
    replay under ``rules`` (a trace's rule IDs), and those its events need."""
    found = {_BY_RULE[rule] for rule in decided if rule in _BY_RULE}
    if rules.play.fouls.id in decided and rules.play.fouls.option != "refused":
        found.add("fouls")
    if rules.deal.kawesh.id in decided and rules.deal.kawesh.option != "disabled":
        found.add("kawesh")
    partial = bool(unlogged_auction(hand))
    if partial:
        found.add("partial_transcripts")
    for item in hand.items:
        if type(item) is btn.Call and item.phase == "bid":
            if item.word == "ashkal":
                found.add("ashkal")
        elif type(item) is btn.Call and item.phase == "raise":
            found.add("doubling")
            if item.word == "gahwa":
                found.add("gahwa")
            if item.word in _LOCKS or _LOCKS & set(item.args):
                found.add("lock")
        elif type(item) is btn.Declare:
            found.add("projects")
        elif type(item) is btn.Baloot:
            found.add("baloot")
        elif type(item) is btn.Sawa:
            found.add("sawa")
        elif type(item) is btn.Foul:
            found.add("fouls")
        elif type(item) is btn.Kawesh:
            found.add("kawesh")
        elif type(item) is btn.ContractClaim and partial:
            if item.multiplier is not None and item.multiplier > 1:
                found.add("doubling")
            if item.lock is not None:
                found.add("lock")
    return frozenset(found)


def traced_hands(
    hands: Iterable[btn.Hand],
    path: str,
    rules: Ruleset,
    required: frozenset[str] = frozenset(),
    pictures: bool = False,
    engine_id: EngineId | None = None,
) -> Iterator[tuple[HandVerdict, HandChecker, frozenset[str]]]:
    """:func:`~baloot_conformance.check.run.replay_hands` on the reference path, with the
    features each hand needs: one trace, read between hands (what a hand's replay counted
    is what it decided)."""
    trace = Trace()
    before: dict[str, int] = {}
    lines = hands.source_line if isinstance(hands, btn.TranscriptReader) else None
    for hand, (verdict, checker) in _paired(
        hands,
        lambda h: replay_hands(
            h, path, rules, required, trace, pictures, source_lines=lines, engine_id=engine_id
        ),
    ):
        counts = trace.counts
        decided = [rule for rule, n in counts.items() if n > before.get(rule, 0)]
        before = dict(counts)
        yield verdict, checker, hand_features(decided, hand, rules)


def _paired(
    hands: Iterable[btn.Hand],
    replay: Callable[[Iterable[btn.Hand]], Iterator[tuple[HandVerdict, HandChecker]]],
) -> Iterator[tuple[btn.Hand, tuple[HandVerdict, HandChecker]]]:
    """Each hand with its replay, reading ``hands`` once (a reader streams them)."""
    seen: list[btn.Hand] = []

    def kept() -> Iterator[btn.Hand]:
        for hand in hands:
            seen.append(hand)
            yield hand

    for replayed in replay(kept()):
        yield seen.pop(0), replayed


def unsupported(
    verdict: HandVerdict, needed: Iterable[str], declared: frozenset[str]
) -> HandVerdict:
    """``verdict``, or the hand ``unsupported`` when it needs a feature not ``declared``: not
    judged (its divergences dropped, as an engine cannot be held to what it does not
    implement), with the features it lacks. A hand in error stays in error: a transcript the
    interpreter cannot follow is broken whatever the engine implements."""
    lacking = tuple(name for name in ordered(needed) if name not in declared)
    if not lacking or verdict.status == "error":
        return verdict
    return dataclasses.replace(
        verdict,
        status="unsupported",
        divergences=(),
        error=None,
        latent_fouls=(),
        defects=(),
        missing_features=lacking,
    )


def check_declared(
    hands: Iterable[btn.Hand],
    path: str,
    rules: Ruleset,
    declared: frozenset[str],
    required: frozenset[str] = frozenset(),
    pictures: bool = False,
    engine: EngineId | None = None,
) -> Iterator[HandVerdict]:
    """``check --features``: each hand's verdict, ``unsupported`` where it needs a feature
    that is not ``declared`` (every hand on the reference path, traced: the fast lane does
    not say what decided). Each names ``engine``, by default the one the reader's header
    names, as :func:`~baloot_conformance.check.run.check_hands`' verdicts do."""
    if engine is None and isinstance(hands, btn.TranscriptReader):
        engine = engine_of(hands.header)
    for verdict, _, needed in traced_hands(hands, path, rules, required, pictures, engine):
        yield unsupported(verdict, needed, declared)


def transcript_features(
    decided: Iterable[str], hands: Iterable[btn.Hand], rules: Ruleset
) -> frozenset[str]:
    """The features a whole transcript needs, from the rules its replay counted (one trace
    over every hand: what a hand needs is a union, so the whole needs the union)."""
    counted = frozenset(decided)
    return frozenset().union(*(hand_features(counted, hand, rules) for hand in hands))


def hands_features(hands: Sequence[btn.Hand], rules: Ruleset) -> tuple[frozenset[str], ...]:
    """The features each of ``hands`` (one game or several, as a transcript has them) needs."""
    return tuple(needed for _, _, needed in traced_hands(hands, "", rules))


def parse_features(text: str, option: str = "--features") -> frozenset[str]:
    """The features of a comma-separated list (``doubling,projects``; ``none`` for none).

    Raises:
        UnreadableInputError: a name is not a feature (a usage error: exit 2), with the
            closest feature and the whole list.
    """
    if text.strip() == "none":
        return frozenset()
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in ALL:
            raise UnreadableInputError(
                f"{option}: {unknown_feature(name)}", hint="write 'none' for no feature"
            )
    return frozenset(names)


def unknown_feature(name: str) -> str:
    """The one-screen sentence for a name that is no feature: the closest, and the list."""
    close = difflib.get_close_matches(name, NAMES, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"{name!r} is not a feature{hint}; the features are: {', '.join(NAMES)}"


def ordered(features: Iterable[str]) -> list[str]:
    """``features`` in the order of :data:`FEATURES` (how every report lists them)."""
    given = set(features)
    return [name for name in NAMES if name in given]


def missing_words(needed: Iterable[str], declared: frozenset[str]) -> str:
    """The sentence a report gives a case or hand that needs undeclared features, or ``""``."""
    lacking = [name for name in ordered(needed) if name not in declared]
    if not lacking:
        return ""
    noun = "feature" if len(lacking) == 1 else "features"
    return f"needs the {noun} {', '.join(lacking)}, which the engine does not declare"


def markdown_table() -> str:
    """The features as ``docs/protocol.md`` lists them (a test keeps the page in step): the
    name, what an engine that has it implements, and what makes a hand need it."""
    lines = ["| feature | the engine implements | a hand needs it when |", "| --- | --- | --- |"]
    for feature in FEATURES:
        counted = ", ".join(f"`{rule}`" for rule in feature.rules)
        when = [f"its replay counts a decision of {counted}"] if counted else []
        when += [feature.events] if feature.events else []
        lines.append(f"| `{feature.name}` | {feature.summary} | {'; or '.join(when)} |")
    return "\n".join(lines) + "\n"
