"""``fixtures export``: the corpus as plain files with a ``manifest.json``, for runners
that do not use the kit (``fixtures/README.md``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from baloot_conformance.check.features import ordered
from baloot_conformance.corpus.fixtures import Fixture
from baloot_conformance.corpus.listing import fixture_features

MANIFEST = "manifest.json"


def manifest_entry(fixture: Fixture, file: str) -> dict[str, Any]:
    """A fixture as the export's manifest lists it, with the features it needs (from its
    replay: :func:`~baloot_conformance.corpus.listing.fixture_features`) and the perft counts
    it records, if any."""
    entry = {
        "id": fixture.id,
        "file": file,
        "area": fixture.area,
        "ruleset": dict(fixture.metadata["ruleset"]),
        "rules": list(fixture.rules),
        "expect": fixture.expect.to_json(),
        "status": fixture.status,
        "features": ordered(fixture_features(fixture)),
    }
    if fixture.perft:
        entry["perft"] = [dict(record) for record in fixture.metadata["perft"]]
    return entry


def exported_files(manifest: Mapping[str, Any]) -> Iterable[str]:
    """The files an earlier export wrote, as its manifest names them."""
    return (str(entry["file"]) for entry in manifest.get("fixtures", []))
