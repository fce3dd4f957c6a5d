"""Conformance verdicts: what the kit concluded about each hand of a transcript.

A hand's verdict is ``pass`` (every event legal, every claim right), ``fail`` (one or more
divergences) or ``error`` (the hand cannot be replayed at all). A :class:`Divergence` says
where (position and ``file:line:col``), which rule, what kind, what was expected and what the
engine claimed, in a sentence a player understands. Reports (``baloot_conformance.report``)
render these objects; they compute nothing themselves.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from baloot_conformance import btn
from baloot_conformance.cards import SUIT_CODES, Card
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
    call_action,
)
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand, HandResult, void_result
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    TEAM_NAMES,
    CardSet,
    Contract,
    IllegalAction,
    Seat,
    card_set,
    cards_of,
    format_cards,
    seat_from_name,
)
from baloot_conformance.engine.projects import find_projects
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import FormulaError, Location, by_fields
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.table import Table, table_of

Status = Literal["pass", "fail", "error"]
DivergenceKind = Literal["illegal_event", "wrong_claim", "missing_claim", "missing_event"]


@dataclass(frozen=True, slots=True)
class Divergence:
    """One place where a transcript departs from the ruleset."""

    position: str
    """The stable position of the event or claim, e.g. ``h3.t5.p2``."""
    location: Location | None
    """Where it is in the transcript file."""
    rule_id: str | None
    """The rule that decides it, e.g. ``play.hokum.overruff``."""
    kind: DivergenceKind
    message: str
    """A sentence a player understands, naming the cards and what the rule required."""
    expected: str | None = None
    """What the ruleset gives (for claims), as the notation would write it."""
    claimed: str | None = None
    """What the transcript says."""
    root: bool = False
    """The first divergence of its hand; later ones may follow from it."""
    source: str | None = None
    """The transcript line, for reports that quote it."""
    table: Table | None = None
    """The table at this point, for a root divergence when pictures are asked for."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class HandVerdict:
    """The verdict on one hand of one transcript."""

    path: str
    """The transcript file (``-`` for standard input)."""
    ruleset: str
    """The ruleset the hand was checked under, as ``id@version``."""
    position: str
    """``h3``: the hand's position."""
    status: Status
    divergences: tuple[Divergence, ...] = ()
    error: str | None = None
    """Why the hand could not be replayed (status ``error``)."""
    location: Location | None = None
    """Where the hand starts in the file."""
    events: int = 0
    """How many events were checked."""
    claims: int = 0
    """How many claims were checked."""
    unchecked: tuple[str, ...] = ()
    """What the hand does not log and so could not be checked (a partial transcript), one
    phrase each, e.g. ``the auction (no 'bid' lines)``."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class RunHeader:
    """What a report names once, at its top."""

    kit_version: str
    ruleset_id: str | None
    """The ruleset given on the command line; ``None`` when each file names its own."""
    ruleset_version: str | None
    ruleset_digest: str | None


@dataclass(frozen=True, slots=True)
class RunSummary:
    """The totals of a run, at a report's end."""

    files: int
    hands: int
    passed: int
    failed: int
    errors: int
    divergences: int
    unreadable: int = 0
    """Files that could not be read, or whose check stopped before their end."""

    @property
    def ok(self) -> bool:
        return self.failed == 0 and self.errors == 0 and self.unreadable == 0


@dataclass(frozen=True, slots=True)
class FileError:
    """A file that could not be read or checked to its end: a report shows it as an error."""

    path: str
    message: str
    """The error as the kit prints it (``file:line:col: ...`` with its hint)."""

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)


# --- replaying a hand ----------------------------------------------------------------------

SEAT_OF = {name: seat for seat, name in enumerate(SEAT_NAMES)}
"""A seat's number by its letter in the notation (``N`` is 0)."""
PLAYS_OF = {name: PLAYS[seat] for name, seat in SEAT_OF.items()}
"""The engine's card actions by seat letter and card index (shared, immutable)."""
_BIDS: dict[tuple[str, str, str | None], Bid] = {}
"""The bids made so far, by seat, word and first argument (see :meth:`HandChecker.bid`)."""

