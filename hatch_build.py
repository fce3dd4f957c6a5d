"""The wheel's optional build hook: the compiled build (off by default).

``pip install .`` builds the pure-Python wheel and needs no compiler.
``HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install .`` also compiles the hot modules with mypyc
(``tools/mypyc_build.py`` says which and why) and puts the extension modules in the wheel,
beside the sources they were compiled from; it needs a C compiler and the Python headers.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        sys.path.insert(0, str(Path(self.root) / "tools"))
        from mypyc_build import compile_modules

        self.work = Path(tempfile.mkdtemp(prefix="baloot-mypyc-"))
        source = self.work / "src"
        shutil.copytree(Path(self.root) / "baloot_conformance", source / "baloot_conformance")
        for built in compile_modules(source, self.work / "build"):
            build_data["force_include"][str(built)] = str(built.relative_to(source))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "work", None)
        if work is not None:  # the wheel holds the extension modules now
            shutil.rmtree(work, ignore_errors=True)
