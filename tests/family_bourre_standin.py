"""The Bourré ruleset and obligations the hand's tests and bench run on: the shipped
``bourre-wkc`` profile with rules replaced by :func:`bourre_rules`, and the generic engine's
obligations (:func:`~baloot_conformance.family.engine.hand.compile_play`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from baloot_conformance.family.engine.deck import Pack
from baloot_conformance.family.engine.hand import compile_play as hand_compile_play
from baloot_conformance.family.rules import model as m
from baloot_conformance.family.rules.loading import load_trick_ruleset
from baloot_conformance.rules.formula import parse_formula


def rule_fields(rule_id: str) -> dict[str, Any]:
    return {"id": rule_id, "statement": f"({rule_id})", "sources": ("SEED-003",), "notes": None}


BASE = load_trick_ruleset("bourre-wkc")


def bourre_rules(**changes: Any) -> m.TrickRuleset:
    """The ``bourre-wkc`` profile (the common rules, the served player's own discards left
    out of a reshuffle); ``changes`` maps a field of a section to its new rule, as
    ``discards=...``, ``limit=...`` (the sections are searched in order)."""
    sections: dict[str, Any] = {"table": BASE.table, "phases": BASE.phases, "scoring": BASE.scoring}
    for name, new in changes.items():
        for section in ("table", "phases", "scoring"):
            if hasattr(sections[section], name):
                sections[section] = replace(sections[section], **{name: new})
                break
        else:
            raise KeyError(name)
    return replace(BASE, **sections)


def rule(rule_id: str, cls: type, **fields: Any) -> Any:
    """A rule of ``cls`` with this ID (for ``bourre_rules(...)`` changes)."""
    return cls(**rule_fields(rule_id), **fields)


def payment(text: str) -> m.Payment:
    return m.Payment(**rule_fields("scoring.pot.bourre"), pays=parse_formula(text, m.POT_VARIABLES))


compile_play = hand_compile_play


def codes(pack: Pack, text: str) -> tuple[int, ...]:
    return tuple(pack.index[code] for code in text.split())