#: How the notation names each project of the rulesets (both hundreds are "hundred").
PROJECT_WORDS = {
    "sira": "sira",
    "fifty": "fifty",
    "hundred.sequence": "hundred",
    "hundred.four_of_a_kind": "hundred",
    "four_hundred": "four_hundred",
}
_RESULT_WORDS = {"made": "made", "failed": "failed", "split": "tie"}
#: The field of HandScore behind each per-team claim of the hand's figures.
_SCORE_FIGURES = {
    "abnat": "abnat",
    "aklat": "aklat",
    "projects": "projects",
    "cardscore": "card_scores",
    "projectscore": "project_scores",
}


class ReplayStop(Exception):
    """The hand cannot be followed any further (after an event the engine cannot apply)."""


class HandChecker:
    """Replays one transcript hand under a ruleset and collects its divergences.

    Events go to the engine in order; an illegal event is a divergence, and replay goes on
    along the transcript's own events where the engine can follow them (a card that breaks an
    obligation is still played), so that later, independent problems are still found. Each
    claim is compared with the engine's own figure at the point where it stands.
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
    ) -> None:
        self.rules = rules
        self.pictures = pictures
        """Whether the root divergence carries a :class:`~baloot_conformance.table.Table`."""
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
        """The table at a root divergence: before the card, for an illegal card."""
        if self.engine is None:
            return None
        return table_of(self.engine, self.number, item.card if isinstance(item, btn.Play) else None)

    # --- events ---------------------------------------------------------------------------

    def replay(self, items: Iterable[btn.HandItem]) -> None:
        """Apply the events and check the claims of a hand, in order; raises :class:`ReplayStop`
        when the hand cannot be followed further."""
        event = self.event
        claim = self.claim
        play_item = btn.Play
        plays_of = PLAYS_OF
        for item in items:
            engine = self.engine
            if type(item) is play_item and engine is not None and engine.phase == "play":
                # The common case, inline: a card in the play (the other phases: event()).
                self.events += 1
                self.plays += 1
                play = plays_of[item.seat][item.card.index]
                try:
                    engine.push_play(play)
                except IllegalAction as exc:
                    self._illegal(item, engine, play, exc)
                if not engine.trick:
                    self.trick_done(engine)
            elif isinstance(item, btn.Event):
                event(item)
            elif isinstance(item, btn.Claim):
                claim(item)

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
        if not (type(item) is btn.Call and item.phase == "bid") and engine.phase in (
            "auction",
            "completion",
        ):
            self.complete(item)
        action = self._action(item, engine)
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
        if isinstance(item, btn.Foul):
            return None  # foul calls are recorded, not judged, by this version of the kit
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
            self._illegal(item, engine, action, exc)
        if isinstance(action, Play) and not engine.trick and engine.tricks_done:
            self.trick_done(engine)

    def _illegal(self, item: btn.Item, engine: Hand, action: Action, exc: IllegalAction) -> None:
        """Report an illegal event, then follow the transcript if the engine can."""
        self.diverge(item, "illegal_event", exc.rule_id, exc.reason)
        if not (isinstance(action, Play) and engine.force_play(action)):
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

    # --- claims ---------------------------------------------------------------------------

    def claim(self, item: btn.Claim) -> None:
        """Compare one claim with the engine's own figure at this point."""
        self.claims += 1
        _CLAIM_HANDLERS[type(item)](self, item)

    def _claim_winner(self, item: btn.WinnerClaim) -> None:
        winner = self.game.winner
        expected = TEAM_NAMES[winner] if winner is not None else "none"
        if item.team != expected:
            self.diverge(
                item,
                "wrong_claim",
                self.rules.game.target.id,
                f"{expected} won the game"
                if winner is not None
                else f"the game is not over (totals {_pair_words(self.game.totals)})",
                expected=expected,
                claimed=item.team,
            )

    def _start_from_claim(self, item: btn.ContractClaim) -> None:
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

    def _claim_legal(self, item: btn.LegalClaim) -> None:
        engine = self.engine
        if engine is not None and engine.phase in ("auction", "completion"):
            engine.settle_auction()  # the first card's legal set: the deal is complete by then
            if engine.phase == "completion":
                self.complete(item)
        if engine is None or engine.phase not in ("raises", "play"):
            self.diverge(item, "wrong_claim", None, "a legal-set claim before the play")
            return
        seat = seat_from_name(item.seat)
        legal = engine.legal_cards()
        claimed = card_set(item.cards)
        if seat != engine.to_play():
            self.diverge(
                item,
                "wrong_claim",
                self.rules.play.first_lead.id,
                f"the legal set is claimed for {item.seat}, but "
                f"{SEAT_NAMES[engine.to_play()]} plays next",
            )
        elif claimed != legal:
            self.diverge(
                item,
                "wrong_claim",
                _legal_rule(self.rules, engine, legal, claimed),
                f"{item.seat} may play {format_cards(legal)}, not {format_cards(claimed)} "
                f"(holds {format_cards(engine.hands[seat])})",
                expected=format_cards(legal),
                claimed=format_cards(claimed),
            )

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

    def _claim_calls(self, item: btn.LegalCallsClaim) -> None:
        """An engine's legal calls before a call event (``suite``), compared as sets."""
        engine = self.engine_at(item)
        seat = seat_from_name(item.seat)
        aliases = self.rules.bidding.call_words.aliases
        claimed = frozenset(
            " ".join([aliases.get(word, word), *rest])
            for word, *rest in (call.split(" ") for call in item.calls)
        )
        legal, _ = self.legal_now(item, seat)
        engine = self.engine or engine
        if claimed == legal:
            return
        wrong = sorted(claimed ^ legal)[0]
        rule: str | None
        if wrong in legal:
            rule = (
                engine.auction.window_rule()
                if item.phase == "bid"
                else self.rules.doubling.chain.id
            )
            if wrong in ("closed", "open"):
                rule = self.rules.doubling.lock.id
        else:
            rule = _refusing_rule(engine, call_action(seat, item.phase, wrong))
        self.diverge(
            item,
            "wrong_claim",
            rule,
            f"{item.seat} may call {_call_list(legal)}, not {_call_list(claimed)}",
            expected=_call_list(legal),
            claimed=_call_list(claimed),
        )

    def _claim_contract(self, item: btn.ContractClaim) -> None:
        if self.partial and self.engine is None:
            self._start_from_claim(item)
            return
        engine = self.engine
        if engine is not None:
            engine.settle_auction()
        contract = engine.contract if engine is not None else None
        if item.buyer is None:
            void = engine is not None and bool(engine.void_reason)  # all pass, Kawesh, an Ace
            if not void:
                self.diverge(
                    item,
                    "wrong_claim",
                    self.rules.bidding.all_pass.id,
                    "the hand has a contract"
                    if contract
                    else "the auction is not over: no contract yet",
                    expected=contract_words(contract),
                    claimed="none",
                )
            return
        if contract is None:
            open_auction = engine is not None and engine.phase == "auction"
            rule = self.rules.bidding.all_pass.id if engine and engine.void_reason else None
            message = "the claimed contract does not exist at this point"
            if engine is not None and open_auction:
                rule = engine.auction.window_rule()
                message = (
                    f"the auction is not over: it is {SEAT_NAMES[engine.auction.to_call()]}'s "
                    "call, so there is no contract yet"
                )
            self.diverge(
                item,
                "wrong_claim",
                rule,
                message,
                expected="none",
                claimed=_claim_words(item),
            )
            return
        expected = contract_words(contract, item.multiplier is not None, item.lock is not None)
        claimed = _claim_words(item)
        if contract.kind == "sun" and claimed.endswith(" open"):
            claimed = claimed[: -len(" open")]  # a Sun is always open: saying so is no error
        if claimed != expected:
            self.diverge(
                item,
                "wrong_claim",
                _contract_rule(self.rules, contract, item),
                f"the contract is {expected}, not {_claim_words(item)}",
                expected=expected,
                claimed=_claim_words(item),
            )

    def _claim_trick(self, item: btn.TrickClaim) -> None:
        if item.trick > len(self.tricks):
            self.diverge(item, "wrong_claim", None, f"trick {item.trick} is not complete")
            return
        winner, points = self.tricks[item.trick - 1]
        if item.winner != SEAT_NAMES[winner]:
            self.diverge(
                item,
                "wrong_claim",
                self.rules.play.trick_winner.id,
                f"trick {item.trick} is won by {SEAT_NAMES[winner]}, not {item.winner}",
                expected=SEAT_NAMES[winner],
                claimed=item.winner,
            )
        elif item.points is not None and item.points != points:
            self.diverge(
                item,
                "wrong_claim",
                self.rules.cards.points_trump.id
                if self.engine and self.engine.contract and self.engine.contract.kind == "hokum"
                else self.rules.cards.points_plain.id,
                f"trick {item.trick} holds {points} card points, not {item.points}",
                expected=str(points),
                claimed=str(item.points),
            )

    def _claim_team(self, item: btn.TeamClaim) -> None:
        if item.name == "total":
            self.claimed_total = _claimed_total(item) or self.claimed_total
        self._claim_result(item)

    def _claim_result(self, item: btn.Claim) -> None:
        result = self.result
        if result is None:
            void = self.engine is not None and self.engine.is_over()
            if void and self.engine is not None:
                result = self.engine.result()
            else:
                self.diverge(item, "wrong_claim", None, "the hand is not over yet")
                return
        score = result.score
        expected: str | None
        claimed: str
        if isinstance(item, btn.TeamClaim):
            expected_pair = self._team_figure(item.name, result)
            ns, ew = item.ns, item.ew
            if (ns is not None and ns != expected_pair[0]) or (
                ew is not None and ew != expected_pair[1]
            ):
                expected = _pair_words(expected_pair)
                claimed = _pair_words((ns, ew))
                self.diverge(
                    item,
                    "wrong_claim",
                    self._team_rule(item.name, result),
                    f"{item.name} is {expected}, not {claimed}",
                    expected=expected,
                    claimed=claimed,
                )
            return
        if isinstance(item, btn.ResultClaim):
            expected = result_word(result)
            if item.outcome != expected:
                decider = score.decided_by[0] if score and score.decided_by else None
                self.diverge(
                    item,
                    "wrong_claim",
                    decider,
                    f"the result is {expected}, not {item.outcome}",
                    expected=expected,
                    claimed=item.outcome,
                )
        elif isinstance(item, btn.KabootClaim):
            team_ = score.kaboot_team if score else None
            expected = TEAM_NAMES[team_] if team_ is not None else "none"
            if item.team != expected:
                self.diverge(
                    item,
                    "wrong_claim",
                    self.rules.scoring.kaboot.id,
                    f"the Kaboot is {expected}'s, not {item.team}'s"
                    if team_ is not None
                    else f"no team took every trick ({item.team} claimed a Kaboot)",
                    expected=expected,
                    claimed=item.team,
                )

    def _team_figure(self, name: str, result: HandResult) -> tuple[int, int]:
        """The engine's figure for a per-team claim."""
        points = result.game_points
        if name == "total":
            return (self.totals[0] + points[0], self.totals[1] + points[1])
        if name == "score":
            return points
        if result.score is None:
            return (0, 0)
        figure: tuple[int, int] = getattr(result.score, _SCORE_FIGURES[name])
        return figure

    def _team_rule(self, name: str, result: HandResult) -> str:
        """The rule that decides a per-team claim's figure (named when the claim is wrong)."""
        score = result.score
        rules = self.rules
        if name == "total":
            return rules.game.target.id
        if name == "score":
            deciders = [
                r for r in (score.decided_by if score else ()) if r != "scoring.round_value"
            ]
            return deciders[-1] if deciders else rules.scoring.round_value.id
        if score is None:
            return rules.bidding.all_pass.id
        hokum = result.contract is not None and result.contract.kind == "hokum"
        conversion = rules.scoring.hokum_conversion if hokum else rules.scoring.sun_conversion
        return {
            "abnat": rules.cards.last_trick.id,
            "aklat": rules.cards.points_plain.id,
            "projects": rules.projects.comparison.id,
            "cardscore": conversion.id,
            "projectscore": rules.projects.comparison.id,
        }[name]

    # --- the end --------------------------------------------------------------------------

    def verdict(self, hand: btn.Hand, stopped: str | None) -> HandVerdict:
        return self.verdict_at(hand.position, hand.line, hand.column, stopped)

    def verdict_at(self, position: str, line: int, column: int, stopped: str | None) -> HandVerdict:
        """The verdict on the hand at ``position`` (``h3``), whose ``hand`` line is at
        ``line``:``column``; ``stopped`` says why replay stopped, if it did."""
        location = Location(self.path, line, column)
        if stopped and not self.divergences:
            return HandVerdict(
                self.path,
                self.ruleset_name,
                position,
                "error",
                error=stopped,
                location=location,
                events=self.events,
                claims=self.claims,
                unchecked=tuple(self.unchecked),
            )
        return HandVerdict(
            self.path,
            self.ruleset_name,
            position,
            "fail" if self.divergences else "pass",
            tuple(self.divergences),
            error=stopped,
            location=location,
            events=self.events,
            claims=self.claims,
            unchecked=tuple(self.unchecked),
        )


