"""One hand of a game of the trick family (Bourré's pot, Barbu's and Hearts' points), from
its first phase to the settlement.

The API follows python-chess and Baloot's :class:`~baloot_conformance.engine.hand.Hand`:
:meth:`TrickHand.legal_actions` lists what may happen next, :meth:`TrickHand.push` applies an
action or raises :class:`IllegalAction` naming the rule and why, :meth:`TrickHand.is_over`
and :attr:`TrickHand.settlement` end it, and :meth:`TrickHand.copy` is cheap. The hand runs
the ruleset's pipeline (``phases.pipeline``), each kind under its rule IDs:

``ante`` [phases.ante]
    each seat dealt in and not exempt (the carried :class:`~.ledger.Ledger` says who) pays
    ``chips``, in turn from the dealer's next seat: :class:`Ante` actions.
``deal`` [phases.deal]
    ``cards`` cards each, one at a time from the dealer's next seat; ``faceup: dealer_last``
    shows the dealer's last card, whose suit is trump (contract ``trump: faceup_suit``). The
    deal comes from outside: a :class:`Deal` (a transcript's), checked against the pack, or
    the shuffled pack of :meth:`TrickHand.shuffled`.
``draw`` [phases.draw.*]
    each player says pass (he folds: he can neither win nor feed the pot) or play
    (:class:`Declare`), pays the stay of the double-ante variant (an :class:`Ante`), then
    :class:`Discard` and :class:`Draw` from the stock, a :class:`Reshuffle` refilling it;
    declared in turn with the discards, in turn then a second round, or at once
    (:mod:`.draw` holds these rules); or, as a pass [phases.draw.pass], each seat's
    :class:`Discard` for a neighbour, then each one's :class:`Draw` of the cards passed to
    it (:mod:`.passing`).
``choose`` and ``wagers`` [phases.choose, phases.wagers.*]
    the declarer's :class:`Choose` of the contract (with its trump or start rank), then each
    seat's :class:`Wager` from the declarer's left (:mod:`.declarer`).
``tricks`` [phases.tricks]
    ``count`` tricks among the active seats (fewer where the contract ends once its scored
    cards are taken); which card is legal and who wins a trick is the obligation engine's (a
    :class:`PlayRules`, compiled per contract and trump) (:mod:`.trick_phase`).
``layout`` [phases.layout]
    a layout contract's :class:`Play` and :class:`Knock` moves (:mod:`.layout`).
``settle`` [scoring.*]
    a reneger's :class:`Penalty` [scoring.pot.renege], then :func:`~.ledger.settle`; a points
    game's values and wagers (:mod:`.settle`, :mod:`.points`).

Penalised events: the kit reports the offence, and the hand goes on under the penalty the
rules set, so that the settlement can be checked against them. A renege:
:meth:`TrickHand.force_play` returns the illegal card's error and plays it, and the settle
phase asks for the payment [scoring.pot.renege]. (A renege corrected at once and an
announcement before its turn are not modelled: BTN 2 records neither, so no transcript could
reach a rule about them; bourre.yaml lists them under ``unmodelled``.)

The obligations come from outside too: ``compile(ruleset, contract, trump)`` gives the
:class:`PlayRules` of the hand once its trump is known (the generic engine's ``PlayTable``).

Zones: every card is in one of the stock, a hand, the discards (by who discarded it) or the
folded hands; :meth:`TrickHand.where` says which, for messages. Cards are indices of the
pack, which runs suit by suit in ``table.deck``'s order; sets of cards are bit masks.
"""

from __future__ import annotations

import copy as _copy
import random
from collections.abc import Sequence

from baloot_conformance.family.engine.actions import (
    Action,
    Ante,
    Choose,
    Deal,
    Declare,
    Discard,
    Draw,
    Knock,
    Penalty,
    Play,
    PlayCompiler,
    PlayRules,
    Reshuffle,
    Wager,
    describe,
)
from baloot_conformance.family.engine.deck import Ring, cards_of
from baloot_conformance.family.engine.declarer import DeclarerPhases
from baloot_conformance.family.engine.draw import DrawPhase
from baloot_conformance.family.engine.layout import LayoutPhase
from baloot_conformance.family.engine.ledger import (
    Ledger,
    Seat,
    Settlement,
    ante_due,
)
from baloot_conformance.family.engine.obligations import Context as TrickContext
from baloot_conformance.family.engine.obligations import ContractKey, IllegalAction, play_table
from baloot_conformance.family.engine.pack import mask_of, pack_of, ring_of
from baloot_conformance.family.engine.passing import PassChoices, PassPhase
from baloot_conformance.family.engine.points import (
    PointsSettlement,
    declarer_of,
    game_over,
)
from baloot_conformance.family.engine.settle import SettlePhase
from baloot_conformance.family.engine.trick_phase import TrickPhase
from baloot_conformance.family.rules.model import TrickRuleset

