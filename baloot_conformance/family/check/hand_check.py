"""Checking one BTN 2 hand against a trick ruleset: its events replayed on the family's
:class:`~baloot_conformance.family.engine.hand.TrickHand`, its claims compared with what the
hand computed.

The verdicts are the kit's own (:mod:`baloot_conformance.check.verdicts`): a hand passes when
every event is legal and every claim right; each divergence has its position, ``file:line:col``,
the rule that decides it and a sentence naming the seats and cards. Reports render them as they
render Baloot's.

How the statements become the hand's actions: the antes one per seat; the ``deal`` lines (with
the ``faceup`` card last in the dealer's hand) one deal; ``bid SEAT play N`` / ``bid SEAT pass``
a declaration; ``exchange SEAT D... : R...`` the discards, then the cards served from the stock
(a ``reshuffle`` line before it refills the stock when it runs out); each card of a ``trick``
line a play; ``penalty SEAT renege`` the payment the ruleset sets for a renege.

Penalised events (a renege): the card is reported illegal, with the obligation it breaks, and
the replay goes on with the card played, so that the penalty the transcript records is checked
against ``scoring.pot.renege`` and the settlement against the rest. Any other illegal event
stops the replay of its hand: the claims after it are listed as not checked.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from baloot_conformance.check.verdicts import Divergence, DivergenceKind, EngineId, HandVerdict
from baloot_conformance.family.btn import items as b2
from baloot_conformance.family.check.claims import HandClaims
from baloot_conformance.family.check.divergences import divergence_at
from baloot_conformance.family.check.partial import is_partial, replay_partial
from baloot_conformance.family.check.points_check import (
    choice,
    is_points_game,
    points_ledger,
    wager,
)
from baloot_conformance.family.check.table import RingTable, ring_table
from baloot_conformance.family.engine.actions import (
    Action,
    Ante,
    Deal,
    Declare,
    Discard,
    Draw,
    Knock,
    Penalty,
    Play,
    Reshuffle,
)
from baloot_conformance.family.engine.deck import Ring
from baloot_conformance.family.engine.hand import TrickHand, play_of
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.engine.pack import pack_of
from baloot_conformance.family.engine.points import declarer_of
from baloot_conformance.family.engine.trace import Trace, TracedHand
from baloot_conformance.family.rules.model import TrickRuleset

#: The offences a ``penalty`` line may name, and the rule that prices each.
PENALTIES = {"renege": "scoring.pot.renege"}


class _Stop(Exception):
    """The replay of a hand cannot go on (an illegal event that is not penalised)."""


class GiveUp(Exception):
    """The fast lane leaves a hand to the reference path (:mod:`~.fast_lane`): a card of a
    :class:`~baloot_conformance.family.btn.items.CardRun` that is not the ordinary case."""


@dataclass
class HandReplay(HandClaims):
    """One hand's replay: the hand, the divergences found so far, the trick winners."""

    rules: TrickRuleset
    ring: Ring
    hand: TrickHand
    path: str
    divergences: list[Divergence] = field(default_factory=list)
    winners: dict[int, int] = field(default_factory=dict)
    """The engine's winner of each trick played, by trick number (1-based)."""
    unchecked: list[str] = field(default_factory=list)
    last_event: b2.Event | None = None
    events: int = 0
    claims: int = 0
    stopped: bool = False
    penalties: list[b2.Penalty] = field(default_factory=list)
    """The transcript's penalty lines, paid when the hand reaches its settlement."""
    pictures: bool = False
    """Whether the root divergence carries the table where it happens (``check --diagram``,
    the HTML report): a :class:`~baloot_conformance.family.check.table.RingTable`."""
    number: int = 0
    """The hand's number, for its pictures."""
    taken_up: list[tuple[b2.Exchange, Draw]] = field(default_factory=list)
    """A pass's cards taken up, as the exchange lines state them: pushed once every seat has
    passed (:meth:`stand_pat`)."""

    def __post_init__(self) -> None:
        self.card_index: Mapping[str, int] = pack_of(self.rules).index
        """Each card's index in the ruleset's pack, by its code."""
        self.seat_index = {name: seat for seat, name in enumerate(self.ring.names)}
        """Each seat's number, by its name (the reader has checked every name)."""

    def seat(self, name: str) -> int:
        return self.seat_index[name]

    # --- divergences ------------------------------------------------------------------

    def diverge(
        self,
        item: b2.Item,
        rule_id: str | None,
        kind: DivergenceKind,
        message: str,
        expected: str | None = None,
        claimed: str | None = None,
    ) -> None:
        root = not self.divergences
        self.divergences.append(
            divergence_at(
                item,
                rule_id,
                kind,
                message,
                root=root,
                expected=expected,
                claimed=claimed,
                table=self.picture(item) if self.pictures and root else None,
            )
        )

    def picture(self, item: b2.Item) -> RingTable:
        """The table just before ``item``, the card it plays shown as the one played."""
        return ring_table(self.hand, self.number, item.card if isinstance(item, b2.Play) else None)

    def illegal(self, item: b2.Item, error: IllegalAction) -> None:
        self.diverge(item, error.rule_id, "illegal_event", error.reason)

    # --- events -----------------------------------------------------------------------

    def push(self, item: b2.Item, action: Action) -> None:
        try:
            self.hand.push(action)
        except IllegalAction as error:
            self.illegal(item, error)
            raise _Stop from None

    def deal(self, deals: Sequence[b2.Deal], faceup: b2.FaceUp | None) -> None:
        """The deal lines as one deal, the face-up card last in its seat's hand."""
        index = pack_of(self.rules).index
        hands: list[tuple[int, ...]] = [()] * self.ring.size
        for line in deals:
            cards = [index[c] for c in line.cards]
            if faceup is not None and faceup.seat == line.seat and faceup.card in line.cards:
                cards.remove(index[faceup.card])
                cards.append(index[faceup.card])
            hands[self.seat(line.seat)] = tuple(cards)
        # Every seat dealt in has its line: a hand without them all is a partial one
        # (:mod:`.partial`), judged as far as it shows.
        anchor: b2.Item = deals[-1] if deals else faceup  # type: ignore[assignment]
        if faceup is not None and self.rules.phases.deal.faceup == "dealer_last":
            dealer = self.ring.names[self.hand.ledger.dealer]
            if faceup.seat != dealer:
                self.diverge(
                    faceup,
                    "phases.deal",
                    "illegal_event",
                    f"the face-up card is the dealer's last card; {faceup.seat} is not the "
                    f"dealer ({dealer})",
                )
                raise _Stop
        self.push(anchor, Deal(tuple(hands)))

    def stand_pat(self, item: b2.Item | None) -> None:
        """Under a two-round draw (``intent_then_draw``, ``simultaneous``) a seat due to
        discard that has no ``exchange`` line stands pat: when the next event is not its
        exchange (nor a ``reshuffle``, which comes before the exchange it serves), or a claim
        or the hand's end comes first, it discards nothing."""
        hand = self.hand
        while self.taken_up and hand.phase == "draw" and hand.pass_turn()[0] == "take":
            line, draw = self.taken_up.pop(0)
            self.push(line, draw)
        while hand.agenda and hand.agenda[0][0] == "discard" and hand.agenda[0][2] < 0:
            seat = hand.agenda[0][1]
            if isinstance(item, b2.Reshuffle):
                return
            if isinstance(item, b2.Exchange) and item.seat == self.ring.names[seat]:
                return
            anchor = item if item is not None else self.last_event
            if anchor is None:
                return
            self.push(anchor, Discard(seat, ()))

    def exchange(self, item: b2.Exchange, reshuffled: bool) -> None:
        """A seat's discards, then the cards it is served (with a refill between when the
        transcript records a reshuffle and the stock cannot serve them all)."""
        index = pack_of(self.rules).index
        seat = self.seat(item.seat)
        self.push(item, Discard(seat, tuple(index[c] for c in item.discards)))
        received = [index[c] for c in item.received]
        if self.rules.phases.pass_cards is not None:  # taken up once every seat has passed
            self.taken_up.append((item, Draw(seat, tuple(received))))
            return
        if not received:
            return
        hand = self.hand
        first = [c for c in received if hand.stock >> c & 1]
        rest = [c for c in received if not hand.stock >> c & 1]
        if rest and reshuffled:
            if first:
                self.push(item, Draw(seat, tuple(first)))
            self.push(item, Reshuffle(seat))
            self.push(item, Draw(seat, tuple(rest)))
        else:
            self.push(item, Draw(seat, tuple(received)))

    def play(self, item: b2.Play) -> None:
        """A card; an obligation it breaks is a renege, reported and played on."""
        hand = self.hand
        action = play_of(self.seat_index[item.seat], self.card_index[item.card])
        try:
            hand.push(action)
        except IllegalAction as error:
            self.illegal(item, error)
            if not error.rule_id.startswith("play.") or self.rules.scoring.renege is None:
                raise _Stop from None  # no penalty plays a renege on: the replay stops
            try:
                hand.force_play(action)
            except IllegalAction:  # out of turn, or a card not held: no replay past it
                raise _Stop from None
        number = item.trick
        if not hand.trick and hand.trick_number >= number:  # the trick is complete
            self.winners[number] = hand.leader

    def settle_penalties(self) -> None:
        """Once the tricks are over, pay each renege's penalty the transcript records (the
        hand asks for them in order); a renege without its line is a missing event."""
        hand = self.hand
        while hand.phase == "settle" and hand.agenda and hand.agenda[0][0] == "penalty":
            _, seat, due = hand.agenda[0]
            name = self.ring.names[seat]
            line = next((p for p in self.penalties if p.seat == name), None)
            if line is None:
                anchor = self.last_event
                if anchor is not None:
                    self.diverge(
                        anchor,
                        "scoring.pot.renege",
                        "missing_event",
                        f"{name} reneged and owes {due} into the next pot; the transcript "
                        "records no penalty",
                    )
                raise _Stop
            self.penalties.remove(line)
            self.push(line, Penalty(seat, due))


