"""Stand-ins for the family parts this branch does not own, for the hand's tests and bench.

- :func:`bourre_rules`: a Bourré :class:`TrickRuleset` built from :mod:`model`'s dataclasses
  (the seed's reading: 2-8 players, five cards, the dealer's last card face up for trump,
  five discards, a reshuffle without the served player's own discards, the pot carried on a
  tie); keyword arguments replace a rule. At the merge: ``load_trick_ruleset("bourre")`` of
  ``spec/rulesets/bourre.yaml``.
- :class:`BourrePlay` / :func:`compile_play`: follow suit, head the trick in the suit led,
  else trump and beat the trumps played (the seed's items 26-27); no cinch. At the merge:
  ``obligations.play_table(rules.play, deck.build_pack(...), ContractKey(contract, trump))``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from baloot_conformance.engine.model import IllegalAction
from baloot_conformance.family.engine.actions import TrickContext
from baloot_conformance.family.engine.pack import Pack, pack_of
from baloot_conformance.family.rules import model as m
from baloot_conformance.family.rules.play import (
    Node,
    Obligations,
    PlaySection,
    StageKind,
    StageRule,
)
from baloot_conformance.rules.formula import parse_formula
from baloot_conformance.rules.model import Rule

SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
POT = "if limit > 0 and pot > limit then limit else pot"


def rule_fields(rule_id: str) -> dict[str, Any]:
    return {"id": rule_id, "statement": f"({rule_id})", "sources": ("SEED-003",), "notes": None}


def bourre_rules(**changes: Any) -> m.TrickRuleset:
    """The stand-in ruleset; ``changes`` maps a field of a section to its new rule, as
    ``discards=...``, ``tie=...`` (the sections are searched in order)."""
    table = m.TableSection(
        deck=m.Deck(**rule_fields("table.deck"), suits=SUITS, ranks=RANKS),
        order_plain=m.CardOrder(**rule_fields("table.order.plain"), order=RANKS[::-1]),
        order_trump=m.CardOrder(**rule_fields("table.order.trump"), order=RANKS[::-1]),
        seats=m.Seats(**rule_fields("table.seats"), min=2, max=8),
        teams=m.Teams(**rule_fields("table.teams"), option="none"),
        direction=m.Direction(**rule_fields("table.direction"), option="clockwise"),
        dealer_rotation=m.DealerRotation(
            **rule_fields("table.dealer.rotation"),
            option="next",
            forfeit=("premature_announcement", "corrected_renege"),
        ),
    )
    phases = m.PhasesSection(
        pipeline=m.Pipeline(
            **rule_fields("phases.pipeline"), kinds=("ante", "deal", "draw", "tricks", "settle")
        ),
        deal=m.Deal(**rule_fields("phases.deal"), cards=5, faceup="dealer_last"),
        tricks=m.Tricks(
            **rule_fields("phases.tricks"), count=5, first_lead="first_active_after_dealer"
        ),
        ante=m.Ante(**rule_fields("phases.ante"), chips=1, exempt=("tie_leaders", "bourre")),
        declare=m.Declare(**rule_fields("phases.draw.declare"), option="in_turn"),
        discards=m.Discards(**rule_fields("phases.draw.discards"), max=5),
        refill=m.Refill(
            **rule_fields("phases.draw.refill"), option="reshuffle_discards", exclude_own=True
        ),
        faceup_ace=m.FaceupAce(**rule_fields("phases.draw.faceup_ace"), option="dealer_plays"),
        lone_player=m.LonePlayer(**rule_fields("phases.draw.lone_player"), option="takes_pot"),
    )
    formula = parse_formula(POT, m.POT_VARIABLES)
    scoring = m.ScoringSection(
        outcome=m.Outcome(**rule_fields("scoring.outcome"), option="most_tricks"),
        tie=m.PotTie(**rule_fields("scoring.pot.tie"), option="carry"),
        bourre=m.Payment(**rule_fields("scoring.pot.bourre"), pays=formula),
        renege=m.Payment(**rule_fields("scoring.pot.renege"), pays=formula),
        limit=m.PotLimit(**rule_fields("scoring.pot.limit"), chips=0),
    )
    game = m.GameSection(kind=m.GameKind(**rule_fields("game.kind"), option="session"))
    kinds: tuple[tuple[str, StageKind], ...] = (
        ("follow", "follow_suit"),
        ("head", "beat"),
        ("ruff", "ruff"),
    )
    stages = {k: StageRule(**rule_fields(f"play.{k}"), stage=st) for k, st in kinds}
    play = PlaySection(
        obligations=Obligations(**rule_fields("play.obligations"), tree=(Node(rule="follow"),)),
        stages=stages,
        trick_winner=Rule(**rule_fields("play.trick_winner")),
    )
    sections: dict[str, Any] = {"table": table, "phases": phases, "scoring": scoring}
    for name, rule in changes.items():
        for section in ("table", "phases", "scoring"):
            if hasattr(sections[section], name):
                sections[section] = replace(sections[section], **{name: rule})
                break
        else:
            raise KeyError(name)
    return m.TrickRuleset(
        id="bourre",
        version="0.0.0",
        title="Bourré (stand-in)",
        description="",
        path="<test>",
        lineage=("bourre@0.0.0",),
        table=sections["table"],
        contracts={"trump": m.Contract(**rule_fields("contracts.trump"), trump="faceup_suit")},
        phases=sections["phases"],
        play=play,
        scoring=sections["scoring"],
        game=game,
        sources={"SEED-003": "seed 003"},
        digest="0" * 64,
        document={},
    )


def rule(rule_id: str, cls: type, **fields: Any) -> Any:
    """A rule of ``cls`` with this ID (for ``bourre_rules(...)`` changes)."""
    return cls(**rule_fields(rule_id), **fields)


def payment(text: str) -> m.Payment:
    return m.Payment(**rule_fields("scoring.pot.bourre"), pays=parse_formula(text, m.POT_VARIABLES))


class BourrePlay:
    """Follow suit and head the trick; void: trump and beat the trumps played; else free."""

    def __init__(self, pack: Pack, trump: int | None) -> None:
        self.pack = pack
        self.trump = trump
        self.suit_masks = pack.suit_masks

    def _above(self, cards: int, best: int) -> int:
        """The cards of ``cards`` above ``best`` in its suit (ranks run low to high)."""
        return cards & self.suit_masks[self.pack.suit_of[best]] & ~((2 << best) - 1)

    def _decide(self, hand: int, trick: Sequence[int]) -> tuple[int, str, str]:
        if not trick:
            return hand, "", ""
        led = self.pack.suit_of[trick[0]]
        follow = hand & self.suit_masks[led]
        if follow:
            best = max(c for c in trick if self.pack.suit_of[c] == led)
            above = self._above(follow, best)
            if above:
                return above, "play.head", f"head {self.pack.codes[best]}"
            return follow, "play.follow", f"follow {self.pack.suits[led]}"
        if self.trump is None:
            return hand, "", ""
        trumps = hand & self.suit_masks[self.trump]
        if not trumps:
            return hand, "", ""
        played = [c for c in trick if self.pack.suit_of[c] == self.trump]
        if played:
            above = self._above(trumps, max(played))
            if above:
                return above, "play.head", f"beat {self.pack.codes[max(played)]}"
        return trumps, "play.ruff", "trump"

    def legal(self, hand: int, trick: tuple[int, ...], context: TrickContext) -> int:
        return self._decide(hand, trick)[0]

    def check(self, hand: int, trick: tuple[int, ...], context: TrickContext, card: int) -> bool:
        legal, rule_id, what = self._decide(hand, trick)
        if legal >> card & 1:
            return True
        name = context.ring.names[context.player]
        raise IllegalAction(
            rule_id,
            f"{name} played {self.pack.codes[card]} but must {what} with "
            f"{self.pack.format(legal)} (holds {self.pack.format(hand)})",
        )

    def winner(self, trick: tuple[int, ...]) -> int:
        led = self.pack.suit_of[trick[0]]
        suit = led
        if self.trump is not None and any(self.pack.suit_of[c] == self.trump for c in trick):
            suit = self.trump
        best = max(c for c in trick if self.pack.suit_of[c] == suit)
        return list(trick).index(best)


_COMPILED: dict[tuple[tuple[str, ...], tuple[str, ...], int | None], BourrePlay] = {}


def compile_play(rules: m.TrickRuleset, contract: str, trump: int | None) -> BourrePlay:
    deck = rules.table.deck
    key = (deck.suits, deck.ranks, trump)
    compiled = _COMPILED.get(key)
    if compiled is None:
        compiled = _COMPILED[key] = BourrePlay(pack_of(rules), trump)
    return compiled


def codes(pack: Pack, text: str) -> tuple[int, ...]:
    return tuple(pack.index[code] for code in text.split())
