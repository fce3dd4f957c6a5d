"""The optional compiled build: the kit's hot modules compiled to C extensions with mypyc.

    python tools/mypyc_build.py DEST [--opt-level N] [--no-warnings]

writes to ``DEST/baloot_conformance`` a copy of the installed (or checked-out) package, data
included, with the modules of :data:`COMPILED` compiled beside their sources; run it with
``PYTHONPATH=DEST``. ``HATCH_BUILD_HOOK_ENABLE_CUSTOM=true pip install .`` installs the same
build (``hatch_build.py`` calls :func:`compile_modules`).

The pure-Python package stays the reference. The compiled modules are these same sources
(mypyc turns type-annotated Python into C), and ``tests/test_compiled.py`` checks that both
builds give byte-identical reports; ``BALOOT_CONFORMANCE_PURE=1`` makes a compiled install
run its Python sources. Needs ``mypy`` (which ships mypyc), ``setuptools`` and a C compiler
with the Python headers.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import sys
import tempfile
from pathlib import Path

#: The modules compiled, relative to the folder that holds the package: where a passing hand
#: spends its time (statements, hand building, the interpreter, the checker, the fast lane;
#: the trick family's reading and obligations). Left out on purpose:
#:
#: - ``btn/items.py`` and ``family/btn/items.py``: items are built with ``object.__new__``,
#:   which needs ordinary classes, and every module must see the same item classes;
#: - ``errors.py``: classes outside the build derive from its errors (``UnknownVersion``,
#:   which turns a BTN 2 file over to the family, ``OutputError``, ...), and a compiled
#:   ``__init__`` refuses an instance of an interpreted subclass that calls it through
#:   ``super()``, so every BTN 2 file stopped with a ``TypeError``;
#: - the family's hands (``family/engine/hand.py`` and its phases): a hand is one class of six
#:   phase bases, and mypyc compiles multiple inheritance only of traits;
#: - the family's checker (``family/check/``): its ``HandReplay``, a dataclass over the claims'
#:   base class, does not build under mypyc (the order of its fields' defaults).
COMPILED = (
    "baloot_conformance/btn/lines.py",
    "baloot_conformance/btn/grammar.py",
    "baloot_conformance/btn/statements.py",
    "baloot_conformance/btn/builder.py",
    "baloot_conformance/engine/__init__.py",
    "baloot_conformance/engine/actions.py",
    "baloot_conformance/engine/auction.py",
    "baloot_conformance/engine/deal.py",
    "baloot_conformance/engine/deciders.py",
    "baloot_conformance/engine/declarations.py",
    "baloot_conformance/engine/game.py",
    "baloot_conformance/engine/hand.py",
    "baloot_conformance/engine/model.py",
    "baloot_conformance/engine/play.py",
    "baloot_conformance/engine/playout.py",
    "baloot_conformance/engine/projects.py",
    "baloot_conformance/engine/raises.py",
    "baloot_conformance/engine/scoring.py",
    "baloot_conformance/engine/trace.py",
    "baloot_conformance/check/verdicts.py",
    "baloot_conformance/check/words.py",
    "baloot_conformance/check/events.py",
    "baloot_conformance/check/claims.py",
    "baloot_conformance/check/hand_check.py",
    "baloot_conformance/check/fast_lane.py",
    "baloot_conformance/check/run.py",
    "baloot_conformance/family/btn/lines.py",
    "baloot_conformance/family/btn/statements.py",
    "baloot_conformance/family/btn/builder.py",
    "baloot_conformance/family/btn/reader.py",
    "baloot_conformance/family/engine/deck.py",
    "baloot_conformance/family/engine/pack.py",
    "baloot_conformance/family/engine/tricks.py",
    "baloot_conformance/family/engine/stages.py",
    "baloot_conformance/family/engine/obligations.py",
)
#: The name of the shared library mypyc writes beside the package (its runtime and code).
GROUP = "baloot_conformance"


def compile_modules(
    root: Path, build_dir: Path, opt_level: str = "3", warnings: bool = True
) -> list[Path]:
    """Compile the :data:`COMPILED` modules of the package under ``root``, in place: each
    extension module is written beside its source, and the shared library at ``root``.
    ``build_dir`` holds the generated C and objects. Returns the files written.

    ``warnings=False`` compiles with ``-Wno-all -w``: the same C and the same code, without
    the compiler's warning analysis (``-Wall``, which mypyc's flags make errors), which is
    more than half of gcc's time on the generated C at ``-O0`` (``-w`` alone hides the
    warnings but still computes them)."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    before = set(root.rglob("*.so")) | set(root.rglob("*.pyd"))
    here = os.getcwd()
    os.chdir(root)  # mypyc names modules by their paths relative to the working folder
    try:
        extensions = mypycify(
            # jsonschema ships no types (the project's mypy settings ignore it likewise)
            ["--ignore-missing-imports", *COMPILED],
            opt_level=opt_level,
            target_dir=str(build_dir / "c"),
            group_name=GROUP,
        )
        if not warnings:
            for extension in extensions:
                extension.extra_compile_args += ["-Wno-all", "-w"]
        dist = Distribution({"name": "baloot-conformance-compiled", "ext_modules": extensions})
        dist.command_options["build_ext"] = {  # as "setup.py build_ext --inplace ..." sets them
            "inplace": ("mypyc_build", "1"),
            "build_temp": ("mypyc_build", str(build_dir / "temp")),
            "build_lib": ("mypyc_build", str(build_dir / "lib")),
        }
        dist.run_command("build_ext")
    finally:
        os.chdir(here)
    return sorted((set(root.rglob("*.so")) | set(root.rglob("*.pyd"))) - before)