def replay_hand(
    hand_items: b2.Hand,
    rules: TrickRuleset,
    ring: Ring,
    ledger: Ledger | None,
    path: str,
    engine: EngineId | None = None,
    pictures: bool = False,
    trace: Trace | None = None,
) -> tuple[HandVerdict, Ledger | None]:
    """The verdict of one hand, and the ledger the next hand starts from (``None`` when this
    hand could not be settled: the next must state its own ``start``); ``pictures``: the root
    divergence carries the table where it happens; ``trace`` counts the rules that decided
    something (:mod:`~baloot_conformance.family.engine.trace`). A hand that does not record
    every seat's deal is judged by :func:`~.partial.replay_partial` (no pictures, no trace)."""
    partial = is_partial(hand_items.items, ring) and not is_points_game(rules)
    if partial:  # some deals not recorded: judge what is shown
        opened, divergences = _opening(hand_items, rules, ring, ledger)
        return replay_partial(hand_items, rules, ring, opened, path, engine, divergences)
    replay = start_replay(hand_items, rules, ring, ledger, path, engine, pictures, trace)
    if isinstance(replay, HandVerdict):
        return replay, None
    items = hand_items.items
    hand = replay.hand
    _run(replay, items)
    if not replay.stopped and not hand.is_over():
        last = items[-1] if items else None
        anchor = last if isinstance(last, b2.Item) else None
        rule = "scoring.pot.renege" if hand.phase == "settle" else "phases.pipeline"
        if anchor is not None:
            replay.diverge(
                anchor,
                rule,
                "missing_event",
                f"the hand ends here, but {hand.expected()} is still to come",
            )
    verdict = HandVerdict(
        path=path,
        ruleset=f"{rules.id}@{rules.version}",
        position=hand_items.position,
        status="fail" if replay.divergences else "pass",
        divergences=tuple(replay.divergences),
        location=hand_items.location,
        events=replay.events,
        claims=replay.claims,
        unchecked=tuple(replay.unchecked),
        engine=engine,
    )
    settled = hand.settlement.next if hand.settlement is not None else None
    return verdict, settled


