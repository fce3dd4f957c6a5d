"""The canonical BTN writer: what ``baloot-conformance fmt`` prints.

Canonical form (docs/btn.md, "Canonical form"): one space between tokens, canonical card and
suit letters (``TS``, not ``10S`` or ``T♠``), ``\\n`` line ends, one blank line before each
``hand``, end-of-line comments after two spaces, and the four cards of a trick on one
``trick`` line whenever nothing sits between them (``play`` lines otherwise).

Guarantees, tested: parse -> write -> parse gives the same events and claims, and canonical
text -> parse -> write gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import IO

from baloot_conformance.btn.items import (
    Baloot,
    Call,
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
    LegalClaim,
    Play,
    Rest,
    ResultClaim,
    Start,
    Tag,
    TeamClaim,
    Transcript,
    TrickClaim,
    WinnerClaim,
)
from baloot_conformance.cards import Card

__all__ = ["format_hand", "format_header", "format_transcript", "write_transcript"]


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


def _teams(ns: int | None, ew: int | None) -> str:
    parts = []
    if ns is not None:
        parts.append(f"NS {ns}")
    if ew is not None:
        parts.append(f"EW {ew}")
    return " ".join(parts)


def _with_comment(text: str, comment: str | None) -> str:
    return text if comment is None else f"{text}  #{comment}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_header(transcript: Transcript) -> str:
    """The version line, the metadata block and the header lines."""
    out = [f"%btn {transcript.version}\n"]
    if transcript.metadata_text is not None:
        out.append("---\n")
        out.append(transcript.metadata_text)
        out.append("---\n")
    for item in transcript.header:
        if isinstance(item, Tag):
            out.append(_with_comment(f'[{item.name} "{_escape(item.value)}"]', item.comment))
        else:
            out.append(f"#{item.text}")
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
        text = f"= trick {item.trick} {item.winner}"
        if item.points is not None:
            text += f" {item.points}"
    elif isinstance(item, Dealer):
        text = f"dealer {item.seat}"
    elif isinstance(item, FaceUp):
        text = f"faceup {item.card.code}"
    elif isinstance(item, Start):
        text = f"start {_teams(item.ns, item.ew)}"
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
    elif isinstance(item, ContractClaim):
        if item.buyer is None:
            text = "= contract none"
        else:
            parts = ["= contract", item.buyer, item.kind or ""]
            if item.trump is not None:
                parts.append(item.trump.value)
            if item.multiplier is not None:
                parts.append(f"x{item.multiplier}")
            if item.lock is not None:
                parts.append(item.lock)
            text = " ".join(parts)
    elif isinstance(item, LegalClaim):
        text = f"= legal {item.seat} {_cards(item.cards)}"
    elif isinstance(item, TeamClaim):
        text = f"= {item.name} {_teams(item.ns, item.ew)}"
    elif isinstance(item, ResultClaim):
        text = f"= result {item.outcome}"
    elif isinstance(item, KabootClaim):
        text = f"= kaboot {item.team}"
    elif isinstance(item, WinnerClaim):
        text = f"= winner {item.team}"
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
            text += f" {claim.points}"
        return _with_comment(text, claim.comment), 5
    return _with_comment(text, last.comment), 4


def format_hand(hand: Hand) -> str:
    """One hand in canonical form, starting with its blank line and ``hand N`` line."""
    out = ["\n", _with_comment(f"hand {hand.number}", hand.comment), "\n"]
    items = hand.items
    i = 0
    n = len(items)
    while i < n:
        item = items[i]
        if isinstance(item, Play) and item.index == 1:
            merged = _trick_line(items, i)
            if merged is not None:
                out.append(merged[0])
                out.append("\n")
                i += merged[1]
                continue
        out.append(_statement(item))
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
