"""Where the shipped data lives: ``spec/`` (rulesets, schemas) and ``grammar/`` (Lark files).

In an installed wheel they sit inside the package (``baloot_conformance/_data``, put there by
the build); in a source checkout they are the top-level folders of the repository. Every
module reads shipped data through this one place.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import lark


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


def grammar_parser(name: str, **options: Any) -> lark.Lark:
    """The LALR parser of ``grammar/<name>``, with Lark's ``options``.

    Building the parse tables is a good part of start-up (about 80 ms for the formula
    grammar, 5 ms to load them), so Lark keeps them in a file in the user's own cache folder
    (``$XDG_CACHE_HOME`` or ``~/.cache``, then ``baloot-conformance/``), private because the
    file is a pickle. Lark checks the file against the grammar, the options and its own
    version and rebuilds it on any mismatch or damage; without a usable folder the tables are
    built each time.
    """
    text = grammar_text(name)
    folder = cache_folder()
    if folder is not None:
        stem = name.removesuffix(".lark")
        version = f"lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}"
        options["cache"] = str(folder / f"{stem}-{version}.cache")
    return lark.Lark(text, parser="lalr", **options)


def cache_folder() -> Path | None:
    """The kit's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``, then
    ``baloot-conformance/``), if it is the user's own and nobody else may write in it."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base, "baloot-conformance")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    info = folder.stat()
    if info.st_uid != os.getuid() or info.st_mode & 0o022 or not os.access(folder, os.W_OK):
        return None
    return folder
