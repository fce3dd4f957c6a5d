"""Inputs read once, as streams, in bounded memory: a pipe, a FIFO, standard input and a
compressed stream read as a file is; a line quoted from the hand being read, never by reading
the source again; a run of comments refused at the bound of one hand; a bad byte reported
with ``file:line:col`` by every command that reads a transcript (issue 24: F3, F4, F14, F17,
F18)."""

from __future__ import annotations

import gzip
import io
import os
import re
import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baloot_conformance import btn
from baloot_conformance.btn.runs import game_runs, iter_stream_runs
from baloot_conformance.check.run import check_hands
from baloot_conformance.cli import main
from baloot_conformance.corpus.fixtures import load_fixture
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.errors import TranscriptSyntaxError
from baloot_conformance.rules.loading import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
BAD_GAME = ROOT / "examples" / "nonconforming-game.btn"
GOOD_GAME = ROOT / "examples" / "conforming-game.btn"
FIXTURE = ROOT / "fixtures" / "baloot" / "projects.baloot.pass-1.btn"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def feed(data: bytes) -> Iterator[int]:
    """A pipe's read end (its descriptor), written from a thread: a source that cannot seek
    and can be read only once."""
    read, write = os.pipe()

    def writer() -> None:
        with os.fdopen(write, "wb") as out:
            out.write(data)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        yield read
    finally:
        thread.join(timeout=30)


def quoted(reader: btn.TranscriptReader, path: str) -> list[tuple[int, str | None]]:
    """Each divergence's line number and the line it quotes."""
    rules = load_ruleset("saudi")
    return [
        (d.location.line, d.source)
        for v in check_hands(reader, path, rules)
        for d in v.divergences
        if d.location is not None
    ]


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")


# --- F4: a quote costs what its line costs ---------------------------------------------------


def test_a_divergence_read_from_a_pipe_quotes_its_line() -> None:
    """From a pipe the line cannot be read again: it is quoted from the hand being read."""
    lines = lines_of(BAD_GAME)
    for descriptor in feed(BAD_GAME.read_bytes()):
        with btn.TranscriptReader(f"/dev/fd/{descriptor}") as reader:
            found = quoted(reader, "game")
    assert len(found) >= 3
    assert all(source == lines[line - 1] for line, source in found)


def test_a_run_of_hands_quotes_from_its_own_bytes() -> None:
    """A worker's run never opens the file it was cut from (here, a path that does not
    exist): its own bytes carry the lines it quotes."""
    text = "".join(generate_games(load_ruleset("saudi"), 5, games=6))
    text = re.sub(r"= total NS (\d+)", lambda m: f"= total NS {int(m[1]) + 1}", text)
    runs = game_runs(text.encode("utf-8"), 5)
    assert len(runs) > 2
    data, first = runs[2]
    reader = btn.TranscriptReader.for_hands(data, "/nonexistent/archive.btn", first)
    found = quoted(reader, "archive.btn")
    lines = text.split("\n")
    assert found and all(source == lines[line - 1] for line, source in found)


def test_a_compressed_file_is_decompressed_once(tmp_path: Path) -> None:
    """Every divergence of a ``.gz`` is quoted without reading the stream again."""
    path = tmp_path / "game.btn.gz"
    path.write_bytes(gzip.compress(BAD_GAME.read_bytes()))
    opened = []
    original = gzip.GzipFile.__init__

    def counted(self: gzip.GzipFile, *args: Any, **kwargs: Any) -> None:
        opened.append(args)
        original(self, *args, **kwargs)

    with mock.patch.object(gzip.GzipFile, "__init__", counted), btn.TranscriptReader(path) as r:
        found = quoted(r, str(path))
    lines = lines_of(BAD_GAME)
    assert len(found) >= 3 and all(source == lines[line - 1] for line, source in found)
    assert len(opened) == 1


