"""The raises of a contract: the raise chain [doubling.chain], Sun raises [doubling.sun] and
the lock choice [doubling.lock].

Raises come once the contract is final and the deal complete, before the first card
[doubling.window]: the hand (:mod:`~baloot_conformance.engine.hand`) checks that moment and
hands every raise, pass and lock choice to its :class:`Raises`, which knows whose turn each
level of the chain is, who has passed, and who may choose locked or open. A raise gives the
contract its new level (and lock); the hand keeps the contract.

Who may speak in the window is [doubling.window]'s option: under ``before_first_lead`` every
seat entitled to the next raise may call it or pass, in any order; under ``in_turn`` they are
asked one at a time, in the order of play from the dealer's right, a pass handing the question
to the next of them; a lock chosen at a raise is chosen before the next seat speaks, and a Sun
raised as far as it may go closes the window. Under ``in_turn_from_buyer`` they are asked in
turn as under ``in_turn``, but from the buyer's right (his right-hand opponent first), and a
Sun that may not be doubled opens no window: nobody is asked. Under ``first_pass`` they speak
in any order, as under ``before_first_lead``, but the first pass closes the window for
everyone.
"""

from __future__ import annotations

from dataclasses import replace

from baloot_conformance.engine.actions import Action, Lock, Raise
from baloot_conformance.engine.model import SEAT_NAMES, TEAM_NAMES, Contract, IllegalAction, Seat
from baloot_conformance.engine.trace import Trace
from baloot_conformance.rules.model import RaiseLevel
from baloot_conformance.rules.ruleset import Ruleset

IN_TURN = ("in_turn", "in_turn_from_buyer")
"""The windows whose seats are asked one at a time [doubling.window]."""


