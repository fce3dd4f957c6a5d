"""Reading BTN, the Baloot Transcript Notation: text to typed events and claims.

The grammar ``grammar/btn.lark`` is the normative definition of the syntax. Parsing a large
file through a Lark tree is slow, so each line is first tried by a fast path (one compiled
regular expression per statement, mirroring the grammar); a line the fast path does not
recognise is handed to the Lark parser, which either accepts it (the same statement comes out)
or explains what was expected. A differential test checks that both front ends agree.

Reading is streaming: :class:`TranscriptReader` reads the header, then yields one
:class:`Hand` at a time, so memory is bounded by the largest hand, not by the file.

Items (events and claims) are plain slotted dataclasses, compared by value, and the reader
builds fresh ones for every hand: a frozen class would make each of them several times
slower to build, and the reader builds a few dozen per hand. Containers (:class:`Hand`,
:class:`Transcript`) are frozen.

Layers, each usable on its own (the tests use them to compare the front ends):

1. lines: bytes or text to ``(line number, text)`` with a line-length limit and UTF-8 checks;
2. statements: one :data:`Stmt` tuple per line (fast path, or Lark for the hard cases);
3. layout: the version line first, the metadata block, header tags, then hands;
4. hands: structural checks that need no rules (a card dealt twice, a missing seat, a claim
   before the event it refers to, ...) and the stable positions (``h2.t5.p3``).
"""

from __future__ import annotations

import dataclasses
import gzip
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from typing import IO, Any, Protocol, cast

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from baloot_conformance.cards import Card, Suit, parse_card
from baloot_conformance.errors import Location, SpecError, TranscriptSyntaxError, caret_excerpt
from baloot_conformance.resources import grammar_parser
from baloot_conformance.ruleset import load_yaml

__all__ = [
    "MAX_LINE_BYTES",
    "SEATS",
    "TEAMS",
    "Baloot",
    "Call",
    "Claim",
    "Comment",
    "ContractClaim",
    "Deal",
    "Dealer",
    "Declare",
    "Event",
    "FaceUp",
    "Foul",
    "Hand",
    "Hold",
    "Item",
    "KabootClaim",
    "LegalClaim",
    "Play",
    "Rest",
    "ResultClaim",
    "Start",
    "Tag",
    "TeamClaim",
    "Transcript",
    "TranscriptReader",
    "TrickClaim",
    "WinnerClaim",
    "game_runs",
    "iter_game_runs",
    "iter_hands",
    "parse_transcript",
    "read_transcript",
]

#: The longest line accepted, in bytes (UTF-8); longer lines are an error, not a memory spike.
MAX_LINE_BYTES = 16_384
#: The seats in the order of play, dealing and bidding (counter-clockwise).
SEATS = ("N", "W", "S", "E")
#: The two teams, partners opposite.
TEAMS = ("NS", "EW")
#: The major version of BTN this reader knows.
KNOWN_MAJOR = 1
#: Names of the per-team claims (``= abnat NS 92 EW 70``), in canonical spelling.
TEAM_CLAIMS = ("abnat", "aklat", "projects", "cardscore", "projectscore", "score", "total")

# ---------------------------------------------------------------------------------------------
# The data model
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Comment:
    """A whole-line comment; ``text`` is everything after ``#`` (kept so ``fmt`` keeps it)."""

    text: str
    line: int = field(default=0, compare=False)
    column: int = field(default=1, compare=False)


@dataclass(slots=True, kw_only=True)
class Item:
    """Base of events and claims: a stable ``position``, the source ``line``/``column`` and an
    optional end-of-line ``comment`` (the text after ``#``). Line and column are not compared."""

    position: str
    comment: str | None = None
    line: int = field(default=0, compare=False)
    column: int = field(default=1, compare=False)


@dataclass(slots=True, kw_only=True)
class Event(Item):
    """Something that happened at the table."""


@dataclass(slots=True, kw_only=True)
class Claim(Item):
    """Something the engine computed; the kit checks it (lines starting with ``=``)."""


@dataclass(slots=True, kw_only=True)
class Start(Event):
    """``start NS 120 EW 40``: the running totals before this hand (for score-dependent rules)."""

    ns: int | None
    ew: int | None


@dataclass(slots=True, kw_only=True)
class Dealer(Event):
    """``dealer E``."""

    seat: str


@dataclass(slots=True, kw_only=True)
class Deal(Event):
    """``deal N 8S TS 8H 9H 7C``: the first five cards of a seat."""

    seat: str
    cards: tuple[Card, ...]


@dataclass(slots=True, kw_only=True)
class Hold(Event):
    """``hold N ...``: a seat's eight cards, for engines that log only the full hands."""

    seat: str
    cards: tuple[Card, ...]


@dataclass(slots=True, kw_only=True)
class FaceUp(Event):
    """``faceup QS``: the face-up card that is bought."""

    card: Card


@dataclass(slots=True, kw_only=True)
class Call(Event):
    """``bid N hokum`` (``phase`` "bid") or ``raise E double closed`` (``phase`` "raise").

    ``word`` is the call, ``args`` its arguments (suits are given as letters). Which words are
    legal when is the ruleset's business, not the notation's.
    """

    phase: str
    seat: str
    word: str
    args: tuple[str, ...] = ()


@dataclass(slots=True, kw_only=True)
class Rest(Event):
    """``rest N KH JC``: the cards that complete a seat's hand after the auction."""

    seat: str
    cards: tuple[Card, ...]


@dataclass(slots=True, kw_only=True)
class Declare(Event):
    """``declare W sira AD KD QD``: a project, with its cards when the engine gives them."""

    seat: str
    project: str
    cards: tuple[Card, ...] = ()


@dataclass(slots=True, kw_only=True)
class Baloot(Event):
    """``baloot N`` (optionally with the cards): the K and Q of trump announced."""

    seat: str
    cards: tuple[Card, ...] = ()


@dataclass(slots=True, kw_only=True)
class Play(Event):
    """One card played; ``trick`` (1-8) and ``index`` (1-4) give its place in the hand."""

    seat: str
    card: Card
    trick: int
    index: int


@dataclass(slots=True, kw_only=True)
class Foul(Event):
    """``foul E t3.p2 revoke``: a foul call (qayd) by ``seat`` on an earlier play."""

    seat: str
    target: str
    words: tuple[str, ...] = ()


@dataclass(slots=True, kw_only=True)
class ContractClaim(Claim):
    """``= contract N hokum S x2 closed`` or ``= contract none`` (``buyer`` is then None)."""

    buyer: str | None
    kind: str | None = None
    trump: Suit | None = None
    multiplier: int | None = None
    lock: str | None = None


@dataclass(slots=True, kw_only=True)
class TrickClaim(Claim):
    """The winner of a trick (``... = E`` on a trick line, or ``= trick 3 E 20``)."""

    trick: int
    winner: str
    points: int | None = None


@dataclass(slots=True, kw_only=True)
class LegalClaim(Claim):
    """``= legal W KS QS``: the cards the engine offered as legal for the next play."""

    seat: str
    cards: tuple[Card, ...]


@dataclass(slots=True, kw_only=True)
class LegalCallsClaim(Claim):
    """The calls an engine offers as legal to ``seat`` before its call event of ``phase``
    (``bid`` or ``raise``), written as the notation writes them (``pass``, ``hokum S``,
    ``double``). It has no text form: ``suite`` builds it from an engine's answer to a
    ``legal`` request, at the position of the call it precedes."""

    seat: str
    phase: str
    calls: tuple[str, ...]


@dataclass(slots=True, kw_only=True)
class TeamClaim(Claim):
    """``= abnat NS 92 EW 70`` and the other per-team numbers (see :data:`TEAM_CLAIMS`)."""

    name: str
    ns: int | None
    ew: int | None


@dataclass(slots=True, kw_only=True)
class ResultClaim(Claim):
    """``= result failed``: the outcome for the buyer (made, failed, ...)."""

    outcome: str


@dataclass(slots=True, kw_only=True)
class KabootClaim(Claim):
    """``= kaboot EW``: the team that took every trick."""

    team: str


@dataclass(slots=True, kw_only=True)
class WinnerClaim(Claim):
    """``= winner NS``: the team that won the game (after its last hand)."""

    team: str


def _maker(cls: type[Any]) -> Callable[..., Any]:
    """A positional constructor for an item class: the same object as ``cls(**kw)``, built
    without the keyword-argument overhead (the reader creates millions of them). Arguments in
    field order: position, comment, line, column, then the class's own fields."""
    names = [f.name for f in fields(cls)]
    body = "".join(f"    o.{n} = {n}\n" for n in names)
    source = f"def make({', '.join(names)}):\n    o = new(cls)\n{body}    return o\n"
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    exec(source, scope)  # the same technique dataclasses use for __init__
    return scope["make"]  # type: ignore[no-any-return]


#: What a hand holds, in source order.
HandItem = Event | Claim | Comment


