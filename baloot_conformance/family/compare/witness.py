"""Witness hands for trick rulesets: a BTN 2 transcript that passes under one ruleset and
fails under another because of one difference between them.

The family's counterpart of :mod:`baloot_conformance.compare.witness`, by the same method:
:func:`find_witness` builds, for one differing rule, each ruleset changed in that rule alone
(:func:`~baloot_conformance.family.rules.loading.isolate_trick`), plays seeded random legal
sessions under one side (:mod:`.transcribe`: 2 to 8 players, one to three hands, from pots
below and above the pot limits), and keeps a transcript once it fails under the side changed
in that rule and under the other real ruleset, and passes under the other ruleset changed
back: that one rule is then what tells the two apart on it. The search is seeded, so the same
rulesets give the same witness.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.errors import BalootError
from baloot_conformance.family.check.run import check_btn2
from baloot_conformance.family.compare.diff import Difference, diff_trick_rulesets
from baloot_conformance.family.compare.transcribe import session_text
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.rules.loading import isolate_trick
from baloot_conformance.family.rules.model import TrickRuleset


@dataclass(frozen=True)
class Witness:
    """A transcript that passes under one ruleset and fails under the other (the fields of
    :class:`baloot_conformance.compare.witness.Witness`, so that the same reports print it)."""

    text: str
    """The transcript, BTN 2."""
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


#: The pots a generated session starts from: none, a small one, and one above every shipped
#: pot limit (so that a limit, and a limit on the winnings, act).
_POTS = (0, 0, 6, 45)
#: Hands per session, in turn: a tie or a bourré shows only in the hand after it.
_HANDS = (1, 2, 1, 3)
#: A points game's sessions: longer, for the rules a declarer's later hands show (under a
#: rotating declarer his second hand is the game's fifth).
_POINTS_HANDS = (1, 2, 1, 5)


def verdicts(text: str, ruleset: TrickRuleset, path: str = "<witness>") -> list[HandVerdict]:
    """The verdict on every hand of a BTN 2 text under ``ruleset``; a text that cannot be read
    under it (a card outside its pack, a table it is not played at) is one error verdict."""
    try:
        return list(check_btn2(text, path, ruleset))
    except BalootError as error:
        return [
            HandVerdict(
                path=path,
                ruleset=f"{ruleset.id}@{ruleset.version}",
                position="h1",
                status="error",
                error=error.message,
            )
        ]


def candidates(ruleset: TrickRuleset, tries: int, seed: int = 0) -> Iterator[str]:
    """Seeded random legal sessions under ``ruleset``: every table size it allows in turn,
    one to three hands, from a carried pot of 0, 6 or 45 (a points game: one to five hands,
    from its hands 1 to 8) and each dealer; one in five with the players leaning to play
    and to discard all they may (the stock's refill)."""
    low, high = ruleset.table.seats.min, ruleset.table.seats.max
    points = ruleset.scoring.outcome.option == "points"
    for i in range(tries):
        players = low + i % (high - low + 1)
        dealer = (i // 3) % players
        if points:
            start = Ledger(
                players=players, dealer=dealer, chips=(0,) * players, hand=1 + i // 2 % 8
            )
        else:
            start = Ledger.start(players, dealer=dealer, pot=_POTS[(i // 2) % len(_POTS)])
        yield session_text(
            ruleset,
            players,
            (_POINTS_HANDS if points else _HANDS)[i % len(_HANDS)],
            seed * 1_000_003 + i,
            start=start,
            greedy=i % 5 == 4,
        )


def find_witness(
    a: TrickRuleset, b: TrickRuleset, difference: Difference, tries: int = 600
) -> Witness | None:
    """A transcript on which ``a`` and ``b`` give different verdicts because of
    ``difference``, or ``None`` when ``tries`` sessions per side showed none. Where the one
    change alone makes no valid ruleset (or one side lacks the rule), the two rulesets
    themselves are searched."""
    a_changed = b_changed = None
    if difference.rule_a is not None and difference.rule_b is not None:
        a_changed = isolate_trick(a, {difference.rule_id: difference.rule_b}, b.sources)
        b_changed = isolate_trick(b, {difference.rule_id: difference.rule_a}, a.sources)
    if a_changed is None or b_changed is None:
        return search_witness(((a, b, b, a), (b, a, a, b)), tries)
    sides = ((a, a_changed, b, b_changed), (b, b_changed, a, a_changed))
    return search_witness(sides, tries, difference.rule_id)


def witness_between(a: TrickRuleset, b: TrickRuleset, tries: int = 600) -> Witness | None:
    """A witness that ``a`` and ``b`` differ (rulesets that differ in one rule, or searched as
    a pair)."""
    differences = diff_trick_rulesets(a, b)
    if len(differences) == 1:
        return find_witness(a, b, differences[0], tries)
    return search_witness(((a, b, b, a), (b, a, a, b)), tries)


def search_witness(
    sides: Sequence[tuple[TrickRuleset, TrickRuleset, TrickRuleset, TrickRuleset]],
    tries: int,
    rule_id: str | None = None,
) -> Witness | None:
    """Each side is ``(source, changed, other, other_changed)``: a session played under
    ``source`` is a witness when it passes under ``source``, fails under ``changed`` and under
    ``other``, and passes under ``other_changed``: that one rule is then what tells the two
    apart on it.

    Rulesets that differ in several rules often part on every session for another of them (a
    profile whose players declare at once refuses every hand declared in turn), so that
    ``other_changed`` passes on none. A session is then witness enough when the single-rule
    variant ``changed`` (``source`` with ``rule_id`` alone replaced) fails on it, a failure
    only that rule can cause: the witness names that variant as the ruleset it fails under,
    and its failure, so that it shows that one rule."""
    streams = [candidates(side[0], tries, n + 1) for n, side in enumerate(sides)]
    best: Witness | None = None
    fallback: Witness | None = None
    for i in range(tries):
        for stream, (source, changed, other, other_changed) in zip(streams, sides, strict=True):
            text = next(stream)
            if best is not None and len(text) >= len(best.text):
                continue  # a shorter witness is all that is looked for now
            alone = _root(verdicts(text, changed))
            if alone is None:
                continue
            real = _root(verdicts(text, other))
            if real is None or _root(verdicts(text, source)) is not None:
                continue  # the second: a session the notation cannot hold
            if other_changed is source or _root(verdicts(text, other_changed)) is None:
                best = Witness(
                    text=canonical(text, source),
                    passes=f"{source.id}@{source.version}",
                    fails=f"{other.id}@{other.version}",
                    position=real.position,
                    rule_id=real.rule_id,
                    message=real.message,
                    tries=best.tries if best is not None else i + 1,
                )
            elif fallback is None and rule_id is not None:
                fallback = Witness(
                    text=canonical(text, source),
                    passes=f"{source.id}@{source.version}",
                    fails=f"{source.id}@{source.version} with {rule_id} of {other.id}",
                    position=alone.position,
                    rule_id=alone.rule_id,
                    message=alone.message,
                    tries=i + 1,
                )
        # Once found, a witness is searched a little longer for a shorter one (a small table).
        if best is not None and i >= min(tries - 1, 2 * best.tries + 10):
            return best
        if best is None and fallback is not None and i >= min(tries - 1, 4 * fallback.tries):
            return fallback
    return best or fallback


def canonical(text: str, ruleset: TrickRuleset) -> str:
    """A generated transcript in the canonical writer's form (a trick's plays on one line)."""
    from baloot_conformance.family.btn.reader import read_btn2
    from baloot_conformance.family.btn.writer import format_btn2

    return format_btn2(read_btn2(text, "<witness>", lambda reference, where: ruleset))


def replayed_witness(text: str, a: TrickRuleset, b: TrickRuleset) -> Witness | None:
    """The witness ``text`` is for ``a`` against ``b``, either way round (every hand passes
    under one, one fails under the other); ``None`` when it does not tell them apart."""
    first, second = _root(verdicts(text, a)), _root(verdicts(text, b))
    if (first is None) == (second is None):
        return None
    good, bad, root = (a, b, second) if first is None else (b, a, first)
    assert root is not None
    return Witness(
        text=text,
        passes=f"{good.id}@{good.version}",
        fails=f"{bad.id}@{bad.version}",
        position=root.position,
        rule_id=root.rule_id,
        message=root.message,
        tries=0,
    )


@dataclass(frozen=True)
class _Root:
    position: str
    rule_id: str | None
    message: str


def _root(found: list[HandVerdict]) -> _Root | None:
    """The first failing hand's root divergence (or error), ``None`` when every hand passes."""
    failed = next((v for v in found if v.status != "pass"), None)
    if failed is None:
        return None
    first = next((d for d in failed.divergences if d.root), None)
    if first is None:
        return _Root(failed.position, None, failed.error or "the hand could not be replayed")
    return _Root(first.position, first.rule_id, first.message)
