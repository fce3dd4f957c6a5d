"""Which rules decided something during a replay: the measure behind rule coverage.

A :class:`Trace` handed to a :class:`~baloot_conformance.engine.hand.Hand` (and to its
auction and game) counts, under each rule ID, every decision the rule took: a legality check
that could have failed (an obligation that narrowed the legal cards, a call checked in a
bidding window), a conversion, a comparison (a trick's winner by the card orders, the
project comparison, the contract's totals). A rule that was merely *there* — the Hokum rules
in a Sun hand, an option whose case never came up — is not counted.

Tracing is off unless a trace is given; the engine then pays one ``is not None`` test per
card, so that checking a transcript is not slowed down by coverage it does not measure.
"""

from __future__ import annotations


class Trace:
    """Rule IDs and how many decisions each took, in the order first seen."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def hit(self, *rule_ids: str) -> None:
        """Count one decision of each of ``rule_ids``."""
        counts = self.counts
        for rule_id in rule_ids:
            counts[rule_id] = counts.get(rule_id, 0) + 1

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self.counts

    def rules(self) -> frozenset[str]:
        return frozenset(self.counts)
