"""The draw as a pass (Hearts) [phases.draw.pass].

Every player, in turn from the dealer's next seat, lays ``cards`` cards face down for the seat
the hand's entry of the ``cycle`` names (hand ``n`` of the game: entry ``(n - 1) mod`` its
length; ``left`` is the next seat in the direction of play, ``right`` the one before,
``across`` the one opposite): each pass is a :class:`Discard`. Once all have passed, each
player, in the same order, takes up the cards passed to him: a :class:`Draw` of exactly those.
A hand whose entry is ``none`` has no pass: the draw is skipped.

:class:`PassPhase` is a base of :class:`~.hand.TrickHand`: the hand holds the state, this
module the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import overload

from baloot_conformance.family.engine.actions import Action, Discard, Draw
from baloot_conformance.family.engine.ledger import Seat
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.engine.pack import mask_of
from baloot_conformance.family.engine.state import HandState

RULE = "phases.draw.pass"

#: Where each cycle entry passes, as a step in the direction of play (``None``: no pass).
OFFSETS = {"left": 1, "right": -1, "across": 2, "none": None}


class PassPhase(HandState):
    """The pass's rules (state in :class:`~.hand.TrickHand`)."""

    __slots__ = ()

    def pass_entry(self) -> str:
        """The hand's entry of the cycle: ``left``, ``right``, ``across`` or ``none``."""
        rule = self.rules.phases.pass_cards
        assert rule is not None
        return rule.cycle[(self.ledger.hand - 1) % len(rule.cycle)]

    def _start_pass(self) -> bool:
        """Set up the pass; ``False`` when this hand has none."""
        step = OFFSETS[self.pass_entry()]
        if step is None:
            return False
        self.pass_step = step
        self.passed = [None] * self.ledger.players
        self.taken_up = 0
        return True

    def pass_turn(self) -> tuple[str, Seat]:
        """The next step of the pass: ``("pass", seat)`` or ``("take", seat)``."""
        order = self.dealt_in
        waiting = next((s for s in order if self.passed[s] is None), None)
        if waiting is not None:
            return "pass", waiting
        return "take", order[self.taken_up]

    def passer_to(self, seat: Seat) -> Seat:
        """The seat whose cards ``seat`` takes up."""
        return (seat - self.pass_step) % self.ledger.players

    def pass_actions(self) -> list[Action]:
        step, seat = self.pass_turn()
        if step == "take":
            cards = self.passed[self.passer_to(seat)]
            assert cards is not None
            return [Draw(seat, cards)]
        return []  # which cards a player passes is his choice: too many to list

    def _push_pass(self, action: Action) -> None:
        step, seat = self.pass_turn()
        name = self.names[seat]
        rule = self.rules.phases.pass_cards
        assert rule is not None
        if step == "pass":
            if not isinstance(action, Discard) or action.seat != seat:
                raise IllegalAction(
                    RULE,
                    f"{name} is to pass {rule.cards} cards {self.pass_entry()}, not "
                    f"{self.describe(action)}",
                )
            cards = action.cards
            held = self.hands[seat]
            if len(cards) != rule.cards or len(set(cards)) != len(cards):
                raise IllegalAction(
                    RULE, f"{name} passes {len(set(cards))} cards; each player passes {rule.cards}"
                )
            if any(not (0 <= c < self.pack.size and held >> c & 1) for c in cards):
                raise IllegalAction(
                    RULE,
                    f"{name} passes {self.pack.format(mask_of(c for c in cards if 0 <= c < 64))}, "
                    f"not all its own (holds {self.pack.format(held)})",
                )
            self.passed[seat] = tuple(sorted(cards))
            return
        source = self.passer_to(seat)
        due = self.passed[source]
        assert due is not None
        if not isinstance(action, Draw) or action.seat != seat:
            raise IllegalAction(
                RULE,
                f"{name} is to take up the cards {self.names[source]} passed, not "
                f"{self.describe(action)}",
            )
        if tuple(sorted(action.cards)) != due:
            got = self.pack.format(mask_of(c for c in action.cards if 0 <= c < 64))
            raise IllegalAction(
                RULE,
                f"{name} takes up {got}, but {self.names[source]} passed it "
                f"{self.pack.format(mask_of(due))} (a pass {self.pass_entry()})",
            )
        self.taken_up += 1
        if self.taken_up == len(self.dealt_in):
            for seat_ in self.dealt_in:
                own = self.passed[seat_]
                got_ = self.passed[self.passer_to(seat_)]
                assert own is not None and got_ is not None
                self.hands[seat_] = (self.hands[seat_] & ~mask_of(own)) | mask_of(got_)
            self.next_phase()


class PassChoices(Sequence[Action]):
    """Every pass a seat may make (each set of ``count`` of its cards), in the order of
    :func:`itertools.combinations`, made one at a time when asked for: a list of them would
    be hundreds of actions (286 of thirteen cards taken three at a time) for one choice."""

    def __init__(self, seat: Seat, cards: tuple[int, ...], count: int) -> None:
        self.seat = seat
        self.cards = cards
        self.passed = count
        self._size = comb(len(cards), count)

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | Sequence[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._size))]
        if index < 0:
            index += self._size
        if not 0 <= index < self._size:
            raise IndexError(index)
        return Discard(self.seat, _nth_combination(self.cards, self.passed, index))


def _nth_combination(pool: tuple[int, ...], r: int, index: int) -> tuple[int, ...]:
    """The ``index``-th of ``itertools.combinations(pool, r)`` (the recipe of the itertools
    documentation)."""
    n = len(pool)
    c = comb(n, r)
    result = []
    while r:
        c, n, r = c * r // n, n - 1, r - 1  # exact: each step divides evenly
        while index >= c:
            index -= c
            c, n = c * (n - r) // n, n - 1
        result.append(pool[-1 - n])
    return tuple(result)
