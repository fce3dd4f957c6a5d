"""The canonical BTN 2 writer.

Canonical form (docs/btn2.md, "Canonical form"), as BTN 1's writer
(:mod:`baloot_conformance.btn.writer`) has it: one space between tokens, canonical cards
(``TH``, not ``10H`` or ``T♥``), ``\\n`` line ends, one blank line before each ``hand``,
end-of-line comments after two spaces; and, BTN 2's own: the cards of a set (a deal, an
exchange's two sides, a legal-set claim) in the pack's order (suit by suit as the ruleset lists
the suits, ranks lowest first), the values of a per-seat line in the table's order from its
first seat, and the consecutive plays of a trick on one ``trick`` line whenever nothing sits
between them and no comment but the last is attached to them (the winner claim joins the line
when it follows directly).

Guarantees, tested: parse -> write -> parse gives the same items, and canonical text -> parse
-> write gives the same bytes. The writer writes only what reads back: a comment, tag value or
word that cannot sit on one line (:func:`baloot_conformance.btn.writer.text_problem`), or a
number of more than nine digits, is a :class:`TranscriptSyntaxError` naming its position.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from baloot_conformance.btn.writer import text_problem
from baloot_conformance.errors import TranscriptSyntaxError
from baloot_conformance.family.btn.items import (
    SIGNED_CLAIMS,
    Ante,
    Call,
    Comment,
    Deal,
    Dealer,
    Exchange,
    FaceUp,
    Hand,
    HandItem,
    Knock,
    LayoutPlay,
    LegalClaim,
    OrderClaim,
    Penalty,
    Play,
    Reshuffle,
    SidesClaim,
    Start,
    Table,
    Tag,
    Transcript,
    TrickClaim,
    Wager,
)

__all__ = ["format_btn2", "format_hand", "format_header", "iter_chunks"]

_MAX_NUMBER = 999_999_999
#: A metadata block's own end line, which its text cannot hold.
_METADATA_END = re.compile("^---[ \t]*$", re.MULTILINE)


def _line(text: str, where: str) -> str:
    problem = text_problem(text)
    if problem is not None:
        raise TranscriptSyntaxError(
            f"{where}: cannot be written as one BTN line: {problem}",
            hint="comments, tag values and words are one line of UTF-8 text",
        )
    return text


def _number(value: int, where: str, signed: bool = False) -> str:
    low = -_MAX_NUMBER if signed else 0
    if not low <= value <= _MAX_NUMBER:
        raise TranscriptSyntaxError(
            f"{where}: the number {value} cannot be written: BTN writes {low:,} to {_MAX_NUMBER:,}"
        )
    return str(value)


def _with_comment(text: str, comment: str | None) -> str:
    return text if comment is None else f"{text}  #{comment}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


class _Order:
    """The table's orders: cards by the pack, seats by the table."""

    def __init__(self, table: Table) -> None:
        self.card = {card: i for i, card in enumerate(table.pack)}
        self.seat = {seat: i for i, seat in enumerate(table.seats)}

    def cards(self, cards: Iterable[str]) -> str:
        last = len(self.card)
        return " ".join(sorted(cards, key=lambda c: self.card.get(c, last)))

    def sides(self, values: Iterable[tuple[str, int]], where: str, signed: bool = False) -> str:
        last = len(self.seat)
        ordered = sorted(values, key=lambda pair: self.seat.get(pair[0], last))
        return " ".join(f"{seat} {_number(n, where, signed)}" for seat, n in ordered)

    def seats(self, seats: Iterable[str]) -> str:
        last = len(self.seat)
        return " ".join(sorted(seats, key=lambda s: self.seat.get(s, last)))


def format_header(transcript: Transcript) -> str:
    """The version line, the metadata block and the header lines."""
    out = [_line(f"%btn {transcript.version}", "the version") + "\n"]
    metadata = transcript.metadata_text
    if metadata is not None:
        for line in metadata.split("\n"):
            _line(line, "the metadata block")
        if (metadata and not metadata.endswith("\n")) or _METADATA_END.search(metadata):
            raise TranscriptSyntaxError(
                "the metadata block: its text must end with a line end and hold no '---' line"
            )
        out.append("---\n" + metadata + "---\n")
    for item in transcript.header:
        if isinstance(item, Tag):
            text = _with_comment(f'[{item.name} "{_escape(item.value)}"]', item.comment)
            out.append(_line(text, f"the header tag {item.name}"))
        else:
            out.append(_line(f"#{item.text}", "a header comment"))
        out.append("\n")
    return "".join(out)