def compiled_copy(dest: Path, opt_level: str = "3", warnings: bool = True) -> list[Path]:
    """Copy the package (its sources and shipped data) to ``dest/baloot_conformance`` and
    compile it there. Returns the extension files written."""
    import baloot_conformance
    from baloot_conformance.resources import data_root

    package = Path(baloot_conformance.__file__).resolve().parent
    target = dest / "baloot_conformance"
    shutil.copytree(package, target, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    data = target / "_data"
    if not data.is_dir():  # a source checkout: the data sits at the top of the repository
        for name in ("spec", "grammar", "fixtures"):
            shutil.copytree(data_root() / name, data / name)
    with tempfile.TemporaryDirectory(prefix="mypyc-build-") as build:
        written = compile_modules(dest, Path(build), opt_level, warnings)
    compileall.compile_dir(target, quiet=1)  # the bytecode of the rest, as an install has it
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path, help="folder to write the compiled package to")
    parser.add_argument("--opt-level", default="3", help="C optimisation level (3)")
    parser.add_argument(
        "--no-warnings",
        action="store_true",
        help="compile without the C compiler's warnings (-w): a quicker build of the same code",
    )
    args = parser.parse_args()
    if (args.dest / "baloot_conformance").exists():
        sys.exit(f"error: {args.dest / 'baloot_conformance'} exists; choose an empty folder")
    try:
        written = compiled_copy(args.dest, args.opt_level, not args.no_warnings)
    except ModuleNotFoundError as exc:
        sys.exit(f"error: the compiled build needs {exc.name}: pip install mypy setuptools")
    except Exception as exc:
        if not type(exc).__module__.startswith(("distutils", "setuptools")):
            raise
        sys.exit(  # the compiler's own lines are above
            f"error: the C build failed ({exc}); it needs a C compiler and the Python headers "
            "(on Debian: apt install gcc python3-dev)"
        )
    print(f"compiled {len(written)} extension modules into {args.dest}")
    # The console script, not ``python -m``: that would put the working folder (perhaps a
    # checkout holding the pure package) ahead of PYTHONPATH.
    print(f"run it with: PYTHONPATH={args.dest} baloot-conformance check FILE")


if __name__ == "__main__":
    main()