_EVENT_HANDLERS: dict[type[btn.Event], Callable[[HandChecker, Any], None]] = {
    btn.Start: HandChecker._start,
    btn.Dealer: HandChecker._dealer,
    btn.Deal: HandChecker._deal,
    btn.Hold: HandChecker._hold,
    btn.FaceUp: HandChecker._faceup,
    btn.Rest: HandChecker._rest,
}
"""Events about the deal, by type; the others are actions for the engine (``_engine_event``)."""

_CLAIM_HANDLERS: dict[type[btn.Claim], Callable[[HandChecker, Any], None]] = {
    btn.TrickClaim: HandChecker._claim_trick,
    btn.TeamClaim: HandChecker._claim_team,
    btn.ContractClaim: HandChecker._claim_contract,
    btn.LegalClaim: HandChecker._claim_legal,
    btn.LegalCallsClaim: HandChecker._claim_calls,
    btn.ResultClaim: HandChecker._claim_result,
    btn.KabootClaim: HandChecker._claim_result,
    btn.WinnerClaim: HandChecker._claim_winner,
}


#: What ``--require`` can demand, for a strict gate: the claims, and the auction (a hand
#: that logs no auction, or not enough of it to replay, fails instead of passing unchecked).
REQUIRABLE = (
    "contract", "trick", "legal", "abnat", "aklat", "projects", "cardscore", "projectscore",
    "score", "total", "result", "kaboot", "winner", "auction",
)  # fmt: skip


