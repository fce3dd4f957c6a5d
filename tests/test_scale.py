"""Large and compressed inputs, folders, and checking on a Dask cluster."""

from __future__ import annotations

import gzip
import io
import re
from pathlib import Path

import pytest
import zstandard

from baloot_conformance.cli import main
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.rules.loading import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
NONCONFORMING = ROOT / "examples" / "nonconforming-game.btn"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """About 2,800 hands of generated games with every claim, one of them wrong."""
    path = tmp_path_factory.mktemp("games") / "games.btn"
    text = "".join(generate_games(load_ruleset("saudi"), seed=11, games=300))
    first = re.search(r"^= score NS (\d+) EW", text, re.M)
    assert first is not None
    wrong = f"= score NS {int(first.group(1)) + 1} EW"
    path.write_text(text[: first.start()] + wrong + text[first.end() :], encoding="utf-8")
    return path


def test_compressed_transcripts_give_the_same_report(games: Path, tmp_path: Path) -> None:
    data = games.read_bytes()
    (tmp_path / "games.btn.gz").write_bytes(gzip.compress(data))
    (tmp_path / "games.btn.zst").write_bytes(zstandard.ZstdCompressor().compress(data))
    plain = run("check", str(games), "--jobs", "1", "--format", "json")
    assert plain[0] == 1 and '"failed":1,' in plain[1]
    for name in ("games.btn.gz", "games.btn.zst"):
        for jobs in ("1", "2"):
            code, out, _ = run("check", str(tmp_path / name), "--jobs", jobs, "--format", "json")
            assert code == 1
            assert out == plain[1].replace(str(games), str(tmp_path / name))
    # A wrong claim in a compressed file is quoted from it, line and column.
    code, out, _ = run("check", str(tmp_path / "games.btn.gz"), "--jobs", "1")
    assert "games.btn.gz:44:1: h1.score" in out and " | = score NS " in out


def test_a_structural_error_in_a_compressed_file_quotes_its_line(tmp_path: Path) -> None:
    text = NONCONFORMING.read_text(encoding="utf-8")
    first = re.search(r"^deal W .*$", text, re.M)
    assert first is not None
    broken = text[: first.start()] + "deal N" + text[first.start() + len("deal W") :]
    path = tmp_path / "broken.btn.gz"
    path.write_bytes(gzip.compress(broken.encode("utf-8")))
    code, out, _ = run("check", str(path), "--jobs", "1")
    line = broken[: first.start()].count("\n") + 1
    assert code == 2 and f"broken.btn.gz:{line}:1: hand 1: a second 'deal N' line" in out
    assert f"{line} | deal N " in out  # the decompressed line, not compressed bytes


def test_a_damaged_compressed_file_is_an_error(tmp_path: Path, games: Path) -> None:
    cut = tmp_path / "cut.btn.gz"
    cut.write_bytes(gzip.compress(games.read_bytes())[:5000])
    code, out, _ = run("check", str(cut), "--jobs", "1")
    assert code == 2
    assert "the file cannot be read" in out and "ended before the end-of-stream" in out
    bad = tmp_path / "bad.btn.zst"
    bad.write_bytes(b"not zstandard data at all\n")
    code, out, _ = run("check", str(bad), "--jobs", "1")
    assert code == 2 and "damaged Zstandard data" in out


@pytest.mark.parametrize("breakage", [b"bid N sideways ?", b"bid N p\xffss", b"bid N \x00"])
def test_a_file_that_breaks_midway_reports_alike_on_any_number_of_jobs(
    games: Path, tmp_path: Path, breakage: bytes
) -> None:
    # A line that does not read two thirds of the way: a single reader reports every hand
    # before it and stops there, and so does a parallel check (its later runs are dropped).
    lines = games.read_bytes().split(b"\n")
    at = next(i for i in range(len(lines) * 2 // 3, len(lines)) if lines[i].startswith(b"bid "))
    lines[at] = breakage
    broken = tmp_path / "broken.btn"
    broken.write_bytes(b"\n".join(lines))
    before = sum(1 for line in lines[:at] if line.startswith(b"hand "))
    one = run("check", str(broken), "--jobs", "1", "--format", "json")
    assert one[0] == 2 and '"record":"file_error"' in one[1]
    assert one[1].count('"record":"hand"') == before - 1  # the broken hand is not reported
    assert run("check", str(broken), "--jobs", "2", "--format", "json") == one
    text = run("check", str(broken), "--jobs", "2")
    assert text == run("check", str(broken), "--jobs", "1")
    assert f"broken.btn:{at + 1}:" in text[1]


class _FailsToUnpickle:
    """A worker's result that cannot be read back in the parent."""

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return _refuse, ()


def _refuse() -> None:
    raise RuntimeError("this result cannot be unpickled")


def test_a_result_that_cannot_be_read_back_raises_instead_of_hanging(
    games: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool's own unpickling would die in its result thread and leave the parent
    waiting for ever; the parent unpickles the workers' results itself."""
    from baloot_conformance.cli import check_commands

    monkeypatch.setattr(
        check_commands, "_check_task", lambda task: ([_FailsToUnpickle()], [], False)
    )
    with pytest.raises(RuntimeError, match="cannot be unpickled"):
        run("check", str(games), "--jobs", "2")


def test_a_folder_is_read_recursively(tmp_path: Path, games: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "one.btn.gz").write_bytes(gzip.compress(games.read_bytes()))
    (tmp_path / "a" / "two.btn").write_bytes(NONCONFORMING.read_bytes())
    (tmp_path / "a" / "notes.txt").write_text("not a transcript")
    code, out, _ = run("check", str(tmp_path), "--jobs", "2")
    assert code == 1
    assert out.index("one.btn.gz") < out.index("two.btn")  # sorted paths
    assert "notes.txt" not in out
    code, out, _ = run("check", str(tmp_path / "a" / "b" / "empty-dir-check"), "--jobs", "1")
    assert code == 2


def test_dask_gives_the_report_of_one_job(games: Path) -> None:
    one = run("check", str(games), "--jobs", "1", "--format", "json")
    dask = run("check", str(games), "--executor", "dask", "--jobs", "2", "--format", "json")
    assert dask == one
    assert one[0] == 1
    summary = one[1].splitlines()[-1]
    assert int(summary.split('"hands":')[1].split(",")[0]) > 2000


def test_a_scheduler_needs_the_dask_executor() -> None:
    code, _, err = run("check", str(NONCONFORMING), "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and "--scheduler needs --executor dask" in err
