"""The auction: two rounds of calls, Ashkal, Sun over Hokum, Sun priority, the Hokum bidder's
confirmation, and the all-pass redeal.

The flow (rule IDs in brackets):

* Calls go counter-clockwise from the dealer's right; earlier seats have priority
  [bidding.order]. Round 1: ``pass``, ``hokum`` in the face-up card's suit, ``sun``,
  ``ashkal`` [bidding.round1.calls]; round 2: ``pass``, ``sun``, ``ashkal``, ``hokum`` naming a
  suit [bidding.round2.hokum_suit], at most ``bidding.rounds.count`` rounds.
* A Hokum stays pending while later seats may bid Sun or Ashkal over it
  [bidding.sun_over_hokum]; a second Hokum is not allowed unless a seat of higher priority
  takes it over [bidding.hokum_over_hokum].
* A Sun (or Ashkal) ends the calls, but earlier seats may claim it first (قبلك), asked in
  priority order [bidding.sun_priority].
* When the round ends with a Hokum pending, its bidder confirms it or switches to Sun
  [bidding.hokum_confirmation].
* Ashkal: eligible seats and rounds [bidding.ashkal.eligibility]; the contract is Sun and the
  face-up card goes to the caller's partner; who counts as the buyer [bidding.ashkal].
* Everybody passing in every round voids the hand [bidding.all_pass]. (A Kawesh is no call:
  :mod:`~baloot_conformance.engine.table_talk` judges it.)

The auction holds no cards but the face-up card: calls do not depend on them. It is
a small mutable object with a cheap :meth:`copy`, like the hand around it.
"""

from __future__ import annotations

import copy as _copy
from dataclasses import dataclass
from functools import cache
from typing import Literal

from baloot_conformance.cards import Card, Rank, Suit
from baloot_conformance.engine.actions import Bid
from baloot_conformance.engine.deal import first_seat
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    ContractKind,
    IllegalAction,
    Seat,
    partner,
    team,
)
from baloot_conformance.engine.trace import Trace
from baloot_conformance.rules.ruleset import Ruleset

Window = Literal["calls", "respond", "claim", "hijack", "confirm", "done"]


@dataclass(frozen=True, slots=True)
class AuctionResult:
    """How the auction ended: a contract (kind, suit, buyer, receiver) or a void hand."""

    kind: ContractKind | None
    """``None`` when the hand is void (all pass)."""
    trump: Suit | None
    buyer: Seat
    receiver: Seat
    ashkal: bool
    void_reason: Literal["all_pass", ""] = ""


_WINDOW_RULES: dict[Window, str] = {
    "calls": "bidding.order",
    "respond": "bidding.hokum_responses",
    "claim": "bidding.sun_priority",
    "hijack": "bidding.hokum_over_hokum",
    "confirm": "bidding.hokum_confirmation",
    "done": "bidding.order",
}
"""The rule that decides who calls next in each window."""


@cache
def _bid(seat: Seat, call: str, suit: Suit | None = None) -> Bid:
    """Calls are immutable: the legal-call lists share one object per call."""
    return Bid(seat, call, suit)


