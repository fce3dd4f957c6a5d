"""Random legal hands and sessions of a trick-family game, from a seed: what ``generate``
writes.

Every decision is one of :meth:`~.hand.TrickHand.legal_actions`, chosen by a seeded
:class:`random.Random`, so a playout is legal by construction and the same seed gives the same
hands on every machine. The pack is shuffled by the same generator, the deal, the draws and
the reshuffles following from it. A declaration is a pass half the time (so that folds, lone
players and reshuffles all occur), else a play with a uniform number of discards; every other
choice is uniform.

A session chains hands through the :class:`~.ledger.Ledger`: each hand starts from the state
the one before it left (the pot, who is exempt, who deals).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from baloot_conformance.family.engine.hand import Action, Declare, PlayCompiler, TrickHand
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.engine.points import game_over
from baloot_conformance.family.rules.model import TrickRuleset


def choose(actions: Sequence[Action], rng: random.Random) -> Action:
    """One legal action: a pass half the time when declaring, else uniform."""
    if len(actions) == 1:
        return actions[0]
    first = actions[0]
    if isinstance(first, Declare):
        passes = [a for a in actions if isinstance(a, Declare) and not a.play]
        plays = [a for a in actions if isinstance(a, Declare) and a.play]
        if passes and plays:
            return rng.choice(passes if rng.random() < 0.5 else plays)
    return rng.choice(actions)


def random_hand(
    rules: TrickRuleset, ledger: Ledger, compile: PlayCompiler | None, rng: random.Random
) -> TrickHand:
    """A complete hand from ``ledger``'s state, every decision a legal one drawn by ``rng``."""
    hand = TrickHand.shuffled(rules, ledger, compile, rng)
    while not hand.is_over():
        hand.push(choose(hand.legal_actions(), rng))
    return hand


def random_session(
    rules: TrickRuleset,
    players: int,
    hands: int,
    compile: PlayCompiler | None,
    seed: int,
    *,
    start: Ledger | None = None,
) -> list[TrickHand]:
    """``hands`` hands in a row at a table of ``players``, from ``start`` (a new session by
    default, the first seat dealing), fewer when the game ends sooner (``game.kind``: Hearts'
    target); each hand's ``settlement.next`` is the next one's ledger."""
    if not rules.table.seats.min <= players <= rules.table.seats.max:
        raise ValueError(
            f"{rules.id} is played by {rules.table.seats.min} to {rules.table.seats.max} "
            f"players, not {players}"
        )
    rng = random.Random(seed)
    ledger = start if start is not None else Ledger.start(players)
    played: list[TrickHand] = []
    for _ in range(hands):
        if game_over(rules, ledger) is not None:
            break
        hand = random_hand(rules, ledger, compile, rng)
        assert hand.settlement is not None
        played.append(hand)
        ledger = hand.settlement.next
    return played