def check_hand(
    rules: Ruleset,
    hand: btn.Hand,
    path: str,
    ruleset_name: str,
    game: Game,
    expected_dealer: Seat | None = None,
    required: frozenset[str] = frozenset(),
    lines: Callable[[int], str | None] = lambda number: None,
    pictures: bool = False,
) -> tuple[HandVerdict, HandChecker]:
    """Replay one hand of ``game``; the checker is returned too (its result, for the next).
    ``lines`` gives the transcript's lines by number, to quote them in divergences.

    ``required`` names claims that must be present (see :data:`REQUIRABLE`); each one
    missing is a ``missing_claim`` divergence, and an auction that cannot be replayed a
    ``missing_event`` one.
    """
    checker = HandChecker(rules, path, ruleset_name, game, expected_dealer, lines, pictures)
    checker.scan(hand)
    stopped: str | None = None
    try:
        checker.replay(hand.items)
    except (ReplayStop, FormulaError) as exc:  # a formula that fails on this hand's figures too
        stopped = (
            str(exc) if isinstance(exc, ReplayStop) else f"the ruleset's formula failed: {exc}"
        )
        for item in hand.items:  # the claims after the stop: the game goes on from its total
            checker.claimed_total = _claimed_total(item) or checker.claimed_total
    if required and stopped is None:
        _check_required(checker, hand, required)
    # The game goes on from the transcript's own running totals, so that one wrong hand does
    # not make every later total wrong too.
    if checker.claimed_total is not None:
        game.go_on_from(checker.claimed_total)
    return checker.verdict(hand, stopped), checker


