"""What a hand's players declare: projects in trick 1 [projects.declaration, projects.limits]
and the Baloot announcement [projects.baloot].

The hand (:mod:`~baloot_conformance.engine.hand`) keeps a :class:`Declarations` and tells it
the moment (whether trick 1 is open, whether the seat has played in it, the card just
played); the projects themselves, and which count, are
:mod:`~baloot_conformance.engine.projects`'.
"""

from __future__ import annotations

from collections.abc import Sequence

from baloot_conformance.cards import Card, Rank
from baloot_conformance.cards import card as card_of
from baloot_conformance.engine import projects as projects_
from baloot_conformance.engine.actions import Action, Announce, Declare, Play
from baloot_conformance.engine.model import SEAT_NAMES, CardSet, Contract, IllegalAction, Seat
from baloot_conformance.engine.projects import Project
from baloot_conformance.engine.trace import Trace
from baloot_conformance.rules.ruleset import Ruleset

_BALOOT_RANKS = (Rank.KING, Rank.QUEEN)


class Declarations:
    """The projects declared in one hand (by the players, or for them by the ruleset), the
    projects each seat could declare, and the seats that announced Baloot."""

    __slots__ = ("announced", "found", "projects", "rules", "trace")

    def __init__(self, rules: Ruleset, trace: Trace | None) -> None:
        self.rules = rules
        self.trace = trace
        self.projects: list[Project] = []
        """The projects declared so far, in order."""
        self.found: dict[Seat, tuple[Project, ...]] = {}
        """Projects each seat could declare (computed once, on demand)."""
        self.announced: set[Seat] = set()

    def copy(self) -> Declarations:
        other = Declarations(self.rules, self.trace)
        other.projects = list(self.projects)
        other.found = dict(self.found)
        other.announced = set(self.announced)
        return other

    # --- projects -----------------------------------------------------------------------------

    def legal(
        self, contract: Contract, seat: Seat, cards: CardSet, in_trick_one: bool, played: bool
    ) -> list[Action]:
        """The declarations ``seat``, holding ``cards``, may make now (explicit rulesets);
        ``in_trick_one``: trick 1 is open, ``played``: the seat has played in it."""
        if not in_trick_one or not self.rules.projects.declaration.option.startswith("explicit"):
            return []
        found = self.found.get(seat)
        if found is None:
            found = projects_.find_projects(self.rules, contract.kind, seat, cards)
            self.found[seat] = found
        try:
            self.check_moment(seat, in_trick_one, played)
        except IllegalAction:
            return []
        mine = [p for p in self.projects if p.seat == seat]
        return [  # valid by construction; only the limits remain to check
            Declare(seat, project.name, project.cards)
            for project in found
            if projects_.can_add(self.rules, mine, project)
        ]

    def declare(
        self,
        action: Declare,
        contract: Contract | None,
        dealt: CardSet,
        in_trick_one: bool,
        played: bool,
    ) -> None:
        """Add the project a declaration makes, checked against the seat's ``dealt`` cards and
        the limits; raises :class:`IllegalAction` (nothing changes then). Under
        ``explicit_by_kind`` the seat's other projects of that kind come with it, and a
        declaration of one of them already declared changes nothing."""
        self.check_moment(action.seat, in_trick_one, played)
        assert contract is not None  # trick 1 is open
        kind = contract.kind
        known = [
            p
            for p in self.found.get(action.seat, ())
            if p.cards == action.cards and p.name == action.name
        ]
        project = (
            known[0]
            if known
            else projects_.declared_project(
                self.rules, kind, action.seat, dealt, action.name, action.cards
            )
        )
        mine = [p for p in self.projects if p.seat == action.seat]
        by_kind = self.rules.projects.declaration.option == "explicit_by_kind"
        if by_kind and project in mine:
            return
        projects_.check_declarations(self.rules, kind, action.seat, [*mine, project])
        self.projects.append(project)
        for other in (
            projects_.find_projects(self.rules, kind, action.seat, dealt) if by_kind else ()
        ):
            mine = [p for p in self.projects if p.seat == action.seat]
            if other.name == project.name and projects_.can_add(self.rules, mine, other):
                self.projects.append(other)

    def declare_for_players(self, contract: Contract, hands: list[CardSet]) -> None:
        """The projects of every seat, declared by the ruleset (the automatic options)."""
        if self.rules.projects.declaration.option not in ("automatic_all", "automatic_best_two"):
            return
        if self.trace is not None:
            self.trace.hit("projects.declaration")
        for seat in range(4):
            self.projects += projects_.automatic_declarations(
                self.rules, contract.kind, seat, hands[seat]
            )

    def check_moment(self, seat: Seat, in_trick_one: bool, played: bool) -> None:
        """Refuse a declaration the ruleset does not expect, or one outside trick 1 or after
        the seat's first card [projects.declaration]."""
        if self.trace is not None:
            self.trace.hit("projects.declaration", "projects.limits")
        option = self.rules.projects.declaration.option
        if option == "none":
            raise IllegalAction("projects.declaration", "this ruleset has no projects")
        if not option.startswith("explicit"):
            raise IllegalAction(
                "projects.declaration",
                "this ruleset declares projects for the players; a 'declare' is not expected",
            )
        if not in_trick_one:
            raise IllegalAction("projects.declaration", "projects are declared in trick 1 only")
        if played:
            raise IllegalAction(
                "projects.declaration",
                f"{SEAT_NAMES[seat]} declared after playing its first card",
            )

    # --- Baloot -------------------------------------------------------------------------------

    def announcement(
        self, contract: Contract | None, history: Sequence[Action], held: CardSet, dealt: CardSet
    ) -> Announce | None:
        """The Baloot announcement the hand's last action (of ``history``) allows, if any
        (announcements are optional); ``held`` and ``dealt``: its seat's cards now and as
        dealt."""
        last = history[-1] if history else None
        if not isinstance(last, Play) or contract is None or contract.trump is None:
            return None
        if last.card.suit is not contract.trump or last.card.rank not in _BALOOT_RANKS:
            return None
        action = Announce(last.seat)
        try:
            self.check_announce(action, contract, history, held, dealt)
        except IllegalAction:
            return None
        return action

    def check_announce(
        self,
        action: Announce,
        contract: Contract | None,
        history: Sequence[Action],
        held: CardSet,
        dealt: CardSet,
    ) -> None:
        """Refuse a Baloot announcement at the wrong moment (right after the hand's last
        action, of ``history``), by a seat without the pair, with the wrong card of it, a
        second time, or under ``counts: consecutive_tricks`` for a pair not played in two
        consecutive tricks [projects.baloot]."""
        last = history[-1] if history else None
        if self.trace is not None:
            self.trace.hit("projects.baloot")
        if action.what != "baloot":
            raise IllegalAction("projects.baloot", f"{action.what!r} is not an announcement")
        if contract is not None and (not isinstance(last, Play) or last.seat != action.seat):
            raise IllegalAction(
                "projects.baloot", "Baloot is announced right after playing its King or Queen"
            )
        king, queen = baloot_pair(contract, action.seat, dealt)
        assert isinstance(last, Play)
        if last.card not in (king, queen):
            raise IllegalAction("projects.baloot", f"{last.card} is not the King or Queen of trump")
        second = held & (1 << king.index | 1 << queen.index) == 0
        if (self.rules.projects.baloot.announce == "second_card") != second:
            when = "second" if self.rules.projects.baloot.announce == "second_card" else "first"
            raise IllegalAction(
                "projects.baloot", f"Baloot is announced with the {when} of {king} and {queen}"
            )
        if action.seat in self.announced:
            raise IllegalAction("projects.baloot", "Baloot was already announced")
        if second and self.rules.projects.baloot.counts == "consecutive_tricks":
            played = [a.card for a in history if isinstance(a, Play)]
            if abs(played.index(king) // 4 - played.index(queen) // 4) != 1:
                raise IllegalAction(
                    "projects.baloot",
                    f"{king} and {queen} were not played in consecutive tricks: no Baloot",
                )


def baloot_pair(contract: Contract | None, seat: Seat, dealt: CardSet) -> tuple[Card, Card]:
    """The King and Queen of trump, which ``seat`` must have been ``dealt`` [projects.baloot];
    raises :class:`IllegalAction` when it was not, or in a Sun."""
    if contract is None or contract.trump is None:
        raise IllegalAction("projects.baloot", "Baloot exists in Hokum only")
    king, queen = card_of(Rank.KING, contract.trump), card_of(Rank.QUEEN, contract.trump)
    pair = 1 << king.index | 1 << queen.index
    if dealt & pair != pair:
        raise IllegalAction(
            "projects.baloot", f"{SEAT_NAMES[seat]} does not hold {king} and {queen}"
        )
    return king, queen
