"""Witness hands: a transcript that passes under one ruleset and fails under another
because of one difference between them.

:func:`find_witness` builds the ruleset that differs from the first in that rule alone
(:func:`~baloot_conformance.rules.loading.isolate`), generates seeded random hands under one
side (:mod:`~baloot_conformance.corpus.generate`, leaning the players towards the contracts
and raises the rule is about), replays them under the other, and keeps a hand only once
replaying it under the two real rulesets gives the two verdicts. The search is seeded, so the
same rulesets give the same witness. :func:`replayed_witness` tells whether a given transcript
(a fixture, a committed witness) is a witness for two rulesets, with the table where they part.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from baloot_conformance import btn
from baloot_conformance.check.run import NoSuchMoment, check_hands, replay_to
from baloot_conformance.check.table import Table, table_of
from baloot_conformance.check.verdicts import Divergence, HandVerdict
from baloot_conformance.compare.diff import Difference, diff_rulesets
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.engine.playout import Policy
from baloot_conformance.rules.loading import isolate
from baloot_conformance.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Witness:
    """A transcript that passes under one ruleset and fails under the other."""

    text: str
    """The transcript, BTN."""
    passes: str
    """The ruleset (``id@version``) under which every hand passes."""
    fails: str
    """The ruleset under which it fails."""
    position: str
    """The root divergence under the failing ruleset: its position ..."""
    rule_id: str | None
    """... the rule it cites ..."""
    message: str
    """... and what it says."""
    tries: int
    """How many generated transcripts were tried before this one."""
    expected: str | None = None
    """What the failing ruleset computes at the root divergence, for a wrong claim ..."""
    claimed: str | None = None
    """... and what the transcript says there (what the passing ruleset computes)."""
    table: Table | None = None
    """The table where the two rulesets part, when pictures were asked for (see
    :func:`replayed_witness`)."""


#: The search's leanings, tried in turn: plain random play, Hokum, Sun, raises, rare deals.
_POLICIES = (
    Policy(),
    Policy(contracts={"hokum": 1}, raise_chance=0.6),
    Policy(contracts={"sun": 1}, raise_chance=0.6),
    Policy(contracts={"hokum": 1}, raise_chance=0.95),
    Policy(contracts={"sun": 1}, raise_chance=0.95),
    Policy(contracts={"hokum": 1}, rich_deals=True),
    Policy(rich_deals=True),
)


#: The leanings for a rule about table talk (Sawa, fouls, Kawesh): the same, with the claims
#: and calls made often and the hands dealt for Kawesh now and then.
_TALK = Policy(sawa=0.2, fouls=0.25, foul_calls=0.3, kawesh=0.4)
_TALK_POLICIES = (
    _TALK,
    replace(_TALK, contracts={"hokum": 1}, raise_chance=0.6),
    replace(_TALK, rich_deals=True),
    replace(_TALK, contracts={"sun": 1}, raise_chance=0.6),
    replace(_TALK, contracts={"hokum": 1}, rich_deals=True),
)
_TALK_RULES = ("claims.", "play.fouls", "deal.kawesh")
#: The parameters of other rules that act only in a hand table talk ends.
_TALK_PARAMETERS = (("projects.baloot", "penalised"),)


def _is_talk(difference: Difference) -> bool:
    """Whether the difference shows only where there is table talk: lean the search to it."""
    return difference.rule_id.startswith(_TALK_RULES) or any(
        (difference.rule_id, name) in _TALK_PARAMETERS for name, _, _ in difference.changes
    )


#: Game totals the generated hands start from: the Sun double condition and the end of the
#: game need totals near 100 and near the target.
_STARTS = ((0, 0), (101, 40), (40, 101), (99, 100), (140, 135), (120, 150), (151, 151))


def verdicts(
    text: str, ruleset: Ruleset, path: str = "<witness>", pictures: bool = False
) -> list[HandVerdict]:
    """The verdict on every hand of a BTN text under ``ruleset`` (``pictures``: each root
    divergence carries its table)."""
    with btn.TranscriptReader(io.StringIO(text), path) as reader:
        return list(check_hands(reader, path, ruleset, pictures=pictures))


def replayed_witness(
    text: str, a: Ruleset, b: Ruleset, path: str = "<witness>", pictures: bool = False
) -> Witness | None:
    """The witness ``text`` is for ``a`` against ``b``, either way round: every hand passes
    under one of them and one fails under the other; ``None`` when it does not tell them
    apart. With ``pictures``, the witness carries the table where the two part: the failing
    ruleset's at its root divergence, or, when that comes before the cards are dealt (the
    dealer of a hand), the hand as dealt, replayed under the passing ruleset."""
    first, second = verdicts(text, a, path, pictures), verdicts(text, b, path, pictures)
    ok_a = all(v.status == "pass" for v in first)
    ok_b = all(v.status == "pass" for v in second)
    if ok_a == ok_b:
        return None
    good, bad, failing = (a, b, second) if ok_a else (b, a, first)
    verdict = next(v for v in failing if v.status != "pass")
    root = next((d for d in verdict.divergences if d.root), None)
    table = root.table if root and isinstance(root.table, Table) else None
    if pictures and table is None and root is not None:
        table = _dealt(text, path, good, root)
    return Witness(
        text=text,
        passes=f"{good.id}@{good.version}",
        fails=f"{bad.id}@{bad.version}",
        position=root.position if root else verdict.position,
        rule_id=root.rule_id if root else None,
        message=root.message if root else (verdict.error or "the hand could not be replayed"),
        tries=0,
        expected=root.expected if root else None,
        claimed=root.claimed if root else None,
        table=table,
    )


def _dealt(text: str, path: str, ruleset: Ruleset, root: Divergence) -> Table | None:
    """The hand of a divergence that comes before its cards are dealt, as dealt: the table
    before its first event after the deal, replayed under ``ruleset`` (which accepts it)."""
    with btn.TranscriptReader(io.StringIO(text), path) as reader:
        hands = list(reader)
    number = int(root.position.split(".")[0].removeprefix("h"))
    hand = next((h for h in hands if h.number == number), None)
    dealing = (btn.Start, btn.Dealer, btn.Deal, btn.FaceUp)
    after = next(
        (
            item
            for item in (hand.items if hand else ())
            if isinstance(item, btn.Event) and not isinstance(item, dealing)
        ),
        None,
    )
    if after is None:
        return None
    try:
        return table_of(replay_to(hands, ruleset, after.position), number)
    except NoSuchMoment:  # pragma: no cover - the passing ruleset replays the whole hand
        return None


def candidates(ruleset: Ruleset, tries: int, seed: int = 0, talk: bool = False) -> Iterator[str]:
    """Small seeded random transcripts under ``ruleset``: one or two hands each, leaning in
    turn towards each contract and towards raises, starting from totals near the thresholds;
    with ``talk``, claiming Sawa, playing fouls that stand, calling them and Kawesh often."""
    aliases = sorted(ruleset.bidding.call_words.aliases.items())
    policies = _TALK_POLICIES if talk else _POLICIES
    for i in range(tries):
        policy = policies[i % len(policies)]
        start = _STARTS[(i // len(policies)) % len(_STARTS)]
        hands = 2 if i % 3 == 2 else 1
        text = "".join(
            generate_games(ruleset, seed * 1_000_003 + i, hands=hands, policy=policy, start=start)
        )
        if aliases:  # write one call in the engine's own word, as its engine would
            own, word = aliases[i % len(aliases)]
            text = re.sub(rf"(?m)^((?:bid|raise) [NWSE]) {word}\b", rf"\1 {own}", text, count=1)
        yield text


def find_witness(
    a: Ruleset, b: Ruleset, difference: Difference, tries: int = 3000
) -> Witness | None:
    """A transcript on which ``a`` and ``b`` give different verdicts because of
    ``difference``, or ``None`` when ``tries`` generated transcripts showed none.

    Transcripts are generated under each real ruleset, so they pass under it. One generated
    under ``a`` is a witness when it fails under ``a`` changed in that one rule, and fails
    under ``b`` at the same place; one generated under ``b`` likewise with ``b`` changed back.
    Where the one change alone makes no valid ruleset (a raise chain and the Sun's raise limit
    change together), the search falls back to the pair itself.
    """
    a_changed = isolate(a, {difference.rule_id: difference.rule_b}, b.sources)
    b_changed = isolate(b, {difference.rule_id: difference.rule_a}, a.sources)
    talk = _is_talk(difference)
    if a_changed is None or b_changed is None:  # the rule cannot change alone: no isolation
        return search_witness(((a, b, b, a), (b, a, a, b)), tries, talk)
    sides = ((a, a_changed, b, b_changed), (b, b_changed, a, a_changed))
    return search_witness(sides, tries, talk)


def witness_between(a: Ruleset, b: Ruleset, tries: int = 3000) -> Witness | None:
    """A witness that ``a`` and ``b`` differ, for rulesets that differ in one rule (or in a
    rule and what it needs changed with it, searched as a pair)."""
    differences = diff_rulesets(a, b)
    if len(differences) == 1:
        return find_witness(a, b, differences[0], tries)
    talk = any(_is_talk(d) for d in differences)
    return search_witness(((a, b, b, a), (b, a, a, b)), tries, talk)


def search_witness(
    sides: Sequence[tuple[Ruleset, Ruleset, Ruleset, Ruleset]], tries: int, talk: bool = False
) -> Witness | None:
    """The search behind :func:`find_witness`. Each side is ``(source, changed, other,
    other_changed)``: a transcript generated under ``source`` is a witness when it fails under
    ``changed`` (``source`` with the other ruleset's rule) and under ``other``, and passes
    under ``other_changed`` (``other`` with the rule of ``source``): that one rule is what
    tells the two rulesets apart on it."""
    streams = [candidates(side[0], tries, n + 1, talk) for n, side in enumerate(sides)]
    for i in range(tries):
        for stream, (source, changed, other, other_changed) in zip(streams, sides, strict=True):
            text = next(stream)
            if _root(verdicts(text, changed)) is None:
                continue
            real = _root(verdicts(text, other))
            if real is None or _root(verdicts(text, other_changed)) is not None:
                continue
            if _root(verdicts(text, source)) is not None:  # pragma: no cover - generated legal
                continue
            return Witness(
                text=text,
                passes=f"{source.id}@{source.version}",
                fails=f"{other.id}@{other.version}",
                position=real.position,
                rule_id=real.rule_id,
                message=real.message,
                tries=i + 1,
            )
    return None


@dataclass(frozen=True)
class _Root:
    position: str
    rule_id: str | None
    message: str


def _root(found: list[HandVerdict]) -> _Root | None:
    """The first hand's root divergence (or error) of a replay, ``None`` when all pass."""
    failed = next((v for v in found if v.status != "pass"), None)
    if failed is None:
        return None
    first = next((d for d in failed.divergences if d.root), None)
    if first is None:
        return _Root(failed.position, None, failed.error or "the hand could not be replayed")
    return _Root(first.position, first.rule_id, first.message)


def witness_words(witness: Witness) -> str:
    """One line: where and why the witness fails, and under which ruleset it passes."""
    rule = f" {witness.rule_id}" if witness.rule_id else ""
    return (
        f"passes under {witness.passes}; under {witness.fails} it fails at "
        f"{witness.position}{rule}: {witness.message}"
    )