class Raises:
    """The raise phase of one hand: the next level of the chain, the seats that raised and
    passed, and who may choose the lock now. ``totals`` are the game's totals before the hand,
    which Sun raises depend on."""

    __slots__ = (
        "dealer", "lock_by", "next_level", "passes", "raisers", "rules", "totals", "trace",
    )  # fmt: skip

    def __init__(
        self, rules: Ruleset, totals: tuple[int, int], trace: Trace | None, dealer: Seat = 0
    ) -> None:
        self.rules = rules
        self.totals = totals
        self.trace = trace
        self.dealer = dealer
        """The hand's dealer: the seats are asked in turn from his right [doubling.window]."""
        self.next_level = 0
        """The index of the next raise in the chain (its length when the chain is closed)."""
        self.raisers: list[Seat] = []
        self.passes: set[Seat] = set()
        """The seats that passed the next level."""
        self.lock_by: Seat | None = None
        """The seat that may choose locked or open now, if any (until the first card)."""

    def copy(self) -> Raises:
        other = Raises(self.rules, self.totals, self.trace, self.dealer)
        other.next_level = self.next_level
        other.raisers = list(self.raisers)
        other.passes = set(self.passes)
        other.lock_by = self.lock_by
        return other

    # --- what may come next -------------------------------------------------------------------

    def legal(self, contract: Contract) -> list[Action]:
        """The next raise of the chain and the passes, for the seats of the side entitled."""
        levels = self.rules.doubling.chain.levels
        if self.next_level >= len(levels) or self.no_window(contract):
            return []
        level = levels[self.next_level]
        may_raise = contract.kind == "hokum" or self.sun_refusal(contract, level.call) == ""
        actions: list[Action] = []
        for seat in self._asked(contract, level):
            if may_raise:
                actions.append(Raise(seat, level.call))
            if seat not in self.passes:
                actions.append(Raise(seat, "pass"))
        return actions

    def no_window(self, contract: Contract) -> bool:
        """Whether the hand opens no raise window at all [doubling.window]: under
        ``in_turn_from_buyer``, a Sun that may not be doubled, where nobody is asked."""
        if self.rules.doubling.window.option != "in_turn_from_buyer" or contract.kind != "sun":
            return False
        first = self.rules.doubling.chain.levels[0].call
        return not self.raisers and self.sun_refusal(contract, first) != ""

    def locks(self) -> list[Action]:
        """The lock choices open now."""
        if self.lock_by is None:
            return []
        return [Lock(self.lock_by, True), Lock(self.lock_by, False)]

    def sun_refusal(self, contract: Contract, call: str) -> str:
        """Why a Sun may not be raised with ``call`` [doubling.sun], or an empty string."""
        rule = self.rules.doubling.sun
        calls = self._calls()
        if rule.max_call == "none":
            return "a Sun is never raised in this ruleset"
        if calls.index(call) > calls.index(rule.max_call):
            return f"a Sun may be raised at most to {rule.max_call!r}"
        buyer_team = contract.buyer_team
        totals = self.totals
        env = {"buyer_total": totals[buyer_team], "doubler_total": totals[1 - buyer_team]}
        if not rule.condition.evaluate(env):
            return (
                f"a Sun may not be doubled at {TEAM_NAMES[buyer_team]} "
                f"{totals[buyer_team]} against {TEAM_NAMES[1 - buyer_team]} "
                f"{totals[1 - buyer_team]} (the condition is {rule.condition.source})"
            )
        return ""

    # --- raises -------------------------------------------------------------------------------

    def check(self, action: Raise, contract: Contract) -> None:
        """Refuse a raise or pass that is not the chain's next [doubling.chain], or a Sun raise
        the ruleset forbids [doubling.sun]; the moment is the hand's to check."""
        levels = self.rules.doubling.chain.levels
        if self.next_level >= len(levels):
            if self.passes and self.rules.doubling.window.option == "first_pass":
                raise IllegalAction("doubling.window", "the first pass closed the raises")
            raise IllegalAction("doubling.chain", "the raise chain is complete")
        if action.call == "pass" and self.no_window(contract):
            raise IllegalAction(
                "doubling.window",
                "nobody is asked to raise: a Sun that may not be doubled opens no raise window "
                f"({self.sun_refusal(contract, levels[0].call)})",
            )
        level = levels[self.next_level]
        entitled = self._entitled(contract, level)
        side = self._entitled_words(contract, level)
        asked = self._asked(contract, level)
        if action.seat in entitled and action.seat not in asked:
            start = (
                "buyer" if self.rules.doubling.window.option == "in_turn_from_buyer" else "dealer"
            )
            raise IllegalAction(
                "doubling.window",
                f"{SEAT_NAMES[asked[0]]} is asked first: the seats entitled to "
                f"{level.call!r} speak in turn from the {start}'s right",
            )
        if action.call == "pass":
            if action.seat not in entitled:
                raise IllegalAction(
                    "doubling.chain",
                    f"{SEAT_NAMES[action.seat]} passed, but the next raise ({level.call}) "
                    f"belongs to {side}",
                )
            if action.seat in self.passes:
                raise IllegalAction("doubling.chain", f"{SEAT_NAMES[action.seat]} already passed")
            return
        if action.call != level.call:
            known = self._calls()
            what = "not a raise" if action.call not in known else "not the next raise"
            raise IllegalAction(
                "doubling.chain",
                f"{action.call!r} is {what}: the next raise is {level.call!r}, by {side}",
            )
        if action.seat not in entitled:
            raise IllegalAction(
                "doubling.chain",
                f"{level.call!r} is called by {side}, not {SEAT_NAMES[action.seat]}",
            )
        if contract.kind == "sun":
            why = self.sun_refusal(contract, action.call)
            if why:
                raise IllegalAction("doubling.sun", why)

    def apply(self, action: Raise, contract: Contract) -> Contract:
        """The contract after a checked raise or pass (the same contract after a pass, until
        every seat entitled has passed and the chain closes)."""
        levels = self.rules.doubling.chain.levels
        level = levels[self.next_level]
        if self.rules.doubling.window.option in IN_TURN:
            self.lock_by = None  # a lock goes with its raise, before the next seat speaks
        if action.call == "pass":
            self.passes.add(action.seat)
            first_pass = self.rules.doubling.window.option == "first_pass"
            if first_pass or len(self.passes) == len(self._entitled(contract, level)):
                self.close(contract)
            return contract
        self.raisers.append(action.seat)
        self.next_level += 1
        self.passes = set()
        gahwa = level.call == "gahwa"  # the level that doubling.gahwa governs
        lock = self.rules.doubling.lock
        locked = contract.locked
        if lock.option in ("at_double_and_four", "automatic"):  # each raise sets the lock anew
            locked = lock.option == "automatic" and level.side == "opponents"
        if gahwa and lock.gahwa_open:
            locked = False
        raised = self.changed(contract, level=level.multiplier, gahwa=gahwa, locked=locked)
        self.lock_by = self._lock_chooser(raised, action.seat, level)
        if self.trace is not None and raised.kind == "hokum":
            self.trace.hit("doubling.lock")
        if self.next_level >= len(levels) or self._sun_at_most(raised):
            self.close(raised)
        return raised

    def _sun_at_most(self, contract: Contract) -> bool:
        """A Sun raised to its highest call closes a window whose seats are asked in turn
        [doubling.window]: nobody is left to ask."""
        if contract.kind != "sun" or self.rules.doubling.window.option not in IN_TURN:
            return False
        calls = self._calls()
        return self.rules.doubling.sun.max_call == "none" or self.next_level > calls.index(
            self.rules.doubling.sun.max_call
        )

    def close(self, contract: Contract) -> None:
        """No more raises: the buyer chooses the lock now if the ruleset says so."""
        self.next_level = len(self.rules.doubling.chain.levels)
        lock = self.rules.doubling.lock
        if (
            lock.option == "buyer_after_raises"
            and contract.kind == "hokum"
            and self.raisers
            and not (contract.gahwa and lock.gahwa_open)
        ):
            self.lock_by = contract.buyer

    def changed(
        self,
        contract: Contract,
        level: int | None = None,
        gahwa: bool | None = None,
        locked: bool | None = None,
    ) -> Contract:
        """``contract`` at a new level or lock, with the seats that raised so far."""
        return replace(
            contract,
            raisers=tuple(self.raisers),
            level=contract.level if level is None else level,
            gahwa=contract.gahwa if gahwa is None else gahwa,
            locked=contract.locked if locked is None else locked,
        )

    # --- the lock -----------------------------------------------------------------------------

    def check_lock(self, action: Lock, before_first_card: bool) -> None:
        """Refuse a lock choice by anyone but the seat that may choose it now [doubling.lock]."""
        if self.lock_by is None or not before_first_card:
            raise IllegalAction(
                "doubling.lock", f"{SEAT_NAMES[action.seat]} may not choose the lock now"
            )
        if action.seat != self.lock_by:
            raise IllegalAction(
                "doubling.lock",
                f"the lock is chosen by {SEAT_NAMES[self.lock_by]}, not {SEAT_NAMES[action.seat]}",
            )

    def _lock_chooser(self, contract: Contract, seat: Seat, level: RaiseLevel) -> Seat | None:
        """Who may now choose locked or open [doubling.lock], if anyone."""
        if contract.kind != "hokum":
            return None
        lock = self.rules.doubling.lock
        calls = self._calls()
        if contract.gahwa and lock.gahwa_open:
            return None
        index = calls.index(level.call)
        chooses = {
            "doubler_at_double": index == 0,
            "each_raiser": True,
            "four_only": index == 2,
            "at_double_and_four": index in (0, 2),
            "buyer_after_raises": False,
            "automatic": False,
            "none": False,
        }[lock.option]
        return seat if chooses else None

    # --- whose turn ---------------------------------------------------------------------------

    def _calls(self) -> list[str]:
        return [level.call for level in self.rules.doubling.chain.levels]

    def _entitled(self, contract: Contract, level: RaiseLevel) -> tuple[Seat, ...]:
        """The seats that may call (or pass) ``level`` [doubling.chain]: a side's two players,
        or one player (the buyer, whoever doubled, or the buyer's right-hand opponent)."""
        if level.by == "buyer":
            return (contract.buyer,)
        if level.by == "buyer_right":
            return ((contract.buyer + 1) % 4,)
        if level.by == "doubler":
            return (self.raisers[0],)
        side = contract.buyer_team ^ (level.side == "opponents")
        return (side, side + 2)

    def _asked(self, contract: Contract, level: RaiseLevel) -> tuple[Seat, ...]:
        """The entitled seats that may speak now [doubling.window]: all of them, or, when they
        speak in turn, the first from the dealer's right (or the buyer's) that has not passed."""
        entitled = self._entitled(contract, level)
        option = self.rules.doubling.window.option
        if option not in IN_TURN:
            return entitled
        start = contract.buyer if option == "in_turn_from_buyer" else self.dealer
        for step in range(1, 5):
            seat = (start + step) % 4
            if seat in entitled and seat not in self.passes:
                return (seat,)
        return ()

    def _entitled_words(self, contract: Contract, level: RaiseLevel) -> str:
        if level.by == "buyer":
            return f"the buyer ({SEAT_NAMES[contract.buyer]}) alone"
        if level.by == "doubler":
            return f"the doubler ({SEAT_NAMES[self.raisers[0]]}) alone"
        if level.by == "buyer_right":
            seat = SEAT_NAMES[(contract.buyer + 1) % 4]
            return f"the buyer's right-hand opponent ({seat}) alone"
        return "the buyer's side" if level.by == "buyer_team" else "the buyer's opponents"
