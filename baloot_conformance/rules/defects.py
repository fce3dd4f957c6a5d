"""Engine defects a profile lists (``defects:``): what an engine does that no rulebook would
state, kept apart from the rules so that a hand they explain is reported as ``known-defect``
(:func:`~baloot_conformance.check.hand_check.explaining_defects`), never as a pass. This module
holds the data shape only; the ruleset builds it, the checker applies it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: What a defect's ``when`` may require of a hand (see the ruleset schema's ``defects``).
DefectCondition = Literal["no_hand_scored_yet", "sawa", "foul_call", "raised", "kaboot"]


@dataclass(frozen=True, slots=True)
class Defect:
    """An engine defect a profile lists: what the engine does that no rulebook would state.

    A divergence under ``rule``, or under one of the rules in ``shows`` (those whose
    divergences follow from it in the same hand), in a hand where the ``when`` conditions hold,
    is explained by the defect; a hand whose every divergence is explained is
    ``known-defect``, never ``pass``.
    """

    id: str
    """A short kebab-case name, unique in the profile."""
    rule: str
    """The rule the engine breaks."""
    does: str
    """What the engine does instead."""
    witness: str
    """Where it shows: a logged hand or a fixture."""
    shows: tuple[str, ...] = ()
    when: frozenset[DefectCondition] = frozenset()
    """Where the defect shows: conditions that must all hold for the hand (none: any hand)."""

    def explains(self, rule_id: str | None, holding: frozenset[DefectCondition]) -> bool:
        """Whether a divergence under ``rule_id``, in a hand where the conditions ``holding``
        hold, follows from this defect."""
        return (
            rule_id is not None
            and (rule_id == self.rule or rule_id in self.shows)
            and self.when <= holding
        )
