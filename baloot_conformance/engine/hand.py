"""One hand of Baloot, from the deal to the score, as a checked state machine.

The API follows python-chess: :meth:`Hand.legal_actions` lists what may happen next,
:meth:`Hand.push` applies an action or raises :class:`IllegalAction` naming the rule and why,
:meth:`Hand.is_over` and :meth:`Hand.result` end it, and :meth:`Hand.copy` is cheap so that
search can branch. Phases, in order:

``auction``
    calls, see :mod:`baloot_conformance.engine.auction`.
``completion``
    the rest of the deal [deal.completion]: from the stock when the hand was dealt from a
    shuffled pack, else a :class:`Complete` action carrying the cards each seat received.
``raises``
    the raise chain [doubling.chain], Sun raises [doubling.sun], the lock choice
    [doubling.lock], all before the first card [doubling.window]. Passes are optional: the
    first card closes the window.
``play``
    eight tricks [play.*]; declarations in trick 1 [projects.declaration]; the Baloot
    announcement [projects.baloot].
``over``
    scored [scoring.*], or void (all pass, Kawesh, an exposed Ace).

A hand knows the game totals before it (``totals``), which Sun raises depend on.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from baloot_conformance.cards import Card, Rank
from baloot_conformance.cards import card as card_of
from baloot_conformance.engine import projects as projects_
from baloot_conformance.engine.actions import (
    PLAYS,
    Action,
    Announce,
    Bid,
    Complete,
    Declare,
    Lock,
    Play,
    Raise,
    call_word,
)
from baloot_conformance.engine.auction import Auction
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    TEAM_NAMES,
    CardSet,
    Contract,
    IllegalAction,
    Seat,
    Team,
    card_set,
    cards_of,
    format_cards,
    next_seat,
    team,
)
from baloot_conformance.engine.play import DECIDED_BY, PlayRules, play_rules
from baloot_conformance.engine.projects import HUNDREDS, Project
from baloot_conformance.engine.scoring import HandFacts, HandScore, score_hand
from baloot_conformance.engine.trace import Trace
from baloot_conformance.rules.model import RaiseLevel
from baloot_conformance.rules.ruleset import Ruleset

Phase = Literal["auction", "completion", "raises", "play", "over"]
_BALOOT_RANKS = (Rank.KING, Rank.QUEEN)


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended."""

    contract: Contract | None
    """``None`` for a void hand."""
    void_reason: str
    """``all_pass``, ``kawesh`` or ``exposed_ace`` for a void hand, else empty."""
    score: HandScore | None
    game_points: tuple[int, int]
    next_dealer: Seat


def void_result(rules: Ruleset, dealer: Seat, reason: str) -> HandResult:
    """A hand that ended without a contract (``all_pass``, ``kawesh``, ``exposed_ace``), and
    who deals next [deal.dealer.rotation, deal.kawesh]."""
    rotation = rules.deal.dealer_rotation.after_all_pass
    same_dealer = (reason == "all_pass" and rotation == "same_dealer") or (
        reason in ("exposed_ace", "kawesh") and rules.deal.kawesh.option != "next_dealer"
    )
    return HandResult(None, reason, None, (0, 0), dealer if same_dealer else next_seat(dealer))


