"""The draw of a pot game (Bourré): declarations, discards, draws and reshuffles.

Each player says pass (he folds: his cards go to the folded zone) or play
[phases.draw.declare]: ``in_turn``, one at a time from the dealer's next seat, saying with a
play how many cards he discards, and served at once; ``intent_then_draw``, every player in
turn says play or pass, then those who play discard and draw in a second round, in the same
order; ``simultaneous``, all say play or pass at once (a transcript may list them in any
order), then the second round goes in turn. A player who plays pays the stay [phases.ante
``stay``], discards up to the limit and is served as many from the stock
[phases.draw.discards]; when the stock cannot serve him, the dealer gathers and shuffles the
discards (``reshuffle_discards``) or first the folded hands and then the discards
(``folded_first``), never the served player's own discards under ``exclude_own``, under what
is left of the stock; with ``none`` a player discards no more than the stock holds
[phases.draw.refill]. The dealer may not pass on a face-up Ace [phases.draw.faceup_ace]; when
all but one pass, the one left takes every trick and the pot [phases.draw.lone_player].

:class:`DrawPhase` is a base of :class:`~.hand.TrickHand`: the hand sequences the phases,
this module holds the draw's rules.
"""

from __future__ import annotations

from itertools import combinations

from baloot_conformance.family.engine.actions import Action, Declare, Discard, Draw, Reshuffle
from baloot_conformance.family.engine.deck import cards_of
from baloot_conformance.family.engine.ledger import Seat
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.engine.pack import mask_of
from baloot_conformance.family.engine.state import HandState

# --- the draw -------------------------------------------------------------------------


