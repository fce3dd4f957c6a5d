"""The declarer's phases of a compendium game (Barbu): the choice of contract and the doubling.

``choose`` [phases.choose]
    the hand's declarer (``game.declarers``, found from the dealer by
    ``table.dealer.rotation``) chooses a contract, naming its trump suit (``trump: named``) or
    its start rank (``play: layout``); under ``each_once`` not one he has chosen in his block
    (the ledger's record; a record not known is not checked).
``wagers`` [phases.wagers.*]
    from the declarer's left, each player in turn doubles any of the others, or redoubles a
    player who doubled him; the declarer speaks last (``wagers.declarer``: ``answer_only``, he
    only redoubles); in a positive contract only the declarer may be doubled
    (``wagers.positive``); a player who owes the declarer more doubles than the block has hands
    left must double him now (``wagers.quota``).

:class:`DeclarerPhases` is a base of :class:`~.hand.TrickHand`, as :class:`~.draw.DrawPhase`
is: the hand holds the state (its slots), this module the rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from baloot_conformance.family.engine.actions import Action, Choose, Wager
from baloot_conformance.family.engine.ledger import Seat
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.engine.points import hands_left
from baloot_conformance.family.engine.state import HandState


class DeclarerPhases(HandState):
    """The rules of the choose and wagers phases (state in :class:`~.hand.TrickHand`)."""

    __slots__ = ()

    # --- choose -------------------------------------------------------------------------

    def _choices(self) -> Iterator[Choose]:
        """Every choice the declarer may make."""
        declarer = self.declarer
        assert declarer is not None
        for name in self._open_contracts():
            contract = self.rules.contracts[name]
            if contract.play == "layout":
                for rank in range(len(self.pack.ranks)):
                    yield Choose(declarer, name, rank)
            elif contract.trump == "named":
                for suit in range(len(self.pack.suits)):
                    yield Choose(declarer, name, suit)
            else:
                yield Choose(declarer, name)

    def _open_contracts(self) -> list[str]:
        """The contracts the declarer may still choose (``phases.choose``)."""
        rule = self.rules.phases.choose
        declarer = self.declarer
        assert declarer is not None
        chosen = self.ledger.chosen_by(declarer)
        if rule is None or rule.option == "any" or chosen is None:
            return list(self.rules.contracts)
        return [c for c in self.rules.contracts if c not in chosen]

    def _push_choose(self, action: Action) -> None:
        rule = "phases.choose"
        declarer = self.declarer
        assert declarer is not None
        if not isinstance(action, Choose):
            raise IllegalAction(
                rule,
                f"{self.names[declarer]} is to choose the contract, not {self.describe(action)}",
            )
        if action.seat != declarer:
            raise IllegalAction(
                rule,
                f"{self.names[declarer]} declares this hand; {self.names[action.seat]} cannot "
                f"choose its contract",
            )
        contract = self.rules.contracts.get(action.contract)
        if contract is None:
            raise IllegalAction(
                rule,
                f"{action.contract} is not a contract of {self.rules.id}: "
                + ", ".join(self.rules.contracts),
            )
        if action.contract not in self._open_contracts():
            chosen = self.ledger.chosen_by(declarer) or ()
            raise IllegalAction(
                rule,
                f"{self.names[declarer]} has already chosen {action.contract} in this block "
                f"(chosen: {', '.join(chosen)}); each contract is chosen once: "
                + ", ".join(self._open_contracts()),
            )
        named = contract.trump == "named" or contract.play == "layout"
        what = "a start rank" if contract.play == "layout" else "a trump suit"
        size = len(self.pack.ranks) if contract.play == "layout" else len(self.pack.suits)
        if named and (action.arg is None or not 0 <= action.arg < size):
            raise IllegalAction(rule, f"{action.contract} is chosen with {what}")
        if not named and action.arg is not None:
            raise IllegalAction(rule, f"{action.contract} names no suit and no rank")
        self.contract = action.contract
        if contract.trump == "named":
            self.trump = action.arg
        if contract.play == "layout":
            self.start_rank = action.arg
        self.next_phase()

    # --- wagers -------------------------------------------------------------------------

    def _start_wagers(self) -> None:
        declarer = self.declarer
        assert declarer is not None
        n = self.ledger.players
        self.wager_turns = tuple((declarer + k) % n for k in range(1, n + 1))
        self.doubles = [0] * n
        self.wagered = 0

    def wager_seat(self) -> Seat:
        """The seat whose turn it is in the doubling."""
        return self.wager_turns[self.wagered]

    def _doublers_of(self, seat: Seat) -> int:
        """The seats that doubled ``seat`` so far (a mask)."""
        mask = 0
        for other, targets in enumerate(self.doubles):
            if targets >> seat & 1:
                mask |= 1 << other
        return mask

    def _may_double(self, seat: Seat) -> int:
        """Whom ``seat`` may double (first doubles, not redoubles), as a mask."""
        declarer = self.declarer
        assert declarer is not None
        everyone = (1 << self.ledger.players) - 1
        if seat == declarer:
            rule = self.rules.phases.wager_declarer
            if rule is None or rule.option == "answer_only":
                return 0
        targets = everyone & ~(1 << seat) & ~self._doublers_of(seat)
        positive = self.rules.phases.wager_positive
        if self.rules.contracts[self.contract].positive and (
            positive is None or positive.option == "declarer_only"
        ):
            targets &= 1 << declarer
        return targets

    def _owes_declarer(self, seat: Seat) -> bool:
        """Whether ``seat`` must double the declarer now (``phases.wagers.quota``): it owes
        him more doubles than his block has hands left after this one."""
        quota = self.rules.phases.wager_quota
        declarer = self.declarer
        if quota is None or declarer is None or seat == declarer:
            return False
        counts = self.ledger.doubles_of(declarer)
        left = hands_left(self.rules, self.ledger, declarer)
        if counts is None or left is None:
            return False
        return counts[seat] + left < quota.doubles

    def _wagers(self, seat: Seat) -> list[Action]:
        """Every wager ``seat`` may make now."""
        doubles = self._may_double(seat)
        answers = self._doublers_of(seat)
        must = 1 << self.declarer if self._owes_declarer(seat) and self.declarer is not None else 0
        out: list[Action] = []
        for d in _subsets(doubles):
            if must and not d & must:
                continue
            for r in _subsets(answers):
                out.append(Wager(seat, d, r))
        return out

    def _push_wager(self, action: Action) -> None:
        seat = self.wager_seat()
        name = self.names[seat]
        rule = "phases.wagers.declarer"
        if not isinstance(action, Wager) or action.seat != seat:
            raise IllegalAction(rule, f"{name} is to double or pass, not {self.describe(action)}")
        answers = self._doublers_of(seat)
        allowed = self._may_double(seat)
        stray = action.redoubles & ~answers
        if stray:
            raise IllegalAction(
                rule,
                f"{name} redoubles {self._seats(stray)}, who did not double {name}: a redouble "
                "answers a double",
            )
        if action.doubles & answers:
            raise IllegalAction(
                rule,
                f"{name} doubles {self._seats(action.doubles & answers)}, who doubled {name} "
                "already: that is a redouble",
            )
        wrong = action.doubles & ~allowed & ~(1 << seat)
        if wrong or action.doubles >> seat & 1:
            declarer = self.declarer
            assert declarer is not None
            if seat == declarer and not allowed:
                raise IllegalAction(
                    rule,
                    f"{name} declares and may only redouble players who doubled him, not "
                    f"double {self._seats(action.doubles)}",
                )
            if action.doubles >> seat & 1:
                raise IllegalAction(rule, f"{name} cannot double himself")
            raise IllegalAction(
                "phases.wagers.positive",
                f"{name} doubles {self._seats(wrong)}, but in {self.contract}, a positive "
                f"contract, only the declarer {self.names[declarer]} may be doubled",
            )
        declarer = self.declarer
        assert declarer is not None
        if self._owes_declarer(seat) and not action.doubles >> declarer & 1:
            counts = self.ledger.doubles_of(declarer)
            assert counts is not None and self.rules.phases.wager_quota is not None
            left = hands_left(self.rules, self.ledger, declarer)
            quota = self.rules.phases.wager_quota.doubles
            raise IllegalAction(
                "phases.wagers.quota",
                f"{name} has {_doubled(counts[seat], self.names[declarer])} in "
                f"{self.names[declarer]}'s block and must double him {_times(quota)}; with "
                f"{_hands(left)} left after this one, {name} must double him now",
            )
        self.doubles[seat] = action.doubles | action.redoubles
        self.wagered += 1
        if self.wagered == len(self.wager_turns):
            self.next_phase()

    def _seats(self, mask: int) -> str:
        return " ".join(self.names[s] for s in range(len(self.names)) if mask >> s & 1)


def _subsets(mask: int) -> Iterator[int]:
    """Every subset of ``mask``, the empty one first."""
    bits = [1 << i for i in range(mask.bit_length()) if mask >> i & 1]
    for k in range(len(bits) + 1):
        for group in combinations(bits, k):
            yield sum(group)


def _doubled(count: int, whom: str) -> str:
    return f"not yet doubled {whom}" if not count else f"doubled {whom} {_times(count)}"


def _times(count: int) -> str:
    return {0: "not once", 1: "once", 2: "twice"}.get(count, f"{count} times")


def _hands(count: int | None) -> str:
    return "no hand" if not count else "one hand" if count == 1 else f"{count} hands"
