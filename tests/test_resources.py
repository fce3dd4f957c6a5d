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
