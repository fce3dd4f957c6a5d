"""Reading BTN, layers 2 and 3: lines to statements, and the layout of a file.

Statements: one :data:`~baloot_conformance.btn.grammar.Stmt` tuple per line. Parsing a large
file through a Lark tree is slow, so each line is first tried by a fast path (one compiled
regular expression per statement, mirroring the grammar, and a plain split for canonical
trick lines); a line the fast path does not recognise goes to the grammar
(:mod:`~baloot_conformance.btn.grammar`), which either accepts it (the same statement comes
out) or explains what was expected. A differential test checks that both front ends agree.
Layout: what may come where in a file (the version line first, the metadata block, header
tags, then hands).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from baloot_conformance.btn.grammar import (
    _CARD_OF,
    _SUIT_LETTER,
    _UNESCAPE,
    Stmt,
    _card,
    _column,
    _slow_statement,
    found_at,
)
from baloot_conformance.btn.items import TEAM_CLAIMS
from baloot_conformance.btn.lines import MAX_HAND_LINES, _Errors, _lines_from_text
from baloot_conformance.cards import Card, Suit
from baloot_conformance.errors import TranscriptSyntaxError

# ---------------------------------------------------------------------------------------------
# Layer 2: statements
# ---------------------------------------------------------------------------------------------


_CARD = r"(?:[789TJQKA]|10)[SHDC♠♥♦♣]"
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
        "foul": rf"foul{sp}([NWSE]){sp}(t[1-9][0-9]{{0,8}}\.p[1-4]|-)((?:{sp}{_WORD})*)",
        "sawa": rf"sawa{sp}([NWSE])",
        "kawesh": rf"kawesh{sp}([NWSE])",
        "=contract": rf"={sp}contract{sp}(?:([NWSE]){sp}({_WORD})(?:{sp}({suit}))?"
        rf"(?:{sp}x([1-9][0-9]{{0,8}}))?(?:{sp}({_WORD}))?|(none))",
        "=trick": rf"={sp}trick{sp}({_INT}){sp}([NWSE])(?:{sp}({_INT}))?",
        "=legal": rf"={sp}legal{sp}([NWSE]){cards}",
        "=team": rf"={sp}(abnat|aklat|projects|cardscore|projectscore|score|total){sp}{teamv}",
        "=result": rf"={sp}result{sp}({_WORD})",
        "=kaboot": rf"={sp}kaboot{sp}(NS|EW)",
        "=winner": rf"={sp}winner{sp}(NS|EW)",
        "=sawa": rf"={sp}sawa{sp}({_WORD})",
        "=foul": rf"={sp}foul{sp}({_WORD})",
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


def _cards(group: str) -> tuple[Card, ...]:
    return tuple(map(_card, group.split()))


def _comment(text: str | None) -> str | None:
    return None if text is None else text.rstrip(" \t")


def _int(text: str | None) -> int | None:
    return None if text is None else int(text)


def _args(group: str) -> tuple[str, ...]:
    return tuple([_SUIT_LETTER.get(a, a) for a in group.split()])


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
    "sawa": lambda g: (g[0],),
    "kawesh": lambda g: (g[0],),
    "=result": lambda g: (g[0],),
    "=kaboot": lambda g: (g[0],),
    "=winner": lambda g: (g[0],),
    "=sawa": lambda g: (g[0],),
    "=foul": lambda g: (g[0],),
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
            f"expected the version line '%btn 1' as the first line, found {found_at(text, 1)}",
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
                yield metadata_block(number, text, lines, errors)
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
                if len(text) <= _MEMO_WIDTH:
                    if len(memo) >= _MEMO_LINES:
                        memo.clear()
                    memo[text] = (kind, values, comment)
                yield (kind, values, number, 1, comment)
                continue
        other = _fast_other(text, number)
        yield other if other is not None else _slow_statement(text, number, errors)


_MEMO_LINES = 4096  # distinct lines remembered by the fast path (see _statements)
_MEMO_WIDTH = 64  # the longest line remembered: repeated lines are short, a long one is news
_MEMO: dict[str, tuple[str, tuple[Any, ...], str | None]] = {}


def metadata_block(
    start: int,
    opening: str,
    lines: Iterable[tuple[int, str]],
    errors: _Errors,
    version: str = "1",
) -> Stmt:
    """The ``meta`` statement of the block opened on line ``start`` (its YAML text, read up
    to the closing ``---``), taking its lines from ``lines``: both BTN versions' readers
    gather it so. Refused: a block that runs past the header's bound, a lone carriage return
    inside a line (the writer could not write it back), a block never closed."""
    body: list[str] = []
    for number, text in lines:
        if _RX_FENCE_CLOSE.fullmatch(text):
            return ("meta", ("\n".join(body) + "\n" if body else "",), start, 1, None)
        if number > MAX_HAND_LINES:  # the header's bound (see the reader), checked here
            raise errors.at(
                f"the metadata block (from line {start}) runs past line {MAX_HAND_LINES:,}: "
                "the header may span no more",
                number,
                1,
                hint="fixture metadata is a few lines of YAML between two lines '---'; is the "
                "closing '---' missing?",
            )
        if "\r" in text:  # what the writer could not write back, nor the JSON form hold
            raise errors.at(
                "a carriage return inside a line of the metadata block",
                number,
                text.index("\r") + 1,
                text.replace("\r", "?"),
                hint="lines end with a line feed (LF or CR LF); remove the lone CR",
            )
        body.append(text)
    raise errors.at(
        "the metadata block is not closed: expected a line '---' after the YAML",
        start,
        _column(opening),
        opening,
        hint=f"fixture metadata is YAML between two lines '---', right after '%btn {version}'",
    )


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
