"""Rulesets that allow table talk, shared by the tests of the checker and of the suite:
saudi's rules changed parameter by parameter (the shipped rulesets refuse an illegal card
and have no Kawesh)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from baloot_conformance.rules.loading import isolate, load_ruleset
from baloot_conformance.rules.ruleset import Ruleset, rule_documents

SAUDI = load_ruleset("saudi")


def changed(base: Ruleset, rules: Mapping[str, Mapping[str, Any]]) -> Ruleset:
    """``base`` with some parameters of some rules changed, by rule ID."""
    documents = rule_documents(base)
    ruleset = isolate(base, {rid: {**documents[rid], **values} for rid, values in rules.items()})
    assert ruleset is not None, rules
    return ruleset


#: Saudi where fouls stand until called and Kawesh may be claimed any time in the auction.
TALK = changed(
    SAUDI,
    {
        "play.fouls": {"option": "stand_until_called"},
        "deal.kawesh": {"option": "same_dealer"},
    },
)
#: TALK where any player may claim Sawa on their turn, for the side.
ON_TURN = changed(TALK, {"claims.sawa": {"who": "on_turn", "forced": "side"}})
