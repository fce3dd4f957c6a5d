"""Reading BTN 2, layer 1: text to numbered lines. The errors of every layer are built by
BTN 1's :class:`~baloot_conformance.btn.lines.Errors`, with their ``file:line:col``.

The checks are BTN 1's (:mod:`baloot_conformance.btn.lines`, whose limits are the notation's):
UTF-8 text (bytes are decoded by its :func:`~baloot_conformance.btn.lines.decode_utf8`, with
the same errors), no NUL, no line longer than
:data:`~baloot_conformance.btn.lines.MAX_LINE_BYTES`; line ends (LF, CRLF) are dropped. A
BTN 2 transcript is read from text held in memory, so its lines are kept for quoting as they
are.
"""

from __future__ import annotations

from baloot_conformance.btn.lines import MAX_LINE_BYTES, Errors

__all__ = ["Errors", "split_lines"]


def split_lines(text: str, errors: Errors) -> list[str]:
    """The lines of ``text`` without their line ends (a final line end ends the last line),
    each checked: no NUL, none longer than :data:`MAX_LINE_BYTES` bytes."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    if "\x00" in text:
        for number, line in enumerate(lines, 1):
            if "\x00" in line:
                raise errors.at(
                    "binary data: a NUL byte in the text",
                    number,
                    line.index("\x00") + 1,
                    line.replace("\x00", "?"),
                    hint="BTN files are UTF-8 text, one statement per line",
                )
    quarter = MAX_LINE_BYTES // 4
    if max(map(len, lines), default=0) > quarter:  # 4,096 characters may be 16,384 bytes
        for number, line in enumerate(lines, 1):
            if len(line) > quarter and len(line.encode("utf-8", "replace")) > MAX_LINE_BYTES:
                raise errors.at(
                    f"line {number} is longer than {MAX_LINE_BYTES} bytes",
                    number,
                    MAX_LINE_BYTES + 1,
                    hint="one statement per line; no BTN statement is that long",
                )
    return lines
