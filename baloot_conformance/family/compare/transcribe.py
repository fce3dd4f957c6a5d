"""Random legal Bourré sessions written as BTN 2 text: the candidates of the witness search
and of the inference tests.

:func:`session_text` plays a seeded session (:func:`~baloot_conformance.family.engine.
playout.random_session`) and writes every hand as the checker reads it: ``start`` and
``dealer``, the antes, the deal and the face-up card, each declaration and exchange (a
``reshuffle`` line before the exchange it refilled), the tricks, the penalties, and the
hand's claims (``= tricks``, ``= pot``, ``= pays``). A session is legal by construction, so
its text passes under the ruleset it was played under; what it does under another ruleset is
what the comparison reads.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from baloot_conformance.family.engine.hand import (
    Action,
    Ante,
    Deal,
    Declare,
    Discard,
    Draw,
    Penalty,
    Play,
    Reshuffle,
    TrickHand,
)
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


def _greedy(actions: list[Action], rng: random.Random) -> Action:
    """A declaration leaning to play with the most discards; any other choice as the plain
    playout makes it."""
    plays = [a for a in actions if isinstance(a, Declare) and a.play]
    if plays and len(plays) < len(actions) and rng.random() < 0.9:
        return max(plays, key=lambda a: a.discards)
    if plays and len(plays) == len(actions):
        return max(plays, key=lambda a: a.discards)
    return choose(actions, rng)


def hands_text(rules: TrickRuleset, played: Sequence[TrickHand]) -> str:
    """Played hands (a session, in order) as one BTN 2 transcript."""
    names = played[0].names if played else ()
    lines = [
        "%btn 2",
        f'[Ruleset "{rules.id}@{rules.version.split(".")[0]}"]',
        f'[Seats "{" ".join(names)}"]',
    ]
    for number, hand in enumerate(played, 1):
        lines.append("")
        lines.extend(_hand_lines(hand, number, first=number == 1))
    return "\n".join(lines) + "\n"


def _hand_lines(hand: TrickHand, number: int, first: bool) -> list[str]:
    names, codes = hand.names, hand.pack.codes

    def cards(indices: Sequence[int]) -> str:
        return " ".join(codes[c] for c in indices)

    ledger = hand.ledger
    out = [f"hand {number}"]
    if first:
        exempt = " ".join(names[s] for s in sorted(ledger.exempt))
        out.append(f"start pot {ledger.pot}" + (f" exempt {exempt}" if exempt else ""))
    out.append(f"dealer {names[ledger.dealer]}")
    history = hand.history
    i = 0
    trick, in_trick = 1, 0
    while i < len(history):
        action = history[i]
        if isinstance(action, Ante):  # one line each: a line's seats read in table order
            out.append(f"ante {names[action.seat]} {action.chips}")
        elif isinstance(action, Deal):
            for seat in ledger.dealt_in():
                if action.hands[seat]:
                    out.append(f"deal {names[seat]} {cards(action.hands[seat])}")
            if hand.faceup is not None:
                out.append(f"faceup {names[ledger.dealer]} {codes[hand.faceup]}")
        elif isinstance(action, Declare):
            word = f"play {action.discards}" if action.play else "pass"
            out.append(f"bid {names[action.seat]} {word}")
        elif isinstance(action, Discard):
            seat, refilled = action.seat, False
            received: list[int] = []
            while i + 1 < len(history) and isinstance(history[i + 1], (Draw, Reshuffle)):
                i += 1
                step = history[i]
                if isinstance(step, Reshuffle):
                    refilled = True
                else:
                    assert isinstance(step, Draw)
                    received.extend(step.cards)
            if refilled:
                out.append("reshuffle")
            if action.cards or received:  # BTN 2 writes no empty exchange
                out.append(f"exchange {names[seat]} {cards(action.cards)} : {cards(received)}")
        elif isinstance(action, Play):
            in_trick += 1
            out.append(f"trick {trick}: {names[action.seat]} {codes[action.card]}")
            if in_trick == len(hand.active):
                trick, in_trick = trick + 1, 0
        elif isinstance(action, Penalty):
            out.append(f"penalty {names[action.seat]} renege")
        i += 1
    out.extend(_claims(hand))
    return out


def _claims(hand: TrickHand) -> list[str]:
    """The hand's side claims, in the table's order from its first seat."""
    names, settlement = hand.names, hand.settlement
    out: list[str] = []
    tricks = {s: n for s, n in hand.tricks.items() if s in hand.active}
    if tricks:
        out.append("= tricks " + " ".join(f"{names[s]} {tricks[s]}" for s in sorted(tricks)))
    if settlement is not None:
        for word, values in (("pot", settlement.taken), ("pays", settlement.pays)):
            if values:
                out.append(
                    f"= {word} " + " ".join(f"{names[s]} {values[s]}" for s in sorted(values))
                )
    return out
