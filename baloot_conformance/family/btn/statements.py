"""Reading BTN 2, lines to statements: a fast path, and the grammar for the rest.

Each line is first tried against one compiled regular expression per statement, mirroring
``grammar/btn2.lark`` (any spacing the grammar accepts); a line the fast path does not
recognise goes to the grammar (:func:`.grammar.slow_statement`), which either accepts it (the
same statement comes out) or says what was expected. A differential test checks that both
front ends give the same statements. What may come where in a file (the version line first,
the metadata block, the header tags, then hands) is checked here too, as for BTN 1.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from baloot_conformance.btn.grammar import found_at
from baloot_conformance.btn.statements import metadata_block
from baloot_conformance.errors import TranscriptSyntaxError
from baloot_conformance.family.btn.grammar import (
    _UNESCAPE,
    SUIT_LETTER,
    Stmt,
    canonical_card,
    column_of,
    slow_statement,
)
from baloot_conformance.family.btn.lines import Errors

_SP = r"[ \t]+"
# The grammar's tokens end at a space, a tab, ',', ':', '#' or the line's end (their lookahead
# ``(?![^ \t\r\n,:#])``); a pattern that must match the whole line cannot go on with anything
# else after a token, so the patterns need no lookahead of their own.
_END = ""
_CARD = rf"(?:[2-9TJQKA]|10)[SHDC♠♥♦♣]{_END}"
_SEAT = rf"[A-Z][A-Z0-9]{{0,2}}{_END}"
_INT = rf"(?:0|[1-9][0-9]{{0,8}}){_END}"
_SIGNED = rf"(?:0|-?[1-9][0-9]{{0,8}}){_END}"
_WORD = rf"[a-z][a-z0-9_]*{_END}"
_SUIT = rf"[SHDC♠♥♦♣]{_END}"
_TAIL = r"(?:[ \t]*#([^\r\n\x00]*))?[ \t]*"
_CARDS = rf"((?:{_SP}{_CARD})+)"
_SIDES = rf"((?:{_SP}{_SEAT}{_SP}{_INT})+)"
_PLAY = rf"{_SEAT}{_SP}{_CARD}"
_RANK = rf"[TJQKA]{_END}"
_SIGNED_SIDES = rf"((?:{_SP}{_SEAT}{_SP}{_SIGNED})+)"
_WAGER = rf"{_WORD}(?:{_SP}{_SEAT})*"

_BODY = {
    "hand": rf"hand{_SP}({_INT})",
    "start": rf"start{_SP}pot{_SP}({_INT})(?:{_SP}exempt((?:{_SP}{_SEAT})+))?",
    "dealer": rf"dealer{_SP}({_SEAT})",
    "ante": rf"ante{_SIDES}",
    "deal": rf"deal{_SP}({_SEAT}){_CARDS}",
    "faceup": rf"faceup{_SP}({_SEAT}){_SP}({_CARD})",
    "bid": rf"bid{_SP}({_SEAT}){_SP}({_WORD})((?:{_SP}(?:{_WORD}|{_SUIT}|{_INT}|{_RANK}))*)",
    "raise": rf"raise{_SP}({_SEAT}){_SP}({_WAGER}(?:,{_SP}{_WAGER})*)",
    "exchange": rf"exchange{_SP}({_SEAT}){_CARDS}{_SP}:(?=[ \t]){_CARDS}",
    "reshuffle": r"reshuffle",
    "penalty": rf"penalty{_SP}({_SEAT}){_SP}({_WORD})",
    "trick": rf"trick{_SP}({_INT}):{_SP}({_PLAY}(?:,{_SP}{_PLAY})*)"
    rf"(?:{_SP}={_SP}({_SEAT})(?:{_SP}({_INT}))?)?",
    "play": rf"play{_SP}({_SEAT}){_SP}({_CARD})",
    "knock": rf"knock{_SP}({_SEAT})",
    "=trick": rf"={_SP}trick{_SP}({_INT}){_SP}({_SEAT})(?:{_SP}({_INT}))?",
    "=legal": rf"={_SP}legal{_SP}({_SEAT}){_CARDS}",
    "=tricks": rf"={_SP}tricks{_SIDES}",
    "=pot": rf"={_SP}pot{_SIDES}",
    "=pays": rf"={_SP}pays{_SIDES}",
    "=score": rf"={_SP}score{_SIGNED_SIDES}",
    "=points": rf"={_SP}points{_SIGNED_SIDES}",
    "=total": rf"={_SP}total{_SIGNED_SIDES}",
    "=order": rf"={_SP}order((?:{_SP}{_SEAT})+)",
}
_RX = {k: re.compile(r"[ \t]*" + v + _TAIL).fullmatch for k, v in _BODY.items()}
_RX_PLAY = re.compile(rf"({_SEAT}){_SP}({_CARD})")
_RX_HEAD = re.compile(r"[ \t]*(=[ \t]+)?([a-z]+)")
_RX_VERSION = re.compile(
    rf"[ \t]*%btn{_SP}((?:0|[1-9][0-9]{{0,8}})(?:\.(?:0|[1-9][0-9]{{0,8}}))?)" + _TAIL
)
_RX_TAG = re.compile(
    r"[ \t]*\[([A-Za-z][A-Za-z0-9_]*)" + _SP + r'"((?:[^"\\\r\n\x00]|\\["\\])*)"\]' + _TAIL
)
_RX_COMMENT = re.compile(r"[ \t]*#([^\r\n\x00]*)")
_RX_FENCE_OPEN = re.compile(r"[ \t]*---[ \t]*")


def _cards(group: str) -> tuple[str, ...]:
    if group.isascii() and "1" not in group:  # every card spelt canonically ('TS'), as usual
        return tuple(group.split())
    return tuple([canonical_card(c) for c in group.split()])


def _pairs(group: str) -> tuple[tuple[str, int], ...]:
    w = group.split()
    return tuple((w[i], int(w[i + 1])) for i in range(0, len(w), 2))


def _plays(group: str, start: int) -> tuple[tuple[str, str, int], ...]:
    if "  " not in group and "\t" not in group and "1" not in group and group.isascii():
        # canonical spacing and cards (the line's pattern has matched): split, no regex
        out = []
        column = start + 1
        for part in group.split(", "):
            seat, card = part.split(" ")
            out.append((seat, card, column))
            column += len(part) + 2
        return tuple(out)
    out = []
    for m in _RX_PLAY.finditer(group):
        card = m.group(2)
        if len(card) != 2 or not card.isascii():  # '10H', 'T♥': to their canonical 'TH'
            card = canonical_card(card)
        out.append((m.group(1), card, start + m.start() + 1))
    return tuple(out)


def _wagers(group: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``double E W, redouble S``: each verb with its seats."""
    out = []
    for part in group.split(","):
        words = part.split()
        out.append((words[0], tuple(words[1:])))
    return tuple(out)