_MAKE_PLAY = _maker(Play)
_MAKE_DEAL = _maker(Deal)
_MAKE_REST = _maker(Rest)
_MAKE_HOLD = _maker(Hold)
_MAKE_DEALER = _maker(Dealer)
_MAKE_START = _maker(Start)
_MAKE_FACEUP = _maker(FaceUp)
_MAKE_CALL = _maker(Call)
_MAKE_DECLARE = _maker(Declare)
_MAKE_BALOOT = _maker(Baloot)
_MAKE_FOUL = _maker(Foul)
_MAKE_CONTRACT = _maker(ContractClaim)
_MAKE_TRICK = _maker(TrickClaim)
_MAKE_LEGAL = _maker(LegalClaim)
_MAKE_TEAM = _maker(TeamClaim)
_MAKE_CLOSING = {
    "=result": _maker(ResultClaim),
    "=kaboot": _maker(KabootClaim),
    "=winner": _maker(WinnerClaim),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Hand:
    """One hand: its number and its events, claims and comments in order."""

    number: int
    items: tuple[HandItem, ...]
    comment: str | None = None
    line: int = field(default=0, compare=False)
    column: int = field(default=1, compare=False)

    @property
    def position(self) -> str:
        return f"h{self.number}"

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(i for i in self.items if isinstance(i, Event))

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(i for i in self.items if isinstance(i, Claim))

    def trick(self, number: int) -> tuple[Play, ...]:
        """The cards of trick ``number`` (position ``h<hand>.t<number>``), in play order."""
        return tuple(i for i in self.items if isinstance(i, Play) and i.trick == number)


@dataclass(frozen=True, slots=True, kw_only=True)
class Tag:
    """A header tag ``[Name "value"]``."""

    name: str
    value: str
    comment: str | None = None
    line: int = field(default=0, compare=False)
    column: int = field(default=1, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class Transcript:
    """A whole transcript: version, optional fixture metadata, header, hands.

    ``metadata`` is the YAML mapping of the fixture metadata block and ``metadata_text`` its
    source (kept so that ``fmt`` does not rewrite hand-written YAML).
    """

    version: str
    header: tuple[Tag | Comment, ...]
    hands: tuple[Hand, ...]
    metadata: Mapping[str, Any] | None = None
    metadata_text: str | None = None

    @property
    def tags(self) -> dict[str, str]:
        """The header tags by name, in file order."""
        return {t.name: t.value for t in self.header if isinstance(t, Tag)}


# ---------------------------------------------------------------------------------------------
# Layer 1: lines
# ---------------------------------------------------------------------------------------------

Source = str | os.PathLike[str] | IO[bytes] | IO[str]


class _Errors:
    """Builds :class:`TranscriptSyntaxError` for one source path."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def at(
        self,
        message: str,
        line: int,
        column: int,
        text: str | None = None,
        hint: str | None = None,
    ) -> TranscriptSyntaxError:
        excerpt = caret_excerpt(text, column, line) if text is not None else None
        return TranscriptSyntaxError(
            message, location=Location(self.path, line, column), excerpt=excerpt, hint=hint
        )


def _decode(raw: bytes, number: int, errors: _Errors) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", "replace")
        shown = raw.decode("utf-8", "replace")
        raise errors.at(
            f"invalid UTF-8: byte 0x{raw[exc.start]:02x} cannot start or continue a character",
            number,
            len(good) + 1,
            shown,
            hint="BTN files are UTF-8 text; save the file as UTF-8",
        ) from None


def _check_line(text: str, number: int, errors: _Errors) -> str:
    if "\x00" in text:
        raise errors.at(
            "binary data: a NUL byte in the text",
            number,
            text.index("\x00") + 1,
            text.replace("\x00", "?"),
            hint="BTN files are UTF-8 text, one statement per line",
        )
    return text


def _too_long(number: int, errors: _Errors) -> TranscriptSyntaxError:
    return errors.at(
        f"line {number} is longer than {MAX_LINE_BYTES} bytes",
        number,
        MAX_LINE_BYTES + 1,
        hint="one statement per line; no BTN statement is that long",
    )


def _strip_eol(text: str) -> str:
    if text.endswith("\n"):
        text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
    return text


def _lines_from_text(text: str, errors: _Errors, first_line: int = 1) -> Iterator[tuple[int, str]]:
    """Split a string into lines (``\\n`` or ``\\r\\n``), checking each; the first is number
    ``first_line`` (a run of hands cut from a longer file keeps the file's line numbers)."""
    number = first_line - 1
    pos = 0
    size = len(text)
    while pos < size:
        number += 1
        end = text.find("\n", pos)
        stop = size if end < 0 else end
        width = stop - pos
        if width > MAX_LINE_BYTES:  # characters: a lower bound of the byte count
            raise _too_long(number, errors)
        chunk = text[pos:stop]
        if chunk.endswith("\r"):
            chunk = chunk[:-1]
        if width * 4 > MAX_LINE_BYTES and len(chunk.encode("utf-8", "replace")) > MAX_LINE_BYTES:
            raise _too_long(number, errors)
        yield number, _check_line(chunk, number, errors)
        pos = stop + 1


def _lines_up_to_bad_bytes(chunk: bytes, first: int, errors: _Errors) -> Iterator[tuple[int, str]]:
    """The lines of ``chunk`` (the first is line ``first``) before its first line that holds
    a NUL or is not UTF-8, then that line's error: the hands before it are still checked."""
    for offset, raw in enumerate(chunk.split(b"\n")):
        if b"\x00" in raw:
            _check_line(raw.decode("utf-8", "replace"), first + offset, errors)
        if len(raw) > MAX_LINE_BYTES:
            raise _too_long(first + offset, errors)
        line = _decode(raw, first + offset, errors)
        yield first + offset, line[:-1] if line.endswith("\r") else line
    raise AssertionError("no bad byte found")  # pragma: no cover


def _lines_from_binary(
    stream: _Readable, errors: _Errors, first_line: int = 1
) -> Iterator[tuple[int, str]]:
    """Read a binary stream in blocks; a line longer than the limit stops the reading. The
    first line is number ``first_line`` (a run of hands cut from a longer file keeps the
    file's line numbers)."""
    number = first_line - 1
    pending = b""
    limit = MAX_LINE_BYTES
    quarter = limit // 4
    while True:
        try:
            block = stream.read(1 << 18)
        except (OSError, EOFError) as exc:  # a damaged compressed file
            raise errors.at(
                f"the file cannot be read{f' after line {number}' if number else ''}: {exc}",
                number + 1,
                1,
                hint="a compressed transcript is damaged or cut short: compress it again",
            ) from None
        if block:
            pending += block
            cut = pending.rfind(b"\n")
            if cut < 0:
                if len(pending) > limit + 1:
                    raise _too_long(number + 1, errors)
                continue
            chunk = pending[:cut]
            pending = pending[cut + 1 :]
        else:
            if not pending:
                return
            chunk, pending = pending, b""
        try:
            if b"\x00" in chunk:
                raise ValueError("a NUL byte")
            text = chunk.decode("utf-8")
        except ValueError:  # a NUL, or not UTF-8 (UnicodeDecodeError is a ValueError)
            yield from _lines_up_to_bad_bytes(chunk, number + 1, errors)
        lines = text.split("\n")
        if "\r" in text:
            lines = [line[:-1] if line.endswith("\r") else line for line in lines]
        if max(map(len, lines)) > quarter:
            for offset, line in enumerate(lines, number + 1):
                if len(line) > quarter and len(line.encode("utf-8", "replace")) > limit:
                    raise _too_long(offset, errors)
        yield from enumerate(lines, number + 1)
        number += len(lines)
        if not block:
            return


def _lines_from_stream(stream: IO[Any], errors: _Errors) -> Iterator[tuple[int, str]]:
    """Read lines from a text stream without ever reading more than one long line."""
    number = 0
    while True:
        try:
            raw = stream.readline(MAX_LINE_BYTES + 2)
        except UnicodeDecodeError as exc:  # a text stream opened with strict decoding
            raise errors.at(
                f"invalid UTF-8 near line {number + 1}: {exc.reason}",
                number + 1,
                1,
                hint="BTN files are UTF-8 text; save the file as UTF-8",
            ) from None
        if not raw:
            return
        if isinstance(raw, bytes):  # a binary stream after all
            yield from _lines_from_binary(_Prepend(raw, stream), errors)
            return
        number += 1
        text = str(raw)
        if len(text) > MAX_LINE_BYTES and not (
            text.endswith("\n") and len(text.rstrip("\r\n")) <= MAX_LINE_BYTES
        ):
            raise _too_long(number, errors)
        yield number, _check_line(_strip_eol(text), number, errors)


class _Readable(Protocol):
    def read(self, size: int, /) -> bytes: ...


class _Prepend:
    """A binary stream with some bytes already read put back in front."""

    def __init__(self, head: bytes, stream: _Readable) -> None:
        self.head = head
        self.stream = stream

    def read(self, size: int, /) -> bytes:
        if self.head:
            head, self.head = self.head, b""
            return head
        return self.stream.read(size)


# ---------------------------------------------------------------------------------------------
# Layer 2: statements
# ---------------------------------------------------------------------------------------------

#: One statement: (kind, values, line, column, end-of-line comment or None).
#: Kinds: version meta tag comment hand start dealer deal hold faceup bid raise rest declare
#: baloot trick play foul =contract =trick =legal =team =result =kaboot =winner.
Stmt = tuple[str, tuple[Any, ...], int, int, "str | None"]

_SUIT_LETTER = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_CARD = r"(?:[789TJQKA]|10)[SHDC♠♥♦♣]"
MAX_DIGITS = 9
"""The longest number the notation accepts (documented limit)."""
_INT = r"(?:0|[1-9][0-9]{0,8})"  # at most MAX_DIGITS digits
_WORD = r"(?!x[0-9])[a-z][a-z0-9_]*"
_TAIL = r"(?:[ \t]*#([^\r\n\x00]*))?[ \t]*"


def _patterns(sp: str, lead: str) -> dict[str, re.Pattern[str]]:
    """The statement patterns with ``sp`` between tokens: one space (the canonical form, tried
    first because it is faster) or ``[ \t]+`` (everything the grammar accepts)."""
    teamv = rf"(?:NS{sp}({_INT})(?:{sp}EW{sp}({_INT}))?|EW{sp}({_INT}))"
    cards = rf"((?:{sp}{_CARD})+)"
    suit = r"[SHDC♠♥♦♣]"
    play = rf"{sp}([NWSE]){sp}({_CARD})"
    body = {
        "hand": rf"hand{sp}({_INT})",
        "start": rf"start{sp}{teamv}",
        "dealer": rf"dealer{sp}([NWSE])",
        "deal": rf"deal{sp}([NWSE]){cards}",
        "hold": rf"hold{sp}([NWSE]){cards}",
        "rest": rf"rest{sp}([NWSE]){cards}",
        "faceup": rf"faceup{sp}({_CARD})",
        "bid": rf"bid{sp}([NWSE]){sp}({_WORD})((?:{sp}(?:{_WORD}|{suit}))*)",
        "raise": rf"raise{sp}([NWSE]){sp}({_WORD})((?:{sp}(?:{_WORD}|{suit}))*)",
        "declare": rf"declare{sp}([NWSE]){sp}({_WORD})((?:{sp}{_CARD})*)",
        "baloot": rf"baloot{sp}([NWSE])((?:{sp}{_CARD})*)",
        "trick": rf"trick{sp}({_INT}):{play},{play},{play},{play}"
        rf"(?:{sp}={sp}([NWSE])(?:{sp}({_INT}))?)?",
        "play": rf"play{sp}([NWSE]){sp}({_CARD})",
        "foul": rf"foul{sp}([NWSE]){sp}(t[1-9][0-9]{{0,8}}\.p[1-4])((?:{sp}{_WORD})*)",
        "=contract": rf"={sp}contract{sp}(?:([NWSE]){sp}({_WORD})(?:{sp}({suit}))?"
        rf"(?:{sp}x([1-9][0-9]{{0,8}}))?(?:{sp}({_WORD}))?|(none))",
        "=trick": rf"={sp}trick{sp}({_INT}){sp}([NWSE])(?:{sp}({_INT}))?",
        "=legal": rf"={sp}legal{sp}([NWSE]){cards}",
        "=team": rf"={sp}(abnat|aklat|projects|cardscore|projectscore|score|total){sp}{teamv}",
        "=result": rf"={sp}result{sp}({_WORD})",
        "=kaboot": rf"={sp}kaboot{sp}(NS|EW)",
        "=winner": rf"={sp}winner{sp}(NS|EW)",
    }
    return {k: re.compile(lead + v + _TAIL) for k, v in body.items()}


_RX = _patterns(r"[ \t]+", r"[ \t]*")
_RX_CANONICAL = _patterns(" ", "")
_LEAD = r"[ \t]*"
_S = r"[ \t]+"


def _rx(body: str) -> re.Pattern[str]:
    return re.compile(_LEAD + body + _TAIL)


_RX_VERSION = re.compile(r"%btn" + _S + rf"({_INT}(?:\.{_INT})?)" + _TAIL)
_RX_TAG = _rx(r"\[([A-Za-z][A-Za-z0-9_]*)" + _S + r'"((?:[^"\\\r\n\x00]|\\["\\])*)"\]')
_RX_COMMENT = re.compile(r"[ \t]*#([^\r\n\x00]*)")
_RX_BLANK = re.compile(r"[ \t]*")
_RX_FENCE_OPEN = re.compile(r"[ \t]*---[ \t]*")
_RX_FENCE_CLOSE = re.compile(r"---[ \t]*")
_RX_HEAD = re.compile(r"[ \t]*(=[ \t]+)?([a-z]+)")
_UNESCAPE = re.compile(r"\\([\"\\])")

#: Every accepted card token (canonical and alternates); the patterns admit no other.
_CARD_OF: dict[str, Card] = {
    r + s: parse_card(r + s) for r in [*"789TJQKA", "10"] for s in "SHDC♠♥♦♣"
}
_card = _CARD_OF.__getitem__


def _cards(group: str) -> tuple[Card, ...]:
    return tuple(map(_card, group.split()))


def _comment(text: str | None) -> str | None:
    return None if text is None else text.rstrip(" \t")


def _int(text: str | None) -> int | None:
    return None if text is None else int(text)


def _args(group: str) -> tuple[str, ...]:
    return tuple([_SUIT_LETTER.get(a, a) for a in group.split()])


def _column(text: str) -> int:
    return len(text) - len(text.lstrip(" \t")) + 1


def _v_trick(g: tuple[Any, ...]) -> tuple[Any, ...]:
    c = _CARD_OF
    plays = ((g[1], c[g[2]]), (g[3], c[g[4]]), (g[5], c[g[6]]), (g[7], c[g[8]]))
    return (int(g[0]), plays, g[9], None if g[10] is None else int(g[10]))


def _v_contract(g: tuple[Any, ...]) -> tuple[Any, ...]:
    if g[5] is not None:
        return (None, None, None, None, None)
    trump = Suit(_SUIT_LETTER[g[2]]) if g[2] is not None else None
    return (g[0], g[1], trump, _int(g[3]), g[4])


def _v_start(g: tuple[Any, ...]) -> tuple[Any, ...]:
    ns = _int(g[0])
    return (ns, _int(g[1]) if ns is not None else _int(g[2]))


def _v_team(g: tuple[Any, ...]) -> tuple[Any, ...]:
    ns = _int(g[1])
    return (g[0], ns, _int(g[2]) if ns is not None else _int(g[3]))


_CONVERT: dict[str, Callable[[tuple[Any, ...]], tuple[Any, ...]]] = {
    "trick": _v_trick,
    "deal": lambda g: (g[0], _cards(g[1])),
    "hold": lambda g: (g[0], _cards(g[1])),
    "rest": lambda g: (g[0], _cards(g[1])),
    "=legal": lambda g: (g[0], _cards(g[1])),
    "play": lambda g: (g[0], _card(g[1])),
    "bid": lambda g: (g[0], g[1], _args(g[2])),
    "raise": lambda g: (g[0], g[1], _args(g[2])),
    "declare": lambda g: (g[0], g[1], _cards(g[2])),
    "baloot": lambda g: (g[0], _cards(g[1])),
    "hand": lambda g: (int(g[0]),),
    "dealer": lambda g: (g[0],),
    "=result": lambda g: (g[0],),
    "=kaboot": lambda g: (g[0],),
    "=winner": lambda g: (g[0],),
    "faceup": lambda g: (_card(g[0]),),
    "start": _v_start,
    "=team": _v_team,
    "=trick": lambda g: (int(g[0]), g[1], _int(g[2])),
    "=contract": _v_contract,
    "foul": lambda g: (g[0], g[1], tuple(g[2].split())),
}
_Matcher = Callable[[str], "re.Match[str] | None"]
_Splitter = Callable[[str], "tuple[Any, ...] | None"]


def _split_trick(text: str) -> tuple[Any, ...] | None:
    """A trick line in its canonical form (``trick 2: N 7C, W AD, S 8C, E KC = E 15``, single
    spaces, no comment) read by splitting it: the same values as its pattern gives, in a
    fraction of the time (a generated game is one quarter trick lines). ``None`` for any
    other form, which the pattern then reads."""
    w = text.split(" ")
    size = len(w)
    if size != 13 and size != 12 and size != 10:
        return None
    card = _CARD_OF.get
    comma = _CARD_COMMA.get
    seat = _SEAT_TOKEN.get
    trick = _TRICK_TOKEN.get(w[1])
    s1, s2, s3, s4 = seat(w[2]), seat(w[4]), seat(w[6]), seat(w[8])
    c1, c2, c3, c4 = comma(w[3]), comma(w[5]), comma(w[7]), card(w[9])
    if (
        trick is None
        or s1 is None
        or s2 is None
        or s3 is None
        or s4 is None
        or c1 is None
        or c2 is None
        or c3 is None
        or c4 is None
    ):
        return None
    plays = ((s1, c1), (s2, c2), (s3, c3), (s4, c4))
    if size == 10:
        return (trick, plays, None, None)
    winner = seat(w[11])
    if w[10] != "=" or winner is None:
        return None
    if size == 12:
        return (trick, plays, winner, None)
    points = _NUMBER_TOKEN.get(w[12])
    return None if points is None else (trick, plays, winner, points)


_SEAT_TOKEN = {seat: seat for seat in "NWSE"}
_TRICK_TOKEN = {f"{n}:": n for n in range(1, 9)}
_CARD_COMMA = {code + ",": card for code, card in _CARD_OF.items()}
_NUMBER_TOKEN = {str(n): n for n in range(1000)}
"""The numbers a split line may hold, as the pattern reads them (no leading zero)."""
_SPLIT: dict[str, _Splitter] = {"trick": _split_trick}
#: The reading of each statement's first word: its canonical pattern, its pattern with any
#: spacing, the values from the pattern's groups, its kind, and a reader that splits the
#: canonical form instead of matching it (trick lines, where that is faster).
_FAST: dict[str, tuple[_Matcher, _Matcher, Callable[..., Any], str, _Splitter | None]] = {
    k: (_RX_CANONICAL[k].fullmatch, rx.fullmatch, _CONVERT[k], k, _SPLIT.get(k))
    for k, rx in _RX.items()
}
for _name in TEAM_CLAIMS:
    _FAST["=" + _name] = _FAST["=team"]


def _fast_other(text: str, number: int) -> Stmt | None:
    """Indented lines, comments, tags and unusual spacing."""
    stripped = text.lstrip(" \t")
    column = len(text) - len(stripped) + 1
    if stripped.startswith("#"):
        m = _RX_COMMENT.fullmatch(text)
        return ("comment", (m.group(1).rstrip(" \t"),), number, column, None) if m else None
    if stripped.startswith("["):
        m = _RX_TAG.fullmatch(text)
        if m is None:
            return None
        value = _UNESCAPE.sub(r"\1", m.group(2))
        return ("tag", (m.group(1), value), number, column, _comment(m.group(3)))
    head = _RX_HEAD.match(text)
    if head is None:
        return None
    word = head.group(2)
    if head.group(1):
        word = "=" + ("team" if word in TEAM_CLAIMS else word)
    rx = _RX.get(word)
    m = rx.fullmatch(text) if rx is not None else None
    if m is None:
        return None
    g = m.groups()
    return (word, _CONVERT[word](g), number, column, _comment(g[-1]))


# ---- the Lark side ----------------------------------------------------------------------------


@cache
def lark_parser() -> Lark:
    """The LALR parser of the normative grammar (start symbols ``transcript`` and ``line``)."""
    return grammar_parser("btn.lark", start=["transcript", "line"])


def _tok(children: list[Any], kind: str) -> list[str]:
    return [str(c) for c in children if isinstance(c, Token) and c.type == kind]


def _comment_of(node: Tree[Any]) -> str | None:
    for c in node.children:
        if isinstance(c, Token) and c.type == "COMMENT":
            return str(c).split("#", 1)[1].rstrip(" \t")
    return None


def _lark_statement(tree: Tree[Any]) -> Stmt:
    """Turn the tree of one line (``line``, ``header_item``, ``hand_item`` or a statement)
    into a :data:`Stmt` (line and column are filled in by the caller)."""
    node = tree
    comment: str | None = None
    while node.data in ("line", "header_item", "hand_item"):
        if comment is None:
            comment = _comment_of(node)
        node = next(c for c in node.children if isinstance(c, Tree))
    kind = str(node.data)
    if kind == "comment_line":
        return ("comment", (_comment_of(node),), 0, 0, None)
    if comment is None:
        comment = _comment_of(node)
    if kind == "claim":
        node = next(c for c in node.children if isinstance(c, Tree))
        kind = str(node.data)
    kids = list(node.children)
    values: tuple[Any, ...]
    if kind == "version_line":
        return ("version", (_tok(kids, "VERSION")[0],), 0, 0, comment)
    if kind == "tag_line":
        raw = _tok(kids, "STRING")[0][1:-1]
        return ("tag", (_tok(kids, "TAG_NAME")[0], _UNESCAPE.sub(r"\1", raw)), 0, 0, comment)
    seats = _tok(kids, "SEAT")
    cards = tuple(_card(c) for c in _tok(kids, "CARD"))
    ints = [int(i) for i in _tok(kids, "INT")]
    words = _tok(kids, "WORD")
    if kind == "hand_line":
        return ("hand", (ints[0],), 0, 0, comment)
    if kind in ("start_stmt", "team_claim"):
        tv = next(c for c in kids if isinstance(c, Tree))
        teams = [str(c) for c in tv.children if isinstance(c, Token) and c.type in ("NS", "EW")]
        nums = [int(i) for i in _tok(list(tv.children), "INT")]
        vals = dict(zip(teams, nums, strict=False))
        pair = (vals.get("NS"), vals.get("EW"))
        if kind == "start_stmt":
            return ("start", pair, 0, 0, comment)
        return ("=team", (_tok(kids, "TEAM_CLAIM")[0], *pair), 0, 0, comment)
    name = kind.removesuffix("_stmt")
    if kind == "dealer_stmt":
        values = (seats[0],)
    elif kind in ("deal_stmt", "hold_stmt", "rest_stmt"):
        values = (seats[0], cards)
    elif kind == "faceup_stmt":
        values = (cards[0],)
    elif kind in ("bid_stmt", "raise_stmt"):
        args = [
            _SUIT_LETTER.get(str(c), str(c))
            for c in kids
            if isinstance(c, Token) and c.type in ("WORD", "SUIT")
        ]
        values = (seats[0], args[0], tuple(args[1:]))
    elif kind == "declare_stmt":
        values = (seats[0], words[0], cards)
    elif kind == "baloot_stmt":
        values = (seats[0], cards)
    elif kind == "trick_stmt":
        plays = tuple((seats[i], cards[i]) for i in range(4))
        winner = seats[4] if len(seats) > 4 else None
        values = (ints[0], plays, winner, ints[1] if len(ints) > 1 else None)
    elif kind == "play_stmt":
        values = (seats[0], cards[0])
    elif kind == "foul_stmt":
        values = (seats[0], _tok(kids, "TARGET")[0], tuple(words))
    elif kind == "contract_claim":
        name = "=contract"
        if _tok(kids, "NONE"):
            values = (None, None, None, None, None)
        else:
            suits = _tok(kids, "SUIT")
            mult = _tok(kids, "MULT")
            values = (
                seats[0],
                words[0],
                Suit(_SUIT_LETTER[suits[0]]) if suits else None,
                int(mult[0][1:]) if mult else None,
                words[1] if len(words) > 1 else None,
            )
    elif kind == "trick_claim":
        name = "=trick"
        values = (ints[0], seats[0], ints[1] if len(ints) > 1 else None)
    elif kind == "legal_claim":
        name = "=legal"
        values = (seats[0], cards)
    elif kind == "result_claim":
        name = "=result"
        values = (words[0],)
    elif kind in ("kaboot_claim", "winner_claim"):
        name = "=" + kind.removesuffix("_claim")
        values = (_tok(kids, "TEAM")[0],)
    else:  # pragma: no cover - the grammar has no other statement
        raise AssertionError(kind)
    return (name, values, 0, 0, comment)


def _with_pos(stmt: Stmt, number: int, column: int) -> Stmt:
    return (stmt[0], stmt[1], number, column, stmt[4])


# ---- errors in plain words -----------------------------------------------------------------

_DESCRIBE = {
    "CARD": "a card like 'TS' or 'AH'",
    "SEAT": "a seat (N, W, S or E)",
    "TEAM": "a team (NS or EW)",
    "NS": "'NS'",
    "EW": "'EW'",
    "INT": "a whole number",
    "WORD": "a lowercase word",
    "SUIT": "a suit (S, H, D or C)",
    "MULT": "a multiplier like 'x2'",
    "TARGET": "a play position like 't3.p2'",
    "TEAM_CLAIM": "a claim name",
    "NONE": "'none'",
    "VERSION": "a version number like '1'",
    "TAG_NAME": "a tag name like 'Ruleset'",
    "STRING": 'a quoted value like "saudi@1"',
    "METADATA": "a metadata block between '---' lines",
    "COMMENT": "a comment",
    "_NL": "the end of the line",
    "_WS": "a space",
    "$END": "the end of the file",
}
_STATEMENT_WORDS = [
    "hand",
    "start",
    "dealer",
    "deal",
    "hold",
    "faceup",
    "bid",
    "raise",
    "rest",
    "declare",
    "baloot",
    "trick",
    "play",
    "foul",
]
_CLAIM_WORDS = ["contract", "trick", "legal", *TEAM_CLAIMS, "result", "kaboot", "winner"]


def _describe_expected(names: Iterable[str]) -> str:
    parser = lark_parser()
    names = set(names)
    if {"DEALER", "TRICK", "PLAY"} <= names:
        return "a statement (" + ", ".join(_STATEMENT_WORDS) + ", '=' for a claim, or '#')"
    if {"CONTRACT", "LEGAL"} <= names:
        return "a claim name (" + ", ".join(_CLAIM_WORDS) + ")"
    if "_NL" in names:  # a comment may always end a line: say it once
        names.discard("COMMENT")
    words = []
    for name in sorted(names):
        if name in _DESCRIBE:
            words.append(_DESCRIBE[name])
            continue
        try:
            pattern = parser.get_terminal(name).pattern
        except KeyError:  # pragma: no cover - every terminal is declared
            words.append(name)
            continue
        words.append(f"'{pattern.value}'")
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _found(text: str, column: int) -> str:
    rest = text[column - 1 :]
    if not rest.strip(" \t"):
        return "the end of the line"
    if rest[0] in " \t":
        return "a space"
    m = re.match(r"[^ \t\r\n,:#]+", rest)
    return f"'{m.group(0) if m else rest[0]}'"


def _hint_for(found: str, expected: str) -> str | None:
    if "a card" in expected:
        return "a card is a rank (7 8 9 T J Q K A, or 10) and a suit (S H D C, or ♠ ♥ ♦ ♣)"
    if expected.startswith("a statement"):
        return "see docs/btn.md for the list of statements; claims start with '= '"
    if found == "a space" or "a space" in expected:
        return "one space between tokens; ',' and ':' stick to the token before them"
    return None


def _lark_error(exc: UnexpectedInput, line_text: str, number: int, errors: _Errors) -> Exception:
    column = max(1, int(getattr(exc, "column", 1) or 1))
    if isinstance(exc, UnexpectedCharacters):
        expected = _describe_expected(exc.allowed or ())
    elif isinstance(exc, UnexpectedToken):
        expected = _describe_expected(exc.expected or ())
        token = exc.token
        if token.type == "$END" or token.type == "_NL":
            column = len(line_text.rstrip(" \t")) + 1
    elif isinstance(exc, UnexpectedEOF):
        expected = _describe_expected(exc.expected or ())
        column = len(line_text.rstrip(" \t")) + 1
    else:  # pragma: no cover - Lark raises only the three kinds above
        expected = "valid BTN"
    column = min(column, len(line_text) + 1)
    digits = re.match(r"[0-9]+", line_text[column - 1 :])
    if digits and len(digits.group()) > MAX_DIGITS:
        return errors.at(
            f"a number of {len(digits.group()):,} digits: numbers in BTN have at most "
            f"{MAX_DIGITS} digits",
            number,
            column,
            line_text,
            hint="no count, score or total in Baloot needs more",
        )
    found = _found(line_text, column)
    return errors.at(
        f"expected {expected}, found {found}",
        number,
        column,
        line_text,
        hint=_hint_for(found, expected),
    )


def _slow_statement(text: str, number: int, errors: _Errors) -> Stmt:
    """Parse one line with the Lark grammar: the statement, or an error in plain words."""
    try:
        tree = lark_parser().parse(text + "\n", start="line")
    except UnexpectedInput as exc:
        raise _lark_error(exc, text, number, errors) from None
    return _with_pos(_lark_statement(tree), number, _column(text))


def _first_statement(text: str, errors: _Errors) -> Stmt:
    m = _RX_VERSION.fullmatch(text)
    if m is not None:
        return ("version", (m.group(1),), 1, 1, _comment(m.group(2)))
    if not text.strip(" \t"):
        raise errors.at(
            "expected the version line '%btn 1' as the first line, found an empty line",
            1,
            1,
            text,
            hint="a BTN file starts with the line '%btn 1'",
        )
    try:
        stmt = _slow_statement(text, 1, errors)
    except TranscriptSyntaxError:
        stmt = ("", (), 1, 1, None)
    if stmt[0] != "version":
        hint = "a BTN file starts with the line '%btn 1'"
        if text.startswith("\ufeff"):
            hint = "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one"
        elif text.lstrip(" \t").startswith("{"):
            hint = (
                "this looks like the JSON form of BTN: turn it into BTN text with "
                "'baloot-conformance convert --to btn FILE'"
            )
        raise errors.at(
            f"expected the version line '%btn 1' as the first line, found {_found(text, 1)}",
            1,
            1,
            text,
            hint=hint,
        )
    return stmt


def _statements(
    lines: Iterable[tuple[int, str]], errors: _Errors, versioned: bool = True
) -> Iterator[Stmt]:
    """Layer 2: the statements of a file (blank lines dropped, metadata gathered); with
    ``versioned`` false, of a run of hands cut from a file (no version line first).

    The loop is the fast path: the first word picks the statement's patterns in ``_FAST``
    (canonical spacing, then any spacing); other lines go to :func:`_fast_other`, and what
    neither recognises to the Lark grammar (:func:`_slow_statement`).
    """
    lines = iter(lines)
    after_version = False
    if versioned:
        for _number, text in lines:
            stmt = _first_statement(text, errors)
            yield stmt
            break
        else:
            return
        after_version = stmt[0] == "version"
    fast = _FAST
    # Engines repeat many lines word for word ("bid W pass", "= result made"): about half of
    # a generated game's lines were seen before. A line's statement is the same wherever it
    # stands, so the fast path's result is kept by text (its values are immutable), in a memo
    # emptied when full, so that memory stays bounded.
    memo: dict[str, tuple[str, tuple[Any, ...], str | None]] = {}
    for number, text in lines:
        seen = memo.get(text)
        if seen is not None:
            yield (seen[0], seen[1], number, 1, seen[2])
            continue
        first = text[:1]
        if first == "=":
            entry = fast.get("=" + text[2 : text.find(" ", 2)])
        elif first and first not in " \t#[-":
            entry = fast.get(text[: text.find(" ")])
        else:
            entry = None
            if not first or _RX_BLANK.fullmatch(text):
                continue
            if after_version and _RX_FENCE_OPEN.fullmatch(text):
                yield _metadata(number, text, lines, errors)
                after_version = False
                continue
        after_version = False
        if entry is not None:
            split = entry[4]
            if split is not None:
                read = split(text)
                if read is not None:  # trick lines are all different: not remembered
                    yield (entry[3], read, number, 1, None)
                    continue
            m = entry[0](text) or entry[1](text)
            if m is not None:
                g = m.groups()
                c = g[-1]
                kind, values, comment = (
                    entry[3],
                    entry[2](g),
                    None if c is None else c.rstrip(" \t"),
                )
                if len(memo) >= _MEMO_LINES:
                    memo.clear()
                memo[text] = (kind, values, comment)
                yield (kind, values, number, 1, comment)
                continue
        other = _fast_other(text, number)
        yield other if other is not None else _slow_statement(text, number, errors)


_MEMO_LINES = 4096  # distinct lines remembered by the fast path (see _statements)


def _metadata(start: int, opening: str, lines: Iterable[tuple[int, str]], errors: _Errors) -> Stmt:
    body: list[str] = []
    for _number, text in lines:
        if _RX_FENCE_CLOSE.fullmatch(text):
            return ("meta", ("\n".join(body) + "\n" if body else "",), start, 1, None)
        body.append(text)
    raise errors.at(
        "the metadata block is not closed: expected a line '---' after the YAML",
        start,
        _column(opening),
        opening,
        hint="fixture metadata is YAML between two lines '---', right after '%btn 1'",
    )


def lark_statements(text: str, path: str = "<string>") -> list[Stmt]:
    """All statements of ``text`` through the Lark grammar alone (the reference front end).

    Used to check the fast path; slower, and builds the whole tree in memory.
    """
    errors = _Errors(path)
    if not text.endswith("\n"):
        text += "\n"
    lines = text.split("\n")
    try:
        tree = lark_parser().parse(text, start="transcript")
    except UnexpectedInput as exc:
        number = max(1, int(getattr(exc, "line", 1) or 1))
        if isinstance(exc, (UnexpectedToken, UnexpectedEOF)) and (
            getattr(exc, "token", None) is None or exc.token.type == "$END"
        ):
            number = max(1, len(lines) - 1)
        line_text = lines[number - 1].rstrip("\r") if number <= len(lines) else ""
        raise _lark_error(exc, line_text, number, errors) from None
    out: list[Stmt] = []
    transcript = tree

    def first_line(node: Tree[Any] | Token) -> int:
        if isinstance(node, Token):
            if node.type == "_NL":
                return -1
            return int(node.line or 0)
        for child in node.children:
            found = first_line(child)
            if found > 0:
                return found
        return -1

    def emit(node: Tree[Any]) -> None:
        number = first_line(node)
        line_text = lines[number - 1].rstrip("\r")
        out.append(_with_pos(_lark_statement(node), number, _column(line_text)))

    for part in transcript.children:
        if isinstance(part, Token):
            continue
        if part.data == "metadata":
            token = part.children[0]
            assert isinstance(token, Token)
            inner = str(token).replace("\r\n", "\n").split("\n")[1:-1]
            body = "\n".join(inner) + "\n" if inner else ""
            out.append(("meta", (body,), int(token.line or 0), 1, None))
        elif part.data == "header_item":
            emit(part.children[0])  # type: ignore[arg-type]
        elif part.data == "hand":
            for child in part.children:
                assert isinstance(child, Tree)
                emit(child)
        else:
            emit(part)
    return out


def fast_statements(text: str, path: str = "<string>") -> list[Stmt]:
    """All statements of ``text`` through the reader's own front end (fast path + fallback)."""
    errors = _Errors(path)
    stmts: list[Stmt] = []
    state = 0
    for stmt in _statements(_lines_from_text(text, errors), errors):
        state = _layout_step(state, stmt, errors)
        stmts.append(stmt)
    if not stmts:
        raise errors.at("empty file: expected the version line '%btn 1'", 1, 1)
    return stmts


# ---------------------------------------------------------------------------------------------
# Layer 3: layout (what may come where in a file)
# ---------------------------------------------------------------------------------------------

_HEADER_KINDS = frozenset({"tag", "comment"})
_HEADER_ONLY = frozenset({"version", "meta", "tag"})


def _layout_error(stmt: Stmt, errors: _Errors, text: str | None = None) -> TranscriptSyntaxError:
    kind, _values, number, column, _c = stmt
    if kind == "version":
        return errors.at("the version line '%btn ...' may only be the first line", number, column)
    if kind == "meta":
        return errors.at(
            "a metadata block may only come right after the version line", number, column
        )
    if kind == "tag":
        return errors.at(
            "a header tag may only come before the first 'hand' line",
            number,
            column,
            hint="tags describe the whole file; put them after '%btn 1'",
        )
    return errors.at(
        f"'{kind.lstrip('=')}' before the first 'hand' line",
        number,
        column,
        hint="every event and claim belongs to a hand: start one with 'hand 1'",
    )


def _layout_step(state: int, stmt: Stmt, errors: _Errors) -> int:
    kind = stmt[0]
    if state == 0:
        if kind != "version":
            raise errors.at(
                "expected the version line '%btn 1' as the first line", stmt[2], stmt[3]
            )
        return 1
    if kind == "hand":
        return 3
    if state == 3:
        if kind in ("version", "meta", "tag"):
            raise _layout_error(stmt, errors)
        return 3
    if kind == "meta" and state == 1:
        return 2
    if kind in _HEADER_KINDS:
        return 2
    raise _layout_error(stmt, errors)


# ---------------------------------------------------------------------------------------------
# Layer 4: hands
# ---------------------------------------------------------------------------------------------

_EVENT_KINDS = frozenset(
    [
        "start",
        "dealer",
        "deal",
        "hold",
        "faceup",
        "bid",
        "raise",
        "rest",
        "declare",
        "baloot",
        "trick",
        "play",
        "foul",
    ]
)
_CARD_COUNTS = {"deal": (5,), "hold": (8,), "rest": (2, 3)}
_TARGET = re.compile(r"t([0-9]+)\.p([1-4])")


class HandBuilder:
    """Checks one hand's statements and builds its items with their positions."""

    def __init__(self, number: int, line: int, column: int, comment: str | None, errors: _Errors):
        self.number = number
        self.prefix = f"h{number}"
        self.line = line
        self.column = column
        self.comment = comment
        self.errors = errors
        self.items: list[HandItem] = []
        self.single: dict[str, int] = {}
        self.dealt = 0  # bit set of the cards given out (deal, hold, rest, faceup)
        self.faceup = 0  # the face-up card's bit: a hold line includes it (its receiver's)
        self.held = 0  # bit set of the cards given by hold lines
        self.played = 0
        self.claimed = 0  # bit set of the tricks that have a winner claim
        self.calls = 0
        self.declarations = 0
        self.baloots = 0
        self.fouls = 0
        self.trick = 1
        self.index = 0  # cards played in the current trick
        self.group: tuple[str, int, int, set[str]] | None = None  # kind, line, column, seats
        self.group_done: set[str] = set()
        self.legal: LegalClaim | None = None
        self.closed_at = 0  # line of the first result claim
        self.contract_at = 0

    # -- helpers --
    def fail(self, message: str, stmt: Stmt, hint: str | None = None) -> TranscriptSyntaxError:
        return self.errors.at(f"hand {self.number}: {message}", stmt[2], stmt[3], hint=hint)

    def once(self, position: str, what: str, stmt: Stmt) -> None:
        """Refuse a second statement at ``position``; ``what`` names it in the error, where
        ``{}`` stands for the position's last part and ``{position}`` for the position (filled
        only on an error: this runs for most statements)."""
        first = self.single.get(position)
        if first is not None:
            what = what.format(position.rsplit(".", 1)[1], position=position)
            raise self.fail(f"a second {what} (the first is on line {first})", stmt)
        self.single[position] = stmt[2]

    def give(self, cards: tuple[Card, ...], stmt: Stmt, kind: str = "deal") -> None:
        """Note cards given out, refusing one given twice; the face-up card is also part of
        one ``hold`` line (the eight cards of the seat that took it)."""
        given = 0
        for c in cards:
            given |= 1 << c.index
        # The face-up card and the hold line that holds it, in either order, are one card.
        shared = self.faceup & ~self.held if kind == "hold" else 0
        if kind == "faceup":
            shared = given & self.held
        if given & self.dealt & ~shared or given.bit_count() != len(cards):
            self._given_twice(cards, stmt, shared)
        self.dealt |= given
        if kind == "hold":
            self.held |= given
        elif kind == "faceup":
            self.faceup = given

    def _given_twice(self, cards: tuple[Card, ...], stmt: Stmt, shared: int) -> None:
        seen = 0
        for c in cards:
            bit = 1 << c.index
            if ((self.dealt & ~shared) | seen) & bit:
                first = stmt[2] if seen & bit else self._dealt_on(c)
                raise self.fail(
                    f"card {c.code} is dealt twice (first on line {first})",
                    stmt,
                    hint="each of the 32 cards is dealt exactly once; the face-up card may "
                    "also be in the 'hold' line of the seat that took it",
                )
            seen |= bit

    def _dealt_on(self, card: Card) -> int:
        """The line of the deal, hold, rest or face-up line that already gave ``card``."""
        for item in self.items:
            if isinstance(item, (Deal, Hold, Rest)) and card in item.cards:
                return item.line
            if isinstance(item, FaceUp) and item.card == card:
                return item.line
        raise AssertionError(f"{card} is in no line of the hand")  # pragma: no cover

    def end_group(self) -> None:
        if self.group is None:
            return
        kind, line, column, seats = self.group
        self.group = None
        missing = [s for s in SEATS if s not in seats]
        if missing:
            raise self.errors.at(
                f"hand {self.number}: the '{kind}' lines have no line for seat "
                f"{' and '.join(missing)}",
                line,
                column,
                hint=f"give one '{kind}' line for each of N, W, S and E, one after the other",
            )
        self.group_done.add(kind)

    def take_play(self, seat: str, card: Card, stmt: Stmt) -> tuple[int, int]:
        """Check one card played and count it: its trick and place in the trick."""
        if self.trick > 8:
            raise self.fail("a hand has at most 8 tricks", stmt)
        bit = 1 << card.index
        if self.played & bit:
            raise self.fail(f"card {card.code} is played twice", stmt)
        self.played |= bit
        self.index += 1
        if self.legal is not None:
            if self.legal.seat != seat:
                raise self.fail(
                    f"the '= legal {self.legal.seat}' claim on line {self.legal.line} is "
                    f"followed by a card of seat {seat}",
                    stmt,
                )
            self.legal = None
        trick = self.trick
        index = self.index
        if index == 4:
            self.trick += 1
            self.index = 0
        return trick, index

    def play(self, seat: str, card: Card, stmt: Stmt, comment: str | None = None) -> Play:
        trick, index = self.take_play(seat, card, stmt)
        play: Play = _MAKE_PLAY(
            f"{self.prefix}.t{trick}.p{index}", comment, stmt[2], stmt[3], seat, card, trick, index
        )
        return play

    def take_trick(self, stmt: Stmt) -> None:
        """Check a trick line and count its cards and its winner claim, without building its
        items (see :meth:`add_trick`; the fast lane of replay needs no items)."""
        trick, plays, winner, _ = stmt[1]
        if trick != self.trick or self.index:
            expected = (
                f"trick {self.trick} has {self.index} of 4 cards"
                if self.index
                else f"the next trick is {self.trick}"
            )
            raise self.fail(f"trick {trick} out of order: {expected}", stmt)
        if self.group is not None:
            self.end_group()
        if self.closed_at:
            raise self.fail(
                f"an event after the hand's result claims (line {self.closed_at})",
                stmt,
                hint="claims about the whole hand come after its last event",
            )
        if self.legal is None and trick <= 8:  # the common case, inlined
            played = self.played
            for _seat, card in plays:
                bit = 1 << card.index
                if played & bit:
                    raise self.fail(f"card {card.code} is played twice", stmt)
                played |= bit
            self.played = played
            self.trick = trick + 1
        else:
            for seat, card in plays:
                self.take_play(seat, card, stmt)
        if winner is not None:  # the trick has just ended: no claim on it can exist yet
            self.claimed |= 1 << trick

    def add_trick(self, stmt: Stmt) -> None:
        self.take_trick(stmt)
        trick, plays, winner, points = stmt[1]
        number, column, comment = stmt[2], stmt[3], stmt[4]
        items = self.items
        base = f"{self.prefix}.t{trick}.p"
        make_play = _MAKE_PLAY
        for k, (seat, card) in enumerate(plays, 1):
            items.append(
                make_play(
                    base + str(k),
                    comment if k == 4 and winner is None else None,
                    number,
                    column,
                    seat,
                    card,
                    trick,
                    k,
                )
            )
        if winner is not None:
            position = f"{self.prefix}.t{trick}.winner"
            items.append(_MAKE_TRICK(position, comment, number, column, trick, winner, points))

    # -- the statements (one method per kind; see _HANDLERS) --
    def add(self, stmt: Stmt) -> None:
        """Check one statement and append its item(s)."""
        kind = stmt[0]
        if self.group is not None and kind != self.group[0] and kind != "comment":
            self.end_group()
        if self.closed_at and kind in _EVENT_KINDS:
            raise self.fail(
                f"an event after the hand's result claims (line {self.closed_at})",
                stmt,
                hint="claims about the whole hand come after its last event",
            )
        _HANDLERS[kind](self, stmt)

    def _comment(self, stmt: Stmt) -> None:
        self.items.append(Comment(text=stmt[1][0], line=stmt[2], column=stmt[3]))

    def _trick(self, stmt: Stmt) -> None:
        self.add_trick(stmt)

    def _play(self, stmt: Stmt) -> None:
        v = stmt[1]
        self.items.append(self.play(v[0], v[1], stmt, stmt[4]))

    def _cards_line(self, stmt: Stmt) -> None:
        kind, (seat, cards), number, column, comment = stmt
        group = self.group
        if kind in self.group_done or (group is not None and seat in group[3]):
            raise self.fail(f"a second '{kind} {seat}' line", stmt)
        if (kind == "hold" and ("deal" in self.group_done or "rest" in self.group_done)) or (
            kind != "hold" and "hold" in self.group_done
        ):
            raise self.fail(
                "a hand gives the cards either with 'deal' and 'rest' or with 'hold', not both",
                stmt,
            )
        if len(cards) not in _CARD_COUNTS[kind]:
            counts = " or ".join(str(n) for n in _CARD_COUNTS[kind])
            raise self.fail(f"'{kind}' lists {counts} cards, found {len(cards)}", stmt)
        if group is None:
            group = self.group = (kind, number, column, set())
        group[3].add(seat)
        self.give(cards, stmt, kind)
        make = _MAKE_DEAL if kind == "deal" else _MAKE_REST if kind == "rest" else _MAKE_HOLD
        self.items.append(
            make(f"{self.prefix}.{kind}.{seat}", comment, number, column, seat, cards)
        )

    def _dealer(self, stmt: Stmt) -> None:
        position = f"{self.prefix}.dealer"
        self.once(position, "'dealer' line", stmt)
        self.items.append(_MAKE_DEALER(position, stmt[4], stmt[2], stmt[3], stmt[1][0]))

    def _start(self, stmt: Stmt) -> None:
        if any(not isinstance(i, Comment) for i in self.items):
            raise self.fail("'start' comes first in a hand, before the deal", stmt)
        position = f"{self.prefix}.start"
        self.once(position, "'start' line", stmt)
        ns, ew = stmt[1]
        self.items.append(_MAKE_START(position, stmt[4], stmt[2], stmt[3], ns, ew))

    def _faceup(self, stmt: Stmt) -> None:
        position = f"{self.prefix}.faceup"
        self.once(position, "'faceup' line", stmt)
        self.give(stmt[1], stmt, "faceup")
        self.items.append(_MAKE_FACEUP(position, stmt[4], stmt[2], stmt[3], stmt[1][0]))

    def _call(self, stmt: Stmt) -> None:
        if self.contract_at:
            raise self.fail(
                f"a call after the '= contract' claim on line {self.contract_at}",
                stmt,
                hint="the contract claim comes after the last call it describes",
            )
        self.calls += 1
        seat, word, args = stmt[1]
        self.items.append(
            _MAKE_CALL(
                f"{self.prefix}.bid{self.calls}",
                stmt[4],
                stmt[2],
                stmt[3],
                stmt[0],
                seat,
                word,
                args,
            )
        )

    def _declare(self, stmt: Stmt) -> None:
        self.declarations += 1
        seat, project, cards = stmt[1]
        position = f"{self.prefix}.decl{self.declarations}"
        self.items.append(_MAKE_DECLARE(position, stmt[4], stmt[2], stmt[3], seat, project, cards))

    def _baloot(self, stmt: Stmt) -> None:
        self.baloots += 1
        seat, cards = stmt[1]
        position = f"{self.prefix}.baloot{self.baloots}"
        self.items.append(_MAKE_BALOOT(position, stmt[4], stmt[2], stmt[3], seat, cards))

    def _foul(self, stmt: Stmt) -> None:
        seat, target, words = stmt[1]
        m = _TARGET.fullmatch(target)
        assert m is not None
        if (int(m.group(1)), int(m.group(2))) > (self.trick, self.index):
            raise self.fail(
                f"the foul call names play {target}, which has not been played yet", stmt
            )
        self.fouls += 1
        position = f"{self.prefix}.foul{self.fouls}"
        self.items.append(_MAKE_FOUL(position, stmt[4], stmt[2], stmt[3], seat, target, words))

    def _contract(self, stmt: Stmt) -> None:
        position = f"{self.prefix}.contract"
        self.once(position, "'= contract' claim", stmt)
        self.contract_at = stmt[2]
        self.items.append(_MAKE_CONTRACT(position, stmt[4], stmt[2], stmt[3], *stmt[1]))

    def _trick_claim(self, stmt: Stmt) -> None:
        trick, winner, points = stmt[1]
        done = self.trick - 1
        if trick > done:
            raise self.fail(
                f"a claim on trick {trick} before its fourth card"
                + (f" (tricks played: {done})" if done else " (no trick played yet)"),
                stmt,
                hint="put the winner claim after the trick it is about",
            )
        if self.claimed & (1 << trick):
            raise self.fail(f"a second winner claim for trick {trick}", stmt)
        self.claimed |= 1 << trick
        position = f"{self.prefix}.t{trick}.winner"
        self.items.append(_MAKE_TRICK(position, stmt[4], stmt[2], stmt[3], trick, winner, points))

    def _legal(self, stmt: Stmt) -> None:
        if self.trick > 8:
            raise self.fail("a '= legal' claim after the last trick", stmt)
        position = f"{self.prefix}.t{self.trick}.p{self.index + 1}.legal"
        self.once(position, "'= legal' claim for the next play ({position})", stmt)
        seat, cards = stmt[1]
        legal = _MAKE_LEGAL(position, stmt[4], stmt[2], stmt[3], seat, cards)
        self.legal = legal
        self.items.append(legal)

    def _closing(self, stmt: Stmt) -> None:
        kind, v, number, column, comment = stmt
        item: Claim
        if kind == "=team":
            position = f"{self.prefix}.{v[0]}"
            item = _MAKE_TEAM(position, comment, number, column, v[0], v[1], v[2])
        else:
            position = f"{self.prefix}.{kind[1:]}"
            item = _MAKE_CLOSING[kind](position, comment, number, column, v[0])
        self.once(position, "'= {}' claim", stmt)
        if not self.closed_at:
            self.closed_at = number
        self.items.append(item)

    def close(self) -> None:
        """The checks at the end of the hand."""
        self.end_group()
        if self.legal is not None:
            legal = self.legal
            raise self.errors.at(
                f"hand {self.number}: the '= legal' claim is not followed by a play",
                legal.line,
                legal.column,
                hint="a legal-set claim comes right before the play it is about",
            )

    def finish(self) -> Hand:
        self.close()
        return Hand(
            number=self.number,
            items=tuple(self.items),
            comment=self.comment,
            line=self.line,
            column=self.column,
        )


_HANDLERS: dict[str, Callable[[HandBuilder, Stmt], None]] = {
    "comment": HandBuilder._comment,
    "trick": HandBuilder._trick,
    "play": HandBuilder._play,
    "deal": HandBuilder._cards_line,
    "hold": HandBuilder._cards_line,
    "rest": HandBuilder._cards_line,
    "dealer": HandBuilder._dealer,
    "start": HandBuilder._start,
    "faceup": HandBuilder._faceup,
    "bid": HandBuilder._call,
    "raise": HandBuilder._call,
    "declare": HandBuilder._declare,
    "baloot": HandBuilder._baloot,
    "foul": HandBuilder._foul,
    "=contract": HandBuilder._contract,
    "=trick": HandBuilder._trick_claim,
    "=legal": HandBuilder._legal,
    "=team": HandBuilder._closing,
    "=result": HandBuilder._closing,
    "=kaboot": HandBuilder._closing,
    "=winner": HandBuilder._closing,
}


# ---------------------------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------------------------


def load_metadata(text: str, first_line: int, errors_path: str = "<string>") -> dict[str, Any]:
    """Parse the YAML of a metadata block whose first YAML line is ``first_line``, with the
    kit's strict YAML reader (:func:`baloot_conformance.ruleset.load_yaml`)."""
    errors = _Errors(errors_path)
    try:
        data = load_yaml(text, errors_path, first_line, dates_as_text=True)
    except SpecError as exc:
        line = exc.location.line if exc.location else first_line
        column = exc.location.column if exc.location else 1
        lines = text.split("\n")
        shown = lines[line - first_line] if 0 <= line - first_line < len(lines) else None
        what = exc.message.removeprefix("invalid YAML: ")
        words = "is not valid YAML" if what != exc.message else "is not plain YAML data"
        message = f"the metadata block {words}: {what}"
        raise errors.at(message, line, column, shown, hint=exc.hint) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise errors.at(
            "the metadata block must be a YAML mapping (key: value lines)", first_line, 1
        )
    return data


class _NumberSet:
    """The hand numbers seen so far, in a bit map (12 KB for 100,000 hands, where a set of
    ints would take megabytes); very large numbers go to a plain set."""

    __slots__ = ("bits", "large")
    LIMIT = 1 << 24

    def __init__(self) -> None:
        self.bits = bytearray()
        self.large: set[int] = set()

    def __contains__(self, number: int) -> bool:
        if number >= self.LIMIT:
            return number in self.large
        byte = number >> 3
        return byte < len(self.bits) and bool(self.bits[byte] & (1 << (number & 7)))

    def add(self, number: int) -> None:
        if number >= self.LIMIT:
            self.large.add(number)
            return
        byte = number >> 3
        if byte >= len(self.bits):
            self.bits.extend(bytes(max(byte + 1 - len(self.bits), len(self.bits))))
        self.bits[byte] |= 1 << (number & 7)


class _LineIndex:
    """Lines of a byte source fetched by number without holding the source: the offset of
    every 1,024th line, found on the first request (a source that cannot seek, a Zstandard
    stream, is read up to the line instead)."""

    STEP = 1024

    def __init__(self, opener: Callable[[], IO[bytes]]) -> None:
        self._open = opener
        self._marks: list[int] | None = None

    def line(self, number: int) -> str | None:
        try:
            with self._open() as source:
                if not source.seekable():  # a compressed stream: read up to the line
                    raw = _nth_line(iter(lambda: source.readline(MAX_LINE_BYTES + 2), b""), number)
                    return raw.decode("utf-8", "replace").rstrip("\r\n") if raw else None
                if self._marks is None:
                    self._marks = self._index(source)
                mark, skip = divmod(number - 1, self.STEP)
                if number < 1 or mark >= len(self._marks):
                    return None
                source.seek(self._marks[mark])
                for _ in range(skip):
                    if not source.readline(MAX_LINE_BYTES + 2):
                        return None
                raw = source.readline(MAX_LINE_BYTES + 2)
        except OSError:
            return None
        return raw.decode("utf-8", "replace").rstrip("\r\n") if raw else None

    def _index(self, source: IO[bytes]) -> list[int]:
        marks, offset, count = [0], 0, 0
        while raw := source.readline(MAX_LINE_BYTES + 2):
            offset += len(raw)
            count += 1
            if count % self.STEP == 0:
                marks.append(offset)
        source.seek(0)
        return marks


def _nth_line(lines: Iterator[Any], number: int) -> Any:
    for i, line in enumerate(lines, 1):
        if i == number:
            return line
    return None


COMPRESSED = (".gz", ".zst")
"""The file name endings read as compressed transcripts (``.btn.gz``, ``.btn.zst``)."""


def open_source(name: str) -> IO[bytes]:
    """A transcript file opened for reading as bytes: gzip (``.gz``) and Zstandard (``.zst``,
    with the optional ``zstandard`` package) are decompressed as they are read, so a large
    archive never sits in memory.

    Raises:
        TranscriptSyntaxError: the file cannot be opened, or ``.zst`` without the package.
    """
    try:
        if name.endswith(".gz"):
            return cast(IO[bytes], gzip.open(name, "rb"))
        raw = open(name, "rb")  # noqa: SIM115 - the reader closes it
    except OSError as exc:
        raise TranscriptSyntaxError(f"cannot read {name}: {exc.strerror or exc}") from None
    if not name.endswith(".zst"):
        return raw
    try:
        import zstandard
    except ImportError:
        raw.close()
        raise TranscriptSyntaxError(
            f"cannot read {name}: a .zst file needs the zstandard package",
            hint="pip install 'baloot-conformance[zstd]', or decompress it first",
        ) from None
    return io.BufferedReader(_Zstd(zstandard.ZstdDecompressor().stream_reader(raw, closefd=True)))


class _Zstd(io.RawIOBase):
    """A Zstandard stream whose damage is an ``OSError``, as gzip's is."""

    def __init__(self, reader: Any) -> None:
        self._reader = reader

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        import zstandard

        try:
            data = self._reader.read(len(buffer))
        except zstandard.ZstdError as exc:
            raise OSError(f"damaged Zstandard data: {exc}") from None
        buffer[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._reader.close()
        super().close()


@dataclass(frozen=True, slots=True)
class HandChunk:
    """One hand of a file as its statements (:meth:`TranscriptReader.chunks`): ``head`` is
    its ``hand`` statement, ``body`` the statements up to the next hand, and ``problem`` the
    syntax error that cut the body short, if any."""

    head: Stmt
    body: list[Stmt]
    problem: TranscriptSyntaxError | None = None

    @property
    def number(self) -> int:
        number: int = self.head[1][0]
        return number


class TranscriptReader:
    """A BTN transcript read as a stream: the header at once, then one hand at a time.

    ``source`` is a path, a binary or text stream, and ``path`` names it in errors. Iterate to
    get the hands; :meth:`close` (or ``with``) closes a file the reader opened itself.
    """

    def __init__(self, source: Source, path: str | None = None) -> None:
        self._owned: IO[bytes] | None = None
        self._text: str | None = None
        self._file: str | None = None
        self._lines: _LineIndex | None = None
        if isinstance(source, io.BytesIO):  # in memory already (standard input): share it
            self._lines = _LineIndex(lambda: io.BytesIO(source.getbuffer()))
        if isinstance(source, (str, os.PathLike)):
            name = os.fspath(source)
            self._file = name
            self._owned = open_source(name)
            stream: IO[Any] = self._owned
            path = path or name
        else:
            stream = source
            path = path or str(getattr(source, "name", "<stream>"))
        errors = _Errors(path)
        try:
            lines = (
                _lines_from_binary(stream, errors)
                if self._owned is not None or isinstance(stream, (io.RawIOBase, io.BufferedIOBase))
                else _lines_from_stream(stream, errors)
            )
            self._start(path, errors, lines)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_text(cls, text: str, path: str = "<string>") -> TranscriptReader:
        """A reader over a string held in memory."""
        reader = cls.__new__(cls)
        reader._owned = None
        reader._text = text
        reader._file = None
        reader._lines = None
        errors = _Errors(path)
        reader._start(path, errors, _lines_from_text(text, errors))
        return reader

    @classmethod
    def for_hands(cls, data: bytes, path: str, first_line: int) -> TranscriptReader:
        """A reader over a run of whole hands cut from a file whose header was read already:
        ``data`` starts with a ``hand`` line, which is line ``first_line`` of ``path``. Used to
        check the games of one file in parallel; errors keep the file's line numbers."""
        reader = cls.__new__(cls)
        reader._owned = None
        reader._text = None
        reader._file = path
        reader._lines = None
        reader.path = path
        reader._errors = _Errors(path)
        reader._stmts = _statements(
            _lines_from_binary(io.BytesIO(data), reader._errors, first_line),
            reader._errors,
            versioned=False,
        )
        reader.version = str(KNOWN_MAJOR)
        reader.metadata = None
        reader.metadata_text = None
        reader.header = ()
        reader._seen_hands = _NumberSet()
        reader._pending = reader._next()
        if reader._pending is None or reader._pending[0] != "hand":
            raise reader._errors.at("a run of hands starts with a 'hand' line", first_line, 1)
        return reader

    def _start(self, path: str, errors: _Errors, lines: Iterator[tuple[int, str]]) -> None:
        self.path = path
        self._errors = errors
        self._stmts = _statements(lines, errors)
        self.version = "1"
        self.metadata: dict[str, Any] | None = None
        self.metadata_text: str | None = None
        self.header: tuple[Tag | Comment, ...] = ()
        self._pending: Stmt | None = None
        self._seen_hands = _NumberSet()
        self._read_header()

    def _next(self) -> Stmt | None:
        try:
            return next(self._stmts)
        except StopIteration:
            return None
        except RecursionError:  # pragma: no cover - Lark on pathological input
            raise TranscriptSyntaxError("input nested too deeply to parse") from None

    def _read_header(self) -> None:
        errors = self._errors
        first = self._next()
        if first is None:
            raise errors.at(
                "empty file: expected the version line '%btn 1'",
                1,
                1,
                hint="a BTN file starts with the line '%btn 1'",
            )
        _layout_step(0, first, errors)
        version = first[1][0]
        major = int(version.split(".")[0])
        if major != KNOWN_MAJOR:
            raise errors.at(
                f"unknown BTN version {version}: this reader knows version {KNOWN_MAJOR}",
                1,
                first[3] + 5,
                f"%btn {version}",
                hint="upgrade baloot-conformance, or write the file as '%btn 1'",
            )
        self.version = version
        header: list[Tag | Comment] = []
        names: dict[str, int] = {}
        state = 1
        while True:
            stmt = self._next()
            if stmt is None:
                break
            state = _layout_step(state, stmt, errors)
            kind, v, number, column, comment = stmt
            if kind == "hand":
                self._pending = stmt
                break
            if kind == "meta":
                self.metadata_text = v[0]
                self.metadata = load_metadata(v[0], number + 1, self.path)
            elif kind == "tag":
                if v[0] in names:
                    raise errors.at(
                        f"a second [{v[0]} ...] tag (the first is on line {names[v[0]]})",
                        number,
                        column,
                    )
                names[v[0]] = number
                header.append(
                    Tag(name=v[0], value=v[1], comment=comment, line=number, column=column)
                )
            else:
                header.append(Comment(text=v[0], line=number, column=column))
        self.header = tuple(header)
        if "Ruleset" not in names:
            number = self._pending[2] if self._pending else 1
            raise errors.at(
                'the header has no [Ruleset "..."] tag',
                number,
                1,
                hint='name the rules the game was played under, e.g. [Ruleset "saudi@1"]',
            )

    def head(self) -> Transcript:
        """The transcript read so far without its hands: version, header and metadata."""
        return Transcript(
            version=self.version,
            header=self.header,
            hands=(),
            metadata=self.metadata,
            metadata_text=self.metadata_text,
        )

    def source_line(self, number: int) -> str | None:
        """Line ``number`` of the source, for quoting (``None`` when it cannot be read back,
        e.g. from a pipe). The file is not held in memory: see :class:`_LineIndex`."""
        if self._lines is None:
            if self._file is not None:
                name = self._file
                self._lines = _LineIndex(lambda: open_source(name))
            elif self._text is not None:
                data = self._text.encode("utf-8")
                self._lines = _LineIndex(lambda: io.BytesIO(data))
            else:
                return None
        return self._lines.line(number)

    def __iter__(self) -> Iterator[Hand]:
        for chunk in self.chunks():
            yield self.build(chunk)

    def _with_excerpt(self, exc: TranscriptSyntaxError) -> TranscriptSyntaxError:
        """Add the source line to a structural error (read again: errors are rare, and the
        fast path keeps no line text)."""
        location = exc.location
        if exc.excerpt is not None or location is None or location.line < 1:
            return exc
        line: str | None = None
        if self._text is not None:
            line = _nth_line(iter(self._text.split("\n")), location.line)
        elif self._file is not None:
            try:
                with open_source(self._file) as handle:  # decompressed, as it was read
                    raw = _nth_line(iter(handle), location.line)
                line = None if raw is None else raw.decode("utf-8", "replace")
            except (OSError, EOFError, TranscriptSyntaxError):
                line = None
        if line is not None:
            line = line.rstrip("\r\n")
            exc.excerpt = caret_excerpt(line, location.column, location.line)
        return exc

    def chunks(self) -> Iterator[HandChunk]:
        """Each hand as its statements, not yet checked: give each to :meth:`build` for its
        :class:`Hand`, or judge it straight from the statements (the fast lane of
        :mod:`baloot_conformance.fast_lane`, which builds the hands it does not take). The
        hands read the same either way; errors carry their source line as in iteration."""
        try:
            yield from self._chunks()
        except TranscriptSyntaxError as exc:
            raise self._with_excerpt(exc) from None
        finally:
            self.close()

    def build(self, chunk: HandChunk) -> Hand:
        """The hand of a chunk from :meth:`chunks`, checked statement by statement (raises
        :class:`TranscriptSyntaxError` at the first problem, as iteration does)."""
        try:
            return self._build(chunk)
        except TranscriptSyntaxError as exc:
            raise self._with_excerpt(exc) from None

    def _chunks(self) -> Iterator[HandChunk]:
        errors = self._errors
        while self._pending is not None:
            _, v, number, column, _ = head = self._pending
            self._pending = None
            if v[0] in self._seen_hands:
                raise errors.at(
                    f"a second 'hand {v[0]}'",
                    number,
                    column,
                    hint="hand numbers are unique in a file",
                )
            if v[0] < 1:
                raise errors.at("hand numbers start at 1", number, column)
            self._seen_hands.add(v[0])
            body: list[Stmt] = []
            append = body.append
            problem: TranscriptSyntaxError | None = None
            try:
                for stmt in self._stmts:
                    if stmt[0] == "hand":
                        self._pending = stmt
                        break
                    append(stmt)
            except TranscriptSyntaxError as exc:
                # A line that does not parse: the hand's statements before it are checked
                # first (their problem is reported, being earlier), then this one.
                problem = exc
            except RecursionError:  # pragma: no cover - Lark on pathological input
                problem = TranscriptSyntaxError("input nested too deeply to parse")
            yield HandChunk(head, body, problem)

    def builder(self, chunk: HandChunk) -> HandBuilder:
        """A fresh builder for the hand of ``chunk`` (its errors name this reader's file)."""
        _, v, number, column, comment = chunk.head
        return HandBuilder(v[0], number, column, comment, self._errors)

    def _build(self, chunk: HandChunk) -> Hand:
        errors = self._errors
        builder = self.builder(chunk)
        add = builder.add
        add_trick = builder.add_trick
        for stmt in chunk.body:
            kind = stmt[0]
            if kind == "trick":
                add_trick(stmt)
            else:
                if kind in _HEADER_ONLY:
                    raise _layout_error(stmt, errors)
                add(stmt)
        if chunk.problem is not None:
            raise chunk.problem
        return builder.finish()

    def close(self) -> None:
        if self._owned is not None:
            self._owned.close()
            self._owned = None

    def __enter__(self) -> TranscriptReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
    numbers = _NumberSet()  # compact: a set of a million numbers would take megabytes
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
    run: list[bytes] = []  # the pieces of the current run
    first = 1  # the file line the current run starts at
    line = 1  # the file line the current block starts at
    hands = 0  # hand lines in the current run
    for block in _line_blocks(stream):
        start = 0  # the start of the part of the block not yet in ``run``
        counted, at = line, 0  # the file line at offset ``at`` of the block
        size = len(block)
        for where, indented, _ in _hand_lines(block):
            if hands >= min_hands and not indented:
                end = block.find(b"\n", where) + 1
                if 0 < end < size and block.startswith(b"start ", end):
                    run.append(block[start:where])
                    piece = b"".join(run)
                    yield piece[:-1] if piece.endswith(b"\n") else piece, first
                    counted += block.count(b"\n", at, where)
                    at = where
                    run, first, start, hands = [], counted, where, 0
            hands += 1
        run.append(block[start:])
        line += block.count(b"\n")
    if run:
        yield b"".join(run), first


def _line_blocks(stream: _Readable) -> Iterator[bytes]:
    """A binary stream in blocks of whole lines (the last may lack its line end). No block ends
    with a ``hand`` line: whether a run may be cut before one depends on the line after it."""
    carry = b""
    while True:
        data = stream.read(1 << 20)
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


def iter_hands(source: Source, path: str | None = None) -> Iterator[Hand]:
    """The hands of a transcript, one at a time (the header is read and checked first)."""
    reader = TranscriptReader(source, path)
    try:
        yield from reader
    finally:
        reader.close()


def _transcript(reader: TranscriptReader) -> Transcript:
    with reader:
        hands = tuple(reader)
    return dataclasses.replace(reader.head(), hands=hands)


def parse_transcript(text: str | bytes, path: str = "<string>") -> Transcript:
    """Parse a whole transcript held in memory."""
    if isinstance(text, bytes):
        return _transcript(TranscriptReader(io.BytesIO(text), path))
    return _transcript(TranscriptReader.from_text(text, path))


def read_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Read a whole transcript file (use :func:`iter_hands` for very large files)."""
    return _transcript(TranscriptReader(Path(path)))
