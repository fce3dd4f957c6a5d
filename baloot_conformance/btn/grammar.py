"""Reading BTN through its normative grammar: the Lark side of the statements layer.

``grammar/btn.lark`` defines the syntax. The fast path of
:mod:`~baloot_conformance.btn.statements` hands every line it does not recognise to
:func:`_slow_statement`, which parses it with the grammar and either gives the same
:data:`Stmt` or an error in plain words (what was expected, what was found, a hint).
:func:`lark_statements` reads a whole text through the grammar alone: the reference front end
that the tests compare the fast path with. The notation's tokens that both front ends share
(cards, suit letters, escapes) are defined here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from baloot_conformance.btn.items import TEAM_CLAIMS
from baloot_conformance.btn.lines import _Errors
from baloot_conformance.cards import Card, Suit, parse_card
from baloot_conformance.resources import grammar_parser

#: One statement: (kind, values, line, column, end-of-line comment or None).
#: Kinds: version meta tag comment hand start dealer deal hold faceup bid raise rest declare
#: baloot trick play foul sawa kawesh =contract =trick =legal =team =result =kaboot =winner
#: =sawa =foul (the last two: the verdict claims on a Sawa and on a foul call).
Stmt = tuple[str, tuple[Any, ...], int, int, "str | None"]


_SUIT_LETTER = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}


MAX_DIGITS = 9
"""The longest number the notation accepts (documented limit)."""


_UNESCAPE = re.compile(r"\\([\"\\])")


#: Every accepted card token (canonical and alternates); the patterns admit no other.
_CARD_OF: dict[str, Card] = {
    r + s: parse_card(r + s) for r in [*"789TJQKA", "10"] for s in "SHDC♠♥♦♣"
}


_card = _CARD_OF.__getitem__


def _column(text: str) -> int:
    return len(text) - len(text.lstrip(" \t")) + 1


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
    elif kind in ("sawa_stmt", "kawesh_stmt"):
        values = (seats[0],)
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
    elif kind == "verdict_claim":
        name = "=" + _tok(kids, "JUDGED")[0]
        values = (words[0],)
    else:  # pragma: no cover - the grammar has no other statement
        raise AssertionError(kind)
    return (name, values, 0, 0, comment)


def _with_pos(stmt: Stmt, number: int, column: int) -> Stmt:
    return (stmt[0], stmt[1], number, column, stmt[4])


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
    "JUDGED": "'sawa' or 'foul'",
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
    "sawa",
    "kawesh",
]


_CLAIM_WORDS = [
    "contract",
    "trick",
    "legal",
    *TEAM_CLAIMS,
    "result",
    "kaboot",
    "winner",
    "sawa",
    "foul",
]


def _describe_expected(names: Iterable[str]) -> str:
    parser = lark_parser()
    names = set(names)
    if {"DEALER", "TRICK", "PLAY"} <= names:
        return "a statement (" + ", ".join(_STATEMENT_WORDS) + ", '=' for a claim, or '#')"
    if {"CONTRACT", "LEGAL"} <= names:
        return "a claim name (" + ", ".join(_CLAIM_WORDS) + ")"
    return terminal_words(names, parser, _DESCRIBE)


def terminal_words(names: set[str], parser: Lark, describe: Mapping[str, str]) -> str:
    """The terminals a parser expected, in words: each as ``describe`` words it, or as its
    literal; "X, Y or Z". A comment may always end a line, so it is left out where the end
    of the line is expected (both BTN versions' grammars name their terminals alike)."""
    if "_NL" in names:
        names = names - {"COMMENT"}
    words = []
    for name in sorted(names):
        if name in describe:
            words.append(describe[name])
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


def found_at(text: str, column: int) -> str:
    """What stands at ``column`` of ``text``, for an error message."""
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
    found = found_at(line_text, column)
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


def lark_statements(text: str, path: str = "<string>") -> list[Stmt]:
    """All statements of ``text`` through the Lark grammar alone (the reference front end).

    Used to check the fast path; slower, and builds the whole tree in memory.
    """
    errors = _Errors(path)
    return whole_text_statements(
        text,
        lark_parser(),
        lambda exc, line_text, number: _lark_error(exc, line_text, number, errors),
        lambda node, number, line_text: _with_pos(
            _lark_statement(node), number, _column(line_text)
        ),
    )


def whole_text_statements(
    text: str,
    parser: Lark,
    error: Callable[[UnexpectedInput, str, int], Exception],
    statement: Callable[[Tree[Any], int, str], Stmt],
) -> list[Stmt]:
    """The statements of a whole transcript parsed by ``parser`` from its ``transcript``
    rule, in file order: the metadata block as a ``meta`` statement, every other statement
    made by ``statement`` (its tree, its line's number and text). A syntax error is raised as
    ``error`` makes it (the exception, the line's text and number): at the last line when the
    text ends early. Both BTN versions' reference front ends walk their trees so."""
    if not text.endswith("\n"):
        text += "\n"
    lines = text.split("\n")
    try:
        tree = parser.parse(text, start="transcript")
    except UnexpectedInput as exc:
        number = max(1, int(getattr(exc, "line", 1) or 1))
        if isinstance(exc, (UnexpectedToken, UnexpectedEOF)) and (
            getattr(exc, "token", None) is None or exc.token.type == "$END"
        ):
            number = max(1, len(lines) - 1)
        line_text = lines[number - 1].rstrip("\r") if number <= len(lines) else ""
        raise error(exc, line_text, number) from None
    out: list[Stmt] = []

    def first_line(node: Tree[Any] | Token) -> int:
        if isinstance(node, Token):
            return -1 if node.type == "_NL" else int(node.line or 0)
        for child in node.children:
            found = first_line(child)
            if found > 0:
                return found
        return -1

    def emit(node: Tree[Any]) -> None:
        number = first_line(node)
        out.append(statement(node, number, lines[number - 1].rstrip("\r")))

    for part in tree.children:
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
