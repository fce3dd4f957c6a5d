"""One hand of a pot game of the trick family (Bourré), from the ante to the settlement.

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
    each player says pass (he folds: his cards go to the folded zone, he can neither win nor
    feed the pot) or play and how many he discards (:class:`Declare`), in turn
    (``draw.declare: in_turn``) or in any order (``simultaneous``); a player who plays pays
    ``phases.ante`` ``stay`` (an :class:`Ante`), then :class:`Discard` and :class:`Draw`
    from the stock, in turn; a :class:`Reshuffle` refills an empty stock [phases.draw.refill].
    ``draw.faceup_ace`` and ``draw.lone_player`` end or constrain it.
``tricks`` [phases.tricks]
    ``count`` tricks among the active seats; which card is legal and who wins a trick is the
    obligation engine's (a :class:`PlayRules`, compiled per contract and trump).
``settle`` [scoring.*]
    a reneger's :class:`Penalty` [scoring.pot.renege], then :func:`~.ledger.settle`.

A renege is a *penalised* event: :meth:`TrickHand.force_play` reports the illegal card and
plays it anyway, and the settle phase then asks for the penalty the rule sets.

Zones: every card is in one of the stock, a hand, the discards (by who discarded it) or the
folded hands; :meth:`TrickHand.where` says which, for messages. Cards are indices of the
pack, which runs suit by suit in ``table.deck``'s order; sets of cards are bit masks.
"""

from __future__ import annotations

import copy as _copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

from baloot_conformance.engine.model import IllegalAction
from baloot_conformance.family.engine.ledger import (
    Ledger,
    Seat,
    Settlement,
    ante_due,
    penalty_due,
    settle,
)
from baloot_conformance.family.rules.model import TrickRuleset

__all__ = ["IllegalAction"]


# --- the pack -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pack:
    """The cards of ``table.deck``: index ``suit * len(ranks) + rank``, ranks lowest first."""

    suits: tuple[str, ...]
    ranks: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)

    def suit(self, card: int) -> int:
        return card // len(self.ranks)

    def rank(self, card: int) -> str:
        return self.ranks[card % len(self.ranks)]

    def code(self, card: int) -> str:
        """The card as BTN writes it: ``QS``, ``TH``."""
        return self.rank(card) + self.suits[self.suit(card)]

    def codes(self, mask: int) -> str:
        return " ".join(self.code(c) for c in cards_of(mask)) or "nothing"

    def card(self, code: str) -> int:
        """The index of ``QS``; ``ValueError`` for a card not in the pack."""
        rank, suit = code[:-1], code[-1:]
        if rank not in self.ranks or suit not in self.suits:
            raise ValueError(f"{code} is not a card of the pack")
        return self.suits.index(suit) * len(self.ranks) + self.ranks.index(rank)


def cards_of(mask: int) -> list[int]:
    """The indices of a set's cards, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def seat_names(ruleset: TrickRuleset, players: int) -> tuple[str, ...]:
    """The seats' names in play order: ``table.seats``' clockwise list (or ``P1`` .. ``Pn``),
    read the other way round when ``table.direction`` is counter-clockwise."""
    seats = ruleset.table.seats
    listed = seats.names or tuple(f"{seats.prefix}{k + 1}" for k in range(players))
    if ruleset.table.direction.option == "clockwise":
        return tuple(listed)
    return (listed[0], *reversed(listed[1:]))


# --- actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ante:
    """A seat puts ``chips`` into the pot: the ante, or the stay of the double-ante variant."""

    seat: Seat
    chips: int


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards each seat is dealt (index = seat), in the order dealt; ``()`` for a seat not
    dealt in. With a face-up card it is the last card of the last seat dealt (the dealer)."""

    hands: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Declare:
    """Pass (``play=False``: fold) or play and discard ``discards`` cards."""

    seat: Seat
    play: bool
    discards: int = 0


