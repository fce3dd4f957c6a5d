"""Cutting a transcript into runs of whole games, to check them in parallel.

A run ends before a hand that begins a game of its own (its first event is a ``start`` line),
so the runs can be judged apart and their verdicts joined in file order. The scanning works on
bytes with regular expressions: the parent process of a parallel check reads every byte of
every file and must not slow the workers down.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

from baloot_conformance.btn.lines import MAX_HAND_LINES, _Readable
from baloot_conformance.btn.reader import NumberSet


def game_runs(data: bytes, min_hands: int) -> list[tuple[bytes, int]]:
    """A transcript cut into runs of whole games, to check them in parallel: each cut falls
    before a ``hand`` line followed by a ``start`` line (a hand that begins a game of its
    own), once at least ``min_hands`` hands have passed. The first run keeps the header; each
    run comes with the file line it starts at (see :meth:`TranscriptReader.for_hands`).
    Joined with newlines, the runs give back the data.

    A file whose hand numbers seem to repeat is not cut: a reader of one run could not see the
    repeat, and the whole file's reader reports it where it is.
    """
    if repeats_hand_numbers(io.BytesIO(data)):
        return [(data, 1)]
    return list(iter_game_runs(io.BytesIO(data), min_hands)) or [(data, 1)]


def repeats_hand_numbers(stream: _Readable) -> bool:
    """Whether a hand number seems to appear twice in a binary stream (then a file is not cut
    into runs)."""
    numbers = NumberSet()  # compact: a set of a million numbers would take megabytes
    for block in _line_blocks(stream):
        for _, _, digits in _hand_lines(block):
            if digits:
                number = int(digits[:12])  # a longer number is refused by the reader anyway
                if number in numbers:
                    return True
                numbers.add(number)
    return False


def iter_game_runs(stream: _Readable, min_hands: int) -> Iterator[tuple[bytes, int]]:
    """:func:`game_runs` over a binary stream, one run at a time, so that a large file is
    never held whole. The scanning is the regular-expression engine's (the parent process of
    a parallel check reads every byte of every file, and must not slow the workers down)."""
    for data, first, _ in _runs(stream, min_hands, None):
        yield data, first


def iter_stream_runs(
    stream: _Readable, min_hands: int
) -> Iterator[tuple[bytes, int, frozenset[int]]]:
    """A transcript cut into runs of whole games in one pass, for a source that can be read
    only once (a pipe, standard input): the runs of :func:`iter_game_runs`, each with the hand
    numbers it repeats from the runs before it. Give those to
    :meth:`~baloot_conformance.btn.reader.TranscriptReader.for_hands` (``seen``) and the run's
    reader reports a repeat where it is, as the whole file's reader would: no first pass
    (:func:`repeats_hand_numbers`) is needed. Memory: one run, and a bit per hand number."""
    return _runs(stream, min_hands, NumberSet())


def _runs(
    stream: _Readable, min_hands: int, numbers: NumberSet | None
) -> Iterator[tuple[bytes, int, frozenset[int]]]:
    """The runs, and with ``numbers`` (the hand numbers of the runs before) each run's
    repeats of them. A part of the file (the header, a hand) that runs past
    :data:`~baloot_conformance.btn.lines.MAX_HAND_LINES` lines ends the cutting: the last run
    ends at the first line past the bound, where its reader reports the error, so that a
    flood of comment lines is never held (the reader stops there, and so does the report)."""
    run: list[bytes] = []  # the pieces of the current run
    first = 1  # the file line the current run starts at
    line = 1  # the file line the current block starts at
    head = 1  # the file line the current part (the header, a hand) starts at
    hands = 0  # hand lines in the current run
    mine: list[int] = []  # the hand numbers of the current run
    repeats: set[int] = set()  # those of them in a run before
    for block in _line_blocks(stream):
        start = 0  # the start of the part of the block not yet in ``run``
        counted, at = line, 0  # the file line at offset ``at`` of the block
        size = len(block)
        for where, indented, digits in _hand_lines(block):
            counted += block.count(b"\n", at, where)
            at = where
            head = counted
            if hands >= min_hands and not indented:
                end = block.find(b"\n", where) + 1
                if 0 < end < size and block.startswith(b"start ", end):
                    run.append(block[start:where])
                    piece = b"".join(run)
                    yield piece[:-1] if piece.endswith(b"\n") else piece, first, frozenset(repeats)
                    run, first, start, hands = [], counted, where, 0
                    if numbers is not None:
                        for number in mine:
                            numbers.add(number)
                        mine, repeats = [], set()
            hands += 1
            if numbers is not None and digits:
                number = int(digits[:12])  # a longer number is refused by the reader anyway
                mine.append(number)
                if number in numbers:
                    repeats.add(number)
        line += block.count(b"\n")
        if line - head > MAX_HAND_LINES:  # the part runs past the bound in this block
            pos = at
            for _ in range(head + MAX_HAND_LINES - counted):  # to the first line past it
                pos = block.index(b"\n", pos) + 1
            end = block.find(b"\n", pos) + 1  # with its line end: the line may be blank
            run.append(block[start : end or size])
            yield b"".join(run), first, frozenset(repeats)
            return
        run.append(block[start:])
    if run:
        yield b"".join(run), first, frozenset(repeats)


def _line_blocks(stream: _Readable) -> Iterator[bytes]:
    """A binary stream in blocks of whole lines (the last may lack its line end). No block ends
    with a ``hand`` line: whether a run may be cut before one depends on the line after it."""
    carry = b""
    read = getattr(stream, "read1", stream.read)  # what has come: see lines._lines_from_binary
    while True:
        data = read(1 << 20)
        block = carry + data
        if not data:
            if block:
                yield block
            return
        cut = block.rfind(b"\n") + 1
        while cut:
            previous = block.rfind(b"\n", 0, cut - 1) + 1
            if _HAND_AT.match(block, previous) is None:
                break
            cut = previous
        carry = block[cut:]
        if cut:
            yield block[:cut]


def _hand_lines(block: bytes) -> Iterator[tuple[int, bool, bytes]]:
    """The ``hand`` lines of a block of whole lines: where each starts, whether it is
    indented, and the digits of its number. The word is searched for, then its line start
    checked (a pattern anchored at each line start is ten times slower)."""
    for m in _HAND_WORD.finditer(block):
        where = m.start()
        start = block.rfind(b"\n", 0, where) + 1
        if start == where:
            yield where, False, m.group(1)
        elif not block[start:where].strip(b" \t"):
            yield start, True, m.group(1)


_HAND_WORD = re.compile(rb"hand[ \t]+([0-9]*)")


_HAND_AT = re.compile(rb"[ \t]*hand[ \t]+")
