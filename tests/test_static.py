"""Static checks run with the tests: ``mypy --strict`` and ``ruff`` over the whole project, and
the import contracts of ``pyproject.toml`` (``lint-imports``: the layers of
``docs/architecture.md``).

They run here, not only in CI scripts, so that the one test command of the README covers them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_tool(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_mypy_strict() -> None:
    result = run_tool("mypy")  # files and strictness come from pyproject.toml
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("argv", [("ruff", "check", "."), ("ruff", "format", "--check", ".")])
def test_ruff(argv: tuple[str, ...]) -> None:
    result = run_tool(*argv)
    assert result.returncode == 0, result.stdout + result.stderr


def lint_imports(folder: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the package in ``folder`` (it reads the contracts of the
    ``pyproject.toml`` there, and puts ``folder`` first on the import path)."""
    command = Path(sys.executable).parent / "lint-imports"
    return subprocess.run(
        [str(command), "--no-cache"], cwd=folder, capture_output=True, text=True, check=False
    )


def test_import_contracts() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 8 kept, 0 broken." in result.stdout


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        (
            "engine/model.py",
            "from baloot_conformance.report import base",
            "Layers only point down BROKEN",
        ),
        ("check/verdicts.py", "from baloot_conformance.check import run", "No circles"),
        ("corpus/export.py", "import yaml", "Only the rules package reads YAML BROKEN"),
        ("cli/output.py", "from baloot_conformance.engine import model", "compute no rules"),
        ("suite/protocol.py", "from baloot_conformance.btn import grammar", "parses BTN"),
        ("check/words.py", "from baloot_conformance import __version__", "public face BROKEN"),
    ],
)
def test_a_broken_rule_of_the_layout_fails_the_contracts(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    """The same contracts on a copy of the package with one import that breaks a rule."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    package = tmp_path / "baloot_conformance"
    shutil.copytree(
        ROOT / "baloot_conformance", package, ignore=shutil.ignore_patterns("__pycache__")
    )
    with (package / module).open("a", encoding="utf-8") as source:
        source.write(f"{line}  # noqa\n")
    result = lint_imports(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    broken = [text for text in result.stdout.splitlines() if text.endswith(" BROKEN")]
    assert any(contract in text for text in broken), result.stdout
