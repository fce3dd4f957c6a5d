"""Random legal hands and games: for property tests, benchmarks and the ``generate`` command.

Every choice is drawn from the hand's own legal actions with a seeded :class:`random.Random`,
so a seed always gives the same game. The policy only shapes how often the rarer branches
happen (raises, declarations); it never takes an action the engine did not offer.
"""

from __future__ import annotations

import random

from baloot_conformance.cards import CARDS
from baloot_conformance.engine.actions import PLAYS, Action, Declare, Lock, Play, Raise
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import Seat
from baloot_conformance.ruleset import Ruleset


def choose(hand: Hand, rng: random.Random) -> Action:
    """A random legal action for ``hand`` (which must not be over)."""
    if hand.phase == "play":
        announcement = hand.announcement()
        if announcement is not None:
            return announcement
        if not hand.tricks_done:
            declarations = hand.legal_declarations()
            if declarations and rng.random() < 0.8:
                return rng.choice(declarations)
        return random_card(hand, rng)
    if hand.phase == "auction":
        bids = hand.auction.legal_calls()
        passes = [b for b in bids if b.call == "pass"]
        return passes[0] if passes and rng.random() < 0.6 else rng.choice(bids)
    actions = hand.legal_actions()  # the raises, the lock, the first lead's declarations
    by_kind: dict[type, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(type(action), []).append(action)
    for kind, chance in ((Declare, 0.8), (Lock, 0.7), (Raise, 0.3)):
        some = by_kind.get(kind)
        if some and rng.random() < chance:
            return rng.choice(some)
    return rng.choice(by_kind[Play])


def random_card(hand: Hand, rng: random.Random) -> Play:
    """A random card among those the seat to play may play."""
    legal = hand.legal_cards()
    for _ in range(int(rng.random() * legal.bit_count())):
        legal &= legal - 1  # drop the lowest card
    return PLAYS[hand.to_play()][(legal & -legal).bit_length() - 1]


def random_hand(
    rules: Ruleset, rng: random.Random, dealer: Seat = 0, totals: tuple[int, int] = (0, 0)
) -> Hand:
    """A hand dealt from a shuffled pack and played to its end with random legal actions."""
    pack = list(CARDS)
    rng.shuffle(pack)
    hand = Hand.shuffled(rules, dealer, pack, totals)
    while not hand.is_over():
        if hand.phase == "play" and hand.tricks_done and hand.announcement() is None:
            hand.push_play(random_card(hand, rng))  # most of a hand, kept cheap
        else:
            hand.push(choose(hand, rng))
    return hand


def random_game(rules: Ruleset, rng: random.Random, max_hands: int = 200) -> Game:
    """A game played to its end (or ``max_hands``) with random legal actions."""
    game = Game(rules, dealer=rng.randrange(4))
    while not game.is_over() and len(game.results) < max_hands:
        game.record(random_hand(rules, rng, game.dealer, game.totals).result())
    return game
