"""Where the shipped data lives: ``spec/`` (rulesets, schemas) and ``grammar/`` (Lark files).

In an installed wheel they sit inside the package (``baloot_conformance/_data``, put there by
the build); in a source checkout they are the top-level folders of the repository. Every
module reads shipped data through this one place.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path


@cache
def data_root() -> Path:
    """The folder that holds ``spec/`` and ``grammar/``."""
    packaged = Path(str(resources.files("baloot_conformance"))) / "_data"
    if (packaged / "spec").is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent


def spec_path(*parts: str) -> Path:
    """A path under ``spec/``, e.g. ``spec_path("schema", "ruleset.schema.json")``."""
    return data_root().joinpath("spec", *parts)


def grammar_text(name: str) -> str:
    """The text of ``grammar/<name>`` (e.g. ``btn.lark``)."""
    return data_root().joinpath("grammar", name).read_text(encoding="utf-8")