def _opening(
    hand_items: b2.Hand, rules: TrickRuleset, ring: Ring, ledger: Ledger | None
) -> tuple[Ledger, list[Divergence]]:
    """The ledger a hand starts from (its own ``start``, else the carried one, its dealer
    checked against the rotation) and the divergence of a wrong dealer, if any."""
    items = hand_items.items
    start = next((i for i in items if isinstance(i, b2.Start)), None)
    dealer_line = next((i for i in items if isinstance(i, b2.Dealer)), None)
    divergences: list[Divergence] = []
    n = ring.size
    if is_points_game(rules) and (start is not None or ledger is None):
        dealer = ring.names.index(dealer_line.seat) if dealer_line else 0
        ledger = points_ledger(rules, ring, start, dealer)
    elif start is not None or ledger is None:
        dealer = ring.names.index(dealer_line.seat) if dealer_line else 0
        exempt = frozenset(ring.names.index(s) for s in start.exempt) if start else frozenset()
        ledger = Ledger(
            players=n,
            dealer=dealer,
            chips=(0,) * n,
            pot=start.pot if start else 0,
            exempt=exempt,
        )
    elif dealer_line is not None and ring.names[ledger.dealer] != dealer_line.seat:
        divergences.append(
            Divergence(
                position=dealer_line.position,
                location=dealer_line.location,
                rule_id="table.dealer.rotation",
                kind="illegal_event",
                message=_wrong_dealer(rules, ring, ledger, dealer_line.seat),
                root=True,
            )
        )
        ledger = dataclasses.replace(ledger, dealer=ring.names.index(dealer_line.seat))
    return ledger, divergences


