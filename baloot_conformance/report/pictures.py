"""Which drawing a table gets: Baloot's compass (:mod:`~baloot_conformance.report.diagram`)
for its :class:`~baloot_conformance.check.table.Table`, the ring of n seats
(:mod:`~baloot_conformance.report.ring_diagram`, imported only then) for any other
:class:`~baloot_conformance.check.table.Picture`: a trick family's table."""

from __future__ import annotations

from baloot_conformance.check.table import Picture, Table
from baloot_conformance.report.diagram import render


def draw(table: Table | Picture, color: bool = False, ascii: bool = False) -> str:
    """The table as lines of text (no final newline), in the layout its kind has."""
    if isinstance(table, Table):
        return render(table, color=color, ascii=ascii)
    from baloot_conformance.report.ring_diagram import render_ring

    return render_ring(table, color=color, ascii=ascii)