def test_a_structural_error_far_in_a_compressed_file_is_quoted(tmp_path: Path) -> None:
    text = BAD_GAME.read_text(encoding="utf-8").replace("faceup", "faceup JS\nfaceup", 1)
    path = tmp_path / "game.btn.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8")))
    with pytest.raises(TranscriptSyntaxError) as caught:
        for _ in btn.TranscriptReader(path):
            pass
    line = caught.value.location.line if caught.value.location else 0
    assert caught.value.excerpt is not None and text.split("\n")[line - 1] in caught.value.excerpt


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(["", "# note", "bid N pass", "  # indented", "\r", "trick 1: N 7C"]),
        max_size=40,
    ),
    st.integers(min_value=1, max_value=5),
)
def test_the_window_gives_back_every_line_it_read(body: list[str], hands: int) -> None:
    """Read as text or as bytes, each line of the hand being read is the source's line."""
    parts = ['%btn 1\n[Ruleset "saudi@1"]']
    for number in range(1, hands + 1):
        parts += [f"hand {number}", *body]
    text = "\n".join(parts) + "\n"
    source = text.split("\n")
    for reader in (
        btn.TranscriptReader.from_text(text),
        btn.TranscriptReader(io.BytesIO(text.encode("utf-8"))),
        btn.TranscriptReader(io.StringIO(text)),
    ):
        for chunk in reader.chunks():
            last = chunk.body[-1][2] if chunk.body else chunk.head[2]
            for number in range(chunk.head[2], last + 1):
                assert reader.source_line(number) == source[number - 1].rstrip("\r")


# --- F3: a run of comments is bounded --------------------------------------------------------


def test_a_run_of_comments_after_the_last_hand_is_refused_at_the_bound(tmp_path: Path) -> None:
    text = GOOD_GAME.read_text(encoding="utf-8")
    last_hand = max(n for n, line in enumerate(text.split("\n"), 1) if line.startswith("hand "))
    path = tmp_path / "comments.btn.gz"
    path.write_bytes(gzip.compress(text.encode("utf-8") + b"#\n" * 200_000))
    code, out, _ = run("check", "--jobs", "1", str(path))
    assert code == 2
    where = f"{path}:{last_hand + btn.MAX_HAND_LINES}:1"
    assert where in out and f"runs past {btn.MAX_HAND_LINES:,} lines" in out


def test_a_run_of_comments_in_the_header_is_refused_at_the_bound() -> None:
    text = '%btn 1\n[Ruleset "saudi@1"]\n' + "# note\n" * 5_000 + "hand 1\n"
    with pytest.raises(TranscriptSyntaxError) as caught:
        btn.TranscriptReader.from_text(text)
    assert caught.value.location is not None
    assert caught.value.location.line == btn.MAX_HAND_LINES + 1
    assert "the header" in caught.value.message


def test_a_flood_of_lines_is_cut_at_the_bound_as_the_reader_reports_it() -> None:
    """The cutting into runs stops at the first line past the bound, where the reader of
    the whole file reports the error: the parent of a parallel check never holds the flood,
    and the report is the same as with one job. Blank lines count as comments do."""
    text = "".join(generate_games(load_ruleset("saudi"), 4, games=3))
    for filler in ("#\n", "\n", "  # indented\n"):
        data = (text + filler * 50_000 + "hand 999\n").encode("utf-8")
        last_hand = data[: data.rindex(b"\nhand ", 0, len(text))].count(b"\n") + 2
        bound = last_hand + btn.MAX_HAND_LINES
        whole = problem(btn.TranscriptReader(io.BytesIO(data)))
        assert whole.location is not None and whole.location.line == bound
        runs = list(iter_stream_runs(io.BytesIO(data), 5))
        assert len(runs) > 1 and runs[-1][1] + len(runs[-1][0].splitlines()) - 1 == bound
        piece, first, seen = runs[-1]
        part = problem(btn.TranscriptReader.for_hands(piece, "<bytes>", first, seen))
        assert str(part.location) == str(whole.location).replace("<stream>", "<bytes>")


def problem(reader: btn.TranscriptReader) -> TranscriptSyntaxError:
    """The first syntax error of a reader's hands."""
    for chunk in reader.chunks():
        if chunk.problem is not None:
            return chunk.problem
    raise AssertionError("no syntax error")


def test_an_unclosed_metadata_block_is_refused_at_the_bound() -> None:
    text = "%btn 1\n---\n" + "id: x\n" * 5_000
    with pytest.raises(TranscriptSyntaxError) as caught:
        btn.TranscriptReader.from_text(text)
    assert caught.value.location is not None
    assert caught.value.location.line == btn.MAX_HAND_LINES + 1
    assert "metadata block" in caught.value.message


def test_long_lines_are_not_remembered() -> None:
    """The fast path's memo of repeated lines keeps short lines only: distinct long lines
    (a claim with a long comment in each hand) leave nothing behind."""
    hands = "".join(f"hand {n}\n= result made # {n:05d}{'x' * 8_000}\n" for n in range(1, 1_001))
    text = '%btn 1\n[Ruleset "saudi@1"]\n' + hands
    tracemalloc.start()
    try:
        for _ in btn.TranscriptReader(io.BytesIO(text.encode("utf-8"))).chunks():
            pass
        del text, hands
        kept = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept < 2 << 20, f"{kept / 2**20:.1f} MiB kept after the reading"