def _wrong_dealer(rules: TrickRuleset, ring: Ring, ledger: Ledger, seat: str) -> str:
    """Why ``seat`` does not deal: the rotation, or (a game with a declarer) whose hand it is."""
    right = ring.names[ledger.dealer]
    declarer = declarer_of(rules, ledger)
    if declarer is None or rules.game.declarers is None:
        return f"the deal passes to {right}, not {seat}"
    whose = "the declarer deals" if declarer == ledger.dealer else f"{right}, on his right, deals"
    return (
        f"{ring.names[declarer]} declares hand {ledger.hand} ({rules.game.declarers.id} "
        f"{rules.game.declarers.option}), so {whose}: not {seat}"
    )


def start_replay(
    hand_items: b2.Hand,
    rules: TrickRuleset,
    ring: Ring,
    ledger: Ledger | None,
    path: str,
    engine: EngineId | None = None,
    pictures: bool = False,
    trace: Trace | None = None,
) -> HandReplay | HandVerdict:
    """The replay of a hand before its first item, from the carried ``ledger`` (or the
    hand's own ``start``), or the verdict of a hand that cannot start."""
    ledger, divergences = _opening(hand_items, rules, ring, ledger)
    try:
        hand = (
            TrickHand(rules, ledger, names=ring.names)
            if trace is None
            else TracedHand(rules, ledger, names=ring.names, trace=trace)
        )
    except IllegalAction as error:
        verdict = HandVerdict(
            path=path,
            ruleset=f"{rules.id}@{rules.version}",
            position=hand_items.position,
            status="error",
            error=f"{error.rule_id}: {error.reason}",
            location=hand_items.location,
            engine=engine,
        )
        return verdict
    return HandReplay(
        rules, ring, hand, path, divergences, pictures=pictures, number=hand_items.number
    )


