"""The hand checker: one transcript hand replayed event by event through the engine.

:class:`HandChecker` holds what a hand's replay knows (the deal as logged, the engine's hand,
the tricks, the result, the divergences found) and applies its events: the deal lines, calls,
raises and locks, declarations and Baloot announcements, and cards. An illegal event is a
divergence, and replay follows the transcript's own events where the engine can (a card that
breaks an obligation is still played), so that later, independent problems are still found.
Hands that log no auction (partial transcripts) start from their ``= contract`` claim. Claims
are judged apart, in :mod:`~baloot_conformance.check.claims`; the order of a hand's items and
its verdict are :mod:`~baloot_conformance.check.hand_check`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baloot_conformance import btn
from baloot_conformance.cards import SUIT_CODES, Card
from baloot_conformance.check.table import Table, table_of, talk_table
from baloot_conformance.check.verdicts import Divergence, DivergenceKind, EngineId
from baloot_conformance.check.words import PROJECT_WORDS
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
)
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    CardSet,
    Contract,
    IllegalAction,
    Seat,
    card_set,
    cards_of,
    seat_from_name,
)
from baloot_conformance.engine.projects import find_projects
from baloot_conformance.engine.scoring import HandResult, void_result
from baloot_conformance.errors import Location
from baloot_conformance.rules.ruleset import Ruleset

SEAT_OF = {name: seat for seat, name in enumerate(SEAT_NAMES)}
"""A seat's number by its letter in the notation (``N`` is 0)."""
PLAYS_OF = {name: PLAYS[seat] for name, seat in SEAT_OF.items()}
"""The engine's card actions by seat letter and card index (shared, immutable)."""
_BIDS: dict[tuple[str, str, str | None], Bid] = {}
"""The bids made so far, by seat, word and first argument (see :meth:`HandChecker.bid`)."""


class ReplayStop(Exception):
    """The hand cannot be followed any further (after an event the engine cannot apply)."""


