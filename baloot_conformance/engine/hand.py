"""One hand of Baloot, from the deal to the score, as a checked state machine.

The API follows python-chess: :meth:`Hand.legal_actions` lists what may happen next,
:meth:`Hand.push` applies an action or raises :class:`IllegalAction` naming the rule and why,
:meth:`Hand.is_over` and :meth:`Hand.result` end it, and :meth:`Hand.copy` is cheap so that
search can branch. Phases, in order:

``auction``
    calls, see :mod:`~baloot_conformance.engine.auction`.
``completion``
    the rest of the deal [deal.completion]: from the stock when the hand was dealt from a
    shuffled pack, else a :class:`Complete` action carrying the cards each seat received
    (:mod:`~baloot_conformance.engine.deal`).
``raises``
    the raise chain [doubling.chain], Sun raises [doubling.sun], the lock choice
    [doubling.lock], all before the first card [doubling.window]
    (:mod:`~baloot_conformance.engine.raises`). Passes are optional: the first card closes
    the window.
``play``
    eight tricks [play.*] (:mod:`~baloot_conformance.engine.play` says which cards are legal);
    declarations in trick 1 [projects.declaration] and the Baloot announcement
    [projects.baloot] (:mod:`~baloot_conformance.engine.declarations`).
``over``
    scored [scoring.*] (:mod:`~baloot_conformance.engine.scoring`), or void (all pass,
    Kawesh, an exposed Ace); a Sawa or a foul call ends it early
    (:mod:`~baloot_conformance.engine.table_talk`).

The hand sequences the phases, plays the tricks and keeps the state; each phase's rules live
in the module named above. A hand knows the game totals before it (``totals``), which Sun
raises depend on.
"""

from __future__ import annotations

import copy as _copy
from collections.abc import Sequence
from contextlib import suppress

from baloot_conformance.cards import Card, Rank
from baloot_conformance.engine import projects as projects_
from baloot_conformance.engine import table_talk as talk
from baloot_conformance.engine.actions import (
    PLAYS,
    Action,
    Announce,
    Bid,
    Complete,
    Declare,
    FoulCall,
    KaweshCall,
    Lock,
    Play,
    Raise,
    SawaClaim,
    TableTalk,
    call_word,
)
from baloot_conformance.engine.auction import Auction
from baloot_conformance.engine.deal import (
    check_completion,
    check_first_deal,
    deal_from_pack,
    first_seat,
    rest_from_stock,
)
from baloot_conformance.engine.deciders import trace_score, trace_trick
from baloot_conformance.engine.declarations import Declarations, baloot_pair
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    CardSet,
    Contract,
    IllegalAction,
    Seat,
    Team,
    cards_of,
    format_cards,
    next_seat,
    team,
)
from baloot_conformance.engine.play import DECIDED_BY, PlayRules, play_rules
from baloot_conformance.engine.projects import Project
from baloot_conformance.engine.raises import Raises
from baloot_conformance.engine.scoring import (
    HandFacts,
    HandResult,
    HandScore,
    score_hand,
    void_result,
)
from baloot_conformance.engine.table_talk import Judged, LatentFoul, Phase
from baloot_conformance.engine.trace import Trace
from baloot_conformance.rules.ruleset import Ruleset


