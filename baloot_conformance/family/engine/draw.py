"""The draw of a pot game (Bourré): declarations, discards, draws and reshuffles.

Each player says pass (he folds: his cards go to the folded zone) or play and how many cards
he discards [phases.draw.declare]: in turn from the dealer's next seat (``in_turn``), or all at
once (``simultaneous``: a transcript may list them in any order, and the exchanges then go in
turn). A player who plays pays the stay [phases.ante ``stay``], discards, and is served from
the stock [phases.draw.discards]; an empty stock is refilled by a reshuffle of the discards and
the folded hands, without the served player's own discards under ``exclude_own``
[phases.draw.refill]. The dealer may not pass on a face-up Ace [phases.draw.faceup_ace]; when
all but one pass, the one left takes every trick and the pot [phases.draw.lone_player].

:class:`DrawPhase` is a base of :class:`~.hand.TrickHand`: the hand sequences the phases,
this module holds the draw's rules.
"""

from __future__ import annotations

import random

from baloot_conformance.engine.model import IllegalAction
from baloot_conformance.family.engine.actions import Action, Declare, Discard, Draw, Reshuffle
from baloot_conformance.family.engine.ledger import Ledger, Seat
from baloot_conformance.family.engine.pack import Pack, cards_of, mask_of
from baloot_conformance.family.rules.model import TrickRuleset

# --- the draw -------------------------------------------------------------------------


