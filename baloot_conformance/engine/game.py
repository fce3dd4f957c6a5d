"""A game (صكة): hands until a team reaches the target, or a Gahwa decides.

Rules: ``game.target`` (the winning total), ``game.both_over_target`` (both teams over the
target in the same hand: the higher total wins, exactly equal totals play on),
``doubling.gahwa`` (a Gahwa hand may decide the game outright), ``deal.dealer.rotation`` (who
deals next, also after a void hand).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from baloot_conformance.engine.model import Seat, Team
from baloot_conformance.engine.scoring import HandResult
from baloot_conformance.engine.trace import Trace
from baloot_conformance.rules.ruleset import Ruleset


@dataclass
class Game:
    """The running state of a game; add each finished hand with :meth:`record`."""

    rules: Ruleset
    dealer: Seat
    totals: tuple[int, int] = (0, 0)
    results: list[HandResult] = field(default_factory=list)
    winner: Team | None = None
    trace: Trace | None = None
    """Counts the rules that decide the game's end (:mod:`~baloot_conformance.engine.trace`)."""

    def is_over(self) -> bool:
        return self.winner is not None

    def record(self, result: HandResult) -> None:
        """Add a finished hand's result: totals, the next dealer, and the game's end.

        Raises:
            ValueError: the game is already over.
        """
        if self.winner is not None:
            raise ValueError("the game is over")
        self.results.append(result)
        points = result.game_points
        self.totals = (self.totals[0] + points[0], self.totals[1] + points[1])
        self.dealer = result.next_dealer
        if result.score is not None and result.score.match_winner is not None:
            self.winner = result.score.match_winner
            return
        self._decide()

    def amend_last(self, result: HandResult) -> None:
        """Replace the last hand's result (a foul called after its last card changes its
        score): the totals and the game's end are decided again."""
        old = self.results.pop()
        points = old.game_points
        self.totals = (self.totals[0] - points[0], self.totals[1] - points[1])
        self.winner = None
        self.record(result)

    def go_on_from(self, totals: tuple[int, int]) -> None:
        """Go on from running totals a transcript states (its ``= total`` claim) instead of
        the kit's own, so that one wrong hand does not make every later one wrong: the end of
        the game is decided on them too, unless a Gahwa decided it."""
        self.totals = totals
        last = self.results[-1] if self.results else None
        if last is not None and last.score is not None and last.score.match_winner is not None:
            return
        self.winner = None
        self._decide()

    def _decide(self) -> None:
        """The end of the game on the totals [game.target, game.both_over_target]."""
        target = self.rules.game.target.points
        ns, ew = self.totals
        if self.trace is not None:
            self.trace.hit("game.target")
            if ns >= target and ew >= target:
                self.trace.hit("game.both_over_target")
        # Both over the target: the higher total wins; exactly equal totals play on
        # (game.both_over_target).
        if (ns >= target or ew >= target) and ns != ew:
            self.winner = 0 if ns > ew else 1
