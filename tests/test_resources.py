"""Shipped data and the Lark parse-table cache (``resources.grammar_parser``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from baloot_conformance.resources import grammar_parser


def test_the_parse_tables_are_cached_in_the_users_cache_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    built = grammar_parser("formula.lark", lexer="basic")
    folder = tmp_path / "baloot-conformance"
    (cache_file,) = folder.iterdir()
    assert cache_file.name.startswith("formula-lark")
    assert folder.stat().st_mode & 0o077 == 0  # private: the file is a pickle
    loaded = grammar_parser("formula.lark", lexer="basic")  # from the cache file
    text = "round(raw / 10, half_up)"
    assert loaded.parse(text) == built.parse(text)


def test_a_damaged_cache_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar_parser("formula.lark", lexer="basic")
    (cache_file,) = (tmp_path / "baloot-conformance").iterdir()
    cache_file.write_bytes(b"not a pickle")
    assert grammar_parser("formula.lark", lexer="basic").parse("1 + 2") is not None
    assert cache_file.read_bytes() != b"not a pickle"  # written anew


def test_without_a_usable_cache_folder_the_tables_are_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert grammar_parser("formula.lark", lexer="basic").parse("1 + 2") is not None
    assert blocker.read_text().startswith("a file")


def test_a_folder_others_may_write_in_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "baloot-conformance"
    folder.mkdir()
    folder.chmod(0o777)  # anyone could plant a pickle here
    assert grammar_parser("formula.lark", lexer="basic").parse("1 + 2") is not None
    assert list(folder.iterdir()) == []


def test_a_ruleset_validated_once_is_not_validated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from baloot_conformance.rules import loading

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = loading.load_ruleset("majlis")
    assert list((tmp_path / "baloot-conformance" / "valid-rulesets").iterdir())

    def refuse(doc: object) -> list[object]:
        raise AssertionError("validated again")

    monkeypatch.setattr(loading, "_schema_problems", refuse)
    monkeypatch.setattr(loading, "_semantic_problems", refuse)
    assert loading.load_ruleset("majlis").digest == first.digest
    # Another kit (its checks or schema changed) validates the same document again.
    monkeypatch.setattr(loading, "_validation_stamp", lambda: b"another kit")
    with pytest.raises(AssertionError, match="validated again"):
        loading.load_ruleset("majlis")


def test_a_derived_ruleset_validated_once_is_not_validated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Spec diffs and inference derive the same one-rule variants again and again."""
    from baloot_conformance.errors import SpecError
    from baloot_conformance.rules import loading

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    saudi = loading.load_ruleset("saudi")
    rule = dict(saudi.document["play"]["hokum.underruff"], option="free")
    first = loading.derive_ruleset(saudi, {"play.hokum.underruff": rule}, "variant")

    def refuse(doc: object) -> list[object]:
        raise AssertionError("validated again")

    monkeypatch.setattr(loading, "_schema_problems", refuse)
    again = loading.derive_ruleset(saudi, {"play.hokum.underruff": rule}, "variant")
    assert again.digest == first.digest
    # An invalid variant is never recorded: it is refused every time.
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    bad = dict(rule, option="sometimes")
    for _ in range(2):
        with pytest.raises(SpecError, match="sometimes"):
            loading.derive_ruleset(saudi, {"play.hokum.underruff": bad}, "bad")


def test_an_invalid_ruleset_is_refused_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from baloot_conformance.errors import SpecError
    from baloot_conformance.resources import spec_path
    from baloot_conformance.rules.loading import load_ruleset

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    text = spec_path("rulesets", "saudi.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("option: required", "option: sometimes", 1), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(SpecError, match="sometimes"):
            load_ruleset(bad)
    records = tmp_path / "cache" / "baloot-conformance" / "valid-rulesets"
    assert not records.exists() or not list(records.iterdir())


def test_check_imports_no_validator_for_a_ruleset_known_valid(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    example = Path(__file__).resolve().parent.parent / "examples" / "conforming-game.btn"
    report = tmp_path / "report.jsonl"
    code = (
        "import os, sys; from baloot_conformance.cli import main; "
        f"code = main(['check', {str(example)!r}, '--format', 'json', '-o', {str(report)!r}]); "
        "print(code, 'jsonschema' in sys.modules)"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    runs = [
        subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        for _ in range(2)
    ]
    assert [run.stdout.split() for run in runs] == [["0", "True"], ["0", "False"]]