def unlogged_auction(hand: btn.Hand) -> str:
    """Why the hand's auction cannot be replayed (no calls, no face-up card, no dealer: a
    partial transcript), or empty when it can."""
    kinds = {type(item) for item in hand.items}
    if not any(type(i) is btn.Call and i.phase == "bid" for i in hand.items):
        return "no 'bid' lines"
    if btn.FaceUp not in kinds:
        return "no 'faceup' line"
    if btn.Dealer not in kinds:
        return "no 'dealer' line"
    return ""


def _refusing_rule(engine: Hand, action: Action) -> str | None:
    """The rule that refuses ``action`` now (on a copy of the hand)."""
    try:
        engine.copy().push(action)
    except IllegalAction as exc:
        return exc.rule_id
    return None


def _call_list(calls: frozenset[str]) -> str:
    return ", ".join(sorted(calls)) or "nothing"


def _claimed_total(item: btn.HandItem) -> tuple[int, int] | None:
    """The running totals a ``= total`` claim states, when it states both."""
    if not (type(item) is btn.TeamClaim and item.name == "total"):
        return None
    return None if item.ns is None or item.ew is None else (item.ns, item.ew)


def _check_required(checker: HandChecker, hand: btn.Hand, required: frozenset[str]) -> None:
    """A ``missing_claim`` divergence for each required claim the hand leaves out."""
    claims = [i for i in hand.items if isinstance(i, btn.Claim)]
    names = {c.name for c in claims if isinstance(c, btn.TeamClaim)}
    result = checker.result
    played = result is not None and result.score is not None
    score = result.score if result is not None else None
    needed: list[tuple[str, bool]] = [
        ("contract", not any(isinstance(c, btn.ContractClaim) for c in claims)),
        ("trick", len([c for c in claims if isinstance(c, btn.TrickClaim)]) < len(checker.tricks)),
        ("legal", len([c for c in claims if isinstance(c, btn.LegalClaim)]) < checker.plays),
        ("result", played and not any(isinstance(c, btn.ResultClaim) for c in claims)),
        (
            "kaboot",
            score is not None
            and score.kaboot_team is not None
            and not any(isinstance(c, btn.KabootClaim) for c in claims),
        ),
        (
            "winner",
            checker.game.winner is not None
            and result is not None
            and checker.game.results[-1] is result
            and not any(isinstance(c, btn.WinnerClaim) for c in claims),
        ),
    ]
    for name in ("abnat", "aklat", "projects", "cardscore", "projectscore"):
        needed.append((name, played and name not in names))
    for name in ("score", "total"):
        needed.append((name, result is not None and name not in names))
    missing: list[tuple[str, DivergenceKind]] = [
        (name, "missing_claim") for name, absent in needed if name in required and absent
    ]
    if "auction" in required and checker.partial:
        missing.insert(0, ("bid1", "missing_event"))
    for name, kind in missing:
        message = (
            f"the auction cannot be checked ({checker.partial}; required by --require auction)"
            if kind == "missing_event"
            else f"the hand has no '= {name}' claim (required by --require)"
        )
        checker.divergences.append(
            Divergence(
                position=f"{hand.position}.{name}",
                location=Location(checker.path, hand.line, hand.column),
                rule_id=None,
                kind=kind,
                message=message,
                root=not checker.divergences,
            )
        )