class Hand:
    """A hand in progress: ``Hand(rules, dealer, first_five, faceup)`` for a recorded deal, or
    :meth:`shuffled` to deal from a pack."""

    __slots__ = (
        "_legal_cache",
        "_score_result",
        "auction",
        "claim",
        "contract",
        "dealer",
        "declarations",
        "faceup",
        "first_five",
        "fouls",
        "hands",
        "history",
        "initial",
        "last_trick_points",
        "last_trick_team",
        "leader",
        "phase",
        "play_rules",
        "points",
        "raises",
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
        check_first_deal(rules, first_five, faceup, stock)
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
        self.auction = Auction(rules, dealer, faceup, trace)
        self.contract: Contract | None = None
        self.void_reason = ""
        self.history: list[Action] = []
        self.raises = Raises(rules, totals, trace, dealer)
        """The raise chain and the lock choice, once the deal is complete [doubling.*]."""
        self.declarations = Declarations(rules, trace)
        """The projects declared and the Baloot announced [projects.*]."""
        self.play_rules: PlayRules | None = None
        self.leader = first_seat(rules, dealer)
        self.trick: tuple[int, ...] = ()
        self.tricks_done = 0
        self.tricks = [0, 0]
        self.points = [0, 0]
        self.last_trick_team: Team = 0
        self.last_trick_points = 0
        """The card points of the last finished trick."""
        self._legal_cache: tuple[int, CardSet] = (-1, 0)
        self._score_result: HandScore | None = None
        self.fouls: list[LatentFoul] = []
        """The cards played against the play rules that the hand went on with [play.fouls]."""
        self.claim: Judged | None = None
        """The Sawa or foul call that ended the hand, as judged."""
        if trace is not None:
            trace.hit("deal.first_round", "deal.faceup")
            if any(talk.kawesh_hand(rules, cards) for cards in first_five):
                trace.hit("deal.kawesh")  # a hand that could be redealt, where the rule allows
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
        first_five, faceup, stock = deal_from_pack(rules, dealer, pack)
        return cls(rules, dealer, first_five, faceup, stock, totals)

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
        """A hand whose auction is not known (a log of each seat's eight cards and the
        contract, unraised: see :meth:`assume_raises`), ready for the raises and the play.
        Without ``faceup``, a card of the receiver's that is no Ace stands for it, so that no
        Ace rule (``deal.exposed_ace``, ``scoring.kaboot.faceup_ace``) applies.

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
        self._set_contract(
            self.raises.changed(self.contract, level=level, locked=locked, gahwa=gahwa)
        )

    def copy(self) -> Hand:
        """An independent copy (cheap: a few small lists)."""
        other = _copy.copy(self)
        other.hands = list(self.hands)
        other.auction = self.auction.copy()
        other.history = list(self.history)
        other.raises = self.raises.copy()
        other.declarations = self.declarations.copy()
        other.tricks = list(self.tricks)
        other.points = list(self.points)
        other.fouls = list(self.fouls)
        return other

    # --- state --------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == "over"

    def to_play(self) -> Seat:
        """The seat whose card is expected next (in the play and raises phases)."""
        return (self.leader + len(self.trick)) % 4

    def declared(self) -> tuple[Project, ...]:
        return tuple(self.declarations.projects)

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
            assert self.contract is not None
            actions += self.raises.legal(self.contract)
        if self.phase in ("raises", "play"):
            actions += self.raises.locks()
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

    def legal_declarations(self) -> list[Action]:
        """The declarations the seat to play may make now (trick 1, explicit rulesets)."""
        if self.tricks_done or self.contract is None:
            return []
        seat = self.to_play()
        return self.declarations.legal(
            self.contract, seat, self.hands[seat], self._in_trick_one(), self._has_played(seat)
        )

    def announcement(self) -> Announce | None:
        """The Baloot announcement the last card allows, if any (announcements are optional)."""
        last = self.history[-1] if self.history else None
        if not isinstance(last, Play):
            return None
        held, dealt = self.hands[last.seat], self._dealt(last.seat)
        return self.declarations.announcement(self.contract, self.history, held, dealt)

    # --- pushing ------------------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply ``action``, or raise :class:`IllegalAction` (nothing changes then)."""
        if self.phase == "over" and not (isinstance(action, FoulCall) and talk.played_out(self)):
            ended = f": it ended with {self.claim.what}" if self.claim else ""
            raise IllegalAction("play.trick_winner", "the hand is over" + ended)
        if self.phase == "auction" and not isinstance(action, (Bid, KaweshCall)):
            self.settle_auction()
        if isinstance(action, Play):
            self.push_play(action)
            return
        if isinstance(action, (SawaClaim, FoulCall, KaweshCall)):
            talk.check_talk(self, action)
            talk.force_claim(self, action)
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
            self.declarations.declare(
                action,
                self.contract,
                self._dealt(action.seat),
                self._in_trick_one(),
                self._has_played(action.seat),
            )
        elif isinstance(action, Announce):
            seat = action.seat
            held, dealt = self.hands[seat], self._dealt(seat)
            self.declarations.check_announce(action, self.contract, self.history, held, dealt)
            self.declarations.announced.add(seat)
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
            rest = rest_from_stock(
                self.rules, self.dealer, result.receiver, self.faceup, self.stock
            )
            self._complete(rest)

    def _set_up(self, contract: Contract) -> None:
        """The auction has given ``contract``: the completion of the deal comes next."""
        self.contract = contract
        if self.rules.play.first_lead.option == "buyer":  # play.first_lead
            self.leader = contract.buyer
        self.phase = "completion"

    def _push_complete(self, action: Complete) -> None:
        if self.trace is not None:
            self.trace.hit("deal.completion")
        if self.phase != "completion":
            raise IllegalAction("deal.completion", "the deal is completed once, after the auction")
        assert self.contract is not None
        check_completion(self.rules, self.contract.receiver, self.faceup, action.rest, self.hands)
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
        self.declarations.declare_for_players(self.contract, self.hands)

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
        self.raises.check(action, self.contract)

    def _apply_raise(self, action: Raise) -> None:
        assert self.contract is not None
        raised = self.raises.apply(action, self.contract)
        if raised is not self.contract:
            self._set_contract(raised)

    def can_lock(self, seat: Seat) -> bool:
        """Whether ``seat`` may choose locked or open now [doubling.lock]."""
        return self.raises.lock_by == seat and self._before_first_card()

    def _check_lock(self, action: Lock) -> None:
        self.raises.check_lock(action, self._before_first_card())

    def _apply_lock(self, action: Lock) -> None:
        assert self.contract is not None
        self.raises.lock_by = None
        self._set_contract(self.raises.changed(self.contract, locked=action.locked))

    def _set_contract(self, contract: Contract) -> None:
        """The contract raised or locked: its play rules follow."""
        self.contract = contract
        self.play_rules = play_rules(self.rules, contract)
        self._legal_cache = (-1, 0)

    # declarations and announcements

    def check_baloot_holder(self, seat: Seat) -> tuple[Card, Card]:
        """That ``seat`` was dealt the King and Queen of trump [projects.baloot], which it
        returns; on its own, for a Baloot logged after the hand without its moment."""
        return baloot_pair(self.contract, seat, self._dealt(seat))

    def _dealt(self, seat: Seat) -> CardSet:
        """A seat's eight cards as dealt (none before the deal is complete)."""
        return self.initial[seat] if self.initial else 0

    def _before_first_card(self) -> bool:
        return not self.tricks_done and not self.trick

    def _in_trick_one(self) -> bool:
        return self.phase in ("raises", "play") and not self.tricks_done

    def _has_played(self, seat: Seat) -> bool:
        """Whether ``seat`` has played to the trick on the table."""
        return seat in {(self.leader + i) % 4 for i in range(len(self.trick))}

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
                talk.illegal_card(self, hand, card)
            if phase == "raises":  # the first card closes the raises and the lock choice
                self.phase = "play"
                self.raises.lock_by = None
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
        if not self.legal_cards() >> action.card.index & 1:
            with suppress(IllegalAction):  # recorded as a latent foul: a call may name it
                talk.illegal_card(self, self.hands[seat], action.card)
        self.phase = "play"
        self.raises.lock_by = None
        self._apply_play(seat, action.card)
        self.history.append(action)
        return True

    def plays_done(self) -> int:
        """How many cards of the hand are down."""
        return talk.plays_done(self)

    def force_claim(self, action: TableTalk) -> bool:
        """A claim or call as a transcript records it, unchecked (see :func:`talk.force_claim`)."""
        return talk.force_claim(self, action)

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
            assert self.contract is not None
            trace_trick(self.trace, self.contract, trick)
        self.trick = ()
        self.leader = winner
        if self.tricks_done == 8:
            self.last_trick_team = winning_team
            self._score()

    # end of the hand

    def _void(self, reason: str) -> None:
        self.void_reason = reason
        self.phase = "over"

    def _score(self, sweep_scores: bool = True) -> None:
        contract = self.contract
        assert contract is not None
        first = first_seat(self.rules, self.dealer)
        project_team, counted = projects_.counted_projects(
            self.rules, contract, self.declarations.projects, first
        )
        holder = projects_.baloot_holder(
            self.rules, contract, self.initial, self.declarations.projects, talk.played(self)
        )
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
            buyer_is_first_seat=contract.buyer == first,
            faceup_ace=self.faceup.rank is Rank.ACE,
            sweep_scores=sweep_scores,
        )
        self._score_result = score_hand(self.rules, facts)
        self.phase = "over"
        if self.trace is not None:
            trace_score(
                self.trace, self.rules, contract, self._score_result,
                self.declarations.projects, self.initial,
            )  # fmt: skip

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
