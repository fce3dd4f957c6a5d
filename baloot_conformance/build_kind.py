"""Which build of the kit runs: pure Python, or with its hot modules compiled by mypyc.

The pure-Python package is the reference. The optional compiled build (``tools/mypyc_build.py``,
or ``HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install .``) keeps every Python source beside its
extension module, and ``BALOOT_CONFORMANCE_PURE=1`` makes it import the sources instead: a
doubt about the compiled build is checked against the reference without reinstalling.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from types import ModuleType

#: Set (to anything but empty or ``0``) to run a compiled install's Python sources.
PURE_VARIABLE = "BALOOT_CONFORMANCE_PURE"


def pure_requested() -> bool:
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


class _SourcesFirst(importlib.abc.MetaPathFinder):
    """Finds the kit's submodules as ``.py`` files, before the extension modules beside them."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or not fullname.startswith("baloot_conformance."):
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            package = os.path.join(folder, leaf)
            init = os.path.join(package, "__init__.py")
            if os.path.isfile(init):
                return importlib.util.spec_from_file_location(
                    fullname, init, submodule_search_locations=[package]
                )
            source = package + ".py"
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def use_sources_if_asked() -> None:
    """Put the sources first when :data:`PURE_VARIABLE` asks for it (at package import)."""
    if pure_requested() and not any(isinstance(f, _SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst())


def compiled() -> bool:
    """Whether the kit's modules load as compiled extension modules (the hand checker's module
    stands for them all: the build compiles them together)."""
    spec = importlib.util.find_spec("baloot_conformance.check.events")
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def describe() -> str:
    """The build that runs, in words (``--version`` prints it)."""
    if compiled():
        return "compiled with mypyc"
    if pure_requested():
        return f"pure Python, {PURE_VARIABLE} is set"
    return "pure Python"
