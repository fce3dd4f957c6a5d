"""The examples under examples/ are what the docs point people to: each gives the verdict it
says it gives under ``check``, and each that is a fixture (a metadata block) lints clean.

``notation-tour.btn``, the only example of ``= legal``, ``play`` lines, ``baloot`` and
``foul``, is a correct game: ``check`` passes it and its metadata is a fixture's.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from baloot_conformance.cli import main
from baloot_conformance.corpus.fixtures import FixtureError, NoMetadataError, load_fixture
from baloot_conformance.corpus.lint import LintProblem, lint

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").rglob("*.btn"))
#: The examples that fail ``check`` on purpose (their opening comment says where); every
#: other example passes.
FAILING = {"nonconforming-game.btn", "sawa-misjudged.btn"}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def _fixtures() -> list[Path]:
    found = []
    for path in EXAMPLES:
        try:
            load_fixture(path)
        except NoMetadataError:
            continue  # a plain transcript, not a fixture
        except FixtureError:
            pass  # a fixture whose metadata lint rejects
        found.append(path)
    return found


def test_the_examples_are_found() -> None:
    names = {path.name for path in EXAMPLES}
    assert {"notation-tour.btn", "conforming-game.btn", "nonconforming-game.btn"} <= names
    assert ROOT / "examples" / "notation-tour.btn" in _fixtures()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_gives_its_verdict_under_check(path: Path) -> None:
    code, out, err = run("check", str(path), "--no-color")
    assert code == (1 if path.name in FAILING else 0), out + err
    assert "0 errors" in out and "error:" not in err


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: p.name)
def test_every_example_that_is_a_fixture_lints_clean(path: Path) -> None:
    """Every lint rule (the metadata against the schema, the id, the rules exercised, the
    expected verdict reproduced, the canonical form); the folder rule is the shipped corpus's
    layout, which an example is not part of."""
    assert [str(p) for p in lint([path]) if isinstance(p, LintProblem)] == []


@pytest.mark.parametrize("path", _fixtures(), ids=lambda p: p.name)
def test_fixtures_lint_accepts_every_example_that_is_a_fixture(path: Path) -> None:
    code, out, _ = run("fixtures", "lint", str(path))
    assert code == 0, out


def test_the_notation_tour_shows_every_statement() -> None:
    """What docs/btn.md says the tour shows: metadata, start, raises with a lock, per-card
    plays with legal-set claims, a baloot announcement, a foul call, hold lines, an all-pass
    hand; and trick lines, a declaration, the claims of a hand."""
    text = (ROOT / "examples" / "notation-tour.btn").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[:2] == ["%btn 1", "---"]
    for start in (
        "[Ruleset ", "# ", "start ", "dealer ", "deal ", "faceup ", "bid ", "raise W double closed",
        "raise N pass", "= contract N hokum S x2 closed", "rest ", "declare ", "= legal ",
        "play ", "baloot ", "= trick ", "trick ", "foul ", "= abnat ", "= result ", "= score ",
        "= total ", "= winner ", "hold ", "= contract none",
    ):  # fmt: skip
        assert any(line.startswith(start) for line in lines), start