class DrawPhase(HandState):
    """The draw's rules, as a base of :class:`~.hand.TrickHand` (the state is
    :class:`~.state.HandState`'s)."""

    __slots__ = ()

    def _declare_rule(self) -> str:
        rule = self.rules.phases.declare
        return "in_turn" if rule is None else rule.option

    def _refill_rule(self) -> str:
        rule = self.rules.phases.refill
        return "none" if rule is None else rule.option

    def discard_limit(self) -> int:
        """``phases.draw.discards``: the most a player may discard at this table size."""
        rule = self.rules.phases.discards
        if rule is None:
            return 0
        return rule.limit(self.ledger.players)

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

    def _gatherable(self, seat: Seat) -> int:
        """What a reshuffle to serve ``seat`` would gather now: the folded hands first under
        ``folded_first``, else the discards, never ``seat``'s own under ``exclude_own``."""
        rule = self.rules.phases.refill
        option = self._refill_rule()
        if option == "none" or rule is None:
            return 0
        if option == "folded_first":
            folded = 0
            for cards in self.folded:
                folded |= cards
            if folded:
                return folded
        discards = 0
        for cards in self.discards:
            discards |= cards
        return discards & ~self.discards[seat] if rule.exclude_own else discards

    def _most_served(self, seat: Seat, limit: int) -> int:
        """The most cards (up to ``limit``) ``seat`` may discard and still be served: all of
        them when his own discards may come back to him, else the stock and what reshuffles
        would gather without them."""
        stock = self.stock.bit_count()
        rule = self.rules.phases.refill
        option = self._refill_rule()
        if stock >= limit:
            return limit
        if option == "none" or rule is None:
            return stock
        if not rule.exclude_own:
            return limit
        others = 0
        for other, cards in enumerate(self.discards):
            if other != seat:
                others |= cards
        if option == "folded_first":
            for cards in self.folded:
                others |= cards
        return min(limit, stock + others.bit_count())

    def _one_round(self) -> bool:
        """The declaration says the discards and the exchange follows it at once."""
        return self._declare_rule() == "in_turn"

    def _declarations(self, seat: Seat) -> list[Action]:
        options = _declares(seat)
        if not self._one_round():
            return list(options[1:2] if self._must_play(seat) else options[:2])
        most = self._most_served(seat, min(self.discard_limit(), self.hands[seat].bit_count()))
        return list(options[1 : most + 2] if self._must_play(seat) else options[: most + 2])

    def _push_declare(self, action: Declare) -> None:
        seat = action.seat
        rule = "phases.draw.declare"
        if seat not in self.dealt_in or seat in self.declared:
            why = "has declared already" if seat in self.declared else "is not in this hand"
            raise IllegalAction(rule, f"{self.seat_name(seat)} {why}")
        if self._declare_rule() != "simultaneous":
            turn = self.to_act()
            if seat != turn:
                raise IllegalAction(
                    rule,
                    f"{self.names[seat]} declared before {self.seat_name(turn)}: the players "
                    "declare in turn from the dealer's next seat",
                )
        name = self.names[seat]
        if not action.play:
            if action.discards:
                raise IllegalAction(rule, f"{name} passed and discards nothing")
            if self._must_play(seat):
                assert self.faceup is not None
                raise IllegalAction(
                    "phases.draw.faceup_ace",
                    f"{name} passed, but the dealer must play on the face-up "
                    f"{self.pack.codes[self.faceup]}",
                )
        elif not self._one_round():
            if action.discards:
                raise IllegalAction(
                    rule,
                    f"{name} said it discards {action.discards} with its play; under "
                    f"{self._declare_rule()} the discards come in the draw's second round",
                )
        else:
            self._check_discards(seat, action.discards)
        self.declared[seat] = action
        if not action.play:
            self.folded[seat] = self.hands[seat]
            self.hands[seat] = 0
        elif self._one_round():
            self.agenda = self._steps(action)
        if self.agenda:
            return
        self._after_draw_step()

    def _check_discards(self, seat: Seat, count: int) -> None:
        """``phases.draw.discards`` (the limit) and ``phases.draw.refill`` (the stock)."""
        limit = self.discard_limit()
        name = self.names[seat]
        if not 0 <= count <= limit:
            raise IllegalAction(
                "phases.draw.discards",
                f"{name} discards {count}; at most {limit} with {self.ledger.players} players",
            )
        most = self._most_served(seat, count)
        if count > most:
            how = (
                "and no reshuffle"
                if self._refill_rule() == "none"
                else "with what a reshuffle gathers, not the player's own discards"
            )
            raise IllegalAction(
                "phases.draw.refill",
                f"{name} discards {count}, but the dealer can serve {most} "
                f"(the stock holds {self.stock.bit_count()}, {how})",
            )

    def _steps(self, action: Declare) -> list[tuple[str, Seat, int]]:
        steps: list[tuple[str, Seat, int]] = []
        ante = self.rules.phases.ante
        if ante is not None and ante.stay:
            steps.append(("stay", action.seat, ante.stay))
        if not self._one_round():
            steps.append(("discard", action.seat, -1))
        elif action.discards:
            steps.append(("discard", action.seat, action.discards))
        return steps

    def _after_draw_step(self) -> None:
        """A declaration or a seat's exchange is done: the next seat, the second round of the
        exchanges, or the end of the draw. A lone player (every other one passed) has made
        his exchange, as every player who plays does, before ``phases.draw.lone_player``
        ``takes_pot`` gives him every trick."""
        if len(self.declared) < len(self.dealt_in):
            return
        if not self.closing:
            self.closing = True
            self.active = tuple(s for s in self.dealt_in if self.declared[s].play)
            if not self._one_round():
                self.agenda = [st for s in self.active for st in self._steps(self.declared[s])]
                if self.agenda:
                    return
        lone = self.rules.phases.lone_player
        if len(self.active) == 1 and lone is not None and lone.option == "takes_pot":
            self.tricks = {self.active[0]: self.rules.phases.tricks.count}
            self.start_settle()
            return
        self.next_phase()

    def _discard_actions(self, seat: Seat, count: int) -> list[Action]:
        held = list(cards_of(self.hands[seat]))
        if count >= 0:
            return [Discard(seat, combo) for combo in combinations(held, count)]
        most = self._most_served(seat, min(self.discard_limit(), len(held)))
        return [Discard(seat, c) for k in range(most + 1) for c in combinations(held, k)]

    def _draw_actions(self, seat: Seat) -> list[Action]:
        if self.stock.bit_count() < self.owed:
            return [Reshuffle(seat)]
        if self.pack_order is None:
            return []
        return [Draw(seat, tuple(self.pack_order[: self.owed]))]

    def _push_discard(self, action: Action, seat: Seat, count: int) -> None:
        name = self.names[seat]
        rule = "phases.draw.discards"
        if not isinstance(action, Discard) or action.seat != seat:
            said = self.describe(action)
            want = "its discards" if count < 0 else f"{count} cards"
            raise IllegalAction(rule, f"{name} is to discard {want}; got {said}")
        cards = mask_of(action.cards)
        if cards.bit_count() != len(action.cards):
            raise IllegalAction(rule, f"{name} discarded a card twice")
        if count >= 0 and len(action.cards) != count:
            raise IllegalAction(
                rule, f"{name} declared {count} discards and discarded {len(action.cards)}"
            )
        if cards & ~self.hands[seat]:
            raise IllegalAction(
                rule,
                f"{name} discarded {self.pack.format(cards & ~self.hands[seat])}, which it does "
                f"not hold (holds {self.pack.format(self.hands[seat])})",
            )
        if count < 0:
            self._check_discards(seat, len(action.cards))
        self.hands[seat] &= ~cards
        self.discards[seat] |= cards
        self.owed = len(action.cards)
        if self.owed:
            self.agenda.insert(1, ("draw", seat, self.owed))
        self.done_step()

    def _push_draw(self, action: Action, seat: Seat) -> None:
        name = self.names[seat]
        if isinstance(action, Reshuffle) and action.seat == seat:
            self._reshuffle(seat)
            return
        rule = "phases.draw.discards"
        if not isinstance(action, Draw) or action.seat != seat:
            said = self.describe(action)
            raise IllegalAction(rule, f"{name} is to be served {self.owed} cards; got {said}")
        cards = mask_of(action.cards)
        count = len(action.cards)
        if not count or count > self.owed or cards.bit_count() != count:
            raise IllegalAction(rule, f"{name} is owed {self.owed} cards and is served {count}")
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
        self.owed -= count
        if not self.owed:
            self.done_step()

    def _reshuffle(self, seat: Seat) -> None:
        name = self.names[seat]
        rule = "phases.draw.refill"
        if self._refill_rule() == "none":
            raise IllegalAction(rule, "the discards are not reshuffled: the stock is all")
        held = self.stock.bit_count()
        if held >= self.owed:
            raise IllegalAction(
                rule,
                f"the dealer reshuffled to serve {name}, but the stock still holds {held} "
                f"cards for the {self.owed} it is owed",
            )
        gathered = self._gatherable(seat)
        if not gathered:
            raise IllegalAction(rule, f"there is nothing to reshuffle to serve {name}")
        for other in range(self.ledger.players):
            self.discards[other] &= ~gathered
            self.folded[other] &= ~gathered
        self.stock |= gathered
        if self.pack_order is not None:
            assert self.rng is not None
            fresh = list(cards_of(gathered))
            self.rng.shuffle(fresh)
            self.pack_order = [*self.pack_order, *fresh]


_DECLARES: dict[Seat, tuple[Declare, ...]] = {}


def _declares(seat: Seat) -> tuple[Declare, ...]:
    """``seat``'s pass, then its plays with 0, 1, ... discards, made once."""
    declares = _DECLARES.get(seat)
    if declares is None:
        plays = tuple(Declare(seat, True, k) for k in range(64))
        declares = _DECLARES[seat] = (Declare(seat, False), *plays)
    return declares
