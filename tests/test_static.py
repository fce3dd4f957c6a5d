"""Static checks run with the tests: ``mypy --strict`` and ``ruff`` over the whole project.

They run here, not only in CI scripts, so that the one test command of the README covers them.
"""

from __future__ import annotations

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
