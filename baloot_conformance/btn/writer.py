"""The canonical BTN writer: what ``baloot-conformance fmt`` prints.

Canonical form (docs/btn.md, "Canonical form"): one space between tokens, canonical card and
suit letters (``TS``, not ``10S`` or ``T♠``), ``\\n`` line ends, one blank line before each
``hand``, end-of-line comments after two spaces, and the four cards of a trick on one
``trick`` line whenever nothing sits between them (``play`` lines otherwise).

Guarantees, tested: parse -> write -> parse gives the same events and claims, and canonical
text -> parse -> write gives the same bytes.

Whatever built the transcript (the reader, the JSON form, the suite from an engine's answers),
the writer writes only what reads back: each line it writes is one line (no line break, NUL
or lone surrogate in a comment, a tag value or a word; :func:`text_problem`), and each number
is one BTN writes (0 to 999,999,999). Anything else is a :class:`TranscriptSyntaxError` naming
the item's position, never a line that would read as another statement. A lone surrogate is
refused, not replaced by U+FFFD: a transcript is UTF-8, and it records what was said.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import IO

from baloot_conformance.btn.items import (
    Baloot,
    Call,
    CallVerdictClaim,
    Comment,
    ContractClaim,
    Deal,
    Dealer,
    Declare,
    FaceUp,
    Foul,
    Hand,
    HandItem,
    Hold,
    KabootClaim,
    Kawesh,
    LegalClaim,
    Play,
    Rest,
    ResultClaim,
    Sawa,
    Start,
    Tag,
    TeamClaim,
    Transcript,
    TrickClaim,
    WinnerClaim,
)
from baloot_conformance.cards import Card
from baloot_conformance.errors import TranscriptSyntaxError

__all__ = ["format_hand", "format_header", "format_transcript", "text_problem", "write_transcript"]

#: What cannot sit in one line of a BTN file: a line end, a NUL, half of a UTF-16 pair.
_UNWRITABLE = re.compile("[\r\n\x00\ud800-\udfff]")
_NAMES = {"\r": "a carriage return", "\n": "a line break", "\x00": "a NUL"}
#: The largest number BTN writes (nine digits).
_MAX_NUMBER = 999_999_999
#: A metadata block's own end line, which its text cannot hold.
_METADATA_END = re.compile("^---[ \t]*$", re.MULTILINE)


def text_problem(text: str) -> str | None:
    """What keeps ``text`` (a comment, a tag value, a word) from being written on one BTN
    line, or ``None``: the one check of every line the writer writes, and of the JSON form's
    strings as they are read."""
    found = _UNWRITABLE.search(text)
    if found is None:
        return None
    char, at = found.group(), f"at character {found.start() + 1}"
    if char in _NAMES:
        return f"{_NAMES[char]} {at}"
    return f"a lone surrogate (U+{ord(char):04X}) {at}, which UTF-8 cannot encode"


def _line(text: str, where: str) -> str:
    """``text`` as one line of the file, or the error naming ``where`` it came from."""
    problem = text_problem(text)
    if problem is not None:
        raise TranscriptSyntaxError(
            f"{where}: cannot be written as one BTN line: {problem}",
            hint="comments, tag values and words are one line of UTF-8 text",
        )
    return text


def _number(value: int, where: str) -> int:
    if not 0 <= value <= _MAX_NUMBER:
        raise TranscriptSyntaxError(
            f"{where}: the number {value} cannot be written: BTN writes 0 to {_MAX_NUMBER:,}"
        )
    return value


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


def _teams(ns: int | None, ew: int | None, where: str) -> str:
    parts = []
    if ns is not None:
        parts.append(f"NS {_number(ns, where)}")
    if ew is not None:
        parts.append(f"EW {_number(ew, where)}")
    return " ".join(parts)


def _with_comment(text: str, comment: str | None) -> str:
    return text if comment is None else f"{text}  #{comment}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_header(transcript: Transcript) -> str:
    """The version line, the metadata block and the header lines."""
    out = [_line(f"%btn {transcript.version}", "the version") + "\n"]
    metadata = transcript.metadata_text
    if metadata is not None:
        for line in metadata.split("\n"):
            _line(line.removesuffix("\r"), "the metadata block")
        if (metadata and not metadata.endswith("\n")) or _METADATA_END.search(metadata):
            raise TranscriptSyntaxError(
                "the metadata block: its text must end with a line end and hold no '---' line"
            )
        out.append("---\n")
        out.append(metadata)
        out.append("---\n")
    for item in transcript.header:
        if isinstance(item, Tag):
            text = _with_comment(f'[{item.name} "{_escape(item.value)}"]', item.comment)
            out.append(_line(text, f"the header tag {item.name}"))
        else:
            out.append(_line(f"#{item.text}", "a header comment"))
        out.append("\n")
    return "".join(out)


def _statement(item: HandItem) -> str:
    """One item as a line, without the end-of-line comment (plays are handled by the caller)."""
    if isinstance(item, Comment):
        return f"#{item.text}"
    if isinstance(item, (Deal, Hold, Rest)):
        word = "deal" if isinstance(item, Deal) else "hold" if isinstance(item, Hold) else "rest"
        text = f"{word} {item.seat} {_cards(item.cards)}"
    elif isinstance(item, Call):
        text = " ".join([item.phase, item.seat, item.word, *item.args])
    elif isinstance(item, Play):
        text = f"play {item.seat} {item.card.code}"
    elif isinstance(item, TrickClaim):
        text = f"= trick {_number(item.trick, item.position)} {item.winner}"
        if item.points is not None:
            text += f" {_number(item.points, item.position)}"
    elif isinstance(item, Dealer):
        text = f"dealer {item.seat}"
    elif isinstance(item, FaceUp):
        text = f"faceup {item.card.code}"
    elif isinstance(item, Start):
        text = f"start {_teams(item.ns, item.ew, item.position)}"
    elif isinstance(item, Declare):
        text = f"declare {item.seat} {item.project}"
        if item.cards:
            text += " " + _cards(item.cards)
    elif isinstance(item, Baloot):
        text = f"baloot {item.seat}"
        if item.cards:
            text += " " + _cards(item.cards)
    elif isinstance(item, Foul):
        text = " ".join(["foul", item.seat, item.target, *item.words])
    elif isinstance(item, Sawa):
        text = f"sawa {item.seat}"
    elif isinstance(item, Kawesh):
        text = f"kawesh {item.seat}"
    elif isinstance(item, ContractClaim):
        if item.buyer is None:
            text = "= contract none"
        else:
            parts = ["= contract", item.buyer, item.kind or ""]
            if item.trump is not None:
                parts.append(item.trump.value)
            if item.multiplier is not None:
                parts.append(f"x{_number(item.multiplier, item.position)}")
            if item.lock is not None:
                parts.append(item.lock)
            text = " ".join(parts)
    elif isinstance(item, LegalClaim):
        text = f"= legal {item.seat} {_cards(item.cards)}"
    elif isinstance(item, TeamClaim):
        text = f"= {item.name} {_teams(item.ns, item.ew, item.position)}"
    elif isinstance(item, ResultClaim):
        text = f"= result {item.outcome}"
    elif isinstance(item, KabootClaim):
        text = f"= kaboot {item.team}"
    elif isinstance(item, WinnerClaim):
        text = f"= winner {item.team}"
    elif isinstance(item, CallVerdictClaim):
        text = f"= {item.call} {item.verdict}"
    else:  # pragma: no cover - every item type is handled above
        raise TypeError(f"not a BTN item: {item!r}")
    return _with_comment(text, item.comment)


def _trick_line(items: Sequence[HandItem], i: int) -> tuple[str, int] | None:
    """The ``trick`` line starting at ``items[i]`` and the number of items it covers, or None
    when the four plays cannot share one line (something sits between them, or a comment)."""
    if i + 4 > len(items):
        return None
    plays = items[i : i + 4]
    first = plays[0]
    if not isinstance(first, Play) or first.index != 1:
        return None
    for k, p in enumerate(plays):
        if not isinstance(p, Play) or p.index != k + 1 or p.trick != first.trick:
            return None
        if k < 3 and p.comment is not None:
            return None
    cards = ", ".join(f"{p.seat} {p.card.code}" for p in plays if isinstance(p, Play))
    text = f"trick {first.trick}: {cards}"
    last = plays[3]
    assert isinstance(last, Play)
    claim = items[i + 4] if i + 4 < len(items) else None
    if last.comment is None and isinstance(claim, TrickClaim) and claim.trick == first.trick:
        text += f" = {claim.winner}"
        if claim.points is not None:
            text += f" {_number(claim.points, claim.position)}"
        return _with_comment(text, claim.comment), 5
    return _with_comment(text, last.comment), 4


def format_hand(hand: Hand) -> str:
    """One hand in canonical form, starting with its blank line and ``hand N`` line."""
    head = _with_comment(f"hand {_number(hand.number, hand.position)}", hand.comment)
    out = ["\n", _line(head, hand.position), "\n"]
    items = hand.items
    i = 0
    n = len(items)
    while i < n:
        item = items[i]
        if isinstance(item, Play) and item.index == 1:
            merged = _trick_line(items, i)
            if merged is not None:
                out.append(_line(merged[0], item.position))
                out.append("\n")
                i += merged[1]
                continue
        where = item.position if not isinstance(item, Comment) else f"{hand.position}: a comment"
        out.append(_line(_statement(item), where))
        out.append("\n")
        i += 1
    return "".join(out)


def iter_chunks(transcript: Transcript) -> Iterator[str]:
    """The canonical text in pieces: the header, then one piece per hand."""
    yield format_header(transcript)
    for hand in transcript.hands:
        yield format_hand(hand)


def format_transcript(transcript: Transcript) -> str:
    """The whole transcript in canonical form."""
    return "".join(iter_chunks(transcript))


def write_transcript(transcript: Transcript, stream: IO[str]) -> None:
    """Write the canonical form to a text stream, hand by hand."""
    for chunk in iter_chunks(transcript):
        stream.write(chunk)