__all__ = [
    "Action",
    "Ante",
    "Choose",
    "Deal",
    "Declare",
    "Discard",
    "Draw",
    "IllegalAction",
    "Knock",
    "Penalty",
    "Play",
    "PlayCompiler",
    "PlayRules",
    "Reshuffle",
    "TrickContext",
    "TrickHand",
    "Wager",
]


# --- the hand -------------------------------------------------------------------------------


class TrickHand(DrawPhase, PassPhase, DeclarerPhases, TrickPhase, LayoutPhase, SettlePhase):
    """A hand in progress: ``TrickHand(rules, ledger, compile)`` for a recorded hand (its
    :class:`Deal` and draws come from outside), or :meth:`shuffled` to deal from a pack."""

    __slots__ = ()

    def __init__(
        self,
        rules: TrickRuleset,
        ledger: Ledger,
        compile: PlayCompiler | None = None,
        *,
        names: Sequence[str] | None = None,
    ) -> None:
        seats = rules.table.seats
        if not seats.min <= ledger.players <= seats.max:
            raise IllegalAction(
                "table.seats",
                f"{ledger.players} players at the table; {rules.id} is played by {seats.min} "
                f"to {seats.max}",
            )
        if rules.scoring.outcome.option == "card_points":
            raise ValueError(
                f"{rules.id}: scoring.outcome card_points (the sides' card points, Baloot's "
                "shape) has no settlement of its own yet"
            )
        over = game_over(rules, ledger)
        if over is not None:
            raise IllegalAction("game.kind", over)
        self.rules = rules
        self.ledger = ledger
        self.compile = compile_play if compile is None else compile
        self.pack = pack_of(rules)
        self.ring = (
            Ring(tuple(names), rules.table.teams.option == "partners")
            if names is not None
            else ring_of(rules, ledger.players)
        )
        self.names = self.ring.names
        self.contract = next(iter(rules.contracts))
        self.dealt_in = ledger.dealt_in()
        n = ledger.players
        self.hands = [0] * n
        self.discards = [0] * n
        self.folded = [0] * n
        self.stock = (1 << self.pack.size) - 1
        self.faceup: int | None = None
        self.trump: int | None = None
        self.paid: dict[Seat, int] = {}
        self.declared: dict[Seat, Declare] = {}
        self.active: tuple[Seat, ...] = ()
        self.agenda: list[tuple[str, Seat, int]] = []
        self.owed = 0
        self.leader: Seat = -1
        self.trick: tuple[int, ...] = ()
        self.gone = 0
        self.active_mask = 0
        self.turns: tuple[Seat, ...] = ()
        self.trick_number = 0
        self.tricks: dict[Seat, int] = {}
        self.reneges: list[tuple[Seat, str]] = []
        self.penalties: list[Penalty] = []
        self.closing = False
        self.history: list[Action] = []
        self.play_rules: PlayRules | None = None
        self.needs_hands = True
        self.scored = 0
        self.settlement: Settlement | PointsSettlement | None = None
        self.declarer = declarer_of(rules, ledger) if rules.game.declarers else None
        self.start_rank: int | None = None
        self.doubles = [0] * n
        self.wager_turns: tuple[Seat, ...] = ()
        self.wagered = 0
        self.taken = [0] * n
        """The cards each seat took in its tricks (a points game's values count them)."""
        self.winners: list[Seat] = []
        """The winner of each trick played, in order."""
        self.rows: list[tuple[int, int] | None] = []
        self.finish: list[Seat] = []
        self.layout_turn: Seat = -1
        self.moves = 0
        self.passed: list[tuple[int, ...] | None] = []
        self.pass_step = 0
        self.taken_up = 0
        self.pack_order: list[int] | None = None
        self.rng: random.Random | None = None
        self._legal = -1
        self.phase = ""
        self._enter(0)

    @classmethod
    def shuffled(
        cls,
        rules: TrickRuleset,
        ledger: Ledger,
        compile: PlayCompiler | None,
        rng: random.Random,
    ) -> TrickHand:
        """A hand dealt from a pack shuffled by ``rng``: the deal, the draws and the
        reshuffles are then the single legal action of their turn."""
        hand = cls(rules, ledger, compile)
        keys = [rng.random() for _ in range(hand.pack.size)]
        hand.pack_order = sorted(range(hand.pack.size), key=keys.__getitem__)
        hand.rng = rng
        return hand

    def copy(self) -> TrickHand:
        twin = _copy.copy(self)
        for name in (
            "hands",
            "discards",
            "folded",
            "agenda",
            "history",
            "reneges",
            "penalties",
            "doubles",
            "taken",
            "winners",
            "rows",
            "finish",
            "passed",
        ):
            setattr(twin, name, list(getattr(self, name)))
        for name in ("paid", "declared", "tricks"):
            setattr(twin, name, dict(getattr(self, name)))
        if self.pack_order is not None:
            twin.pack_order = list(self.pack_order)
        return twin

    # --- reading the state ------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == "over"

    @property
    def pot(self) -> int:
        """The pot this hand is played for: the carried pot and this hand's antes."""
        return self.ledger.pot + sum(self.paid.values())

    def to_act(self) -> Seat | None:
        """The seat whose turn it is; ``None`` when any undeclared seat may declare
        (``simultaneous``), at the deal, and when the hand is over."""
        if self.agenda:
            return self.agenda[0][1]
        if self.phase == "tricks":
            return self._next_in_trick()
        if self.phase == "choose":
            return self.declarer
        if self.phase == "wagers":
            return self.wager_seat()
        if self.phase == "layout":
            return self.layout_turn
        if self.phase == "draw" and self.rules.phases.pass_cards is not None:
            return self.pass_turn()[1]
        if self.phase == "draw" and self._declare_rule() != "simultaneous":
            return next((s for s in self.dealt_in if s not in self.declared), None)
        return None

    def describe(self, action: Action) -> str:
        """An action in words, with this table's names: ``P2 plays 5S``."""
        return describe(action, self.names, self.pack)

    def where(self, card: int) -> str:
        """The zone a card is in, for messages."""
        bit = 1 << card
        if self.stock & bit:
            return "in the stock"
        for seat in range(self.ledger.players):
            if self.hands[seat] & bit:
                return f"in {self.names[seat]}'s hand"
            if self.discards[seat] & bit:
                return f"among {self.names[seat]}'s discards"
            if self.folded[seat] & bit:
                return f"in {self.names[seat]}'s folded hand"
        return "not in play"

    def legal_actions(self) -> Sequence[Action]:
        """What may happen next. A deal or a draw is listed only when the pack's order is
        known (:meth:`shuffled`); a recorded hand takes them from outside."""
        if self.phase == "tricks":
            seat = self.turns[len(self.trick)]
            legal = self._legal
            if legal < 0:
                legal = self.legal_cards()
            plays = _plays(seat)
            return [plays[c] for c in cards_of(legal)]
        if self.agenda:
            return self._agenda_actions()
        if self.phase == "deal":
            return [] if self.pack_order is None else [self._shuffled_deal()]
        if self.phase == "choose":
            return list(self._choices())
        if self.phase == "wagers":
            return self._wagers(self.wager_seat())
        if self.phase == "layout":
            return self.layout_actions()
        if self.phase == "draw" and self.rules.phases.pass_cards is not None:
            step, seat = self.pass_turn()
            if step == "take":
                return self.pass_actions()
            count = self.rules.phases.pass_cards.cards
            return PassChoices(seat, tuple(cards_of(self.hands[seat])), count)
        if self.phase == "draw":
            seats = [s for s in self.dealt_in if s not in self.declared]
            if self._declare_rule() != "simultaneous":
                seats = seats[:1]
            return [d for s in seats for d in self._declarations(s)]
        return []

    # --- pushing ----------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply ``action``, or raise :class:`IllegalAction` (the hand is then unchanged)."""
        if self.phase == "tricks" and isinstance(action, Play):
            seat = self.turns[len(self.trick)]
            card = action.card
            if not (action.seat == seat and card >= 0 and self.legal_cards() >> card & 1):
                self._check_turn_and_hold(action)
                self._check_play(action)
            self._apply_play(action)
        elif self.phase == "over":
            raise IllegalAction(
                "phases.pipeline", f"the hand is over; {self.describe(action)} comes after it"
            )
        elif self.agenda:
            self._push_agenda(action)
        elif self.phase == "layout":
            self._push_layout(action)
        elif self.phase == "choose":
            self._push_choose(action)
        elif self.phase == "wagers":
            self._push_wager(action)
        elif self.phase == "draw" and self.rules.phases.pass_cards is not None:
            self._push_pass(action)
        elif isinstance(action, Deal) and self.phase == "deal":
            self._push_deal(action)
        elif isinstance(action, Declare) and self.phase == "draw":
            self._push_declare(action)
        else:
            raise IllegalAction(
                "phases.pipeline", f"{self.expected()}, not {self.describe(action)}"
            )
        self.history.append(action)

    def force_play(self, action: Play) -> IllegalAction | None:
        """Play a card even if it breaks an obligation (a renege, a penalised event): the
        error is returned, the card played, and the settle phase asks for the penalty. A card
        out of turn or not held cannot be forced."""
        if self.phase != "tricks":
            raise IllegalAction(
                "phases.pipeline", f"{self.expected()}, not {self.describe(action)}"
            )
        self._check_turn_and_hold(action)
        try:
            self._check_play(action)
        except IllegalAction as error:
            self.reneges.append((action.seat, error.rule_id))
            self._apply_play(action)
            self.history.append(action)
            return error
        self._apply_play(action)
        self.history.append(action)
        return None

    # --- the pipeline -----------------------------------------------------------------

    def _enter(self, index: int) -> None:
        """Start the pipeline's phase ``index`` (or settle when the pipeline is done)."""
        kinds = self.rules.phases.pipeline.kinds
        while index < len(kinds):
            kind = kinds[index]
            self.phase = kind
            if kind == "ante":
                self.agenda = [("ante", s, c) for s, c in ante_due(self.rules, self.ledger)]
                if self.agenda:
                    return
            elif kind == "deal":
                return
            elif kind == "draw":
                if self.rules.phases.pass_cards is not None:
                    if self._start_pass():
                        return
                elif self.dealt_in:
                    return
            elif kind == "choose":
                if self.declarer is not None:
                    return
            elif kind == "wagers":
                if self.declarer is not None:
                    self._start_wagers()
                    return
            elif kind == "tricks":
                if "draw" not in kinds or self.rules.phases.pass_cards is not None:
                    self.active = self.dealt_in
                if self.rules.contracts[self.contract].play == "tricks" and self._start_tricks():
                    return
            elif kind == "layout":
                if self.rules.contracts[self.contract].play == "layout":
                    self._start_layout()
                    return
            elif kind == "settle":
                self.start_settle()
                return
            index += 1
        self.start_settle()

    def next_phase(self) -> None:
        self._enter(self.rules.phases.pipeline.kinds.index(self.phase) + 1)

    def expected(self) -> str:
        """What the hand waits for next, in words (for messages)."""
        if self.agenda:
            step, seat, _ = self.agenda[0]
            return f"{self.names[seat]}'s {step} is next"
        if self.phase == "deal":
            return "the deal is next"
        if self.phase == "draw" and self.rules.phases.pass_cards is not None:
            step, seat = self.pass_turn()
            what = "pass" if step == "pass" else "taking up of the cards passed"
            return f"{self.names[seat]}'s {what} is next"
        if self.phase == "draw":
            return "a declaration (pass or play) is next"
        if self.phase == "choose" and self.declarer is not None:
            return f"{self.names[self.declarer]}'s choice of contract is next"
        if self.phase == "wagers":
            return f"{self.names[self.wager_seat()]}'s doubling is next"
        if self.phase == "layout":
            return f"{self.names[self.layout_turn]} is to add a card to the layout or knock"
        if self.phase == "tricks":
            return f"{self.names[self._next_in_trick()]} is to play a card"
        return f"the hand is in its {self.phase} phase"

    # --- ante -------------------------------------------------------------------------

    def _agenda_actions(self) -> list[Action]:
        step, seat, count = self.agenda[0]
        if step in ("ante", "stay"):
            return [Ante(seat, count)]
        if step == "penalty":
            return [Penalty(seat, count)]
        if step == "discard":
            return self._discard_actions(seat, count)
        if step == "draw":
            return self._draw_actions(seat)
        raise AssertionError(step)

    def _push_agenda(self, action: Action) -> None:
        step, seat, count = self.agenda[0]
        name = self.names[seat]
        if step in ("ante", "stay"):
            rule = "phases.ante"
            what = "the ante" if step == "ante" else "the stay (a second ante to play)"
            if not isinstance(action, Ante) or action.seat != seat:
                raise IllegalAction(
                    rule, f"{name} is to pay {what}, {count}; got {self.describe(action)}"
                )
            if action.chips != count:
                raise IllegalAction(
                    rule, f"{name} paid {action.chips} for {what}, which is {count}"
                )
            self.paid[seat] = self.paid.get(seat, 0) + count
        elif step == "penalty":
            self._push_penalty(action, seat, count)
        elif step == "discard":
            self._push_discard(action, seat, count)
            return
        elif step == "draw":
            self._push_draw(action, seat)
            return
        self.done_step()

    def done_step(self) -> None:
        self.agenda.pop(0)
        if self.agenda:
            return
        if self.phase == "draw":
            self._after_draw_step()
        elif self.phase == "settle":
            self._finish()
        else:
            self.next_phase()

    # --- deal -------------------------------------------------------------------------

    def _shuffled_deal(self) -> Deal:
        assert self.pack_order is not None
        count = self.rules.phases.deal.cards
        seats = self.dealt_in
        dealt: list[list[int]] = [[] for _ in range(self.ledger.players)]
        for k in range(count * len(seats)):
            dealt[seats[k % len(seats)]].append(self.pack_order[k])
        return Deal(tuple(tuple(cards) for cards in dealt))

    def _push_deal(self, action: Deal) -> None:
        rule = "phases.deal"
        deal = self.rules.phases.deal
        players = self.ledger.players
        if len(action.hands) != players:
            raise IllegalAction(rule, f"the deal has {len(action.hands)} hands for {players} seats")
        seen = 0
        total = 0
        masks = []
        for seat, cards in enumerate(action.hands):
            want = deal.cards if seat in self.dealt_in else 0
            if len(cards) != want:
                why = "" if want else " (not dealt in)"
                raise IllegalAction(
                    rule, f"{self.names[seat]} is dealt {len(cards)} cards, not {want}{why}"
                )
            if cards and not (min(cards) >= 0 and max(cards) < self.pack.size):
                card = next(c for c in cards if not 0 <= c < self.pack.size)
                raise IllegalAction(
                    rule, f"card {card} is not in the pack of {self.pack.size} cards"
                )
            held = mask_of(cards)
            masks.append(held)
            seen |= held
            total += len(cards)
        if seen.bit_count() != total:
            twice = next(c for c in cards_of(seen) if sum(c in h for h in action.hands) > 1)
            raise IllegalAction(rule, f"{self.pack.codes[twice]} is dealt twice")
        self.hands = masks
        self.stock &= ~seen
        if self.pack_order is not None:
            self.pack_order = [c for c in self.pack_order if not seen >> c & 1]
        if deal.faceup == "dealer_last" and self.dealt_in:
            self.faceup = action.hands[self.dealt_in[-1]][-1]
        trump = self.rules.contracts[self.contract].trump
        if trump == "faceup_suit" and self.faceup is not None:
            self.trump = self.pack.suit_of[self.faceup]
        self.next_phase()

    # --- messages ---------------------------------------------------------------------

    def seat_name(self, seat: Seat | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        return self.names[seat]


def compile_play(rules: TrickRuleset, contract: str, trump: int | None) -> PlayRules:
    """The generic engine's obligations of ``contract`` with ``trump`` (compiled once)."""
    return play_table(rules.play, pack_of(rules), ContractKey(contract, trump))


_PLAYS: dict[Seat, tuple[Play, ...]] = {}


def play_of(seat: Seat, card: int) -> Play:
    """The :class:`Play` of ``card`` by ``seat``, made once (actions are immutable)."""
    return _plays(seat)[card]


def _plays(seat: Seat) -> tuple[Play, ...]:
    """Every card's :class:`Play` by ``seat``, made once (actions are immutable)."""
    plays = _PLAYS.get(seat)
    if plays is None:
        plays = _PLAYS[seat] = tuple(Play(seat, card) for card in range(64))
    return plays