def _project_name(word: str, cards: CardSet) -> str:
    """The ruleset's project name for a declared word: a hundred of one rank is four of a kind."""
    if word != "hundred":
        return word
    ranks = {card.rank for card in cards_of(cards)}
    return "hundred.four_of_a_kind" if len(ranks) == 1 else "hundred.sequence"


def _pair_words(pair: tuple[int | None, int | None]) -> str:
    return " ".join(
        f"{name} {value}"
        for name, value in zip(("NS", "EW"), pair, strict=True)
        if value is not None
    )


def result_word(result: HandResult) -> str:
    """The notation's word for a hand's outcome, as the buyer sees it: made, failed or tie."""
    score = result.score
    if score is None or result.contract is None:
        return "none"
    if score.outcome in ("kaboot", "reverse_kaboot"):
        return (
            "made"
            if score.kaboot_team == result.contract.buyer_team and score.outcome == "kaboot"
            else "failed"
        )
    return _RESULT_WORDS[score.outcome]


def contract_words(contract: Contract | None, level: bool = True, lock: bool = True) -> str:
    """A contract as the notation writes it: ``N hokum S x2 closed``, ``W sun``, ``none``."""
    if contract is None:
        return "none"
    words = [SEAT_NAMES[contract.buyer], contract.kind]
    if contract.trump is not None:
        words.append(contract.trump.value)
    if level and contract.level > 1:
        words.append(f"x{contract.level}")
    if lock and contract.kind == "hokum" and contract.level > 1:
        words.append("closed" if contract.locked else "open")
    return " ".join(words)


