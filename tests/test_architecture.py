"""The layout of the package (``docs/architecture.md``): module sizes, private names kept at
home, the public face, and the documentation's Python examples run against that face.

The import contracts themselves (layers, no circles, who reads YAML) are ``lint-imports``'s,
run by ``tests/test_static.py``.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import baloot_conformance

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "baloot_conformance"
MAX_LINES = 700


def modules(top: Path = PACKAGE) -> list[Path]:
    return sorted(top.rglob("*.py"))


def dotted(path: Path, top: Path = PACKAGE) -> str:
    parts = path.relative_to(top.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(name: str, top: Path = PACKAGE) -> str:
    """The package that the module ``name`` belongs to (a package belongs to itself)."""
    folder = top.parent.joinpath(*name.split("."))
    return name if (folder / "__init__.py").is_file() else name.rpartition(".")[0]


def test_no_module_is_over_700_lines() -> None:
    sizes = {dotted(p): len(p.read_text(encoding="utf-8").splitlines()) for p in modules()}
    assert len(sizes) > 60, "the package was not found"
    too_long = {name: lines for name, lines in sizes.items() if lines > MAX_LINES}
    assert not too_long, f"split by what the parts do: {too_long}"


def private_imports_across_packages(top: Path = PACKAGE) -> list[str]:
    """Every ``from X import _name`` where ``X`` is in another package than the importer."""
    found = []
    for path in modules(top):
        here = package_of(dotted(path, top), top)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            if node.module.split(".")[0] != top.name:
                continue
            there = package_of(node.module, top)
            for alias in node.names:
                private = alias.name.startswith("_") and not alias.name.startswith("__")
                if private and there != here:
                    found.append(f"{dotted(path, top)}:{node.lineno} {node.module}.{alias.name}")
    return found


def test_no_module_imports_a_private_name_of_another_package() -> None:
    found = private_imports_across_packages()
    assert not found, "make the name public in its package, or move the code: " + str(found)


def test_the_private_name_check_tells_a_sibling_package_from_its_own(tmp_path: Path) -> None:
    """The check above on a small package: a private name used within its package is fine,
    one taken from a sibling package is not."""
    top = tmp_path / "kit"
    for folder in (top, top / "a", top / "b"):
        folder.mkdir()
        (folder / "__init__.py").write_text("", encoding="utf-8")
    (top / "a" / "one.py").write_text("_x = 1\n", encoding="utf-8")
    (top / "a" / "two.py").write_text("from kit.a.one import _x\n", encoding="utf-8")
    (top / "b" / "three.py").write_text("from kit.a.one import _x, y\n", encoding="utf-8")
    assert private_imports_across_packages(top) == ["kit.b.three:1 kit.a.one._x"]


def test_every_name_of_the_public_face_comes_from_its_home() -> None:
    face = baloot_conformance
    assert set(face.__all__) == {"__version__", *face._HOMES}
    for name, home in face._HOMES.items():
        value = getattr(face, name)
        assert getattr(importlib.import_module(home), name) is value, name
    assert dir(face) == sorted(face.__all__)
    with pytest.raises(AttributeError, match="no attribute 'board'"):
        face.board  # noqa: B018


def test_importing_the_face_loads_none_of_the_kit() -> None:
    """``import baloot_conformance`` costs nothing: the names load when first used."""
    code = (
        "import sys, baloot_conformance as bc\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('baloot_conformance.'))\n"
        "print(' '.join(loaded))\n"
        "bc.load_ruleset\n"
        "print('baloot_conformance.rules.loading' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    first, second = result.stdout.splitlines()
    assert set(first.split()) == {"baloot_conformance.build_kind", "baloot_conformance.version"}
    assert second == "True"


def examples(document: str) -> list[str]:
    """The ``pycon`` blocks of a document."""
    text = (ROOT / document).read_text(encoding="utf-8")
    return re.findall(r"^```pycon\n(.*?)^```", text, flags=re.M | re.S)


@pytest.mark.parametrize("document", ["README.md", "docs/btn.md"])
def test_the_python_examples_of_the_docs_run_against_the_public_face(
    document: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = examples(document)
    assert blocks, f"{document} has no Python example"
    monkeypatch.chdir(ROOT)  # the examples read the example transcripts
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for number, block in enumerate(blocks, 1):
        test = parser.get_doctest(block, {}, f"{document} example {number}", document, 0)
        for example in test.examples:
            for module in re.findall(r"^\s*(?:import|from)\s+(\S+)", example.source, re.M):
                assert module == "baloot_conformance", f"{document}: imports {module}"
        report: list[str] = []
        failures, tried = runner.run(test, out=report.append)
        assert tried > 0 and failures == 0, "".join(report)
