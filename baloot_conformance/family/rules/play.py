"""The ``play`` section of a trick ruleset: the obligations as a tree of named stages.

Each obligation is a rule of its own (``play.follow``, ``play.hokum.overruff``) naming a
*stage kind* from a closed library (:data:`StageKind`) and, where readings differ, an
``option``. The rule ``play.obligations`` holds the tree that orders them: a node names a stage
rule, an optional guard (``when``: conditions on the trick and the contract, ``contracts``: the
contracts it applies in), the nodes to go on with when the stage narrowed the choice
(``then``) and when it could not (``otherwise``). The semantics is "prefer X if able": a stage
computes the cards it prefers among the candidates; if there are any, they become the
candidates and the stage is the rule a wrong card breaks; if there are none, ``otherwise`` is
followed. A stage may also free the player (an exemption): the whole hand is legal again.

A profile changes a reading by replacing one stage rule (its option), or the tree as a whole.

(Skeleton: the stage library, its parameters and the compile step are built with the generic
engine, :mod:`..engine.obligations`.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from baloot_conformance.rules.model import Rule

#: The stages of the library.
StageKind = Literal[
    "follow_suit", "beat", "ruff", "exempt", "overruff", "underruff", "lead_ban", "cinch", "free"
]

#: What a node's guard may test: the trick so far and the contract's state.
Condition = Literal[
    "leading",
    "following",
    "trump_led",
    "plain_led",
    "partner_winning",
    "opponent_winning",
    "trump_winning",
    "locked",
    "raised",
]


@dataclass(frozen=True, slots=True)
class Node:
    """One node of the obligation tree."""

    rule: str
    """The key of a stage rule of this section (``hokum.ruff``)."""
    when: tuple[Condition, ...] = ()
    contracts: tuple[str, ...] = ()
    """The contracts the node applies in; empty: all."""
    then: tuple[Node, ...] = ()
    otherwise: tuple[Node, ...] = ()


@dataclass(frozen=True, slots=True)
class Obligations(Rule):
    tree: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class StageRule(Rule):
    """One obligation: its stage kind and the reading this ruleset takes."""

    stage: StageKind
    option: str | None = None


@dataclass(frozen=True, slots=True)
class PlaySection:
    obligations: Obligations
    stages: Mapping[str, StageRule]
    """Every stage rule, by key (its ID is ``play.<key>``)."""
    trick_winner: Rule