def _run(replay: HandReplay, items: Sequence[b2.HandItem]) -> None:
    """Replay the items in order; an unpenalised illegal event stops the events (the claims
    after it are counted, not checked)."""
    deals: list[b2.Deal] = []
    faceup: b2.FaceUp | None = None
    reshuffled = False
    stream: Iterator[b2.HandItem] = iter(items)
    hand = replay.hand
    play_type = b2.Play
    for item in stream:
        if type(item) is play_type and not (
            replay.stopped or deals or hand.agenda or replay.taken_up
        ):
            # the common case first: a card of the tricks (no deal to flush, no draw pending)
            replay.events += 1
            replay.last_event = item
            try:
                replay.play(item)
            except _Stop:
                replay.stopped = True
            continue
        if isinstance(item, b2.CardRun):  # the fast lane's cards of a trick line
            if deals:
                if _flush(replay, deals, faceup):
                    raise GiveUp
                deals, faceup = [], None
            if replay.stopped:
                raise GiveUp
            replay.last_event = item
            try:
                replay.stand_pat(item)  # a seat that draws nothing, as before any card
            except _Stop:
                raise GiveUp from None
            _cards(replay, item)
            continue
        if isinstance(item, b2.Comment):
            continue
        if isinstance(item, b2.Claim):
            if deals:
                replay.stopped = replay.stopped or _flush(replay, deals, faceup)
                deals, faceup = [], None
            if not replay.stopped:
                try:
                    replay.stand_pat(item)
                except _Stop:
                    replay.stopped = True
            closing = isinstance(item, b2.SidesClaim)
            if closing and not replay.stopped and replay.hand.phase == "settle":
                try:  # the closing claims come after the penalties: pay them first
                    replay.settle_penalties()
                except _Stop:
                    replay.stopped = True
            replay.claim(item)
            continue
        assert isinstance(item, b2.Event)
        replay.events += 1
        replay.last_event = item
        if replay.stopped:
            continue
        if isinstance(item, b2.Deal):
            deals.append(item)
            continue
        if isinstance(item, b2.FaceUp):
            faceup = item
            continue
        if deals:
            if _flush(replay, deals, faceup):
                replay.stopped = True
                continue
            deals, faceup = [], None
        try:
            replay.stand_pat(item)
            reshuffled = _event(replay, item, reshuffled)
        except _Stop:
            replay.stopped = True
    if deals and not replay.stopped:
        replay.stopped = _flush(replay, deals, faceup)
    if not replay.stopped:
        try:
            replay.stand_pat(None)
            replay.settle_penalties()
        except _Stop:
            replay.stopped = True


def _cards(replay: HandReplay, run: b2.CardRun) -> None:
    """The cards of a trick line, pushed as :meth:`HandReplay.play` pushes one; anything but
    a legal card of the tricks, each but the last leaving the trick open, gives the hand up."""
    hand, seats, cards = replay.hand, replay.seat_index, replay.card_index
    last = len(run.plays) - 1
    for k, (seat, card) in enumerate(run.plays):
        try:
            hand.push(play_of(seats[seat], cards[card]))
        except IllegalAction:
            raise GiveUp from None
        if k < last and not hand.trick:  # the trick ended before the line did
            raise GiveUp
    replay.events += last + 1
    if not hand.trick and hand.trick_number >= run.trick:  # the trick is complete
        replay.winners[run.trick] = hand.leader


def _flush(replay: HandReplay, deals: list[b2.Deal], faceup: b2.FaceUp | None) -> bool:
    """Push the gathered deal; whether the replay must stop."""
    try:
        replay.deal(deals, faceup)
    except _Stop:
        return True
    return False