def _statement(item: HandItem, order: _Order) -> str:
    """One item as a line (plays and trick claims on their own; see :func:`_trick_line`)."""
    if isinstance(item, Comment):
        return f"#{item.text}"
    where = item.position
    if isinstance(item, Start):
        text = _start(item, order)
    elif isinstance(item, Dealer):
        text = f"dealer {item.seat}"
    elif isinstance(item, Ante):
        text = f"ante {order.sides(item.chips, where)}"
    elif isinstance(item, Deal):
        text = f"deal {item.seat} {order.cards(item.cards)}"
    elif isinstance(item, FaceUp):
        text = f"faceup {item.seat} {item.card}"
    elif isinstance(item, Call):
        text = " ".join(["bid", item.seat, item.word, *item.args])
    elif isinstance(item, Exchange):
        text = f"exchange {item.seat} {order.cards(item.discards)} : {order.cards(item.received)}"
    elif isinstance(item, Reshuffle):
        text = "reshuffle"
    elif isinstance(item, Penalty):
        text = f"penalty {item.seat} {item.offence}"
    elif isinstance(item, Play):
        text = f"trick {_number(item.trick, where)}: {item.seat} {item.card}"
    elif isinstance(item, TrickClaim):
        text = f"= trick {_number(item.trick, where)} {item.winner}"
        if item.points is not None:
            text += f" {_number(item.points, where)}"
    elif isinstance(item, LegalClaim):
        text = f"= legal {item.seat} {order.cards(item.cards)}"
    elif isinstance(item, SidesClaim):
        text = f"= {item.name} {order.sides(item.values, where, item.name in SIGNED_CLAIMS)}"
    elif isinstance(item, Wager):
        parts = [f"double {order.seats(item.doubles)}"] if item.doubles else []
        parts += [f"redouble {order.seats(item.redoubles)}"] if item.redoubles else []
        text = f"raise {item.seat} {', '.join(parts) or 'pass'}"
    elif isinstance(item, LayoutPlay):
        text = f"play {item.seat} {item.card}"
    elif isinstance(item, Knock):
        text = f"knock {item.seat}"
    elif isinstance(item, OrderClaim):
        text = f"= order {' '.join(item.seats)}"
    else:  # pragma: no cover - every item type is handled above
        raise TypeError(f"not a BTN 2 item: {item!r}")
    return _with_comment(text, item.comment)


def _start(item: Start, order: _Order) -> str:
    """A ``start`` line: the pot form, or a points game's (its parts joined by commas)."""
    where = item.position
    if item.hand is None:
        text = f"start pot {_number(item.pot, where)}"
        return text + (f" exempt {order.seats(item.exempt)}" if item.exempt else "")
    parts = [f"hand {_number(item.hand, where)}"]
    if item.scores:
        parts.append(f"score {order.sides(item.scores, where, True)}")
    if item.doubled:
        parts.append(f"doubled {order.sides(item.doubled, where)}")
    if item.chosen:
        parts.append("chosen " + " ".join(item.chosen))
    return "start " + ", ".join(parts)


def _trick_line(items: Sequence[HandItem], i: int) -> tuple[str, int]:
    """The ``trick`` line of the plays from ``items[i]`` on, and how many items it covers:
    the plays of one trick that follow each other with no comment but the last's, and the
    trick's winner claim when it comes right after them."""
    first = items[i]
    assert isinstance(first, Play)
    plays = [first]
    j = i + 1
    while first.comment is None and j < len(items):
        nxt = items[j]
        if not isinstance(nxt, Play) or nxt.trick != first.trick:
            break
        plays.append(nxt)
        j += 1
        if nxt.comment is not None:
            break
    cells = ", ".join(f"{p.seat} {p.card}" for p in plays)
    text = f"trick {_number(first.trick, first.position)}: {cells}"
    last = plays[-1]
    claim = items[j] if j < len(items) else None
    if last.comment is None and isinstance(claim, TrickClaim) and claim.trick == first.trick:
        text += f" = {claim.winner}"
        if claim.points is not None:
            text += f" {_number(claim.points, claim.position)}"
        return _with_comment(text, claim.comment), j - i + 1
    return _with_comment(text, last.comment), j - i


def format_hand(hand: Hand, table: Table) -> str:
    """One hand in canonical form, starting with its blank line and ``hand N`` line."""
    order = _Order(table)
    head = _with_comment(f"hand {_number(hand.number, hand.position)}", hand.comment)
    out = ["\n", _line(head, hand.position), "\n"]
    items = hand.items
    i = 0
    while i < len(items):
        item = items[i]
        if isinstance(item, Play):
            text, used = _trick_line(items, i)
            out.append(_line(text, item.position) + "\n")
            i += used
            continue
        where = item.position if not isinstance(item, Comment) else f"{hand.position}: a comment"
        out.append(_line(_statement(item, order), where) + "\n")
        i += 1
    return "".join(out)


def iter_chunks(transcript: Transcript) -> Iterator[str]:
    """The canonical text in pieces: the header, then one piece per hand."""
    yield format_header(transcript)
    for hand in transcript.hands:
        yield format_hand(hand, transcript.table)


def format_btn2(transcript: Transcript) -> str:
    """The whole transcript in canonical form."""
    return "".join(iter_chunks(transcript))