def _v_trick(m: re.Match[str]) -> tuple[Any, ...]:
    g = m.groups()
    points = None if g[3] is None else int(g[3])
    return (int(g[0]), _plays(g[1], m.start(2)), g[2], points)


_CONVERT: dict[str, Callable[[re.Match[str]], tuple[Any, ...]]] = {
    "hand": lambda m: (int(m.group(1)),),
    "start": lambda m: (int(m.group(1)), tuple((m.group(2) or "").split()), None, None, None, None),
    "dealer": lambda m: (m.group(1),),
    "ante": lambda m: (_pairs(m.group(1)),),
    "deal": lambda m: (m.group(1), _cards(m.group(2))),
    "faceup": lambda m: (m.group(1), canonical_card(m.group(2))),
    "bid": lambda m: (
        m.group(1),
        m.group(2),
        tuple([SUIT_LETTER.get(a, a) for a in m.group(3).split()]),
    ),
    "raise": lambda m: (m.group(1), _wagers(m.group(2))),
    "exchange": lambda m: (m.group(1), _cards(m.group(2)), _cards(m.group(3))),
    "reshuffle": lambda m: (),
    "penalty": lambda m: (m.group(1), m.group(2)),
    "trick": _v_trick,
    "play": lambda m: (m.group(1), canonical_card(m.group(2))),
    "knock": lambda m: (m.group(1),),
    "=trick": lambda m: (
        int(m.group(1)),
        m.group(2),
        None if m.group(3) is None else int(m.group(3)),
    ),
    "=legal": lambda m: (m.group(1), _cards(m.group(2))),
    "=tricks": lambda m: (_pairs(m.group(1)),),
    "=pot": lambda m: (_pairs(m.group(1)),),
    "=pays": lambda m: (_pairs(m.group(1)),),
    "=score": lambda m: (_pairs(m.group(1)),),
    "=points": lambda m: (_pairs(m.group(1)),),
    "=total": lambda m: (_pairs(m.group(1)),),
    "=order": lambda m: (tuple(m.group(1).split()),),
}


