"""Checking a partial Bourré hand: one whose transcript does not record every seat's deal (a
table seen from some seats, docs/btn2.md's tour). The hand cannot be replayed on the family's
:class:`~baloot_conformance.family.engine.hand.TrickHand` (it needs every card), so this module
judges what the transcript shows, with the same obligation engine and the same settlement:

- the antes against ``phases.ante`` (who pays, how much);
- the declarations' order (``phases.draw.declare``), the discard limit
  (``phases.draw.discards``) and the face-up Ace (``phases.draw.faceup_ace``);
- a seat's hand is *known* while its deal and every exchange since are recorded; an exchange
  of a known seat must discard cards it holds; a seat whose draw is not recorded (``bid P4
  play 5`` with no ``exchange P4``) is unknown from then on;
- the turn of every card (``phases.tricks``); a known seat's card against the obligations
  (follow suit, head the trick, trump...) with the other hands unknown: the stages that need
  every active hand (the cinch by sure tricks) are listed as unchecked, the rest are judged;
  a card the obligations refuse is a renege, reported and played on, as in a full replay;
- each trick's winner (``play.trick_winner``) once the trump is known (the ``faceup`` line);
- the closing claims, from the winners and the antes, through the ledger's settlement, when the
  hand is recorded to its last trick; a ``= legal`` claim when its seat's hand is known.

What cannot be judged is listed in the verdict's ``unchecked``: the unknown seats' cards, the
cinch, a claim that needs what is not recorded, the rest of a hand that is cut short.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from baloot_conformance.check.verdicts import Divergence, DivergenceKind, EngineId, HandVerdict
from baloot_conformance.family.btn import items as b2
from baloot_conformance.family.check.divergences import divergence_at
from baloot_conformance.family.engine.actions import PlayRules
from baloot_conformance.family.engine.deck import Ring
from baloot_conformance.family.engine.hand import compile_play
from baloot_conformance.family.engine.ledger import (
    Ledger,
    Settlement,
    ante_due,
    penalty_due,
    settle,
)
from baloot_conformance.family.engine.obligations import Context, IllegalAction
from baloot_conformance.family.engine.pack import pack_of
from baloot_conformance.family.rules.model import TrickRuleset

__all__ = ["is_partial", "replay_partial"]


def is_partial(items: Sequence[b2.HandItem], ring: Ring) -> bool:
    """Whether a hand does not record every seat's deal (every seat is dealt in:
    :meth:`~.ledger.Ledger.dealt_in`; none at all included: a hand cut short after its
    antes)."""
    dealt = {i.seat for i in items if isinstance(i, b2.Deal)}
    return any(name not in dealt for name in ring.names)


class _Stop(Exception):
    """The hand cannot be judged further (an event out of turn, a card not held)."""


@dataclass
class _Partial:
    rules: TrickRuleset
    ring: Ring
    ledger: Ledger
    divergences: list[Divergence] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    events: int = 0
    claims: int = 0
    stopped: bool = False
    faceup_ace: bool = False
    dealt: bool = False
    last: b2.Item | None = None

    def __post_init__(self) -> None:
        self.pack = pack_of(self.rules)
        n = self.ring.size
        self.names = self.ring.names
        self.due = dict(ante_due(self.rules, self.ledger))
        self.paid: dict[int, int] = {}
        self.known: list[int | None] = [None] * n
        self.trump: int | None = None
        self.declared: dict[int, tuple[bool, int]] = {}
        self.exchanged: set[int] = set()
        self.active: tuple[int, ...] = ()
        self.turns: tuple[int, ...] = ()
        self.trick: tuple[int, ...] = ()
        self.trick_number = 0
        self.gone = 0
        self.tricks: dict[int, int] = {}
        self.winners: dict[int, int] = {}
        self.reneges: list[int] = []
        self.penalties: dict[int, int] = {}
        self.play_rules: PlayRules | None = None
        self.stayed: set[int] = set()
        self.settlement: Settlement | None = None
        self.phase = "draw"

    # --- reporting --------------------------------------------------------------------

    def diverge(
        self,
        item: b2.Item,
        rule_id: str | None,
        kind: DivergenceKind,
        message: str,
        expected: str | None = None,
        claimed: str | None = None,
    ) -> None:
        self.divergences.append(
            divergence_at(
                item,
                rule_id,
                kind,
                message,
                root=not self.divergences,
                expected=expected,
                claimed=claimed,
            )
        )

    def note(self, what: str) -> None:
        if what not in self.unchecked:
            self.unchecked.append(what)

    def seat(self, name: str) -> int:
        return self.names.index(name)

    # --- events -----------------------------------------------------------------------

    def ante(self, item: b2.Ante) -> None:
        """An ante line: before the declarations each seat's ante (``ante_due``), after its
        own declaration a player's stay."""
        for name, chips in item.chips:
            seat = self.seat(name)
            rule = self.rules.phases.ante
            stay = rule.stay if rule is not None else 0
            if seat in self.declared:
                want = stay if stay and self.declared[seat][0] and seat not in self.stayed else None
                self.stayed.add(seat)
            else:
                want = self.due.get(seat) if seat not in self.paid else None
            if want is None:
                self.diverge(item, "phases.ante", "illegal_event", f"{name} owes no ante here")
                raise _Stop
            if chips != want:
                self.diverge(
                    item, "phases.ante", "illegal_event", f"{name} paid {chips}; it owes {want}"
                )
                raise _Stop
            self.paid[seat] = self.paid.get(seat, 0) + chips

    def deals(self, lines: list[b2.Deal], faceup: b2.FaceUp | None) -> None:
        """The recorded deals (the seats whose hands are known) and the trump."""
        self.dealt = True
        index = self.pack.index
        for line in lines:
            self.known[self.seat(line.seat)] = sum(1 << index[c] for c in line.cards)
        if faceup is not None:
            self.trump = self.pack.suit_of[index[faceup.card]]
        dealt = {line.seat for line in lines}
        dealt_in = self.ledger.dealt_in()
        missing = [n for s, n in enumerate(self.names) if s in dealt_in and n not in dealt]
        self.note(f"the cards of {' '.join(missing)} (their deals are not recorded)")

    def _next_to_declare(self) -> int | None:
        return next((s for s in self.ledger.dealt_in() if s not in self.declared), None)

    def declare(self, item: b2.Call) -> None:
        seat = self.seat(item.seat)
        rule = self.rules.phases.declare
        option = "in_turn" if rule is None else rule.option
        self._pending_draws(item)
        if item.word == "pass" and not item.args:
            play, count = False, 0
        elif item.word == "play" and len(item.args) <= 1 and all(a.isdigit() for a in item.args):
            play, count = True, int(item.args[0]) if item.args else 0
        else:
            self.diverge(
                item,
                "phases.draw.declare",
                "illegal_event",
                f"{item.seat} says {' '.join((item.word, *item.args))}; a Bourré declaration "
                "is 'play N' or 'pass'",
            )
            raise _Stop
        turn = self._next_to_declare()
        if seat in self.declared or (option != "simultaneous" and seat != turn):
            why = (
                "has declared already"
                if seat in self.declared
                else (
                    f"declared before {self.names[turn] if turn is not None else 'nobody'}: the "
                    "players declare in turn from the dealer's next seat"
                )
            )
            self.diverge(item, "phases.draw.declare", "illegal_event", f"{item.seat} {why}")
            raise _Stop
        limit = (
            self.rules.phases.discards.limit(self.ring.size) if self.rules.phases.discards else 0
        )
        if count > limit:
            self.diverge(
                item,
                "phases.draw.discards",
                "illegal_event",
                f"{item.seat} discards {count}; at most {limit} with {self.ring.size} players",
            )
            raise _Stop
        ace = self.rules.phases.faceup_ace
        faceup_ace = self.trump is not None and ace is not None and ace.option == "dealer_plays"
        if not play and faceup_ace and seat == self.ledger.dealer and self.faceup_ace:
            self.diverge(
                item,
                "phases.draw.faceup_ace",
                "illegal_event",
                f"{item.seat} passed, but the dealer must play on a face-up Ace",
            )
            raise _Stop
        self.declared[seat] = (play, count)
        if not play:
            self.known[seat] = 0

    def _pending_draws(self, item: b2.Item) -> None:
        """Under ``in_turn`` a seat's exchange follows its declaration: a seat that said it
        discards and whose exchange did not come next drew unrecorded cards."""
        for seat, (play, count) in self.declared.items():
            if play and count and seat not in self.exchanged and self.known[seat] is not None:
                if isinstance(item, b2.Exchange) and self.seat(item.seat) == seat:
                    continue
                if isinstance(item, b2.Reshuffle):
                    continue
                self.known[seat] = None
                self.exchanged.add(seat)
                self.note(f"the draw of {self.names[seat]} (no exchange line)")

    def exchange(self, item: b2.Exchange) -> None:
        seat = self.seat(item.seat)
        index = self.pack.index
        self.exchanged.add(seat)
        held = self.known[seat]
        if held is None:
            return
        gone = sum(1 << index[c] for c in item.discards)
        if gone & ~held:
            self.diverge(
                item,
                "phases.draw.discards",
                "illegal_event",
                f"{item.seat} discarded {self.pack.format(gone & ~held)}, which it does not "
                f"hold (holds {self.pack.format(held)})",
            )
            raise _Stop
        self.known[seat] = (held & ~gone) | sum(1 << index[c] for c in item.received)

    def start_tricks(self, item: b2.Item) -> None:
        self._pending_draws(item)
        declare = self.rules.phases.declare
        two_rounds = declare is not None and declare.option != "in_turn"
        for seat, (play, _) in self.declared.items():
            drew = seat in self.exchanged or self.known[seat] is None
            if play and two_rounds and not drew:  # it stood pat, or drew unrecorded
                self.known[seat] = None
                self.note(f"the draw of {self.names[seat]} (no exchange line)")
        self.active = tuple(s for s in self.ledger.dealt_in() if self.declared.get(s, (0,))[0])
        self.phase = "tricks"
        if self.trump is None:
            self.note("the plays (the trump is not recorded: no faceup line)")
            raise _Stop
        self.play_rules = compile_play(self.rules, next(iter(self.rules.contracts)), self.trump)
        self.tricks = {s: 0 for s in self.active}
        after = (self.ledger.dealer + 1) % self.ring.size
        leader = next(
            (after + k) % self.ring.size
            for k in range(self.ring.size)
            if (after + k) % self.ring.size in self.active
        )
        self.rotate(leader)

    def rotate(self, leader: int) -> None:
        k = self.active.index(leader)
        self.turns = self.active[k:] + self.active[:k]

    def context(self) -> Context:
        seats = self.turns[: len(self.trick) + 1]
        active = sum(1 << s for s in self.active)
        return Context(
            seats, self.ring, active, tuple(self.known), self.gone, self.tricks[seats[-1]]
        )

    def play(self, item: b2.Play) -> None:
        if self.phase != "tricks":
            self.start_tricks(item)
        rules = self.play_rules
        assert rules is not None
        seat = self.seat(item.seat)
        to_play = self.turns[len(self.trick)]
        card = self.pack.index[item.card]
        if seat != to_play:
            self.diverge(
                item,
                "phases.tricks",
                "illegal_event",
                f"{item.seat} played {item.card}, but {self.names[to_play]} is to play",
            )
            raise _Stop
        held = self.known[seat]
        if held is not None:
            if not held >> card & 1:
                self.diverge(
                    item,
                    "phases.tricks",
                    "illegal_event",
                    f"{item.seat} played {item.card}, which it does not hold (holds "
                    f"{self.pack.format(held)})",
                )
                raise _Stop
            try:
                if not rules.check(held, self.trick, self.context(), card):
                    self.note("the cinch (it needs every active hand)")
            except IllegalAction as error:
                self.diverge(item, error.rule_id, "illegal_event", error.reason)
                self.reneges.append(seat)
            self.known[seat] = held & ~(1 << card)
        self.trick += (card,)
        if len(self.trick) == len(self.active):
            winner = self.turns[rules.winner(self.trick)]
            self.tricks[winner] += 1
            self.trick_number += 1
            self.winners[self.trick_number] = winner
            for c in self.trick:
                self.gone |= 1 << c
            self.trick = ()
            self.rotate(winner)

    def penalty(self, item: b2.Penalty) -> None:
        seat = self.seat(item.seat)
        if item.offence != "renege":
            self.diverge(item, None, "illegal_event", f"penalty {item.offence}: not priced")
            raise _Stop
        if self.known[seat] is not None and seat not in self.reneges:
            self.diverge(
                item,
                "scoring.pot.renege",
                "illegal_event",
                f"{item.seat} is penalised for a renege it did not make",
            )
            raise _Stop
        if self.known[seat] is None:
            self.note(f"the renege of {item.seat} (its hand is not recorded)")
        due = penalty_due(self.rules, self.ledger.pot + sum(self.paid.values()))
        self.penalties[seat] = self.penalties.get(seat, 0) + (due or 0)

    def finish(self) -> None:
        """The settlement, when the hand is recorded to its end (antes not recorded are taken
        as paid, and listed)."""
        if self.settlement is not None:
            return
        count = self.rules.phases.tricks.count
        lone = self.rules.phases.lone_player
        if self.phase != "tricks" and len(self.declared) == len(self.ledger.dealt_in()):
            self.active = tuple(s for s in self.ledger.dealt_in() if self.declared[s][0])
            if len(self.active) == 1 and lone is not None and lone.option == "takes_pot":
                self.tricks = {self.active[0]: count}
            elif self.active:
                return
        elif self.trick_number < count:
            return
        pot = self.ledger.pot + sum(self.paid.values())
        for seat in self.reneges:
            due = penalty_due(self.rules, pot)
            if seat not in self.penalties and due is not None and self.last is not None:
                self.diverge(
                    self.last,
                    "scoring.pot.renege",
                    "missing_event",
                    f"{self.names[seat]} reneged and owes {due} into the next pot; the "
                    "transcript records no penalty",
                )
        for seat, chips in self.due.items():
            if seat not in self.paid:
                self.paid[seat] = chips
                self.note(f"the ante of {self.names[seat]} (not recorded)")
        self.settlement = settle(
            self.rules,
            self.ledger,
            paid=self.paid,
            tricks=self.tricks,
            reneges=self.penalties,
        )

    # --- claims -----------------------------------------------------------------------

    def claim(self, item: b2.Claim) -> None:
        self.claims += 1
        if self.stopped:
            self.note(f"{item.position} (the replay stopped before it)")
            return
        if isinstance(item, b2.TrickClaim):
            winner = self.winners.get(item.trick)
            if winner is None:
                self.note(f"{item.position} (trick {item.trick} is not complete)")
            elif self.names[winner] != item.winner:
                self.diverge(
                    item,
                    "play.trick_winner",
                    "wrong_claim",
                    f"trick {item.trick} is won by {self.names[winner]}, not {item.winner}",
                    expected=self.names[winner],
                    claimed=item.winner,
                )
        elif isinstance(item, b2.LegalClaim):
            self.legal(item)
        elif isinstance(item, b2.SidesClaim):
            self.finish()
            if self.settlement is None:
                self.note(f"{item.position} (the hand is not recorded to its end)")
                return
            self.sides(item, self.settlement)

    def legal(self, item: b2.LegalClaim) -> None:
        """A legal-set claim, judged when its seat's hand is known and no stage needs the
        unknown hands."""
        seat = self.seat(item.seat)
        held = self.known[seat]
        if self.phase != "tricks":
            try:
                self.start_tricks(item)
            except _Stop:
                self.stopped = True
        rules = self.play_rules
        if held is None or rules is None or self.turns[len(self.trick)] != seat:
            self.note(f"{item.position} (a legal-set claim the transcript cannot show)")
            return
        context = self.context()
        legal = rules.legal(held, self.trick, context)
        if legal and not rules.check(held, self.trick, context, (legal & -legal).bit_length() - 1):
            self.note("the cinch (it needs every active hand)")
            self.note(f"{item.position} (the legal set depends on the cinch)")
            return
        claimed = sum(1 << self.pack.index[c] for c in item.cards)
        if claimed != legal:
            self.diverge(
                item,
                self.rules.play.obligations.id,
                "wrong_claim",
                f"{item.seat} may play {self.pack.format(legal)}; the engine offered "
                f"{self.pack.format(claimed)}",
                expected=self.pack.format(legal),
                claimed=self.pack.format(claimed),
            )

    def sides(self, item: b2.SidesClaim, settlement: Settlement) -> None:
        n = self.ring.size
        if item.name == "tricks":
            truth = [self.tricks.get(s, 0) for s in range(n)]
        elif item.name == "pot":
            truth = [settlement.won if s == settlement.winner else 0 for s in range(n)]
        elif item.name == "pays":
            pays = settlement.pays
            truth = [pays.get(s, 0) for s in range(n)]
        else:
            truth = [settlement.next.chips[s] - self.ledger.chips[s] for s in range(n)]
        wrong = [(seat, v) for seat, v in item.values if truth[self.seat(seat)] != v]
        if wrong:
            rule = {
                "tricks": "play.trick_winner",
                "pot": "scoring.outcome",
                "pays": "scoring.pot.renege" if settlement.reneges else "scoring.pot.bourre",
                "score": "scoring.outcome",
            }[item.name]
            said = ", ".join(f"{s} {truth[self.seat(s)]}, not {v}" for s, v in wrong)
            self.diverge(item, rule, "wrong_claim", f"{item.name}: {said}")