@dataclass(frozen=True, slots=True)
class Discard:
    seat: Seat
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """The dealer serves ``seat`` these cards from the stock."""

    seat: Seat
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """The stock is used up: the dealer gathers and shuffles the discards and folded hands
    (not ``seat``'s own discards under ``exclude_own``) to serve ``seat``."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class Play:
    seat: Seat
    card: int


@dataclass(frozen=True, slots=True)
class Penalty:
    """A reneger pays ``chips`` into the next pot; ``corrected``: he corrected it himself."""

    seat: Seat
    chips: int
    corrected: bool = False


Action = Ante | Deal | Declare | Discard | Draw | Reshuffle | Play | Penalty


# --- the obligation engine's face -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TrickContext:
    """What a card's legality may depend on beyond the hand and the trick: the cinch needs
    every active hand (the referee's view)."""

    seat: Seat
    leader: Seat
    trick_number: int
    """0 for the first trick."""
    trump: int | None
    """The trump suit's index in ``table.deck.suits``; ``None``: no trump."""
    hands: tuple[int, ...]
    """Every seat's cards now (0 for a seat not in the hand)."""
    active: tuple[Seat, ...]
    names: tuple[str, ...]
    """The seats' names, for messages."""


class PlayRules(Protocol):
    """The obligations of one contract and trump (the generic engine's compiled tree)."""

    def legal(self, hand: int, trick: Sequence[int], context: TrickContext) -> int:
        """The cards of ``hand`` that may be played to ``trick`` (the cards so far)."""
        ...

    def check(self, card: int, hand: int, trick: Sequence[int], context: TrickContext) -> None:
        """Raise :class:`IllegalAction` citing the stage a wrong ``card`` breaks."""
        ...

    def winner(self, trick: Sequence[int]) -> int:
        """The place (0 = the lead) of the card that wins a full trick."""
        ...


PlayCompiler = Callable[[TrickRuleset, str, "int | None"], PlayRules]
"""``compile(ruleset, contract, trump)``: the obligations for a hand."""


# --- the hand -------------------------------------------------------------------------------


class TrickHand:
    """A hand in progress: ``TrickHand(rules, ledger, compile)`` for a recorded hand (its
    :class:`Deal` and draws come from outside), or :meth:`shuffled` to deal from a pack."""

    __slots__ = (
        "_legal",
        "_order",
        "_rng",
        "active",
        "agenda",
        "closing",
        "compile",
        "contract",
        "dealt_in",
        "declared",
        "discards",
        "faceup",
        "folded",
        "hands",
        "history",
        "leader",
        "ledger",
        "names",
        "owed",
        "pack",
        "paid",
        "penalties",
        "phase",
        "play_rules",
        "reneges",
        "rules",
        "settlement",
        "stock",
        "trick",
        "trick_number",
        "tricks",
        "trump",
    )

    def __init__(
        self,
        rules: TrickRuleset,
        ledger: Ledger,
        compile: PlayCompiler,
        *,
        names: Sequence[str] | None = None,
    ) -> None:
        self.rules = rules
        self.ledger = ledger
        self.compile = compile
        self.pack = _pack(rules)
        self.names = tuple(names) if names is not None else seat_names(rules, ledger.players)
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
        self.trick: list[int] = []
        self.trick_number = 0
        self.tricks: dict[Seat, int] = {}
        self.reneges: list[tuple[Seat, str]] = []
        self.penalties: list[Penalty] = []
        self.closing = False
        self.history: list[Action] = []
        self.play_rules: PlayRules | None = None
        self.settlement: Settlement | None = None
        self._order: list[int] | None = None
        self._rng: random.Random | None = None
        self._legal = -1
        self.phase = ""
        self._enter(0)

    @classmethod
    def shuffled(
        cls, rules: TrickRuleset, ledger: Ledger, compile: PlayCompiler, rng: random.Random
    ) -> TrickHand:
        """A hand dealt from a pack shuffled by ``rng``: the deal, the draws and the
        reshuffles are then the single legal action of their turn."""
        hand = cls(rules, ledger, compile)
        order = list(range(hand.pack.size))
        rng.shuffle(order)
        hand._order = order
        hand._rng = rng
        return hand

    def copy(self) -> TrickHand:
        twin = _copy.copy(self)
        for name in (
            "hands",
            "discards",
            "folded",
            "agenda",
            "trick",
            "history",
            "reneges",
            "penalties",
        ):
            setattr(twin, name, list(getattr(self, name)))
        for name in ("paid", "declared", "tricks"):
            setattr(twin, name, dict(getattr(self, name)))
        if self._order is not None:
            twin._order = list(self._order)
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
        if self.phase == "draw" and self._declare_rule() == "in_turn":
            return next(s for s in self.dealt_in if s not in self.declared)
        return None

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

    def context(self) -> TrickContext:
        """The obligation engine's view of the card to be played now."""
        return TrickContext(
            seat=self._next_in_trick(),
            leader=self.leader,
            trick_number=self.trick_number,
            trump=self.trump,
            hands=tuple(self.hands),
            active=self.active,
            names=self.names,
        )

    def legal_cards(self) -> int:
        """The cards the seat to play may play (a mask); 0 outside the tricks."""
        if self.phase != "tricks":
            return 0
        if self._legal < 0:
            assert self.play_rules is not None
            seat = self._next_in_trick()
            self._legal = self.play_rules.legal(self.hands[seat], self.trick, self.context())
        return self._legal

    def legal_actions(self) -> list[Action]:
        """What may happen next. A deal or a draw is listed only when the pack's order is
        known (:meth:`shuffled`); a recorded hand takes them from outside."""
        if self.agenda:
            return self._agenda_actions()
        if self.phase == "deal":
            return [] if self._order is None else [self._shuffled_deal()]
        if self.phase == "draw":
            seats = [s for s in self.dealt_in if s not in self.declared]
            if self._declare_rule() == "in_turn":
                seats = seats[:1]
            return [d for s in seats for d in self._declarations(s)]
        if self.phase == "tricks":
            seat = self._next_in_trick()
            return [Play(seat, c) for c in cards_of(self.legal_cards())]
        return []

    # --- pushing ----------------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply ``action``, or raise :class:`IllegalAction` (the hand is then unchanged)."""
        if self.phase == "over":
            raise IllegalAction("phases.pipeline", f"the hand is over; {action} comes after it")
        if self.agenda:
            self._push_agenda(action)
        elif isinstance(action, Deal) and self.phase == "deal":
            self._push_deal(action)
        elif isinstance(action, Declare) and self.phase == "draw":
            self._push_declare(action)
        elif isinstance(action, Play) and self.phase == "tricks":
            self._check_play(action)
            self._apply_play(action)
        else:
            raise IllegalAction("phases.pipeline", f"{self._expected()}, not {action}")
        self.history.append(action)

    def force_play(self, action: Play) -> IllegalAction | None:
        """Play a card even if it breaks an obligation (a renege, a penalised event): the
        error is returned, the card played, and the settle phase asks for the penalty. A card
        out of turn or not held cannot be forced."""
        if self.phase != "tricks":
            raise IllegalAction("phases.pipeline", f"{self._expected()}, not {action}")
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
                if self.dealt_in:
                    return
            elif kind == "tricks":
                if "draw" not in kinds:
                    self.active = self.dealt_in
                if self._start_tricks():
                    return
            elif kind == "settle":
                self._start_settle()
                return
            index += 1
        self._start_settle()

    def _next_phase(self) -> None:
        self._enter(self.rules.phases.pipeline.kinds.index(self.phase) + 1)

    def _expected(self) -> str:
        if self.agenda:
            step, seat, _ = self.agenda[0]
            return f"{self.names[seat]}'s {step} is next"
        if self.phase == "deal":
            return "the deal is next"
        if self.phase == "draw":
            return "a declaration (pass or play) is next"
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
            held = cards_of(self.hands[seat])
            return [Discard(seat, combo) for combo in combinations(held, count)]
        if step == "draw":
            if not self.stock:
                return [Reshuffle(seat)]
            if self._order is None:
                return []
            return [Draw(seat, tuple(self._order[: min(self.owed, len(self._order))]))]
        raise AssertionError(step)

    def _push_agenda(self, action: Action) -> None:
        step, seat, count = self.agenda[0]
        name = self.names[seat]
        if step in ("ante", "stay"):
            rule = "phases.ante"
            what = "the ante" if step == "ante" else "the stay (a second ante to play)"
            if not isinstance(action, Ante) or action.seat != seat:
                raise IllegalAction(rule, f"{name} is to pay {what}, {count}; got {action}")
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
        self._done_step()

    def _done_step(self) -> None:
        self.agenda.pop(0)
        if self.agenda:
            return
        if self.phase == "draw":
            self._after_draw_step()
        elif self.phase == "settle":
            self._finish()
        else:
            self._next_phase()

    # --- deal -------------------------------------------------------------------------

    def _shuffled_deal(self) -> Deal:
        assert self._order is not None
        count = self.rules.phases.deal.cards
        seats = self.dealt_in
        dealt: list[list[int]] = [[] for _ in range(self.ledger.players)]
        for k in range(count * len(seats)):
            dealt[seats[k % len(seats)]].append(self._order[k])
        return Deal(tuple(tuple(cards) for cards in dealt))

    def _push_deal(self, action: Deal) -> None:
        rule = "phases.deal"
        deal = self.rules.phases.deal
        players = self.ledger.players
        if len(action.hands) != players:
            raise IllegalAction(rule, f"the deal has {len(action.hands)} hands for {players} seats")
        seen = 0
        for seat, cards in enumerate(action.hands):
            want = deal.cards if seat in self.dealt_in else 0
            if len(cards) != want:
                why = "" if want else " (not dealt in)"
                raise IllegalAction(
                    rule, f"{self.names[seat]} is dealt {len(cards)} cards, not {want}{why}"
                )
            for card in cards:
                if not 0 <= card < self.pack.size:
                    raise IllegalAction(
                        rule, f"card {card} is not in the pack of {self.pack.size} cards"
                    )
                if seen >> card & 1:
                    raise IllegalAction(rule, f"{self.pack.code(card)} is dealt twice")
                seen |= 1 << card
        for seat, cards in enumerate(action.hands):
            self.hands[seat] = mask_of(cards)
        self.stock &= ~seen
        if self._order is not None:
            self._order = [c for c in self._order if not seen >> c & 1]
        if deal.faceup == "dealer_last" and self.dealt_in:
            self.faceup = action.hands[self.dealt_in[-1]][-1]
        trump = self.rules.contracts[self.contract].trump
        if trump == "faceup_suit" and self.faceup is not None:
            self.trump = self.pack.suit(self.faceup)
        self._next_phase()

    # --- draw -------------------------------------------------------------------------

    def _declare_rule(self) -> str:
        rule = self.rules.phases.declare
        return "in_turn" if rule is None else rule.option

    def discard_limit(self) -> int:
        """``phases.draw.discards``: the most a player may discard at this table size."""
        rule = self.rules.phases.discards
        if rule is None:
            return 0
        return rule.by_players.get(self.ledger.players, rule.max)

    def _must_play(self, seat: Seat) -> bool:
        """``phases.draw.faceup_ace``: the dealer may not pass on a face-up Ace."""
        rule = self.rules.phases.faceup_ace
        return (
            rule is not None
            and rule.option == "dealer_plays"
            and seat == self.ledger.dealer
            and self.faceup is not None
            and self.pack.rank(self.faceup) == "A"
        )

    def _servable(self, seat: Seat) -> int:
        """The most cards the dealer can serve ``seat`` now: the stock, and under
        ``reshuffle_discards`` what a reshuffle would gather (never the player's own discards
        under ``exclude_own``; the cards he is about to discard, otherwise)."""
        stock = self.stock.bit_count()
        refill = self.rules.phases.refill
        if refill is None or refill.option == "none":
            return stock
        if refill.exclude_own:
            others = sum(d.bit_count() for s, d in enumerate(self.discards) if s != seat)
            return stock + others + sum(f.bit_count() for f in self.folded)
        return self.pack.size

    def _pending(self) -> int:
        """Discards declared and not yet served (a simultaneous declaration's), which the
        stock must serve first when nothing refills it."""
        refill = self.rules.phases.refill
        if self.closing or self._declare_rule() == "in_turn":
            return 0
        if refill is not None and refill.option != "none":
            return 0
        return sum(d.discards for s, d in self.declared.items() if d.play)

    def _declarations(self, seat: Seat) -> list[Action]:
        out: list[Action] = [] if self._must_play(seat) else [Declare(seat, False)]
        servable = self._servable(seat) - self._pending()
        most = min(self.discard_limit(), servable, self.hands[seat].bit_count())
        out.extend(Declare(seat, True, k) for k in range(most + 1))
        return out

    def _push_declare(self, action: Declare) -> None:
        seat = action.seat
        if seat not in self.dealt_in or seat in self.declared:
            why = "has declared already" if seat in self.declared else "is not in this hand"
            raise IllegalAction("phases.draw.declare", f"{self._seat(seat)} {why}")
        if self._declare_rule() == "in_turn":
            turn = self.to_act()
            if seat != turn:
                raise IllegalAction(
                    "phases.draw.declare",
                    f"{self.names[seat]} declared before {self._seat(turn)}: the players "
                    "declare in turn from the dealer's next seat",
                )
        name = self.names[seat]
        if not action.play:
            if action.discards:
                raise IllegalAction("phases.draw.declare", f"{name} passed and discards nothing")
            if self._must_play(seat):
                assert self.faceup is not None
                raise IllegalAction(
                    "phases.draw.faceup_ace",
                    f"{name} passed, but the dealer must play on the face-up "
                    f"{self.pack.code(self.faceup)}",
                )
        else:
            limit = self.discard_limit()
            if not 0 <= action.discards <= limit:
                raise IllegalAction(
                    "phases.draw.discards",
                    f"{name} declared {action.discards} discards; at most {limit} with "
                    f"{self.ledger.players} players",
                )
            self._check_servable(seat, action.discards)
        self.declared[seat] = action
        if not action.play:
            self.folded[seat] = self.hands[seat]
            self.hands[seat] = 0
        elif self._declare_rule() == "in_turn":
            self.agenda = self._steps(action)
        if self.agenda:
            return
        self._after_draw_step()

    def _check_servable(self, seat: Seat, count: int) -> None:
        servable = self._servable(seat) - self._pending()
        if count > servable:
            refill = self.rules.phases.refill
            how = (
                "and no reshuffle"
                if refill is None or refill.option == "none"
                else ("with what a reshuffle gathers, not the player's own discards")
            )
            raise IllegalAction(
                "phases.draw.refill",
                f"{self.names[seat]} discards {count}, but the dealer can serve {servable} "
                f"(the stock holds {self.stock.bit_count()}, {how})",
            )

    def _steps(self, action: Declare) -> list[tuple[str, Seat, int]]:
        steps: list[tuple[str, Seat, int]] = []
        ante = self.rules.phases.ante
        if ante is not None and ante.stay:
            steps.append(("stay", action.seat, ante.stay))
        if action.discards:
            steps.append(("discard", action.seat, action.discards))
            steps.append(("draw", action.seat, action.discards))
        return steps

    def _after_draw_step(self) -> None:
        """A declaration or a seat's exchange is done: the next seat, the exchanges of a
        simultaneous declaration, or the end of the draw."""
        if len(self.declared) < len(self.dealt_in):
            return
        playing = tuple(s for s in self.dealt_in if self.declared[s].play)
        lone = self.rules.phases.lone_player
        if not self.closing:
            self.closing = True
            self.active = playing
            if len(playing) == 1 and lone is not None and lone.option == "takes_pot":
                self.agenda = []
                self.tricks = {playing[0]: self.rules.phases.tricks.count}
                self.phase = "settle"
                self._start_settle()
                return
            if self._declare_rule() == "simultaneous":
                self.agenda = [st for s in playing for st in self._steps(self.declared[s])]
                if self.agenda:
                    return
        self._next_phase()

    def _push_discard(self, action: Action, seat: Seat, count: int) -> None:
        name = self.names[seat]
        rule = "phases.draw.discards"
        if not isinstance(action, Discard) or action.seat != seat:
            raise IllegalAction(rule, f"{name} is to discard {count} cards; got {action}")
        cards = mask_of(action.cards)
        if len(action.cards) != count or cards.bit_count() != count:
            raise IllegalAction(
                rule, f"{name} declared {count} discards and discarded {len(action.cards)}"
            )
        if cards & ~self.hands[seat]:
            raise IllegalAction(
                rule,
                f"{name} discarded {self.pack.codes(cards & ~self.hands[seat])}, which he does "
                f"not hold (holds {self.pack.codes(self.hands[seat])})",
            )
        if self._declare_rule() == "simultaneous":
            self._check_servable(seat, count)
        self.hands[seat] &= ~cards
        self.discards[seat] |= cards
        self.owed = count
        self._done_step()

    def _push_draw(self, action: Action, seat: Seat) -> None:
        name = self.names[seat]
        if isinstance(action, Reshuffle) and action.seat == seat:
            self._reshuffle(seat)
            return
        rule = "phases.draw.discards"
        if not isinstance(action, Draw) or action.seat != seat:
            raise IllegalAction(rule, f"{name} is to be served {self.owed} cards; got {action}")
        cards = mask_of(action.cards)
        if (
            not action.cards
            or len(action.cards) > self.owed
            or cards.bit_count() != len(action.cards)
        ):
            raise IllegalAction(
                rule, f"{name} is owed {self.owed} cards and is served {len(action.cards)}"
            )
        stray = cards & ~self.stock
        if stray:
            card = cards_of(stray)[0]
            own = self.discards[seat] >> card & 1
            raise IllegalAction(
                "phases.draw.refill" if own else rule,
                f"{name} is served {self.pack.code(card)}, which is not in the stock (it is "
                f"{self.where(card)})",
            )
        self.stock &= ~cards
        if self._order is not None:
            self._order = [c for c in self._order if not cards >> c & 1]
        self.hands[seat] |= cards
        self.owed -= len(action.cards)
        if not self.owed:
            self._done_step()

    def _reshuffle(self, seat: Seat) -> None:
        refill = self.rules.phases.refill
        name = self.names[seat]
        if self.stock:
            raise IllegalAction(
                "phases.draw.refill",
                f"the dealer reshuffled to serve {name}, but the stock still holds "
                f"{self.stock.bit_count()} cards",
            )
        if refill is None or refill.option == "none":
            raise IllegalAction(
                "phases.draw.refill", "the stock is out and the discards are not reshuffled"
            )
        kept = self.discards[seat] if refill.exclude_own else 0
        gathered = 0
        for other in range(self.ledger.players):
            gathered |= self.discards[other] | self.folded[other]
            self.discards[other] = 0
            self.folded[other] = 0
        gathered &= ~kept
        self.discards[seat] = kept
        self.stock = gathered
        if self._order is not None:
            assert self._rng is not None
            self._order = cards_of(gathered)
            self._rng.shuffle(self._order)

    # --- tricks -----------------------------------------------------------------------

    def _start_tricks(self) -> bool:
        """Set up the play; ``False`` when nobody plays (every player passed)."""
        if not self.active:
            return False
        # phases.tricks first_lead: after_dealer and first_active_after_dealer both name the
        # seat after the dealer when he is in the hand, else the first one after him still
        # in (a folded seat cannot lead): the two readings agree on every hand.
        after = (self.ledger.dealer + 1) % self.ledger.players
        self.leader = next(
            (after + k) % self.ledger.players
            for k in range(self.ledger.players)
            if (after + k) % self.ledger.players in self.active
        )
        self.tricks = {s: 0 for s in self.active}
        self.play_rules = self.compile(self.rules, self.contract, self.trump)
        self.phase = "tricks"
        return True

    def _next_in_trick(self) -> Seat:
        """The seat to play the trick's next card: the active seats from the leader on."""
        start = self.active.index(self.leader)
        return self.active[(start + len(self.trick)) % len(self.active)]

    def _check_turn_and_hold(self, action: Play) -> None:
        seat = self._next_in_trick()
        if action.seat != seat:
            raise IllegalAction(
                "phases.tricks",
                f"{self._seat(action.seat)} played {self._code(action.card)}, but "
                f"{self.names[seat]} is to play",
            )
        if not 0 <= action.card < self.pack.size or not self.hands[seat] >> action.card & 1:
            raise IllegalAction(
                "phases.tricks",
                f"{self.names[seat]} played {self._code(action.card)}, which he does not hold "
                f"(holds {self.pack.codes(self.hands[seat])})",
            )

    def _check_play(self, action: Play) -> None:
        self._check_turn_and_hold(action)
        if not self.legal_cards() >> action.card & 1:
            assert self.play_rules is not None
            seat = action.seat
            self.play_rules.check(action.card, self.hands[seat], self.trick, self.context())
            raise AssertionError("the obligations' check accepted a card their legal set refuses")

    def _apply_play(self, action: Play) -> None:
        self.hands[action.seat] &= ~(1 << action.card)
        self.trick.append(action.card)
        self._legal = -1
        if len(self.trick) < len(self.active):
            return
        assert self.play_rules is not None
        place = self.play_rules.winner(self.trick)
        start = self.active.index(self.leader)
        winner = self.active[(start + place) % len(self.active)]
        self.tricks[winner] += 1
        self.leader = winner
        self.trick = []
        self.trick_number += 1
        if self.trick_number == self.rules.phases.tricks.count:
            self._next_phase()

    # --- settle -----------------------------------------------------------------------

    def _start_settle(self) -> None:
        self.phase = "settle"
        due = penalty_due(self.rules, self.pot)
        self.agenda = [] if due is None else [("penalty", s, due) for s, _ in self.reneges]
        if not self.agenda:
            self._finish()

    def _push_penalty(self, action: Action, seat: Seat, chips: int) -> None:
        name = self.names[seat]
        rule = "scoring.pot.renege"
        if not isinstance(action, Penalty) or action.seat != seat:
            raise IllegalAction(rule, f"{name} reneged and owes a penalty of {chips}; got {action}")
        if action.chips != chips:
            raise IllegalAction(
                rule,
                f"{name} reneged and pays {chips} into the next pot (the pot is {self.pot}), "
                f"not {action.chips}",
            )
        self.penalties.append(action)

    def _finish(self) -> None:
        reneges: dict[Seat, int] = {}
        forfeits: set[Seat] = set()
        for penalty in self.penalties:
            reneges[penalty.seat] = reneges.get(penalty.seat, 0) + penalty.chips
            if penalty.corrected and "corrected_renege" in self.rules.table.dealer_rotation.forfeit:
                forfeits.add(penalty.seat)
        self.settlement = settle(
            self.rules,
            self.ledger,
            paid=self.paid,
            tricks=self.tricks,
            reneges=reneges,
            forfeits=frozenset(forfeits),
        )
        self.phase = "over"

    # --- messages ---------------------------------------------------------------------

    def _seat(self, seat: Seat | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        return self.names[seat]

    def _code(self, card: int) -> str:
        return self.pack.code(card) if 0 <= card < self.pack.size else f"card {card}"


_PACKS: dict[tuple[tuple[str, ...], tuple[str, ...]], Pack] = {}


def _pack(rules: TrickRuleset) -> Pack:
    deck = rules.table.deck
    key = (deck.suits, deck.ranks)
    pack = _PACKS.get(key)
    if pack is None:
        pack = _PACKS[key] = Pack(deck.suits, deck.ranks)
    return pack
