"""Random legal hands and games: for property tests, benchmarks and the ``generate`` command.

Every choice is drawn from the hand's own legal actions with a seeded :class:`random.Random`,
so a seed always gives the same game. A :class:`Policy` only shapes how often the rarer
branches happen (a contract kind, raises); it never takes an action the
engine did not offer.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from baloot_conformance.cards import CARDS, Card, Rank, Suit, card
from baloot_conformance.engine.actions import (
    PLAYS,
    Action,
    Bid,
    Declare,
    FoulCall,
    KaweshCall,
    Lock,
    Play,
    Raise,
    SawaClaim,
    TableTalk,
)
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import IllegalAction, Seat
from baloot_conformance.engine.sawa import judge_sawa
from baloot_conformance.engine.table_talk import check_talk
from baloot_conformance.rules.ruleset import Ruleset


@dataclass(frozen=True)
class Policy:
    """How a random player leans, within the legal actions.

    The default policy is plain random play (passes a little more often than not).
    """

    contracts: Mapping[str, int] = field(default_factory=dict)
    """Weights of the contract each hand aims at (``{"sun": 1, "hokum": 1}``); each hand draws
    one, and the players then bid towards it (Ashkal counts as Sun). Empty: no aim."""
    raise_chance: float = 0.3
    """How often a player entitled to raise does."""
    rich_deals: bool = False
    """Deal the first bidder a rare first five: four of a kind with the other Baloot card of
    the face-up suit, a run of five with the King and Queen of that suit, or only 7s, 8s and
    9s (Kawesh). The rules' rarest cases then come up every few hands."""
    sawa: float = 0.0
    """How often the seat to play considers a Sawa where the ruleset allows one; the solver
    decides: a right claim is made, a wrong one a third of the time."""
    fouls: float = 0.0
    """How often a player holding an illegal card plays it, where the ruleset lets it stand."""
    foul_calls: float = 0.0
    """How often a foul that may be called is called (and, a quarter as often, a legal card
    is called wrongly)."""
    kawesh: float = 0.0
    """How often a player who may claim Kawesh does."""


DEFAULT_POLICY = Policy()


def _aim(policy: Policy, rng: random.Random) -> str | None:
    """The contract a hand's players bid towards, drawn by the policy's weights."""
    if not policy.contracts:
        return None
    kinds = sorted(policy.contracts)
    return rng.choices(kinds, [policy.contracts[k] for k in kinds])[0]


def choose(
    hand: Hand, rng: random.Random, policy: Policy = DEFAULT_POLICY, aim: str | None = None
) -> Action:
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
        if aim is not None:
            return _aimed_bid(bids, aim, rng)
        passes = [b for b in bids if b.call == "pass"]
        return passes[0] if passes and rng.random() < 0.6 else rng.choice(bids)
    actions = hand.legal_actions()  # the raises, the lock, the first lead's declarations
    by_kind: dict[type, list[Action]] = {}
    for action in actions:
        by_kind.setdefault(type(action), []).append(action)
    for kind, chance in ((Declare, 0.8), (Lock, 0.7), (Raise, policy.raise_chance)):
        some = by_kind.get(kind)
        if some and rng.random() < chance:
            return rng.choice(some)
    return rng.choice(by_kind[Play])


def _aimed_bid(bids: list[Bid], contract: str, rng: random.Random) -> Bid:
    """A call towards ``contract``: its own calls half the time, else a pass; never the other
    contract's call unless nothing else is legal."""
    words = ("hokum",) if contract == "hokum" else ("sun", "ashkal")
    towards = [b for b in bids if b.call in words]
    passes = [b for b in bids if b.call == "pass"]
    if towards and (not passes or rng.random() < 0.5):
        return rng.choice(towards)
    return passes[0] if passes else rng.choice(bids)


def random_card(hand: Hand, rng: random.Random) -> Play:
    """A random card among those the seat to play may play."""
    legal = hand.legal_cards()
    for _ in range(int(rng.random() * legal.bit_count())):
        legal &= legal - 1  # drop the lowest card
    return PLAYS[hand.to_play()][(legal & -legal).bit_length() - 1]


def random_hand(
    rules: Ruleset,
    rng: random.Random,
    dealer: Seat = 0,
    totals: tuple[int, int] = (0, 0),
    policy: Policy = DEFAULT_POLICY,
) -> Hand:
    """A hand dealt from a shuffled pack and played to its end with random legal actions."""
    pack = list(CARDS)
    rng.shuffle(pack)
    if policy.rich_deals:
        _enrich(rules, pack, dealer, rng)
    hand = Hand.shuffled(rules, dealer, pack, totals)
    aim = None if policy == DEFAULT_POLICY else _aim(policy, rng)
    lapses = rules.bidding.sun_priority.claims == "lapse"
    talks = policy.sawa or policy.fouls or policy.foul_calls or policy.kawesh
    while not hand.is_over():
        said = _table_talk(hand, rng, policy) if talks else None
        if said is not None:
            hand.push(said)
        elif hand.phase == "play" and hand.tricks_done and hand.announcement() is None:
            hand.push_play(random_card(hand, rng))  # most of a hand, kept cheap
        elif lapses and hand.auction.window == "claim" and rng.random() < 0.5:
            hand.settle_auction()  # a Sun-claim window left to lapse, unanswered
        else:
            hand.push(choose(hand, rng, policy, aim))
    return hand