class Hand:
    """A hand in progress: ``Hand(rules, dealer, first_five, faceup)`` for a recorded deal, or
    :meth:`shuffled` to deal from a pack."""

    __slots__ = (
        "_announced",
        "_declared",
        "_found",
        "_legal_cache",
        "_lock_by",
        "_next_raise",
        "_raise_passes",
        "_raisers",
        "_score_result",
        "auction",
        "contract",
        "dealer",
        "faceup",
        "first_five",
        "hands",
        "history",
        "initial",
        "last_trick_points",
        "last_trick_team",
        "leader",
        "phase",
        "play_rules",
        "points",
        "rules",
        "stock",
        "totals",
        "trace",
        "trick",
        "tricks",
        "tricks_done",
        "void_reason",
    )

    def __init__(
        self,
        rules: Ruleset,
        dealer: Seat,
        first_five: tuple[CardSet, CardSet, CardSet, CardSet],
        faceup: Card,
        stock: tuple[Card, ...] | None = None,
        totals: tuple[int, int] = (0, 0),
        trace: Trace | None = None,
    ) -> None:
        """Start a hand from its first deal [deal.first_round, deal.faceup]: the first five
        cards of each seat (index = seat), the face-up card, and, for a hand dealt from a
        shuffled pack, the stock the completion comes from (top first). ``trace`` counts the
        rules that decide something (see :mod:`~baloot_conformance.engine.trace`).

        Raises:
            IllegalAction: a seat without the right number of cards, or a card given twice.
        """
        size = sum(rules.deal.first_round.packets)
        seen = 0
        for seat, cards in enumerate(first_five):
            if cards.bit_count() != size:
                raise IllegalAction(
                    "deal.first_round",
                    f"{SEAT_NAMES[seat]} was dealt {cards.bit_count()} cards, not {size}",
                )
            if seen & cards:
                raise IllegalAction(
                    "deal.first_round", f"{format_cards(seen & cards)} dealt to two seats"
                )
            seen |= cards
        if seen >> faceup.index & 1:
            raise IllegalAction("deal.faceup", f"the face-up card {faceup} was also dealt")
        if stock is not None and (card_set(stock) & (seen | 1 << faceup.index)):
            raise IllegalAction("deal.completion", "the stock holds cards already dealt")
        self.rules = rules
        self.trace = trace
        self.dealer = dealer
        self.first_five = first_five
        self.faceup = faceup
        self.stock = stock
        self.totals = totals
        self.hands: list[CardSet] = list(first_five)
        self.initial: tuple[CardSet, ...] = ()
        """Each seat's eight cards once the deal is complete."""
        self.phase: Phase = "auction"
        self.auction = Auction(rules, dealer, faceup, first_five, trace)
        self.contract: Contract | None = None
        self.void_reason = ""
        self.history: list[Action] = []
        self._next_raise = 0
        self._raisers: list[Seat] = []
        self._raise_passes: set[Seat] = set()
        self._lock_by: Seat | None = None
        self._declared: list[Project] = []
        self._found: dict[Seat, tuple[Project, ...]] = {}
        """Projects each seat could declare (computed once, on demand)."""
        self._announced: set[Seat] = set()
        self.play_rules: PlayRules | None = None
        self.leader = next_seat(dealer)
        self.trick: tuple[int, ...] = ()
        self.tricks_done = 0
        self.tricks = [0, 0]
        self.points = [0, 0]
        self.last_trick_team: Team = 0
        self.last_trick_points = 0
        """The card points of the last finished trick."""
        self._legal_cache: tuple[int, CardSet] = (-1, 0)
        self._score_result: HandScore | None = None
        if trace is not None:
            trace.hit("deal.first_round", "deal.faceup")
            if faceup.rank is Rank.ACE:
                trace.hit("deal.exposed_ace")
        if faceup.rank is Rank.ACE and rules.deal.exposed_ace.option == "redeal":
            self._void("exposed_ace")

    # --- construction -----------------------------------------------------------------------

    @classmethod
    def shuffled(
        cls, rules: Ruleset, dealer: Seat, pack: list[Card], totals: tuple[int, int] = (0, 0)
    ) -> Hand:
        """A hand dealt from ``pack`` (top first): 3 + 2 from the dealer's right, the face-up
        card, and the stock for the completion."""
        hands = [0, 0, 0, 0]
        position = 0
        for packet in rules.deal.first_round.packets:
            for offset in range(1, 5):
                seat = (dealer + offset) % 4
                for card in pack[position : position + packet]:
                    hands[seat] |= 1 << card.index
                position += packet
        faceup = pack[position]
        first_five = (hands[0], hands[1], hands[2], hands[3])
        return cls(rules, dealer, first_five, faceup, tuple(pack[position + 1 :]), totals)

    @classmethod
    def from_contract(
        cls,
        rules: Ruleset,
        dealer: Seat,
        hands: tuple[CardSet, CardSet, CardSet, CardSet],
        contract: Contract,
        faceup: Card | None = None,
        totals: tuple[int, int] = (0, 0),
        trace: Trace | None = None,
    ) -> Hand:
        """A hand whose auction is not known, for a log that records only the eight cards of
        each seat and the contract: ready for the raises and the play, the auction skipped.

        ``contract`` is unraised (see :meth:`assume_raises`). Without ``faceup``, a card of the
        receiver's that is no Ace stands for it, so that no Ace rule
        (``deal.exposed_ace``, ``scoring.kaboot.faceup_ace``) applies.

        Raises:
            IllegalAction: a seat without eight cards, a card given twice, or a face-up card
                the receiver does not hold.
        """
        size = sum(rules.deal.first_round.packets)
        if faceup is None:
            not_aces = hands[contract.receiver] & ~sum(1 << (s * 8 + 7) for s in range(4))
            faceup = next(iter(cards_of(not_aces & -not_aces)), None)
        if faceup is None or not hands[contract.receiver] >> faceup.index & 1:
            raise IllegalAction(
                "deal.completion",
                f"{SEAT_NAMES[contract.receiver]} bought and must hold the face-up card",
            )
        first_five = []
        for cards in hands:
            cards &= ~(1 << faceup.index)
            picked = 0
            for _ in range(size):
                low = cards & -cards
                picked |= low
                cards ^= low
            first_five.append(picked)
        hand = cls(rules, dealer, (first_five[0], first_five[1], first_five[2], first_five[3]),
                   faceup, totals=totals)  # fmt: skip
        hand.phase, hand.void_reason = "auction", ""  # the auction is not replayed
        hand._set_up(contract)
        rest = [h & ~f for h, f in zip(hands, first_five, strict=True)]
        hand.push(Complete((rest[0], rest[1], rest[2], rest[3])))
        hand.trace = trace  # from the raises on: the deal and the auction were not replayed
        return hand

    def assume_raises(self, level: int, locked: bool) -> None:
        """Raise the contract to ``level`` (and its lock) as a log states it, without the
        calls that made it: the raise chain and its lock rules are not checked."""
        assert self.contract is not None
        gahwa = any(
            lvl.call == "gahwa" and lvl.multiplier == level
            for lvl in self.rules.doubling.chain.levels
        )
        self._set_contract(level=level, locked=locked, gahwa=gahwa)

    def copy(self) -> Hand:
        """An independent copy (cheap: a few small lists)."""
        other = _copy.copy(self)
        other.hands = list(self.hands)
        other.auction = self.auction.copy()
        other.history = list(self.history)
        other._raisers = list(self._raisers)
        other._raise_passes = set(self._raise_passes)
        other._declared = list(self._declared)
        other._found = dict(self._found)
        other._announced = set(self._announced)
        other.tricks = list(self.tricks)
        other.points = list(self.points)
        return other

    # --- state --------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == "over"

    def to_play(self) -> Seat:
        """The seat whose card is expected next (in the play and raises phases)."""
        return (self.leader + len(self.trick)) % 4

    def declared(self) -> tuple[Project, ...]:
        return tuple(self._declared)

    # --- legal actions ------------------------------------------------------------------------

    def legal_cards(self) -> CardSet:
        """The cards the seat to play may play now (empty outside the play phases)."""
        rules = self.play_rules
        if rules is None or self.phase == "over":
            return 0
        trick = self.trick
        key = self.tricks_done * 8 + len(trick)
        cached = self._legal_cache
        if cached[0] == key:
            return cached[1]
        leader = self.leader
        legal = rules.legal(self.hands[(leader + len(trick)) % 4], trick, leader)
        self._legal_cache = (key, legal)
        return legal

    def legal_actions(self) -> list[Action]:
        """Every action that may come next, except a :class:`Complete` (it carries the deal)
        and declarations by seats other than the one to play."""
        if self.phase == "auction":
            return list(self.auction.legal_calls())
        if self.phase == "completion":
            return []
        actions: list[Action] = []
        if self.phase == "raises":
            actions += self._legal_raises()
        if self.phase in ("raises", "play"):
            if self._lock_by is not None:
                actions += [Lock(self._lock_by, True), Lock(self._lock_by, False)]
            announcement = self.announcement()
            if announcement is not None:
                actions.append(announcement)
            actions += self.legal_declarations()
            plays = PLAYS[self.to_play()]
            actions += [plays[card.index] for card in cards_of(self.legal_cards())]
        return actions

    def legal_call_words(self, seat: Seat) -> frozenset[str]:
        """The calls ``seat`` may make now, as the notation writes them after the seat
        (``pass``, ``hokum``, ``hokum S``, ``double``, ``closed``): auction calls, raises and
        the lock choice. Empty when the seat has no call to make."""
        words: set[str] = set()
        for action in self.legal_actions():
            if isinstance(action, (Bid, Raise, Lock)) and action.seat == seat:
                words.add(call_word(action))
        return frozenset(words)

    def _legal_raises(self) -> list[Action]:
        """The next raise of the chain and the passes, for the seats of the side entitled."""
        assert self.contract is not None
        levels = self.rules.doubling.chain.levels
        if self._next_raise >= len(levels):
            return []
        level = levels[self._next_raise]
        may_raise = self.contract.kind == "hokum" or self._sun_raise_refusal(level.call) == ""
        actions: list[Action] = []
        for seat in self._entitled(level):
            if may_raise:
                actions.append(Raise(seat, level.call))
            if seat not in self._raise_passes:
                actions.append(Raise(seat, "pass"))
        return actions

    def _raise_calls(self) -> list[str]:
        return [level.call for level in self.rules.doubling.chain.levels]

    def _entitled(self, level: RaiseLevel) -> tuple[Seat, ...]:
        """The seats that may call (or pass) ``level`` [doubling.chain]: a side's two players,
        or one player (the buyer, or whoever doubled)."""
        assert self.contract is not None
        if level.by == "buyer":
            return (self.contract.buyer,)
        if level.by == "doubler":
            return (self._raisers[0],)
        side = self.contract.buyer_team ^ (level.side == "opponents")
        return (side, side + 2)

    def _entitled_words(self, level: RaiseLevel) -> str:
        assert self.contract is not None
        if level.by == "buyer":
            return f"the buyer ({SEAT_NAMES[self.contract.buyer]}) alone"
        if level.by == "doubler":
            return f"the doubler ({SEAT_NAMES[self._raisers[0]]}) alone"
        return "the buyer's side" if level.by == "buyer_team" else "the buyer's opponents"

    def legal_declarations(self) -> list[Action]:
        """The declarations the seat to play may make now (trick 1, explicit rulesets)."""
        if (
            self.tricks_done
            or self.contract is None
            or self.rules.projects.declaration.option != "explicit"
        ):
            return []
        seat = self.to_play()
        found = self._found.get(seat)
        if found is None:
            found = projects_.find_projects(self.rules, self.contract.kind, seat, self.hands[seat])
            self._found[seat] = found
        try:
            self._check_declare(Declare(seat, "", 0))
        except IllegalAction:
            return []
        mine = [p for p in self._declared if p.seat == seat]
        return [  # valid by construction; only the limits remain to check
            Declare(seat, project.name, project.cards)
            for project in found
            if projects_.can_add(self.rules, mine, project)
        ]

    def announcement(self) -> Announce | None:
        """The Baloot announcement the last card allows, if any (announcements are optional)."""
        last = self.history[-1] if self.history else None
        if not isinstance(last, Play) or self.contract is None or self.contract.trump is None:
            return None
        if last.card.suit is not self.contract.trump or last.card.rank not in _BALOOT_RANKS:
            return None
        action = Announce(last.seat)
        try:
            self._check_announce(action)
        except IllegalAction:
            return None
        return action

    # --- pushing ------------------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply ``action``, or raise :class:`IllegalAction` (nothing changes then)."""
        if self.phase == "over":
            raise IllegalAction("play.trick_winner", "the hand is over")
        if self.phase == "auction" and not isinstance(action, Bid):
            self.settle_auction()
        if isinstance(action, Play):
            self.push_play(action)
            return
        if isinstance(action, Bid):
            self._push_bid(action)
        elif isinstance(action, Raise):
            self._check_raise(action)
            self._apply_raise(action)
        elif isinstance(action, Lock):
            self._check_lock(action)
            self._apply_lock(action)
        elif isinstance(action, Complete):
            self._push_complete(action)
        elif isinstance(action, Declare):
            self._declared.append(self._project(action))
        elif isinstance(action, Announce):
            self._check_announce(action)
            self._announced.add(action.seat)
        else:  # pragma: no cover - the Action union is closed
            raise TypeError(f"not an action: {action!r}")
        self.history.append(action)

    # auction

    def settle_auction(self) -> None:
        """Settle what an auction leaves open when something other than a call comes: a
        Sun-claim window that lapses by itself closes, and a pending Hokum whose bidder has not
        spoken is confirmed (a Hokum stands unless switched, and engines that log no
        confirmation go straight on to the deal or the raises)."""
        if self.phase == "auction" and self.auction.lapse_claims():
            self._auction_done()
            return
        if self.phase == "auction" and self.auction.window == "confirm":
            assert self.auction.pending is not None
            bidder, suit = self.auction.pending
            if suit is None:
                raise IllegalAction(
                    "bidding.round2.hokum_suit",
                    f"{SEAT_NAMES[bidder]}'s round-2 Hokum has no suit: its bidder names it "
                    "when confirming ('hokum H')",
                )
            self.push(Bid(bidder, "hokum"))

    def _push_bid(self, bid: Bid) -> None:
        if self.phase != "auction":
            raise IllegalAction("bidding.order", f"{bid} comes after the auction has ended")
        self.auction.push(bid)
        self._auction_done()

    def _auction_done(self) -> None:
        """After a call: a contract or a void hand once the auction has its result."""
        result = self.auction.result
        if result is None:
            return
        if result.kind is None:
            self._void(result.void_reason)
            return
        self._set_up(
            Contract(
                kind=result.kind,
                trump=result.trump,
                buyer=result.buyer,
                receiver=result.receiver,
                ashkal=result.ashkal,
            )
        )
        if self.stock is not None:
            self._complete(self._rest_from_stock())

    def _set_up(self, contract: Contract) -> None:
        """The auction has given ``contract``: the completion of the deal comes next."""
        self.contract = contract
        if self.rules.play.first_lead.option == "buyer":  # play.first_lead
            self.leader = contract.buyer
        self.phase = "completion"

    def _rest_from_stock(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        assert self.contract is not None and self.stock is not None
        completion = self.rules.deal.completion
        rest = [0, 0, 0, 0]
        position = 0
        for offset in range(1, 5):
            seat = (self.dealer + offset) % 4
            size = completion.buyer if seat == self.contract.receiver else completion.others
            for card in self.stock[position : position + size]:
                rest[seat] |= 1 << card.index
            position += size
        rest[self.contract.receiver] |= 1 << self.faceup.index
        return (rest[0], rest[1], rest[2], rest[3])

    def _push_complete(self, action: Complete) -> None:
        if self.trace is not None:
            self.trace.hit("deal.completion")
        if self.phase != "completion":
            raise IllegalAction("deal.completion", "the deal is completed once, after the auction")
        assert self.contract is not None
        completion = self.rules.deal.completion
        given = 0
        for seat, cards in enumerate(action.rest):
            receiver = seat == self.contract.receiver
            if receiver and not cards >> self.faceup.index & 1:
                raise IllegalAction(
                    "deal.completion",
                    f"{SEAT_NAMES[seat]} bought and must receive the face-up card {self.faceup}",
                )
            size = completion.buyer + 1 if receiver else completion.others
            if cards.bit_count() != size:
                raise IllegalAction(
                    "deal.completion",
                    f"{SEAT_NAMES[seat]} received {cards.bit_count()} cards, not {size}",
                )
            if cards & (given | self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]):
                clash = cards & (
                    given | self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
                )
                raise IllegalAction("deal.completion", f"{format_cards(clash)} was dealt twice")
            given |= cards
        self._complete(action.rest)

    def _complete(self, rest: tuple[CardSet, ...]) -> None:
        assert self.contract is not None
        for seat in range(4):
            self.hands[seat] |= rest[seat]
        self.initial = tuple(self.hands)
        self.play_rules = play_rules(self.rules, self.contract)
        self.phase = "raises"
        if self.trace is not None:
            self.trace.hit("deal.completion", "cards.deck")
        if self.rules.projects.declaration.option in ("automatic_all", "automatic_best_two"):
            if self.trace is not None:
                self.trace.hit("projects.declaration")
            for seat in range(4):
                self._declared += projects_.automatic_declarations(
                    self.rules, self.contract.kind, seat, self.hands[seat]
                )

    # raises

    def _check_raise(self, action: Raise) -> None:
        if self.trace is not None:
            self.trace.hit("doubling.window", "doubling.chain")
            if self.contract is not None and self.contract.kind == "sun":
                self.trace.hit("doubling.sun")
        if self.phase != "raises" or self.contract is None:
            raise IllegalAction(
                "doubling.window",
                "raises are called after the contract is final and before the first card",
            )
        contract = self.contract
        levels = self.rules.doubling.chain.levels
        if self._next_raise >= len(levels):
            raise IllegalAction("doubling.chain", "the raise chain is complete")
        level = levels[self._next_raise]
        entitled = self._entitled(level)
        side = self._entitled_words(level)
        if action.call == "pass":
            if action.seat not in entitled:
                raise IllegalAction(
                    "doubling.chain",
                    f"{SEAT_NAMES[action.seat]} passed, but the next raise ({level.call}) "
                    f"belongs to {side}",
                )
            if action.seat in self._raise_passes:
                raise IllegalAction("doubling.chain", f"{SEAT_NAMES[action.seat]} already passed")
            return
        if action.call != level.call:
            known = self._raise_calls()
            what = "not a raise" if action.call not in known else "not the next raise"
            raise IllegalAction(
                "doubling.chain",
                f"{action.call!r} is {what}: the next raise is {level.call!r}, by {side}",
            )
        if action.seat not in entitled:
            raise IllegalAction(
                "doubling.chain",
                f"{level.call!r} is called by {side}, not {SEAT_NAMES[action.seat]}",
            )
        if contract.kind == "sun":
            self._check_sun_raise(action)

    def _check_sun_raise(self, action: Raise) -> None:
        why = self._sun_raise_refusal(action.call)
        if why:
            raise IllegalAction("doubling.sun", why)

    def _sun_raise_refusal(self, call: str) -> str:
        """Why a Sun may not be raised with ``call`` [doubling.sun], or an empty string."""
        assert self.contract is not None
        rule = self.rules.doubling.sun
        calls = self._raise_calls()
        if rule.max_call == "none":
            return "a Sun is never raised in this ruleset"
        if calls.index(call) > calls.index(rule.max_call):
            return f"a Sun may be raised at most to {rule.max_call!r}"
        buyer_team = self.contract.buyer_team
        env = {"buyer_total": self.totals[buyer_team], "doubler_total": self.totals[1 - buyer_team]}
        if not rule.condition.evaluate(env):
            return (
                f"a Sun may not be doubled at {TEAM_NAMES[buyer_team]} "
                f"{self.totals[buyer_team]} against {TEAM_NAMES[1 - buyer_team]} "
                f"{self.totals[1 - buyer_team]} (the condition is {rule.condition.source})"
            )
        return ""

    def _apply_raise(self, action: Raise) -> None:
        assert self.contract is not None
        levels = self.rules.doubling.chain.levels
        level = levels[self._next_raise]
        if action.call == "pass":
            self._raise_passes.add(action.seat)
            if len(self._raise_passes) == len(self._entitled(level)):
                self._close_raises()
            return
        self._raisers.append(action.seat)
        self._next_raise += 1
        self._raise_passes = set()
        gahwa = level.call == "gahwa"  # the level that doubling.gahwa governs
        lock = self.rules.doubling.lock
        locked = self.contract.locked
        if lock.option in ("at_double_and_four", "automatic"):  # each raise sets the lock anew
            locked = lock.option == "automatic" and level.side == "opponents"
        if gahwa and lock.gahwa_open:
            locked = False
        self._set_contract(level=level.multiplier, gahwa=gahwa, locked=locked)
        self._lock_by = self._lock_chooser(action.seat, level)
        if self.trace is not None and self.contract.kind == "hokum":
            self.trace.hit("doubling.lock")
        if self._next_raise >= len(levels):
            self._close_raises()

    def _lock_chooser(self, seat: Seat, level: RaiseLevel) -> Seat | None:
        """Who may now choose locked or open [doubling.lock], if anyone."""
        assert self.contract is not None
        if self.contract.kind != "hokum":
            return None
        lock = self.rules.doubling.lock
        calls = self._raise_calls()
        if self.contract.gahwa and lock.gahwa_open:
            return None
        index = calls.index(level.call)
        chooses = {
            "doubler_at_double": index == 0,
            "each_raiser": True,
            "four_only": index == 2,
            "at_double_and_four": index in (0, 2),
            "buyer_after_raises": False,
            "automatic": False,
        }[lock.option]
        return seat if chooses else None

    def _close_raises(self) -> None:
        """No more raises: the buyer chooses the lock now if the ruleset says so."""
        assert self.contract is not None
        self._next_raise = len(self.rules.doubling.chain.levels)
        lock = self.rules.doubling.lock
        if (
            lock.option == "buyer_after_raises"
            and self.contract.kind == "hokum"
            and self._raisers
            and not (self.contract.gahwa and lock.gahwa_open)
        ):
            self._lock_by = self.contract.buyer

    def can_lock(self, seat: Seat) -> bool:
        """Whether ``seat`` may choose locked or open now [doubling.lock]."""
        return self._lock_by == seat and not self.tricks_done and not self.trick

    def _check_lock(self, action: Lock) -> None:
        if self._lock_by is None or self.tricks_done or self.trick:
            raise IllegalAction(
                "doubling.lock", f"{SEAT_NAMES[action.seat]} may not choose the lock now"
            )
        if action.seat != self._lock_by:
            raise IllegalAction(
                "doubling.lock",
                f"the lock is chosen by {SEAT_NAMES[self._lock_by]}, not {SEAT_NAMES[action.seat]}",
            )

    def _apply_lock(self, action: Lock) -> None:
        self._lock_by = None
        self._set_contract(locked=action.locked)

    def _set_contract(self, **changes: Any) -> None:
        assert self.contract is not None
        self.contract = replace(self.contract, raisers=tuple(self._raisers), **changes)
        self.play_rules = play_rules(self.rules, self.contract)
        self._legal_cache = (-1, 0)

    # declarations and announcements

    def _project(self, action: Declare) -> Project:
        """The project a declaration makes, checked against the cards and the limits."""
        self._check_declare(action)
        assert self.contract is not None
        kind = self.contract.kind
        known = [
            p
            for p in self._found.get(action.seat, ())
            if p.cards == action.cards and p.name == action.name
        ]
        project = (
            known[0]
            if known
            else projects_.declared_project(
                self.rules, kind, action.seat, self.initial[action.seat], action.name, action.cards
            )
        )
        mine = [p for p in self._declared if p.seat == action.seat]
        projects_.check_declarations(self.rules, kind, action.seat, [*mine, project])
        return project

    def _check_declare(self, action: Declare) -> None:
        if self.trace is not None:
            self.trace.hit("projects.declaration", "projects.limits")
        option = self.rules.projects.declaration.option
        if option == "none":
            raise IllegalAction("projects.declaration", "this ruleset has no projects")
        if option != "explicit":
            raise IllegalAction(
                "projects.declaration",
                "this ruleset declares projects for the players; a 'declare' is not expected",
            )
        if self.phase not in ("raises", "play") or self.tricks_done:
            raise IllegalAction("projects.declaration", "projects are declared in trick 1 only")
        played = {(self.leader + i) % 4 for i in range(len(self.trick))}
        if action.seat in played:
            raise IllegalAction(
                "projects.declaration",
                f"{SEAT_NAMES[action.seat]} declared after playing its first card",
            )

    def _check_announce(self, action: Announce) -> None:
        if self.trace is not None:
            self.trace.hit("projects.baloot")
        if action.what != "baloot":
            raise IllegalAction("projects.baloot", f"{action.what!r} is not an announcement")
        last = self.history[-1] if self.history else None
        if self.contract is not None and (not isinstance(last, Play) or last.seat != action.seat):
            raise IllegalAction(
                "projects.baloot", "Baloot is announced right after playing its King or Queen"
            )
        king, queen = self.check_baloot_holder(action.seat)
        assert isinstance(last, Play)
        if last.card not in (king, queen):
            raise IllegalAction("projects.baloot", f"{last.card} is not the King or Queen of trump")
        second = self.hands[action.seat] & (1 << king.index | 1 << queen.index) == 0
        if (self.rules.projects.baloot.announce == "second_card") != second:
            when = "second" if self.rules.projects.baloot.announce == "second_card" else "first"
            raise IllegalAction(
                "projects.baloot", f"Baloot is announced with the {when} of {king} and {queen}"
            )
        if action.seat in self._announced:
            raise IllegalAction("projects.baloot", "Baloot was already announced")

    def check_baloot_holder(self, seat: Seat) -> tuple[Card, Card]:
        """That ``seat`` was dealt the King and Queen of trump [projects.baloot], which it
        returns; on its own, for a Baloot logged after the hand without its moment."""
        contract = self.contract
        if contract is None or contract.trump is None:
            raise IllegalAction("projects.baloot", "Baloot exists in Hokum only")
        king, queen = card_of(Rank.KING, contract.trump), card_of(Rank.QUEEN, contract.trump)
        pair = 1 << king.index | 1 << queen.index
        if self.initial[seat] & pair != pair:
            raise IllegalAction(
                "projects.baloot", f"{SEAT_NAMES[seat]} does not hold {king} and {queen}"
            )
        return king, queen

    # play

    def push_play(self, action: Play) -> None:
        """:meth:`push` for a card: the same checks, without the dispatch (replay's hot path)."""
        self.push_cards((action,))

    def push_cards(self, actions: Sequence[Play]) -> None:
        """:meth:`push_play` for each card in turn (a trick line at once, for replay). At the
        first card refused it raises :class:`IllegalAction`; the cards before it are played."""
        rules = self.play_rules
        assert rules is not None
        decide = rules.decide
        hands = self.hands
        traced = self.trace is not None
        for action in actions:
            phase = self.phase
            if phase != "play" and phase != "raises":
                rule = "doubling.window" if phase == "completion" else "play.first_lead"
                when = "after the hand is over" if phase == "over" else f"during the {phase}"
                raise IllegalAction(rule, f"no card may be played {when}")
            trick = self.trick
            seat = (self.leader + len(trick)) % 4
            if action.seat != seat:
                raise IllegalAction(
                    "play.first_lead",
                    f"{SEAT_NAMES[action.seat]} played out of turn: it is "
                    f"{SEAT_NAMES[seat]}'s turn",
                )
            hand = hands[seat]
            card = action.card
            index = card.index
            if not hand >> index & 1:
                raise IllegalAction(
                    "play.follow_suit",
                    f"{SEAT_NAMES[seat]} played {card}, which it does not hold "
                    f"(holds {format_cards(hand)})",
                )
            decided = decide(hand, trick)
            if traced:
                self._trace_play(decided)
            if not decided >> index & 1:
                rules.check(hand, trick, self.leader, card)
                raise AssertionError(
                    "check() must reject what legal() excludes"
                )  # pragma: no cover
            if phase == "raises":  # the first card closes the raises and the lock choice
                self.phase = "play"
                self._lock_by = None
            # _apply_play, inline: this runs for every card of every hand replayed.
            hands[seat] = hand & ~(1 << index)
            if len(trick) < 3:
                self.trick = (*trick, index)
            else:
                self._end_trick((*trick, index))
            self.history.append(action)

    def _trace_play(self, decided: int) -> None:
        """Count the rule behind a card's legal set, when it left a held card out or freed
        the player from an obligation; the first lead and its seat too."""
        trace = self.trace
        assert trace is not None
        trace.hit(*DECIDED_BY[decided >> 32])
        if not self.trick and not self.tricks_done:
            trace.hit("play.first_lead")

    def force_play(self, action: Play) -> bool:
        """Play a card that breaks a play obligation, as a transcript records it, so that replay
        can go on; ``False`` (and nothing changes) when it is not that seat's turn, the card is
        not held, or no card may be played now."""
        seat = self.to_play()
        if (
            self.phase not in ("raises", "play")
            or action.seat != seat
            or not self.hands[seat] >> action.card.index & 1
        ):
            return False
        self.phase = "play"
        self._lock_by = None
        self._apply_play(seat, action.card)
        self.history.append(action)
        return True

    def _apply_play(self, seat: Seat, card: Card) -> None:
        self.hands[seat] &= ~(1 << card.index)
        trick = (*self.trick, card.index)
        if len(trick) < 4:
            self.trick = trick
        else:
            self._end_trick(trick)

    def _end_trick(self, trick: tuple[int, ...]) -> None:
        """The fourth card is down: the trick goes to its winner [play.trick_winner]."""
        rules = self.play_rules
        assert rules is not None
        winner = (self.leader + rules.winner(trick)) % 4
        winning_team = winner & 1  # team(winner)
        points = rules.card_points
        self.last_trick_points = total = (
            points[trick[0]] + points[trick[1]] + points[trick[2]] + points[trick[3]]
        )
        self.points[winning_team] += total
        self.tricks[winning_team] += 1
        self.tricks_done += 1
        if self.trace is not None:
            self._trace_trick(trick)
        self.trick = ()
        self.leader = winner
        if self.tricks_done == 8:
            self.last_trick_team = winning_team
            self._score()

    def _trace_trick(self, trick: tuple[int, ...]) -> None:
        """Count what decided a finished trick: its winner by the card orders, the points of
        its cards, the team they go to, the turn that went round the table."""
        trace = self.trace
        assert trace is not None and self.contract is not None
        trace.hit("play.trick_winner", "deal.seating", "deal.direction")
        trump = self.contract.trump_index
        trumps = sum(1 for i in trick if i >> 3 == trump)
        led = sum(1 for i in trick if i >> 3 == trick[0] >> 3)
        if trumps >= 2:
            trace.hit("cards.order.trump")
        if led >= 2 and trick[0] >> 3 != trump:
            trace.hit("cards.order.plain")
        if trumps:
            trace.hit("cards.points.trump")
        if trumps < 4:
            trace.hit("cards.points.plain")

    # end of the hand

    def _void(self, reason: str) -> None:
        self.void_reason = reason
        self.phase = "over"

    def _score(self) -> None:
        contract = self.contract
        assert contract is not None
        first_seat = next_seat(self.dealer)
        project_team, counted = projects_.counted_projects(
            self.rules, contract, self._declared, first_seat
        )
        holder = projects_.baloot_holder(self.rules, contract, self.initial, self._declared)
        aces = sum(1 << (suit * 8 + 7) for suit in range(4))
        facts = HandFacts(
            contract=contract,
            card_points=(self.points[0], self.points[1]),
            last_trick_team=self.last_trick_team,
            tricks=(self.tricks[0], self.tricks[1]),
            project_team=project_team,
            project_raw=sum(p.raw for p in counted),
            project_points=sum(p.game_points for p in counted),
            baloot_team=None if holder is None else team(holder),
            buyer_held_ace=bool(self.initial[contract.buyer] & aces),
            buyer_is_first_seat=contract.buyer == first_seat,
            faceup_ace=self.faceup.rank is Rank.ACE,
        )
        self._score_result = score_hand(self.rules, facts)
        self.phase = "over"
        if self.trace is not None:
            self._trace_score()

    def _trace_score(self) -> None:
        """Count what decided the score: the rules the scorer applied, the projects and
        their comparison, the Baloot and what may have blocked it, the card totals."""
        trace = self.trace
        score = self._score_result
        assert trace is not None and score is not None and self.contract is not None
        conversion = self.rules.scoring.sun_conversion
        if self.contract.kind == "hokum":
            conversion = self.rules.scoring.hokum_conversion
        # The conversion gives each side's card score even when the outcome sets the points.
        trace.hit("cards.last_trick", "cards.totals", conversion.id, *score.decided_by)
        declared = self._declared
        trace.hit(*(f"projects.{p.name}" for p in declared))
        if any(p.name in ("sira", "fifty", "hundred.sequence") for p in declared):
            trace.hit("cards.order.sequence")
        if declared:
            trace.hit("projects.comparison")
        if len(declared) > 1:
            trace.hit("projects.ranking")
        if len({team(p.seat) for p in declared}) == 2:
            top = max(p.strength for p in declared)
            if len({team(p.seat) for p in declared if p.strength == top}) == 2:
                trace.hit("projects.tie")
        sun = self.contract.kind == "sun"
        if sun and score.kaboot_team is not None and score.kaboot_team != self.contract.buyer_team:
            trace.hit("scoring.reverse_kaboot")  # a sweep of the Sun buyer: reverse or not
        trump = self.contract.trump
        if trump is not None:
            pair = 1 << card_of(Rank.KING, trump).index | 1 << card_of(Rank.QUEEN, trump).index
            seat = next((s for s in range(4) if self.initial[s] & pair == pair), None)
            if seat is not None:
                trace.hit("projects.baloot")
                if any(p.seat == seat and p.name in HUNDREDS for p in declared):
                    trace.hit("projects.baloot.inside_hundred")

    def result(self) -> HandResult:
        """How the hand ended. Raises ValueError before it is over."""
        if self.phase != "over":
            raise ValueError("the hand is not over")
        if self.contract is None or self.void_reason:
            return void_result(self.rules, self.dealer, self.void_reason)
        next_dealer = next_seat(self.dealer)
        score = self._score_result
        assert score is not None
        return HandResult(self.contract, "", score, score.game_points, next_dealer)