def replay_partial(
    hand_items: b2.Hand,
    rules: TrickRuleset,
    ring: Ring,
    ledger: Ledger,
    path: str,
    engine: EngineId | None,
    divergences: list[Divergence],
) -> tuple[HandVerdict, Ledger | None]:
    """The verdict of a partial hand (see the module's docstring), and the ledger the next
    hand starts from when this one is recorded to its settlement."""
    replay = _Partial(rules, ring, ledger, divergences)
    faceup = next((i for i in hand_items.items if isinstance(i, b2.FaceUp)), None)
    if faceup is not None:
        replay.faceup_ace = faceup.card.startswith("A")
    deals: list[b2.Deal] = []
    for item in hand_items.items:
        if isinstance(item, b2.Comment):
            continue
        if isinstance(item, b2.Claim):
            replay.claim(item)
            continue
        assert isinstance(item, b2.Event)
        replay.events += 1
        replay.last = item
        if replay.stopped:
            continue
        try:
            _event(replay, item, deals, faceup)
        except _Stop:
            replay.stopped = True
    if not replay.stopped:
        replay.finish()
        if replay.settlement is None:
            replay.note("the rest of the hand (the transcript stops before its end)")
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
    return verdict, replay.settlement.next if replay.settlement is not None else None


def _event(
    replay: _Partial, item: b2.Event, deals: list[b2.Deal], faceup: b2.FaceUp | None
) -> None:
    if isinstance(item, b2.Deal):
        deals.append(item)
        return
    if isinstance(item, b2.FaceUp):
        return
    if not replay.dealt and (deals or not isinstance(item, (b2.Ante, b2.Start, b2.Dealer))):
        replay.deals(deals, faceup)  # once, before the first event after the deal
        deals.clear()
    if isinstance(item, b2.Ante):
        replay.ante(item)
    elif isinstance(item, b2.Call):
        replay.declare(item)
    elif isinstance(item, b2.Exchange):
        replay.exchange(item)
    elif isinstance(item, b2.Play):
        replay.play(item)
    elif isinstance(item, b2.Penalty):
        replay.penalty(item)
