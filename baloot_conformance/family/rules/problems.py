"""The semantic problems of a trick ruleset found so far, each placed at the value it
concerns (its ``file:line:col``): what :mod:`.validation`'s checks and
:mod:`.points_validation`'s add to."""

from __future__ import annotations

from baloot_conformance.errors import BalootError, Location
from baloot_conformance.rules.shared_loading import Document, dotted
from baloot_conformance.rules.strict_yaml import Path_


class Problems:
    """The semantic problems found so far, each placed at the value it concerns."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.found: list[BalootError] = []

    def add(self, at: Path_, message: str, hint: str | None = None) -> None:
        doc = self.doc
        location = doc.values.get(at) or doc.keys.get(at)
        while location is None and len(at) > 1:
            at = at[:-1]
            location = doc.values.get(at) or doc.keys.get(at)
        self.found.append(
            BalootError(
                f"{dotted(at)}: {message}",
                location=location or Location(doc.path, 1, 1),
                hint=hint,
            )
        )
