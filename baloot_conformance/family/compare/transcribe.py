"""Random legal Bourré sessions written as BTN 2 text: the candidates of the witness search
and of the inference tests.

:func:`session_text` plays a seeded session (:func:`~baloot_conformance.family.engine.
playout.random_session`, or a policy leaning to the draw's rare paths) and writes it as
``generate`` does (:func:`~baloot_conformance.family.corpus.generate.sessions_text`: every
event and the engine's claims, trick winners and the hand's tricks, pot, pays and score). A
session is legal by construction, so its text passes under the ruleset it was played under;
what it does under another ruleset is what the comparison reads.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from baloot_conformance.family.corpus.generate import sessions_text
from baloot_conformance.family.engine.hand import Action, Declare, TrickHand
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.engine.playout import choose, random_session
from baloot_conformance.family.rules.model import TrickRuleset


def session_text(
    rules: TrickRuleset,
    players: int,
    hands: int,
    seed: int,
    *,
    start: Ledger | None = None,
    greedy: bool = False,
) -> str:
    """A seeded random session of ``hands`` hands at a table of ``players``, as BTN 2.

    ``greedy`` leans the declarations towards the draw's rare paths: a player passes one time
    in ten and plays with as many discards as he may, so that the stock runs out and is
    refilled (the plain playout passes half the time, and discards a uniform number)."""
    if not greedy:
        return hands_text(rules, random_session(rules, players, hands, None, seed, start=start))
    rng = random.Random(seed)
    ledger = start if start is not None else Ledger.start(players)
    played: list[TrickHand] = []
    for _ in range(hands):
        hand = TrickHand.shuffled(rules, ledger, None, rng)
        while not hand.is_over():
            hand.push(_greedy(hand.legal_actions(), rng))
        assert hand.settlement is not None
        played.append(hand)
        ledger = hand.settlement.next
    return hands_text(rules, played)


def _greedy(actions: Sequence[Action], rng: random.Random) -> Action:
    """A declaration leaning to play with the most discards; any other choice as the plain
    playout makes it."""
    plays = [a for a in actions if isinstance(a, Declare) and a.play]
    if plays and len(plays) < len(actions) and rng.random() < 0.9:
        return max(plays, key=lambda a: a.discards)
    if plays and len(plays) == len(actions):
        return max(plays, key=lambda a: a.discards)
    return choose(actions, rng)


def hands_text(rules: TrickRuleset, played: Sequence[TrickHand]) -> str:
    """Played hands (a session, in order) as one BTN 2 transcript, written as ``generate``
    writes its sessions."""
    return "".join(sessions_text(rules, [played]))
