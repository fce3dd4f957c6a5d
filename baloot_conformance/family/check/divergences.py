"""A divergence at a BTN 2 item: what both replays of a hand (a whole one,
:mod:`.hand_check`, and a partial one, :mod:`.partial`) record where a transcript and the
rules part."""

from __future__ import annotations

from baloot_conformance.check.table import Picture
from baloot_conformance.check.verdicts import Divergence, DivergenceKind
from baloot_conformance.family.btn import items as b2


def divergence_at(
    item: b2.Item,
    rule_id: str | None,
    kind: DivergenceKind,
    message: str,
    *,
    root: bool,
    expected: str | None = None,
    claimed: str | None = None,
    table: Picture | None = None,
) -> Divergence:
    """The divergence at ``item`` (its position and ``file:line:col``), citing ``rule_id``;
    ``root`` for a hand's first, which ``table`` (a picture) may come with."""
    return Divergence(
        position=item.position,
        location=item.location,
        rule_id=rule_id,
        kind=kind,
        message=message,
        expected=expected,
        claimed=claimed,
        root=root,
        table=table,
    )