def _event(replay: HandReplay, item: b2.Event, reshuffled: bool) -> bool:
    """Push one event; the pending-reshuffle flag after it."""
    if isinstance(item, (b2.Start, b2.Dealer)):
        return reshuffled
    if isinstance(item, b2.Ante):
        # one line holds every ante, written in seat order: pay them in the hand's order
        # (from the dealer's next seat), so that only a missing or wrong ante is an error
        pending = dict(item.chips)  # the reader refuses a seat listed twice
        names = replay.ring.names
        while pending:
            turn = replay.hand.to_act()
            name = names[turn] if turn is not None and names[turn] in pending else None
            if name is None:  # not the seat due: the first listed, which the hand refuses
                name = next(iter(pending))
            replay.push(item, Ante(replay.seat(name), pending.pop(name)))
        return reshuffled
    if isinstance(item, b2.Call):
        phases = replay.rules.phases
        if "draw" in phases.pipeline.kinds and phases.pass_cards is None:
            replay.push(item, _declaration(replay, item))  # Bourré's 'play N' or 'pass'
        elif replay.hand.phase == "choose":  # a declarer's contract (Barbu)
            action = choice(replay.rules, replay.seat(item.seat), item)
            if isinstance(action, str):
                replay.diverge(item, "phases.choose", "illegal_event", action)
                raise _Stop
            replay.push(item, action)
        else:  # a bid where the ruleset has none, or not yet
            words = " ".join((item.word, *item.args))
            message = f"{replay.hand.expected()}, not {item.seat}'s bid '{words}'"
            replay.diverge(item, "phases.pipeline", "illegal_event", message)
            raise _Stop
        return reshuffled
    if isinstance(item, b2.Wager):
        replay.push(item, wager(replay.ring, item))
        return reshuffled
    if isinstance(item, b2.LayoutPlay):
        replay.push(item, Play(replay.seat(item.seat), replay.card_index[item.card]))
        return reshuffled
    if isinstance(item, b2.Knock):
        replay.push(item, Knock(replay.seat(item.seat)))
        return reshuffled
    if isinstance(item, b2.Reshuffle):
        return True
    if isinstance(item, b2.Exchange):
        replay.exchange(item, reshuffled)
        return False
    if isinstance(item, b2.Play):
        replay.play(item)
        return reshuffled
    if isinstance(item, b2.Penalty):
        _penalty(replay, item)
        return reshuffled
    replay.diverge(item, None, "illegal_event", f"{type(item).__name__} is not a known event")
    raise _Stop


def _declaration(replay: HandReplay, item: b2.Call) -> Action:
    seat = replay.seat(item.seat)
    if item.word == "pass" and not item.args:
        return Declare(seat, False)
    if item.word == "play" and len(item.args) <= 1 and all(a.isdigit() for a in item.args):
        return Declare(seat, True, int(item.args[0]) if item.args else 0)
    replay.diverge(
        item,
        "phases.draw.declare",
        "illegal_event",
        f"{item.seat} says {' '.join((item.word, *item.args))}; a Bourré declaration is "
        "'play N' (stay in, discarding N cards) or 'pass'",
    )
    raise _Stop


def _penalty(replay: HandReplay, item: b2.Penalty) -> None:
    """A penalty line: its offence must be one the kit prices and the seat must have made it;
    the payment itself is pushed when the hand reaches its settlement (:meth:`HandReplay.
    settle_penalties`), and the amount is checked by the ``= pays`` claim."""
    rule = PENALTIES.get(item.offence)
    if rule is None:
        replay.diverge(
            item,
            None,
            "illegal_event",
            f"penalty {item.offence}: the penalties this kit prices are " + ", ".join(PENALTIES),
        )
        raise _Stop
    seat = replay.seat(item.seat)
    owed = sum(1 for s, _ in replay.hand.reneges if s == seat)
    taken = sum(1 for p in replay.penalties if p.seat == item.seat)
    if taken >= owed:
        replay.diverge(
            item,
            rule,
            "illegal_event",
            f"{item.seat} is penalised for a renege it did not make",
        )
        raise _Stop
    replay.penalties.append(item)
