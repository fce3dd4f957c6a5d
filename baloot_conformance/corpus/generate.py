"""Seeded random legal games written as BTN, with every claim filled in.

The games come from :mod:`baloot_conformance.engine.playout` (random but legal calls, raises,
declarations and plays under any ruleset). This module turns each played hand into the
notation's events and claims, with their positions, and the canonical writer
(:mod:`baloot_conformance.btn.writer`) prints them; so ``generate`` then ``check`` passes by
construction, and the output is canonical. The tests, the benchmarks and engine authors use
it. Deterministic per seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from baloot_conformance import btn
from baloot_conformance.btn.writer import format_hand, format_header
from baloot_conformance.check.words import (
    PROJECT_WORDS,
    card_list,
    contract_claim,
    rest_events,
    result_claims,
)
from baloot_conformance.engine.actions import (
    Announce,
    Bid,
    Declare,
    FoulCall,
    KaweshCall,
    Lock,
    Play,
    Raise,
    SawaClaim,
)
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import SEAT_NAMES
from baloot_conformance.engine.playout import DEFAULT_POLICY, Policy, random_hand
from baloot_conformance.rules.ruleset import Ruleset

# How the random players lean (which contracts, how often they raise) is the engine's
# playout's; it is named here too, so that a caller of the generator needs nothing else.
__all__ = ["DEFAULT_POLICY", "Policy", "generate_games", "idle_rates"]


def idle_rates(rules: Ruleset, policy: Policy) -> list[tuple[str, str, str]]:
    """The table-talk rates of ``policy`` that make nothing under ``rules``, because the rule
    they need is off: ``(rate, rule ID, the value that turns it off)`` each."""
    return [
        (rate, rule.id, off)
        for rate, rule, option, off in (
            ("sawa", rules.claims.sawa, rules.claims.sawa.who, "nobody"),
            ("fouls", rules.play.fouls, rules.play.fouls.option, "refused"),
            ("kawesh", rules.deal.kawesh, rules.deal.kawesh.option, "disabled"),
        )
        if getattr(policy, rate) and option == off
    ]


def generate_games(
    rules: Ruleset,
    seed: int,
    games: int = 1,
    hands: int | None = None,
    legal_claims: bool = False,
    policy: Policy = DEFAULT_POLICY,
    start: tuple[int, int] = (0, 0),
) -> Iterator[str]:
    """BTN text, chunk by chunk: one file holding ``games`` games (each to its end, or of
    ``hands`` hands when given), with every claim; ``legal_claims`` adds a ``= legal`` claim
    before every card. ``policy`` leans the random players (see
    :class:`~baloot_conformance.engine.playout.Policy`); each game starts at the totals
    ``start``."""
    rng = random.Random(seed)
    tags = {"Ruleset": f"{rules.id}@{rules.major}", "Engine": "baloot-conformance generate"}
    tags["Seed"] = str(seed)
    header = tuple(btn.Tag(name=name, value=value) for name, value in tags.items())
    yield format_header(btn.Transcript(version="1", header=header, hands=()))
    number = 0
    for _ in range(games):
        game = Game(rules, dealer=rng.randrange(4), totals=start)
        first = True
        while not game.is_over() and (hands is None or len(game.results) < hands):
            number += 1
            totals = game.totals
            hand = random_hand(rules, rng, game.dealer, totals, policy)
            game.record(hand.result())
            items = _Items(number, hand, totals, legal_claims)
            yield format_hand(btn.Hand(number=number, items=tuple(items.build(first, game))))
            first = False


class _Items:
    """The events and claims of one played hand, in the notation's order, with positions."""

    def __init__(self, number: int, hand: Hand, totals: tuple[int, int], legal: bool) -> None:
        self.p = f"h{number}"
        self.hand = hand
        self.totals = totals
        self.legal = legal
        self.calls = self.declarations = self.announcements = self.fouls = 0

    def build(self, first: bool, game: Game) -> Iterator[btn.HandItem]:
        hand, p = self.hand, self.p
        if first:  # a new game: its totals start here
            yield btn.Start(position=f"{p}.start", ns=self.totals[0], ew=self.totals[1])
        yield btn.Dealer(position=f"{p}.dealer", seat=SEAT_NAMES[hand.dealer])
        for seat in range(4):
            cards = card_list(hand.first_five[seat])
            yield btn.Deal(
                position=f"{p}.deal.{SEAT_NAMES[seat]}", seat=SEAT_NAMES[seat], cards=cards
            )
        yield btn.FaceUp(position=f"{p}.faceup", card=hand.faceup)
        replay = Hand(
            hand.rules, hand.dealer, hand.first_five, hand.faceup, hand.stock, self.totals
        )
        history = hand.history
        # The contract claim follows the last call it describes (raises included).
        calls = (Bid, Raise, Lock, KaweshCall)
        last_call = max(i for i, a in enumerate(history) if isinstance(a, calls))
        rest_written = False
        plays = 0
        i = 0
        while i < len(history):
            action = history[i]
            in_auction = replay.phase == "auction"
            if (
                not rest_written
                and not isinstance(action, Bid)
                and not (isinstance(action, KaweshCall) and in_auction)
            ):
                rest_written = True
                yield from rest_events(replay, self.p)
            if i == last_call + 1:
                yield contract_claim(replay, self.p)
            i += 1
            if isinstance(action, Bid):
                args = (action.suit.value,) if action.suit else ()
                yield self._call("bid", action.seat, action.call, args)
            elif isinstance(action, Raise):
                words: tuple[str, ...] = (action.call,)
                following = history[i] if i < len(history) else None
                if isinstance(following, Lock) and following.seat == action.seat:
                    replay.push(action)  # the raise; its lock choice is pushed below
                    words += ("closed" if following.locked else "open",)
                    action = following
                    i += 1
                yield self._call("raise", action.seat, words[0], words[1:])
            elif isinstance(action, Lock):
                yield self._call("raise", action.seat, "closed" if action.locked else "open", ())
            elif isinstance(action, Declare):
                self.declarations += 1
                yield btn.Declare(
                    position=f"{p}.decl{self.declarations}",
                    seat=SEAT_NAMES[action.seat],
                    project=PROJECT_WORDS[action.name],
                    cards=card_list(action.cards),
                )
            elif isinstance(action, Announce):
                self.announcements += 1
                yield btn.Baloot(
                    position=f"{p}.baloot{self.announcements}", seat=SEAT_NAMES[action.seat]
                )
            elif isinstance(action, KaweshCall):
                yield btn.Kawesh(position=f"{p}.kawesh", seat=SEAT_NAMES[action.seat])
            elif isinstance(action, (SawaClaim, FoulCall)):
                yield from self._talk(replay, action)
                continue
            elif isinstance(action, Play):
                trick, index = plays // 4 + 1, plays % 4 + 1
                plays += 1
                at = f"{p}.t{trick}.p{index}"
                if self.legal:
                    legal = card_list(replay.legal_cards())
                    yield btn.LegalClaim(
                        position=f"{at}.legal", seat=SEAT_NAMES[action.seat], cards=legal
                    )
                yield btn.Play(
                    position=at,
                    seat=SEAT_NAMES[action.seat],
                    card=action.card,
                    trick=trick,
                    index=index,
                )
            replay.push(action)
            if isinstance(action, Play) and not replay.trick:
                yield btn.TrickClaim(
                    position=f"{p}.t{replay.tricks_done}.winner",
                    trick=replay.tricks_done,
                    winner=SEAT_NAMES[replay.leader],
                    points=replay.last_trick_points,
                )
        if last_call == len(history) - 1:  # a void hand: the calls were all
            yield contract_claim(replay, self.p)
        yield from result_claims(replay, game, self.p, self.totals)

    def _talk(self, replay: Hand, action: SawaClaim | FoulCall) -> Iterator[btn.HandItem]:
        """A Sawa or a foul call, pushed to ``replay``, and the claim of how it was judged."""
        seat = SEAT_NAMES[action.seat]
        if isinstance(action, SawaClaim):
            at = f"{self.p}.sawa"
            yield btn.Sawa(position=at, seat=seat)
        else:
            self.fouls += 1
            at = f"{self.p}.foul{self.fouls}"
            target = btn.play_target(action.play)
            yield btn.Foul(position=at, seat=seat, target=target, words=())
        replay.push(action)
        assert replay.claim is not None
        yield btn.CallVerdictClaim(
            position=f"{at}.verdict",
            call=replay.claim.kind,
            verdict="right" if replay.claim.right else "wrong",
        )

    def _call(self, phase: str, seat: int, word: str, args: tuple[str, ...]) -> btn.Call:
        self.calls += 1
        position = f"{self.p}.bid{self.calls}"
        return btn.Call(position=position, phase=phase, seat=SEAT_NAMES[seat], word=word, args=args)