def _table_talk(hand: Hand, rng: random.Random, policy: Policy) -> Action | None:
    """A Kawesh, a Sawa, a foul call or an illegal card that stands, where the ruleset allows
    it and the policy's chance says so; else ``None``. Every one is offered by the rules:
    :func:`~baloot_conformance.engine.table_talk.check_talk` accepts it."""
    rules = hand.rules
    if (
        hand.phase in ("auction", "raises")
        and policy.kawesh
        and rules.deal.kawesh.option != "disabled"
    ):
        for seat in range(4):
            if rng.random() < policy.kawesh and _allowed(hand, KaweshCall(seat)):
                return KaweshCall(seat)
    if hand.phase not in ("raises", "play"):
        return None
    plays = hand.plays_done()
    if policy.foul_calls and plays and rng.random() < policy.foul_calls:
        fouled = {f.play for f in hand.fouls}
        target = plays - 1 - int(rng.random() * min(plays, 4))
        if target in fouled or rng.random() < 0.25:
            for caller in rng.sample(range(4), 4):
                if _allowed(hand, FoulCall(caller, target)):
                    return FoulCall(caller, target)
    seat = hand.to_play()
    if policy.sawa and rules.claims.sawa.who != "nobody" and rng.random() < policy.sawa:
        claim = SawaClaim(seat)
        if _allowed(hand, claim):
            play = hand.play_rules
            assert play is not None
            forced = rules.claims.sawa.forced
            own, helps = forced != "side", forced == "own_cards_partner_helps"
            right = judge_sawa(
                play, hand.hands, hand.trick, hand.leader, hand.tricks_done, seat, own, helps
            ).right
            if right or rng.random() < 1 / 3:
                return claim
    if policy.fouls and rules.play.fouls.option == "stand_until_called":
        illegal = hand.hands[seat] & ~hand.legal_cards()
        if illegal and rng.random() < policy.fouls:
            cards = [c for c in CARDS if illegal >> c.index & 1]
            return PLAYS[seat][rng.choice(cards).index]
    return None


def _allowed(hand: Hand, action: TableTalk) -> bool:
    try:
        check_talk(hand, action)
    except IllegalAction:
        return False
    return True


def _enrich(rules: Ruleset, pack: list[Card], dealer: Seat, rng: random.Random) -> None:
    """Rearrange a shuffled ``pack`` so that the first bidders' first cards are rare hands
    (see :attr:`Policy.rich_deals`); the face-up card is in the suit they are about."""
    places: list[list[int]] = [[], [], [], []]  # where each bidder's first cards lie
    position = 0
    for packet in rules.deal.first_round.packets:
        for bidder in range(4):
            places[bidder] += range(position, position + packet)
            position += packet
    suit = rng.choice(list(Suit))
    other_suit = rng.choice([s for s in Suit if s is not suit])
    kind = rng.randrange(4)
    wanted: list[list[Card]] = []
    if kind in (0, 3):  # four Kings or Queens, and the other Baloot card of the face-up suit
        rank = rng.choice((Rank.KING, Rank.QUEEN))
        other = Rank.QUEEN if rank is Rank.KING else Rank.KING
        wanted.append([card(rank, s) for s in Suit] + [card(other, suit)])
    if kind == 1:  # a run of five holding the King and Queen of the face-up suit
        top = rng.choice((Rank.ACE, Rank.KING))
        order = [Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE]
        start = order.index(top)
        wanted.append([card(r, suit) for r in order[start : start + 5]])
    if kind == 3:  # and, for the next bidder, a run of five below the Queen
        ranks = (Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT, Rank.SEVEN)
        wanted.append([card(r, other_suit) for r in ranks])
    if kind == 2:  # only 7s, 8s and 9s
        lows = [c for c in CARDS if c.rank in (Rank.SEVEN, Rank.EIGHT, Rank.NINE)]
        wanted.append(rng.sample(lows, 5))
    taken = {c for w in wanted for c in w}
    faceup = rng.choice([c for c in CARDS if c.suit is suit and c not in taken])
    moves = [
        (place, c)
        for bidder, cards in enumerate(wanted)
        for place, c in zip(places[bidder], cards, strict=False)
    ]
    for place, wanted_card in [*moves, (position, faceup)]:
        where = pack.index(wanted_card)
        pack[place], pack[where] = pack[where], pack[place]


def random_game(
    rules: Ruleset, rng: random.Random, max_hands: int = 200, policy: Policy = DEFAULT_POLICY
) -> Game:
    """A game played to its end (or ``max_hands``) with random legal actions."""
    game = Game(rules, dealer=rng.randrange(4))
    while not game.is_over() and len(game.results) < max_hands:
        game.record(random_hand(rules, rng, game.dealer, game.totals, policy).result())
    return game