def _comment(text: str | None) -> str | None:
    return None if text is None else text.rstrip(" \t")


def fast_statement(text: str, number: int) -> Stmt | None:
    """The statement of one line by the fast path, or ``None`` (the grammar reads it).

    Engines repeat many lines word for word (``bid P2 pass``, ``reshuffle``): a line's
    statement is the same wherever it stands, so the result is kept by text (its values are
    immutable), in a memo emptied when full."""
    seen = _MEMO.get(text)
    if seen is not None:
        return (seen[0], seen[1], number, 1, seen[2])
    first = text[:1]
    if first != " " and first != "\t" and first != "#" and first != "[":
        space = text.find(" ")
        word = text[:space] if first != "=" else "=" + text[2 : text.find(" ", 2)]
        match = _RX.get(word)
        m = match(text) if match is not None else None
        if m is not None:
            values = _CONVERT[word](m)
            comment = _comment(m.group(m.re.groups))
            if word != "trick" and len(text) <= _MEMO_WIDTH:
                if len(_MEMO) >= _MEMO_LINES:
                    _MEMO.clear()
                _MEMO[text] = (word, values, comment)
            return (word, values, number, 1, comment)
    return _other(text, number)


_MEMO_LINES = 4096  # distinct lines remembered by the fast path
_MEMO_WIDTH = 64  # the longest line remembered: repeated lines are short
_MEMO: dict[str, tuple[str, tuple[Any, ...], str | None]] = {}


def _other(text: str, number: int) -> Stmt | None:
    """Indented lines, comments, tags and a first word the patterns do not know."""
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
    kind = ("=" if head.group(1) else "") + head.group(2)
    match = _RX.get(kind)
    m = match(text) if match is not None else None
    if m is None:
        return None
    return (kind, _CONVERT[kind](m), number, column, _comment(m.group(m.re.groups)))


def statements(lines: Iterable[tuple[int, str]], errors: Errors) -> Iterator[Stmt]:
    """The statements of a file: blank lines dropped, the metadata block gathered, each line
    read by the fast path or, failing that, by the grammar."""
    lines = iter(lines)
    after_version = False
    for number, text in lines:
        if number == 1:
            yield first_statement(text, errors)
            after_version = True
            continue
        if not text.strip(" \t"):
            continue
        if after_version and _RX_FENCE_OPEN.fullmatch(text):
            yield metadata_block(number, text, lines, errors, version="2")
            after_version = False
            continue
        after_version = False
        fast = fast_statement(text, number)
        yield fast if fast is not None else slow_statement(text, number, errors)


def first_statement(text: str, errors: Errors) -> Stmt:
    """The version line, or the error of a file that does not start with one."""
    m = _RX_VERSION.fullmatch(text)
    if m is not None:
        return ("version", (m.group(1),), 1, column_of(text), _comment(m.group(2)))
    hint = "a BTN 2 file starts with the line '%btn 2'"
    if text.startswith("\ufeff"):
        hint = "the file starts with a byte-order mark (U+FEFF): save it as UTF-8 without one"
    elif text.lstrip(" \t").startswith("{"):
        hint = "this looks like the JSON form of BTN 2: read it with from_json"
    found = "an empty line" if not text.strip(" \t") else found_at(text, column_of(text))
    raise errors.at(
        f"expected the version line '%btn 2' as the first line, found {found}",
        1,
        1,
        text,
        hint=hint,
    )


def layout_error(stmt: Stmt, errors: Errors) -> TranscriptSyntaxError:
    """The error of a statement where the layout of a file allows none of its kind."""
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
            hint="tags describe the whole file; put them after '%btn 2'",
        )
    return errors.at(
        f"'{kind.lstrip('=')}' before the first 'hand' line",
        number,
        column,
        hint="every event and claim belongs to a hand: start one with 'hand 1'",
    )