class Auction:
    """The auction of one hand; feed it calls with :meth:`push`."""

    __slots__ = (
        "_queue",
        "_sun_by",
        "ashkal",
        "dealer",
        "faceup",
        "order",
        "passed",
        "pending",
        "result",
        "round",
        "rules",
        "speaker",
        "trace",
        "window",
    )

    def __init__(
        self,
        rules: Ruleset,
        dealer: Seat,
        faceup: Card,
        trace: Trace | None = None,
    ) -> None:
        self.rules = rules
        self.trace = trace
        self.dealer = dealer
        self.faceup = faceup
        #: The seats in calling order: the first seat (the dealer's right, or the dealer under
        #: ``bidding.order`` ``first: dealer``) first, then counter-clockwise.
        first = first_seat(rules, dealer)
        self.order: tuple[Seat, ...] = tuple((first + p) % 4 for p in range(4))
        self.round = 1
        self.window: Window = "calls"
        self.speaker = 0
        """Index into :attr:`order` of the next caller (in the calls window)."""
        self.passed: set[Seat] = set()
        self.pending: tuple[Seat, Suit | None] | None = None
        """A Hokum bid that is not final yet: its bidder and suit (``None`` for a round-2
        Hokum whose suit is named at the confirmation)."""
        self._sun_by: Seat | None = None
        self.ashkal = False
        self._queue: list[Seat] = []
        """Seats still to be asked in the claim or hijack window, in priority order."""
        self.result: AuctionResult | None = None

    def copy(self) -> Auction:
        other = _copy.copy(self)
        other.passed = set(self.passed)
        other._queue = list(self._queue)
        return other

    # --- whose turn -----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def to_call(self) -> Seat:
        """The seat whose call is expected next."""
        if self.window == "calls":
            return self.order[self.speaker]
        if self.window in ("respond", "claim", "hijack"):
            return self._queue[0]
        if self.window == "confirm":
            assert self.pending is not None
            return self.pending[0]
        raise ValueError("the auction is over")

    def window_rule(self) -> str:
        """The rule that decides who calls next in the current window."""
        return _WINDOW_RULES[self.window]

    def position(self, seat: Seat) -> int:
        """The bidding position of a seat: 1 = the first to call (the dealer's right, the
        dealer 4) ... 4 = the last."""
        return self.order.index(seat) + 1

    # --- legal calls ----------------------------------------------------------------------

    def legal_calls(self) -> list[Bid]:
        """Every call the seat to call may make now (a round-1 Hokum without its suit)."""
        if self.result is not None:
            return []
        seat = self.to_call()
        if self.window == "claim":
            return [_bid(seat, "sun"), _bid(seat, "pass")]
        if self.window == "confirm":
            assert self.pending is not None
            candidates = [_bid(seat, "sun")]
            suit = self.pending[1]
            legal = (
                [_bid(seat, "hokum", suit)]
                if suit is not None
                else [_bid(seat, "hokum", s) for s in self._round2_suits()]
            )
        else:
            legal = [_bid(seat, "pass")]
            candidates = []
            if self.window in ("calls", "respond"):
                legal.append(_bid(seat, "sun"))
                if not self._ashkal_refusal(seat) or self._ashkal_as_sun():
                    legal.append(_bid(seat, "ashkal"))
            if self.pending is None or self.window == "hijack" or self._hokum_said():
                if self.round == 1 or self._suit_at_confirmation():
                    legal.append(_bid(seat, "hokum"))
                else:
                    legal += [_bid(seat, "hokum", suit) for suit in self._round2_suits()]
        for bid in candidates:
            try:
                self._check(bid)
            except IllegalAction:
                continue
            legal.append(bid)
        return legal

    def _check(self, bid: Bid) -> None:
        """Raise :class:`IllegalAction` when ``bid`` may not be called now."""
        if self.result is not None:
            raise IllegalAction("bidding.order", "the auction is over")
        seat, call = bid.seat, bid.call
        expected = self.to_call()
        if seat != expected:
            raise IllegalAction(
                self.window_rule(),
                f"{SEAT_NAMES[seat]} called out of turn: it is {SEAT_NAMES[expected]}'s call"
                + ("" if self.window == "calls" else f" ({self._window_words()})"),
            )
        if bid.suit is not None and call != "hokum":
            raise IllegalAction(
                "bidding.round1.calls" if self.round == 1 else "bidding.rounds",
                f"only a Hokum names a suit, not {call!r}",
            )
        if self.window == "claim":
            if call not in ("sun", "pass"):
                raise IllegalAction(
                    "bidding.sun_priority",
                    f"{SEAT_NAMES[seat]} may only claim the Sun ('sun') or pass, not {call!r}",
                )
            return
        if self.window == "hijack":
            if call == "hokum":
                self._check_hokum_suit(bid)
            elif call != "pass":
                raise IllegalAction(
                    "bidding.hokum_over_hokum",
                    f"{SEAT_NAMES[seat]} may only take over the Hokum ('hokum') or pass",
                )
            return
        if self.window == "confirm":
            self._check_confirmation(bid)
            return
        # The calls window (and the answers to a Hokum, which are calls too).
        if call == "pass":
            return
        if call == "hokum":
            if self.pending is not None and self._hokum_said():
                self._check_hokum_suit(bid)
                return
            if self.pending is not None:
                raise IllegalAction(
                    "bidding.hokum_over_hokum",
                    f"{SEAT_NAMES[seat]} bid Hokum over {SEAT_NAMES[self.pending[0]]}'s pending "
                    "Hokum; only Sun, Ashkal or a pass may follow it",
                )
            self._check_hokum_suit(bid)
            return
        if call == "sun":
            return
        if call == "ashkal":
            self._check_ashkal(seat)
            return
        rule = "bidding.round1.calls" if self.round == 1 else "bidding.rounds"
        if call not in {level.call for level in self.rules.doubling.chain.levels}:
            rule = "bidding.call_words"  # no call of the kit's at all
        hint = (
            f" (a Kawesh is its own line: 'kawesh {SEAT_NAMES[seat]}')" if call == "kawesh" else ""
        )
        raise IllegalAction(
            rule,
            f"{call!r} is not a call of round {self.round}: expected pass, hokum, sun or ashkal"
            + hint,
        )

    def _round2_suits(self) -> list[Suit]:
        """The suits a round-2 Hokum may name [bidding.round2.hokum_suit]."""
        barred = self.rules.bidding.round2_hokum_suit.option == "other_than_faceup"
        return [suit for suit in Suit if not (barred and suit is self.faceup.suit)]

    def _suit_at_confirmation(self) -> bool:
        """Round 2, and its Hokum names its suit at the confirmation, not with the bid."""
        return self.round == 2 and self.rules.bidding.round2_hokum_suit.named == "at_confirmation"

    def _ashkal_as_sun(self) -> bool:
        """An ineligible Ashkal is a Sun bid [bidding.ashkal.eligibility: counts_as_sun]."""
        return self.rules.bidding.ashkal_eligibility.ineligible == "counts_as_sun"

    def _window_words(self) -> str:
        if self.window == "respond":
            return "the other players answer the Hokum in turn"
        if self.window == "claim":
            return "earlier seats may claim the Sun"
        if self.window == "hijack":
            return "earlier seats may take over the Hokum"
        return "the Hokum bidder confirms or switches"

    def _check_hokum_suit(self, bid: Bid) -> None:
        face = self.faceup.suit
        if self.round == 1:
            if bid.suit not in (None, face):
                raise IllegalAction(
                    "bidding.round1.calls",
                    f"a round-1 Hokum is in the face-up card's suit ({face.value}), "
                    f"not {bid.suit.value if bid.suit else ''}",
                )
            return
        if self._suit_at_confirmation() and self.window != "confirm":
            if bid.suit is not None:
                raise IllegalAction(
                    "bidding.round2.hokum_suit",
                    "a round-2 Hokum is bid without a suit; its bidder names the suit when "
                    "confirming",
                )
            return
        if bid.suit is None:
            raise IllegalAction(
                "bidding.round2.hokum_suit", "a round-2 Hokum names its suit, e.g. 'hokum H'"
            )
        if bid.suit == face and self.rules.bidding.round2_hokum_suit.option == "other_than_faceup":
            raise IllegalAction(
                "bidding.round2.hokum_suit",
                f"a round-2 Hokum must name a suit other than the face-up card's ({face.value})",
            )

    def _check_ashkal(self, seat: Seat) -> None:
        why = self._ashkal_refusal(seat)
        if why and not self._ashkal_as_sun():
            raise IllegalAction("bidding.ashkal.eligibility", why)

    def _ashkal_refusal(self, seat: Seat) -> str:
        """Why ``seat`` may not say Ashkal now, or an empty string when it may."""
        rule = self.rules.bidding.ashkal_eligibility
        position = self.position(seat)
        if position not in rule.seats:
            allowed = " and ".join(str(p) for p in rule.seats)
            return (
                f"only bidding positions {allowed} may say Ashkal; {SEAT_NAMES[seat]} is {position}"
            )
        if self.round not in rule.rounds:
            return f"Ashkal may not be said in round {self.round}"
        if rule.ace_faceup == "forbidden" and self.faceup.rank is Rank.ACE:
            return f"Ashkal may not be said on an Ace face-up card ({self.faceup})"
        if rule.when == "vs_opposing_hokum" and (
            self.pending is None or team(self.pending[0]) == team(seat)
        ):
            return "Ashkal may only answer an opponent's pending Hokum"
        return ""

    def _check_confirmation(self, bid: Bid) -> None:
        rule = self.rules.bidding.hokum_confirmation
        assert self.pending is not None
        suit = self.pending[1]
        if bid.call == "hokum":
            if suit is None:  # bidding.round2.hokum_suit, named: at_confirmation
                self._check_hokum_suit(bid)
            elif bid.suit not in (None, suit):
                raise IllegalAction(
                    "bidding.hokum_confirmation",
                    f"the confirmation keeps the Hokum's suit ({suit.value})",
                )
            return
        if bid.call != "sun" or rule.option == "confirm_only":
            words = "name the Hokum's suit" if suit is None else "confirm the Hokum ('hokum')"
            switch = "" if rule.option == "confirm_only" else " or switch to 'sun'"
            raise IllegalAction(
                "bidding.hokum_confirmation", f"{SEAT_NAMES[bid.seat]} must {words}{switch}"
            )
        if self.faceup.rank is Rank.ACE and (
            rule.ace_faceup_switch == "forbidden"
            or (rule.ace_faceup_switch == "first_seat_only" and self.position(bid.seat) != 1)
        ):
            raise IllegalAction(
                "bidding.hokum_confirmation",
                f"with an Ace face up ({self.faceup}) a Hokum may not switch to Sun"
                + (" except from the first seat" if rule.ace_faceup_switch != "forbidden" else ""),
            )

    # --- applying calls -------------------------------------------------------------------

    def push(self, bid: Bid) -> None:
        """Apply a call, or raise :class:`IllegalAction` naming the rule that forbids it."""
        if self.trace is not None:
            self._trace_call(bid)
        self._check(bid)
        if self.window == "claim":
            self._claim(bid)
        elif self.window == "hijack":
            self._hijack(bid)
        elif self.window == "confirm":
            assert self.pending is not None
            if bid.call == "hokum":
                suit = self.pending[1] or bid.suit
                assert suit is not None  # _check_confirmation saw to it
                self._finish("hokum", suit, bid.seat, bid.seat, False)
            else:
                self._finish("sun", None, bid.seat, bid.seat, False)
        else:
            self._call(bid)

    def _trace_call(self, bid: Bid) -> None:
        """Count the rules that decide whether a call may be made now: the window's turn
        rule, the calls of the round, and the rules of Hokum, Sun, Ashkal and Kawesh calls."""
        trace = self.trace
        assert trace is not None
        if self.result is not None:
            trace.hit("bidding.order")
            return
        trace.hit(self.window_rule(), "bidding.call_words")
        if self.window not in ("calls", "respond"):
            return
        trace.hit("bidding.round1.calls" if self.round == 1 else "bidding.rounds")
        call = bid.call
        if call == "hokum" and self.round == 2:
            trace.hit("bidding.round2.hokum_suit")
        if self.pending is not None and self.window == "calls":
            # Later seats answer a Hokum in turn, and none of them may bid Hokum over it.
            trace.hit("bidding.hokum_responses", "bidding.hokum_over_hokum")
        if self.pending is not None and call in ("hokum", "sun", "ashkal"):
            trace.hit("bidding.hokum_over_hokum" if call == "hokum" else "bidding.sun_over_hokum")
        if call == "ashkal":
            trace.hit("bidding.ashkal.eligibility")

    def _answers(self, bidder: Seat) -> list[Seat] | None:
        """Who answers a Hokum in turn [bidding.hokum_responses]: ``None`` for the rest of the
        round in order, else the three other players from the bidder's right."""
        if self.rules.bidding.hokum_responses.in_round(self.round) == "later_seats":
            return None
        return [(bidder + offset) % 4 for offset in (1, 2, 3)]

    def _call(self, bid: Bid) -> None:
        seat, call = bid.seat, bid.call
        if call == "pass":
            self.passed.add(seat)
        elif call == "hokum" and self.pending is not None and self._hokum_said():
            pass  # bidding.hokum_over_hokum "said": the first Hokum stands
        elif call == "hokum":
            suit = None if self._suit_at_confirmation() else bid.suit or self.faceup.suit
            self.pending = (seat, suit)
            answers = self._answers(seat)
            if answers is not None:
                self._queue = answers
                self.window = "respond"
                return
        else:  # sun or ashkal (an ineligible Ashkal counts as a Sun where the ruleset says so)
            self._sun_by = seat
            self.ashkal = call == "ashkal" and not self._ashkal_refusal(seat)
            self._open_claims(seat)
            return
        if self.window == "respond":
            self._queue.pop(0)
            if not self._queue:
                self._end_of_round()
            return
        self.speaker += 1
        if self.speaker == 4:
            self._end_of_round()

    def _hokum_said(self) -> bool:
        """A Hokum over a pending one is said and changes nothing [bidding.hokum_over_hokum]."""
        return self.rules.bidding.hokum_over_hokum.option == "said"

    def _open_claims(self, sun_bidder: Seat) -> None:
        option = self.rules.bidding.sun_priority.in_round(self.round)
        earlier = list(self.order[: self.order.index(sun_bidder)])
        live = [s for s in earlier if s not in self.passed]
        if self.trace is not None and earlier:
            self.trace.hit("bidding.sun_priority")
        if option == "live_only":
            queue = live
        elif option == "passed_may_claim":
            queue = [s for s in earlier if s in self.passed and team(s) != team(sun_bidder)]
        elif option == "all_earlier" or (option == "all_earlier_if_live" and live):
            queue = earlier
        else:
            queue = []
        if queue:
            self._queue = queue
            self.window = "claim"
        else:
            self._finish_sun(sun_bidder, self.ashkal)

    def lapse_claims(self) -> bool:
        """Close a Sun-claim window that lapses by itself [bidding.sun_priority, claims:
        lapse]: the Sun stands. ``False`` when no such window is open."""
        if self.window != "claim" or self.rules.bidding.sun_priority.claims != "lapse":
            return False
        assert self._sun_by is not None
        self._finish_sun(self._sun_by, self.ashkal)
        return True

    def _claim(self, bid: Bid) -> None:
        if bid.call == "sun":
            self._finish_sun(bid.seat, ashkal=False)
            return
        self._queue.pop(0)
        if not self._queue:
            assert self._sun_by is not None
            self._finish_sun(self._sun_by, self.ashkal)

    def _finish_sun(self, caller: Seat, ashkal: bool) -> None:
        if ashkal:
            if self.trace is not None:
                self.trace.hit("bidding.ashkal")
            receiver = partner(caller)
            buyer = caller if self.rules.bidding.ashkal.buyer == "caller" else receiver
            self._finish("sun", None, buyer, receiver, True)
        else:
            self._finish("sun", None, caller, caller, False)

    def _end_of_round(self) -> None:
        if self.pending is None:
            if self.round < self.rules.bidding.rounds.count:
                self.round += 1
                self.speaker = 0
                self.passed = set()
                return
            self.result = AuctionResult(None, None, self.order[0], self.order[0], False, "all_pass")
            if self.trace is not None:
                self.trace.hit("bidding.all_pass", "bidding.rounds")
            self.window = "done"
            return
        bidder = self.pending[0]
        if self.rules.bidding.hokum_over_hokum.option == "priority_hijack":
            earlier = self.order[: self.order.index(bidder)]
            queue = [s for s in earlier if s in self.passed]
            if queue:
                self._queue = queue
                self.window = "hijack"
                return
        self._confirm()

    def _hijack(self, bid: Bid) -> None:
        if bid.call == "hokum":
            assert self.pending is not None
            if self.round == 1:
                suit: Suit | None = self.faceup.suit
            elif self._suit_at_confirmation():
                suit = None
            else:
                suit = bid.suit or self.pending[1]
            self.pending = (bid.seat, suit)
            self._confirm()
            return
        self._queue.pop(0)
        if not self._queue:
            self._confirm()

    def _confirm(self) -> None:
        assert self.pending is not None
        seat, suit = self.pending
        if self.trace is not None:
            self.trace.hit("bidding.hokum_confirmation")  # asked, or final without asking
        if self.rules.bidding.hokum_confirmation.option == "confirm_only" and suit is not None:
            self._finish("hokum", suit, seat, seat, False)
        else:
            self.window = "confirm"

    def _finish(
        self, kind: ContractKind, trump: Suit | None, buyer: Seat, receiver: Seat, ashkal: bool
    ) -> None:
        self.result = AuctionResult(kind, trump, buyer, receiver, ashkal)
        self.window = "done"