# --- F18: one decoding error path for every reader ------------------------------------------


@pytest.fixture
def bad_fixture(tmp_path: Path) -> Path:
    """A fixture whose bytes go bad after its header."""
    folder = tmp_path / "baloot"
    folder.mkdir()
    path = folder / FIXTURE.name
    path.write_bytes(FIXTURE.read_bytes() + b"# bad \xff byte\n")
    return path


def _bad_line(path: Path) -> int:
    return path.read_bytes().split(b"\n").index(b"# bad \xff byte") + 1


def test_a_bad_byte_in_a_fixture_is_located(bad_fixture: Path) -> None:
    with pytest.raises(TranscriptSyntaxError) as caught:
        load_fixture(bad_fixture)
    assert str(caught.value.location) == f"{bad_fixture}:{_bad_line(bad_fixture)}:7"


def test_coverage_and_lint_report_a_bad_byte_as_check_does(bad_fixture: Path) -> None:
    where = f"{bad_fixture}:{_bad_line(bad_fixture)}:7: invalid UTF-8"
    code, out, err = run("check", "--jobs", "1", str(bad_fixture))
    assert code == 2 and where in out
    code, out, err = run("coverage", str(bad_fixture))
    assert code == 2 and where in out + err and "Traceback" not in out + err
    code, out, err = run("fixtures", "lint", str(bad_fixture))
    assert code == 1 and where in out + err and "Traceback" not in out + err


# --- F14, F17: pipes, FIFOs and standard input, read once ------------------------------------


def test_streams_are_told_from_files(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    plain = tmp_path / "plain.btn"
    plain.write_text("%btn 1\n", encoding="utf-8")
    read, write = os.pipe()
    try:
        assert btn.is_stream(btn.STDIN) and btn.is_stream(str(fifo))
        assert btn.is_stream(f"/dev/fd/{read}")
        assert not btn.is_stream(str(plain)) and not btn.is_stream(str(tmp_path))
        assert not btn.is_stream(str(tmp_path / "missing.btn"))
    finally:
        os.close(read)
        os.close(write)


def test_a_compressed_stream_on_a_fifo_is_read_once(tmp_path: Path) -> None:
    """A FIFO has no name ending: gzip is known by its first bytes."""
    fifo = tmp_path / "feed"
    os.mkfifo(fifo)
    data = gzip.compress(GOOD_GAME.read_bytes())

    def writer() -> None:
        with fifo.open("wb") as out:
            out.write(data)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    with btn.TranscriptReader(str(fifo)) as reader:
        hands = [hand.number for hand in reader]
    thread.join(timeout=30)
    assert hands == [hand.number for hand in btn.read_transcript(GOOD_GAME).hands]


def test_standard_input_is_read_as_a_stream_and_left_open() -> None:
    for descriptor in feed(gzip.compress(BAD_GAME.read_bytes())):
        stdin = os.fdopen(descriptor, "r", encoding="utf-8")
        with mock.patch("sys.stdin", stdin), btn.TranscriptReader(btn.STDIN) as reader:
            found = quoted(reader, "-")
        assert not stdin.closed
        stdin.close()
    lines = lines_of(BAD_GAME)
    assert len(found) >= 3 and all(source == lines[line - 1] for line, source in found)


def test_runs_cut_from_a_stream_in_one_pass_report_a_repeat_where_it_is() -> None:
    text = "".join(generate_games(load_ruleset("saudi"), 3, games=12))
    data = text.encode("utf-8")
    for descriptor in feed(data):
        with os.fdopen(descriptor, "rb") as stream:
            runs = list(iter_stream_runs(stream, 30))
    assert len(runs) > 2 and b"\n".join(run for run, _, _ in runs) == data
    assert all(not seen for _, _, seen in runs)
    # A later run repeats hand 1: its reader, told the numbers before it, says so there.
    last = data.rindex(b"\nhand ")
    number = data[last + 6 : data.index(b"\n", last + 1)]
    repeated = data[:last] + b"\nhand 1" + data[last + 6 + len(number) :]
    runs = list(iter_stream_runs(io.BytesIO(repeated), 30))
    assert [seen for _, _, seen in runs][-1] == {1}
    piece, first, seen = runs[-1]
    with pytest.raises(TranscriptSyntaxError, match="a second 'hand 1'") as caught:
        for _ in btn.TranscriptReader.for_hands(piece, "x", first, seen):
            pass
    assert caught.value.location is not None
    assert caught.value.location.line == repeated[: last + 1].count(b"\n") + 1