def _claim_words(item: btn.ContractClaim) -> str:
    words = [item.buyer or "none", item.kind or ""]
    if item.trump is not None:
        words.append(item.trump.value)
    if item.multiplier is not None and item.multiplier > 1:
        words.append(f"x{item.multiplier}")
    if item.lock is not None:
        words.append(item.lock)
    return " ".join(w for w in words if w)


def _contract_rule(rules: Ruleset, contract: Contract, item: btn.ContractClaim) -> str:
    if item.buyer is not None and seat_from_name(item.buyer) != contract.buyer:
        return rules.bidding.ashkal.id if contract.ashkal else rules.bidding.order.id
    if item.kind != contract.kind:
        return rules.bidding.sun_over_hokum.id
    if item.multiplier is not None and item.multiplier != contract.level:
        return rules.doubling.chain.id
    if item.lock is not None:
        return rules.doubling.lock.id
    return rules.bidding.round2_hokum_suit.id


def _legal_rule(rules: Ruleset, engine: Hand, legal: CardSet, claimed: CardSet) -> str:
    """The rule that decides a wrongly claimed legal set: the one a claimed card breaks."""
    assert engine.play_rules is not None
    seat = engine.to_play()
    for card in cards_of(claimed & ~legal & engine.hands[seat]):
        try:
            engine.play_rules.check(engine.hands[seat], engine.trick, engine.leader, card)
        except IllegalAction as exc:
            return exc.rule_id
    return rules.play.follow_suit.id


@functools.lru_cache(maxsize=32)
def _shipped_ruleset(reference: str) -> Ruleset:
    """A ruleset named by a file's tag, loaded once per process (a run checks many files
    under the same few rulesets)."""
    return load_ruleset(reference)