class DrawPhase:
    """The draw's rules, as a base of :class:`~.hand.TrickHand`: the state they read and
    write is declared (and slotted) here, the hooks into the hand's sequencing below."""

    __slots__ = (
        "active",
        "agenda",
        "closing",
        "dealt_in",
        "declared",
        "discards",
        "faceup",
        "folded",
        "hands",
        "ledger",
        "names",
        "owed",
        "pack",
        "pack_order",
        "phase",
        "rng",
        "rules",
        "stock",
        "tricks",
    )

    rules: TrickRuleset
    ledger: Ledger
    pack: Pack
    names: tuple[str, ...]
    phase: str
    dealt_in: tuple[Seat, ...]
    hands: list[int]
    discards: list[int]
    folded: list[int]
    stock: int
    faceup: int | None
    declared: dict[Seat, Declare]
    active: tuple[Seat, ...]
    agenda: list[tuple[str, Seat, int]]
    owed: int
    closing: bool
    tricks: dict[Seat, int]
    pack_order: list[int] | None
    rng: random.Random | None

    def to_act(self) -> Seat | None:
        raise NotImplementedError

    def where(self, card: int) -> str:
        raise NotImplementedError

    def describe(self, action: Action) -> str:
        raise NotImplementedError

    def seat_name(self, seat: Seat | None) -> str:
        raise NotImplementedError

    def done_step(self) -> None:
        raise NotImplementedError

    def next_phase(self) -> None:
        raise NotImplementedError

    def start_settle(self) -> None:
        raise NotImplementedError

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
            and self.pack.ranks[self.faceup % len(self.pack.ranks)] == "A"
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
            gathered = 0
            for cards in (*self.discards, *self.folded):
                gathered |= cards
            return stock + (gathered & ~self.discards[seat]).bit_count()
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
        most = min(self.discard_limit(), self.hands[seat].bit_count())
        if self.stock.bit_count() < most:
            most = min(most, self._servable(seat) - self._pending())
        elif self._pending():
            most = min(most, self.stock.bit_count() - self._pending())
        options = _declares(seat)
        return list(options[1 : most + 2] if self._must_play(seat) else options[: most + 2])

    def _push_declare(self, action: Declare) -> None:
        seat = action.seat
        if seat not in self.dealt_in or seat in self.declared:
            why = "has declared already" if seat in self.declared else "is not in this hand"
            raise IllegalAction("phases.draw.declare", f"{self.seat_name(seat)} {why}")
        if self._declare_rule() == "in_turn":
            turn = self.to_act()
            if seat != turn:
                raise IllegalAction(
                    "phases.draw.declare",
                    f"{self.names[seat]} declared before {self.seat_name(turn)}: the players "
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
                    f"{self.pack.codes[self.faceup]}",
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
        most_served = self._servable(seat) - self._pending()
        if count > most_served:
            refill = self.rules.phases.refill
            how = (
                "and no reshuffle"
                if refill is None or refill.option == "none"
                else ("with what a reshuffle gathers, not the player's own discards")
            )
            raise IllegalAction(
                "phases.draw.refill",
                f"{self.names[seat]} discards {count}, but the dealer can serve {most_served} "
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
        simultaneous declaration, or the end of the draw. A lone player (every other one
        passed) has made his exchange, as every player who plays does, before
        ``phases.draw.lone_player`` ``takes_pot`` gives him every trick."""
        if len(self.declared) < len(self.dealt_in):
            return
        if not self.closing:
            self.closing = True
            self.active = tuple(s for s in self.dealt_in if self.declared[s].play)
            if self._declare_rule() == "simultaneous":
                self.agenda = [st for s in self.active for st in self._steps(self.declared[s])]
                if self.agenda:
                    return
        lone = self.rules.phases.lone_player
        if len(self.active) == 1 and lone is not None and lone.option == "takes_pot":
            self.tricks = {self.active[0]: self.rules.phases.tricks.count}
            self.start_settle()
            return
        self.next_phase()

    def _push_discard(self, action: Action, seat: Seat, count: int) -> None:
        name = self.names[seat]
        rule = "phases.draw.discards"
        if not isinstance(action, Discard) or action.seat != seat:
            raise IllegalAction(
                rule, f"{name} is to discard {count} cards; got {self.describe(action)}"
            )
        cards = mask_of(action.cards)
        if len(action.cards) != count or cards.bit_count() != count:
            raise IllegalAction(
                rule, f"{name} declared {count} discards and discarded {len(action.cards)}"
            )
        if cards & ~self.hands[seat]:
            raise IllegalAction(
                rule,
                f"{name} discarded {self.pack.format(cards & ~self.hands[seat])}, which it does "
                f"not hold (holds {self.pack.format(self.hands[seat])})",
            )
        if self._declare_rule() == "simultaneous":
            self._check_servable(seat, count)
        self.hands[seat] &= ~cards
        self.discards[seat] |= cards
        self.owed = count
        self.done_step()

    def _push_draw(self, action: Action, seat: Seat) -> None:
        name = self.names[seat]
        if isinstance(action, Reshuffle) and action.seat == seat:
            self._reshuffle(seat)
            return
        rule = "phases.draw.discards"
        if not isinstance(action, Draw) or action.seat != seat:
            raise IllegalAction(
                rule, f"{name} is to be served {self.owed} cards; got {self.describe(action)}"
            )
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
            card = next(cards_of(stray))
            own = self.discards[seat] >> card & 1
            raise IllegalAction(
                "phases.draw.refill" if own else rule,
                f"{name} is served {self.pack.codes[card]}, which is not in the stock (it is "
                f"{self.where(card)})",
            )
        self.stock &= ~cards
        if self.pack_order is not None:
            self.pack_order = [c for c in self.pack_order if not cards >> c & 1]
        self.hands[seat] |= cards
        self.owed -= len(action.cards)
        if not self.owed:
            self.done_step()

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
        if self.pack_order is not None:
            assert self.rng is not None
            self.pack_order = list(cards_of(gathered))
            self.rng.shuffle(self.pack_order)


_DECLARES: dict[Seat, tuple[Declare, ...]] = {}


def _declares(seat: Seat) -> tuple[Declare, ...]:
    """``seat``'s pass, then its plays with 0, 1, ... discards, made once."""
    declares = _DECLARES.get(seat)
    if declares is None:
        plays = tuple(Declare(seat, True, k) for k in range(64))
        declares = _DECLARES[seat] = (Declare(seat, False), *plays)
    return declares