class HandChecker:
    """Replays one transcript hand under a ruleset and collects its divergences.

    Events go to the engine in order (:meth:`event`); an illegal event is a divergence, and
    replay goes on along the transcript's own events where the engine can follow them (a card
    that breaks an obligation is still played), so that later, independent problems are still
    found. Claims (:func:`~baloot_conformance.check.claims.judge_claim`) read what the checker
    holds at the point where they stand.
    """

    def __init__(
        self,
        rules: Ruleset,
        path: str,
        ruleset_name: str,
        game: Game,
        expected_dealer: Seat | None,
        lines: Callable[[int], str | None] = lambda number: None,
        pictures: bool = False,
        engine_id: EngineId | None = None,
    ) -> None:
        self.rules = rules
        self.engine_id = engine_id
        """The engine the transcript names, for the verdict (not :attr:`engine`, the hand)."""
        self.pictures = pictures
        """Whether the root divergence carries a :class:`~baloot_conformance.check.table.Table`."""
        self.number = 0
        """The hand's number (set by :meth:`scan`)."""
        self.lines = lines
        """The transcript's lines by number, for quoting a divergence's line."""
        self.game = game
        self.trace = game.trace
        self.path = path
        self.ruleset_name = ruleset_name
        self.totals = game.totals
        """Game totals before the hand (a ``start`` line overrides them)."""
        self.expected_dealer = expected_dealer
        self.divergences: list[Divergence] = []
        self.events = 0
        self.claims = 0
        self.engine: Hand | None = None
        self.dealer: Seat | None = None
        self.first_five: dict[Seat, CardSet] = {}
        self.holds: dict[Seat, CardSet] = {}
        self.faceup: Card | None = None
        self.rest: dict[Seat, CardSet] = {}
        self.played: dict[Seat, CardSet] | None = None
        """Each seat's eight cards as played, when no ``rest`` or ``hold`` lines give them."""
        self.plays = 0
        """Cards played so far."""
        self.tricks: list[tuple[Seat, int]] = []
        """Each finished trick's winner and card points."""
        self.result: HandResult | None = None
        self.claimed_total: tuple[int, int] | None = None
        """The hand's ``= total`` claim: the next hand goes on from it."""
        self.partial = ""
        """Why the auction cannot be replayed (no calls, no face-up card, no dealer), or empty:
        then the ``= contract`` claim says what is played."""
        self.unchecked: list[str] = []
        self.talk: tuple[Hand, SawaClaim | FoulCall] | None = None
        """With pictures: the hand just before its Sawa or foul call, and the call (a root
        divergence there or after it is drawn at the call)."""

    def scan(self, hand: btn.Hand) -> None:
        """Before replay: note whether the auction can be replayed, and the completion of the
        deal: engines log it as ``rest`` lines, within ``hold`` lines, or not at all (then each
        seat's cards are the ones it plays)."""
        self.number = hand.number
        self.partial = unlogged_auction(hand)
        if self.partial:
            self.unchecked.append(f"the auction ({self.partial})")
        for item in hand.items:
            if type(item) is btn.Rest:
                self.rest[SEAT_OF[item.seat]] = card_set(item.cards)
                if len(self.rest) == 4:
                    return
            elif type(item) is btn.Play:
                break  # rest lines come before the play, when they come at all
        played: dict[Seat, CardSet] = {seat: 0 for seat in range(4)}
        for item in hand.items:
            if type(item) is btn.Play:
                played[SEAT_OF[item.seat]] |= 1 << item.card.index
        if all(cards.bit_count() == 8 for cards in played.values()):
            self.played = played

    # --- reporting ------------------------------------------------------------------------

    def diverge(
        self,
        item: btn.Item,
        kind: DivergenceKind,
        rule_id: str | None,
        message: str,
        expected: str | None = None,
        claimed: str | None = None,
    ) -> None:
        """Record a divergence at ``item`` (its column within a trick line when it is a card
        or the trick's claim); the first of the hand is its root, and carries the table when
        pictures are asked for."""
        if rule_id is not None and self.trace is not None:
            self.trace.hit(rule_id)  # the rule decided: it was broken here
        source = self.lines(item.line)
        column = item.column
        if source and source.startswith("trick "):  # point within the trick line
            if isinstance(item, btn.Play):
                found = source.find(f"{item.seat} {item.card}")
                column = found + 1 if found >= 0 else column
            elif isinstance(item, btn.TrickClaim) and " = " in source:
                column = source.index(" = ") + 2
        self.divergences.append(
            Divergence(
                position=item.position,
                location=Location(self.path, item.line, column),
                rule_id=rule_id,
                kind=kind,
                message=message,
                expected=expected,
                claimed=claimed,
                root=not self.divergences,
                source=source,
                table=self._picture(item) if self.pictures and not self.divergences else None,
            )
        )

    def _picture(self, item: btn.Item) -> Table | None:
        """The table at a root divergence: before the card, for an illegal card; at the call,
        with its verdict and line, at a Sawa or a foul call and after it."""
        if self.engine is None:
            return None
        if self.talk is not None:
            before, talk = self.talk
            return talk_table(before, self.number, talk, self.engine.claim)
        return table_of(self.engine, self.number, item.card if isinstance(item, btn.Play) else None)

    # --- events ---------------------------------------------------------------------------

    def event(self, item: btn.Event) -> None:
        """Apply one event; raises :class:`ReplayStop` when the hand cannot be followed further."""
        self.events += 1
        _EVENT_HANDLERS.get(type(item), HandChecker._engine_event)(self, item)

    def _start(self, item: btn.Start) -> None:
        ns = self.totals[0] if item.ns is None else item.ns
        ew = self.totals[1] if item.ew is None else item.ew
        self.totals = self.game.totals = (ns, ew)

    def _dealer(self, item: btn.Dealer) -> None:
        self.dealer = seat_from_name(item.seat)
        if self.expected_dealer is not None and self.trace is not None:
            self.trace.hit("deal.dealer.rotation")
        if self.expected_dealer is not None and self.dealer != self.expected_dealer:
            self.diverge(
                item,
                "illegal_event",
                self.rules.deal.dealer_rotation.id,
                f"{item.seat} deals, but the deal passes to "
                f"{SEAT_NAMES[self.expected_dealer]} after the previous hand",
                expected=SEAT_NAMES[self.expected_dealer],
                claimed=item.seat,
            )

    def _deal(self, item: btn.Deal) -> None:
        self.first_five[SEAT_OF[item.seat]] = card_set(item.cards)

    def _hold(self, item: btn.Hold) -> None:
        self.holds[SEAT_OF[item.seat]] = card_set(item.cards)

    def _faceup(self, item: btn.FaceUp) -> None:
        self.faceup = item.card

    def _rest(self, item: btn.Rest) -> None:
        if self.engine is not None and self.engine.phase in ("auction", "completion"):
            self.complete(item)

    def _engine_event(self, item: btn.Event) -> None:
        """A call, declaration, announcement, card or foul: an action for the engine."""
        if self.partial and type(item) is btn.Call:
            self.events -= 1  # the auction is not replayed (see unchecked)
            return
        engine = self.engine_at(item)
        if type(item) is btn.Kawesh:  # claimed in the auction, or on eight cards after it
            if engine.phase == "completion":
                self.complete(item)
        elif not (type(item) is btn.Call and item.phase == "bid") and engine.phase in (
            "auction",
            "completion",
        ):
            self.complete(item)
        action = self._action(item, engine)
        if (
            self.pictures
            and self.talk is None
            and isinstance(action, (SawaClaim, FoulCall))
            and engine.phase in ("raises", "play")
        ):
            self.talk = (engine.copy(), action)
        if action is not None:
            self._push(item, engine, action)
        if engine.phase == "over":  # a void hand ends with a call
            self.finish(engine)

    def engine_at(self, item: btn.Item) -> Hand:
        """The engine hand, started from the deal at the first event that needs it (``item``;
        raises :class:`ReplayStop` when the deal does not allow it)."""
        if self.engine is not None:
            return self.engine
        if self.partial:
            raise ReplayStop(
                f"{item.position} comes before the '= contract' claim, which must say what is "
                f"played: the auction cannot be replayed ({self.partial})"
            )
        if self.dealer is None or self.faceup is None:
            raise ReplayStop(f"{item.position} comes before the hand's 'dealer' and 'faceup' lines")
        if self.holds:
            first_five = self._five_of_holds()
        elif len(self.first_five) == 4:
            first_five = tuple(self.first_five[s] for s in range(4))
        else:
            raise ReplayStop(
                "the deal is incomplete: four 'deal' lines (or 'hold' lines) are needed"
            )
        try:
            self.engine = Hand(
                self.rules,
                self.dealer,
                (first_five[0], first_five[1], first_five[2], first_five[3]),
                self.faceup,
                totals=self.totals,
                trace=self.trace,
            )
        except IllegalAction as exc:
            raise ReplayStop(f"inconsistent deal: {exc.reason}") from None
        return self.engine

    def _five_of_holds(self) -> tuple[CardSet, ...]:
        """First-round cards for a hand known only as eight cards: any five but the face-up
        card (the auction depends on the face-up card alone, Kawesh aside)."""
        assert self.faceup is not None
        if len(self.holds) != 4:
            raise ReplayStop("the deal is incomplete: four 'hold' lines are needed")
        five = []
        for seat in range(4):
            cards = self.holds[seat] & ~(1 << self.faceup.index)
            picked = 0
            for _ in range(5):
                low = cards & -cards
                picked |= low
                cards ^= low
            five.append(picked)
        return tuple(five)

    def _action(self, item: btn.Event, engine: Hand) -> Action | None:
        if isinstance(item, btn.Call):
            seat = seat_from_name(item.seat)
            word = self.rules.bidding.call_words.aliases.get(item.word, item.word)
            if item.phase == "raise" and word in ("closed", "open"):
                return Lock(seat, word == "closed")  # a lock chosen on its own
            if item.phase == "bid":
                if word == "kawesh":  # BTN 1.0's spelling of a Kawesh: 'bid E kawesh'
                    return KaweshCall(seat)
                return self.bid(item.seat, item.word, item.args)
            locks = [a for a in item.args if a in ("closed", "open")]
            self._push(item, engine, Raise(seat, word))
            if not locks or (locks[0] == "open" and not engine.can_lock(seat)):
                return None  # "open" where no lock can be chosen states what already holds
            return Lock(seat, locks[0] == "closed")
        if isinstance(item, btn.Declare):
            cards = self._declared(item, engine)
            return Declare(seat_from_name(item.seat), _project_name(item.project, cards), cards)
        if isinstance(item, btn.Baloot):
            if engine.phase == "over":  # logged after the hand, without its moment
                self._late_baloot(item, engine)
                return None
            return Announce(seat_from_name(item.seat))
        if isinstance(item, btn.Play):
            self.plays += 1
            return Play(seat_from_name(item.seat), item.card)
        if isinstance(item, (btn.Foul, btn.Sawa)):
            return talk_action(item)
        if isinstance(item, btn.Kawesh):
            return KaweshCall(seat_from_name(item.seat))
        raise ReplayStop(f"{item.position}: no rule covers this event")

    def bid(self, seat: str, word: str, args: tuple[str, ...]) -> Bid:
        """The engine's action for a ``bid`` line: the ruleset's aliases resolved, the suit
        read from the first argument (actions are immutable: each is made once)."""
        word = self.rules.bidding.call_words.aliases.get(word, word)
        key = (seat, word, args[0] if args else None)
        action = _BIDS.get(key)
        if action is None:
            if len(_BIDS) >= 1024:  # words are the file's: keep the table small
                _BIDS.clear()
            action = _BIDS[key] = Bid(SEAT_OF[seat], word, SUIT_CODES.get(key[2] or ""))
        return action

    def _late_baloot(self, item: btn.Baloot, engine: Hand) -> None:
        """A Baloot logged after the last trick: its holder is checked, not its moment."""
        try:
            engine.check_baloot_holder(seat_from_name(item.seat))
        except IllegalAction as exc:
            self.diverge(item, "illegal_event", exc.rule_id, exc.reason)
        what = "when Baloot was announced (logged after the last trick)"
        if what not in self.unchecked:
            self.unchecked.append(what)

    def _declared(self, item: btn.Declare, engine: Hand) -> CardSet:
        if item.cards:
            return card_set(item.cards)
        # Without cards, the declaration names the seat's project of that name, if unique.
        seat = seat_from_name(item.seat)
        if engine.contract is None or not engine.initial:
            return 0
        found = [
            p.cards
            for p in find_projects(self.rules, engine.contract.kind, seat, engine.initial[seat])
            if PROJECT_WORDS[p.name] == item.project
        ]
        return found[0] if len(found) == 1 else 0

    def complete(self, item: btn.Item) -> None:
        """Complete the deal once the auction is over, at ``item`` (the first event that
        needs it): from the ``hold`` or ``rest`` lines, or else from the play."""
        engine = self.engine_at(item)
        engine.settle_auction()
        if engine.phase != "completion" or engine.contract is None:
            if engine.phase == "auction":
                self.diverge(
                    item,
                    "illegal_event",
                    engine.auction.window_rule(),
                    f"{item.position} comes before the auction is over "
                    f"(it is {SEAT_NAMES[engine.auction.to_call()]}'s call)",
                )
                raise ReplayStop(f"cannot continue after {item.position}")
            return
        receiver = engine.contract.receiver
        assert self.faceup is not None
        if self.holds:
            rest = [self.holds[s] & ~engine.hands[s] for s in range(4)]
        elif len(self.rest) == 4:
            rest = [self.rest[s] for s in range(4)]
            rest[receiver] |= 1 << self.faceup.index
        elif self.played is not None:
            rest = [self.played[s] & ~engine.hands[s] for s in range(4)]
        else:
            raise ReplayStop(
                "the completion of the deal is not recorded ('rest' lines) and cannot be "
                "read from the play (the hand is not played out)"
            )
        self._push(item, engine, Complete((rest[0], rest[1], rest[2], rest[3])))

    def _push(self, item: btn.Item, engine: Hand, action: Action) -> None:
        try:
            engine.push(action)
        except IllegalAction as exc:
            self.illegal(item, engine, action, exc)
        if isinstance(action, Play) and not engine.trick and engine.tricks_done:
            self.trick_done(engine)

    def illegal(self, item: btn.Item, engine: Hand, action: Action, exc: IllegalAction) -> None:
        """Report an illegal event, then follow the transcript if the engine can."""
        self.diverge(item, "illegal_event", exc.rule_id, exc.reason)
        if isinstance(action, (SawaClaim, FoulCall, KaweshCall)):
            forced = engine.force_claim(action)
        else:
            forced = isinstance(action, Play) and engine.force_play(action)
        if not forced:
            raise ReplayStop(f"cannot continue after {item.position}") from None

    def trick_done(self, engine: Hand) -> None:
        """Note the trick the last card ended (its winner and points), and the hand's result
        once it is over."""
        self.tricks.append((engine.leader, engine.last_trick_points))
        if engine.phase == "over":
            self.finish(engine)

    def finish(self, engine: Hand) -> None:
        """Record the hand in the game once it is over (played out or void)."""
        if engine.is_over() and self.result is None:
            self.result = engine.result()
            if not self.game.is_over():
                self.game.record(self.result)
        elif engine.is_over() and self.result != engine.result():  # a foul called at the end
            recorded = self.game.results and self.game.results[-1] is self.result
            self.result = engine.result()
            if recorded:
                self.game.amend_last(self.result)

    # --- a partial transcript -------------------------------------------------------------

    def start_from_contract(self, item: btn.ContractClaim) -> None:
        """A partial transcript: the hand is played under the contract its claim states."""
        self.claims -= 1  # taken as given, not checked
        dealer = self.dealer
        if dealer is None:
            raise ReplayStop(
                "the hand has no 'dealer' line: who leads the first trick is not known"
            )
        if item.buyer is None or item.kind is None:  # a void hand, its reason not known
            self.result = void_result(self.rules, dealer, "all_pass")
            if not self.game.is_over():
                self.game.record(self.result)
            return
        hands = self._eight_cards()
        buyer = seat_from_name(item.buyer)
        receiver = buyer
        if self.faceup is not None:
            receiver = next(s for s in range(4) if hands[s] >> self.faceup.index & 1)
        contract = Contract(
            kind="sun" if item.kind == "sun" else "hokum",
            trump=item.trump,
            buyer=buyer,
            receiver=receiver,
            ashkal=receiver != buyer,
        )
        try:
            self.engine = Hand.from_contract(
                self.rules, dealer, hands, contract, self.faceup, self.totals, self.trace
            )
        except IllegalAction as exc:
            raise ReplayStop(f"inconsistent deal: {exc.reason}") from None
        if item.multiplier is not None and item.multiplier > 1:
            self.engine.assume_raises(item.multiplier, item.lock == "closed")
            self.unchecked.append("the raises (the contract claim states the level)")

    def _eight_cards(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """Each seat's eight cards: its 'hold' line, or its 'deal' and 'rest' lines with the
        face-up card for the seat that has seven (the play tells which card that is when no
        'faceup' line does), or else the cards it plays."""
        if len(self.holds) == 4:
            return (self.holds[0], self.holds[1], self.holds[2], self.holds[3])
        if len(self.first_five) == 4 and len(self.rest) == 4:
            eight = [self.first_five[s] | self.rest[s] for s in range(4)]
            for seat in range(4):
                if eight[seat].bit_count() == 7 and self.faceup is not None:
                    eight[seat] |= 1 << self.faceup.index
                elif eight[seat].bit_count() == 7 and self.played is not None:
                    eight[seat] |= self.played[seat]
            return (eight[0], eight[1], eight[2], eight[3])
        if self.played is not None:
            return (self.played[0], self.played[1], self.played[2], self.played[3])
        raise ReplayStop(
            "the hand logs no auction and not every seat's eight cards ('hold', or 'deal' "
            "and 'rest' lines, or a full play)"
        )

    # --- what may come next ---------------------------------------------------------------

    def settle(self, item: btn.Item) -> Hand:
        """The engine hand as the next raise or card finds it: its auction settled and its
        deal completed, as that event itself would (``item`` names the place in errors)."""
        engine = self.engine_at(item)
        if engine.phase in ("auction", "completion"):
            self.complete(item)
        return engine

    def legal_now(self, item: btn.Item, seat: Seat) -> tuple[frozenset[str], CardSet]:
        """Everything ``seat`` may call and play at this point (``item`` names it in errors):
        the calls of the auction's open window while it runs (a window that lapses by
        itself is open until something else comes); once it is over the raises, the lock
        choice and the cards, the deal completed as the next event would complete it."""
        engine = self.engine_at(item)
        if engine.phase == "auction":
            return engine.legal_call_words(seat), 0
        engine = self.settle(item)
        playing = engine.phase in ("raises", "play") and engine.to_play() == seat
        return engine.legal_call_words(seat), engine.legal_cards() if playing else 0


_EVENT_HANDLERS: dict[type[btn.Event], Callable[[HandChecker, Any], None]] = {
    btn.Start: HandChecker._start,
    btn.Dealer: HandChecker._dealer,
    btn.Deal: HandChecker._deal,
    btn.Hold: HandChecker._hold,
    btn.FaceUp: HandChecker._faceup,
    btn.Rest: HandChecker._rest,
}
"""Events about the deal, by type; the others are actions for the engine (``_engine_event``)."""


def talk_action(item: btn.Foul | btn.Sawa) -> FoulCall | SawaClaim:
    """The engine's action for a ``foul`` or ``sawa`` line."""
    if isinstance(item, btn.Sawa):
        return SawaClaim(seat_from_name(item.seat))
    return FoulCall(seat_from_name(item.seat), item.play)


def unlogged_auction(hand: btn.Hand) -> str:
    """Why the hand's auction cannot be replayed (no calls, no face-up card, no dealer: a
    partial transcript), or empty when it can."""
    kinds = {type(item) for item in hand.items}
    if not any(
        (type(i) is btn.Call and i.phase == "bid") or type(i) is btn.Kawesh for i in hand.items
    ):
        return "no 'bid' lines"
    if btn.FaceUp not in kinds:
        return "no 'faceup' line"
    if btn.Dealer not in kinds:
        return "no 'dealer' line"
    return ""


def _project_name(word: str, cards: CardSet) -> str:
    """The ruleset's project name for a declared word: a hundred of one rank is four of a kind."""
    if word != "hundred":
        return word
    ranks = {card.rank for card in cards_of(cards)}
    return "hundred.four_of_a_kind" if len(ranks) == 1 else "hundred.sequence"