def check_transcript(
    source: btn.Source,
    path: str,
    ruleset: Ruleset | None = None,
    required: frozenset[str] = frozenset(),
    pictures: bool = False,
    fast: bool = True,
) -> Iterator[HandVerdict]:
    """Replay every hand of a transcript, streaming one verdict per hand; ``pictures``: each
    root divergence carries the table at that point; ``fast``: see :func:`check_hands`.

    ``ruleset`` overrides the file's ``[Ruleset]`` tag. Hands follow each other as one game
    (see :func:`check_hands`).

    Raises:
        TranscriptSyntaxError: the file is not valid BTN (the hands before it are yielded).
        SpecError, UnreadableInputError: the file names a ruleset that cannot be loaded.
    """
    with btn.TranscriptReader(source, path) as reader:
        if ruleset is None:
            ruleset = ruleset_of(reader)
        yield from check_hands(reader, path, ruleset, required, pictures=pictures, fast=fast)


def ruleset_of(reader: btn.TranscriptReader) -> Ruleset:
    """The ruleset a transcript names in its ``[Ruleset]`` tag."""
    return _shipped_ruleset(ruleset_tag(reader))


def ruleset_tag(reader: btn.TranscriptReader) -> str:
    tags = {t.name: t.value for t in reader.header if isinstance(t, btn.Tag)}
    return tags.get("Ruleset", "")


def starts_game(hand: btn.Hand) -> bool:
    """Whether a hand begins a game of its own (it states its totals with a ``start`` line):
    such a hand owes nothing to the hands before it, so a file can be cut there."""
    first = next((i for i in hand.items if isinstance(i, btn.Event)), None)
    return isinstance(first, btn.Start)


def check_hands(
    hands: Iterable[btn.Hand],
    path: str,
    ruleset: Ruleset,
    required: frozenset[str] = frozenset(),
    trace: Trace | None = None,
    pictures: bool = False,
    fast: bool = True,
) -> Iterator[HandVerdict]:
    """Replay hands that follow each other as games: running totals, dealer rotation and the
    game's winner carry over; a new game starts after one ends and at every hand that
    :func:`starts_game`. Divergences quote their lines when ``hands`` is a
    :class:`~baloot_conformance.btn.TranscriptReader`. ``trace`` counts the rules that
    decided something (rule coverage).

    Hands read from a reader take the fast lane (:mod:`~baloot_conformance.fast_lane`) unless
    ``fast`` is false or claims are ``required`` or rules traced: the verdicts are the same.
    """
    if fast and isinstance(hands, btn.TranscriptReader) and not required and trace is None:
        from baloot_conformance.fast_lane import check_chunks

        yield from check_chunks(hands, path, ruleset, pictures)
        return
    for verdict, _ in replay_hands(hands, path, ruleset, required, trace, pictures):
        yield verdict


def replay_hands(
    hands: Iterable[btn.Hand],
    path: str,
    ruleset: Ruleset,
    required: frozenset[str] | Callable[[btn.Hand], frozenset[str]] = frozenset(),
    trace: Trace | None = None,
    pictures: bool = False,
) -> Iterator[tuple[HandVerdict, HandChecker]]:
    """:func:`check_hands` with each hand's checker, which holds the replayed hand as the
    transcript left it (for the adapter protocol's answers). ``required`` may depend on the
    hand."""
    name = f"{ruleset.id}@{ruleset.version}"
    game: Game | None = None
    expected_dealer: Seat | None = None
    lines = hands.source_line if isinstance(hands, btn.TranscriptReader) else (lambda n: None)
    for hand in hands:
        if game is None or game.is_over() or starts_game(hand):
            game = Game(ruleset, dealer=0, trace=trace)
            expected_dealer = None
        needed = required(hand) if callable(required) else required
        verdict, checker = check_hand(
            ruleset, hand, path, name, game, expected_dealer, needed, lines, pictures
        )
        yield verdict, checker
        expected_dealer = checker.result.next_dealer if checker.result else None
