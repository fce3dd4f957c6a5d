"""Reading BTN, layers 1 to 3: bytes or text to lines, lines to statements, and the layout
of a file (what may come where).

Lines: ``(line number, text)`` with a line-length limit and UTF-8 checks. Statements: one
:data:`Stmt` tuple per line. The grammar ``grammar/btn.lark`` is the normative definition of the
syntax, but parsing a large file through a Lark tree is slow, so each line is first tried by a
fast path (one compiled regular expression per statement, mirroring the grammar, and a plain
split for canonical trick lines); a line the fast path does not recognise is handed to the Lark
parser, which either accepts it (the same statement comes out) or explains what was expected.
A differential test checks that both front ends agree.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import IO, Any, Protocol

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from baloot_conformance.btn_items import TEAM_CLAIMS
from baloot_conformance.cards import Card, Suit, parse_card
from baloot_conformance.errors import Location, TranscriptSyntaxError, caret_excerpt
from baloot_conformance.resources import grammar_parser

#: The longest line accepted, in bytes (UTF-8); longer lines are an error, not a memory spike.
MAX_LINE_BYTES = 16_384

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
    # shared by every reader of the process (a parallel check reads many runs of a file)
    # and emptied when full, so that memory stays bounded.
    memo = _MEMO
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
_MEMO: dict[str, tuple[str, tuple[Any, ...], str | None]] = {}


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
