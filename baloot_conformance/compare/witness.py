"""Witness hands: a transcript that passes under one ruleset and fails under another
because of one difference between them.

:func:`find_witness` builds the ruleset that differs from the first in that rule alone
(:func:`~baloot_conformance.rules.loading.isolate`), generates seeded random hands under one
side (:mod:`~baloot_conformance.corpus.generate`, leaning the players towards the contracts
and raises the rule is about), replays them under the other, and keeps a hand only once
replaying it under the two real rulesets gives the two verdicts. The search is seeded, so the
same rulesets give the same witness.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from baloot_conformance import btn
from baloot_conformance.check.run import check_hands
from baloot_conformance.check.verdicts import HandVerdict
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


#: Game totals the generated hands start from: the Sun double condition and the end of the
#: game need totals near 100 and near the target.
_STARTS = ((0, 0), (101, 40), (40, 101), (99, 100), (140, 135), (120, 150), (151, 151))


def verdicts(text: str, ruleset: Ruleset) -> list[HandVerdict]:
    """The verdict on every hand of a BTN text under ``ruleset``."""
    with btn.TranscriptReader(io.StringIO(text), "<witness>") as reader:
        return list(check_hands(reader, "<witness>", ruleset))


def candidates(ruleset: Ruleset, tries: int, seed: int = 0) -> Iterator[str]:
    """Small seeded random transcripts under ``ruleset``: one or two hands each, leaning in
    turn towards each contract and towards raises, starting from totals near the thresholds."""
    aliases = sorted(ruleset.bidding.call_words.aliases.items())
    for i in range(tries):
        policy = _POLICIES[i % len(_POLICIES)]
        start = _STARTS[(i // len(_POLICIES)) % len(_STARTS)]
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
    a_changed = isolate(a, {difference.rule_id: difference.rule_b})
    b_changed = isolate(b, {difference.rule_id: difference.rule_a})
    if a_changed is None or b_changed is None:  # the rule cannot change alone: no isolation
        return search_witness(((a, b, b, a), (b, a, a, b)), tries)
    return search_witness(((a, a_changed, b, b_changed), (b, b_changed, a, a_changed)), tries)


def witness_between(a: Ruleset, b: Ruleset, tries: int = 3000) -> Witness | None:
    """A witness that ``a`` and ``b`` differ, for rulesets that differ in one rule (or in a
    rule and what it needs changed with it, searched as a pair)."""
    differences = diff_rulesets(a, b)
    if len(differences) == 1:
        return find_witness(a, b, differences[0], tries)
    return search_witness(((a, b, b, a), (b, a, a, b)), tries)


def search_witness(
    sides: Sequence[tuple[Ruleset, Ruleset, Ruleset, Ruleset]], tries: int
) -> Witness | None:
    """The search behind :func:`find_witness`. Each side is ``(source, changed, other,
    other_changed)``: a transcript generated under ``source`` is a witness when it fails under
    ``changed`` (``source`` with the other ruleset's rule) and under ``other``, and passes
    under ``other_changed`` (``other`` with the rule of ``source``): that one rule is what
    tells the two rulesets apart on it."""
    streams = [candidates(side[0], tries, seed=n + 1) for n, side in enumerate(sides)]
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
