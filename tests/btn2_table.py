"""Stand-in trick rulesets for the BTN 2 tests: Bourré's table (a 52-card pack, 2 to 8
numbered seats, five cards each, five tricks), Barbu's and Hearts' (four named seats, thirteen
cards each, Hearts' pass), built from the typed model directly.

The reader only needs ``table`` and ``phases``; the other sections are the smallest values the
model takes. At the merge, :func:`bourre` can give way to
``family.rules.loading.load_trick_ruleset`` on ``spec/rulesets/bourre.yaml``.
"""

from __future__ import annotations

from typing import Any

from baloot_conformance.errors import Location, UnreadableInputError
from baloot_conformance.family.rules import model as m

_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")


def _rule(cls: type[Any], rule_id: str, **fields: Any) -> Any:
    return cls(id=rule_id, statement=rule_id, sources=("TEST",), notes=None, **fields)


def ruleset(
    *,
    ranks: tuple[str, ...] = _RANKS,
    names: tuple[str, ...] = (),
    cards: int = 5,
    tricks: int = 5,
    seats: tuple[int, int] = (2, 8),
    rid: str = "bourre",
    passing: bool = False,
    points: bool = False,
) -> m.TrickRuleset:
    """A trick ruleset with this table (defaults: Bourré's)."""
    table = m.TableSection(
        deck=_rule(m.Deck, "table.deck", suits=("S", "H", "D", "C"), ranks=ranks),
        order_plain=_rule(m.CardOrder, "table.order.plain", order=tuple(reversed(ranks))),
        order_trump=_rule(m.CardOrder, "table.order.trump", order=tuple(reversed(ranks))),
        seats=_rule(m.Seats, "table.seats", min=seats[0], max=seats[1], names=names),
        teams=_rule(m.Teams, "table.teams", option="none"),
        direction=_rule(m.Direction, "table.direction", option="clockwise"),
        dealer_rotation=_rule(m.DealerRotation, "table.dealer.rotation", option="next"),
    )
    phases = m.PhasesSection(
        pipeline=_rule(m.Pipeline, "phases.pipeline", kinds=("ante", "deal", "draw", "tricks")),
        deal=_rule(m.Deal, "phases.deal", cards=cards, faceup="dealer_last"),
        tricks=_rule(m.Tricks, "phases.tricks", count=tricks),
        pass_cards=_rule(m.PassCards, "phases.draw.pass", cards=3, cycle=("left",))
        if passing
        else None,
    )
    return m.TrickRuleset(
        id=rid,
        version="1.0",
        title=rid,
        description=rid,
        path=f"{rid}.yaml",
        lineage=(rid,),
        table=table,
        contracts={},
        phases=phases,
        play=None,
        scoring=m.ScoringSection(
            outcome=_rule(
                m.Outcome, "scoring.outcome", option="points" if points else "most_tricks"
            )
        ),
        game=m.GameSection(kind=_rule(m.GameKind, "game.kind", option="session")),
        sources={"TEST": "the BTN 2 tests"},
        digest="0" * 64,
        document={},
    )


BOURRE = ruleset()
PIQUET = ruleset(ranks=("7", "8", "9", "T", "J", "Q", "K", "A"), rid="piquet")
FIXED = ruleset(names=("N", "E", "S", "W"), cards=8, tricks=8, seats=(4, 4), rid="fixed")
#: Barbu's and Hearts' tables: four named seats, thirteen cards, thirteen tricks; Hearts passes.
BARBU = ruleset(
    names=("N", "E", "S", "W"), cards=13, tricks=13, seats=(4, 4), rid="barbu", points=True
)
HEARTS = ruleset(
    names=("N", "E", "S", "W"),
    cards=13,
    tricks=13,
    seats=(4, 4),
    rid="hearts",
    passing=True,
    points=True,
)
RULESETS = {
    "bourre@1": BOURRE,
    "piquet@1": PIQUET,
    "fixed@1": FIXED,
    "barbu@1": BARBU,
    "hearts@1": HEARTS,
}


def ruleset_for(reference: str, location: Location) -> m.TrickRuleset:
    """The stand-in loader: the rulesets above by reference, or the kit's error."""
    try:
        return RULESETS[reference]
    except KeyError:
        raise UnreadableInputError(f"{location}: unknown ruleset {reference!r}") from None
