"""Reading BTN 2 through its normative grammar, ``grammar/btn2.lark``.

The fast path of :mod:`.statements` hands every line it does not recognise to
:func:`slow_statement`, which parses it with the grammar and either gives the same
:data:`Stmt` or an error in plain words (what was expected, what was found, a hint), as
BTN 1's :mod:`baloot_conformance.btn.grammar` does. :func:`lark_statements` reads a whole
text through the grammar alone: the reference front end the tests compare the fast path with.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from baloot_conformance.btn.grammar import found_at, terminal_words, whole_text_statements
from baloot_conformance.family.btn.lines import Errors
from baloot_conformance.resources import grammar_parser

#: One statement: (kind, values, line, column, end-of-line comment or None). Kinds: version
#: meta tag comment hand start dealer ante deal faceup bid exchange reshuffle penalty trick
#: =trick =legal =tricks =pot =pays =score. Cards are canonical codes (not yet checked
#: against the pack); a trick's plays are (seat, card, column) triples.
Stmt = tuple[str, tuple[Any, ...], int, int, "str | None"]

MAX_DIGITS = 9
"""The longest number the notation accepts (as in BTN 1)."""

SUIT_LETTER = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}

_UNESCAPE = re.compile(r"\\([\"\\])")


def canonical_card(token: str) -> str:
    """A card token in its canonical spelling: ``10H`` and ``T♥`` are ``TH``."""
    return ("T" if token[0] == "1" else token[0]) + SUIT_LETTER[token[-1]]


def column_of(text: str) -> int:
    """The column of a line's first token (after its indentation)."""
    return len(text) - len(text.lstrip(" \t")) + 1


@cache
def lark_parser() -> Lark:
    """The LALR parser of ``grammar/btn2.lark`` (start symbols ``transcript`` and ``line``)."""
    return grammar_parser("btn2.lark", start=["transcript", "line"])


def _comment_of(node: Tree[Any]) -> str | None:
    for c in node.children:
        if isinstance(c, Token) and c.type == "COMMENT":
            return str(c).split("#", 1)[1].rstrip(" \t")
    return None


def _pairs(tokens: list[Token]) -> tuple[tuple[str, int], ...]:
    values = [t for t in tokens if t.type in ("SEAT", "INT", "SIGNED")]
    return tuple((str(values[i]), int(values[i + 1])) for i in range(0, len(values), 2))


def _tree_statement(tree: Tree[Any]) -> Stmt:
    """The :data:`Stmt` of one line's tree (line and column are filled in by the caller)."""
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
    kids = [c for c in node.children if isinstance(c, Token)]

    def of(kind: str) -> list[str]:
        return [str(c) for c in kids if c.type == kind]

    seats = of("SEAT")
    cards = tuple(canonical_card(c) for c in of("CARD"))
    ints = [int(i) for i in of("INT")]
    name = kind.removesuffix("_stmt")
    values: tuple[Any, ...]
    if kind == "version_line":
        return ("version", (of("VERSION")[0],), 0, 0, comment)
    if kind == "tag_line":
        raw = of("STRING")[0][1:-1]
        return ("tag", (of("TAG_NAME")[0], _UNESCAPE.sub(r"\1", raw)), 0, 0, comment)
    if kind == "hand_line":
        return ("hand", (ints[0],), 0, 0, comment)
    if kind == "start_stmt":
        parts = {str(c.data): c for c in node.children if isinstance(c, Tree)}
        if not parts:
            values = (ints[0], tuple(seats), None, None, None, None)
        else:

            def part(name: str) -> list[Token]:
                return [c for c in parts[name].children if isinstance(c, Token)]

            values = (
                None,
                (),
                int(part("start_hand")[0]) if "start_hand" in parts else None,
                _pairs(part("start_score")) if "start_score" in parts else None,
                _pairs(part("start_doubled")) if "start_doubled" in parts else None,
                tuple(str(t) for t in part("start_chosen")) if "start_chosen" in parts else None,
            )
    elif kind in ("dealer_stmt", "penalty_stmt"):
        values = (seats[0],) + ((of("WORD")[0],) if kind == "penalty_stmt" else ())
    elif kind == "ante_stmt":
        values = (_pairs(kids),)
    elif kind == "deal_stmt":
        values = (seats[0], cards)
    elif kind == "faceup_stmt":
        values = (seats[0], cards[0])
    elif kind == "bid_stmt":
        args = [
            SUIT_LETTER.get(str(c), str(c))
            for c in kids
            if c.type in ("WORD", "SUIT", "INT", "RANK")
        ]
        values = (seats[0], args[0], tuple(args[1:]))
    elif kind == "raise_stmt":
        wagers = tuple(
            (str(w.children[0]), tuple(str(t) for t in w.children[1:]))
            for w in node.children
            if isinstance(w, Tree)
        )
        values = (seats[0], wagers)
    elif kind == "play_stmt":
        values = (seats[0], cards[0])
    elif kind == "knock_stmt":
        values = (seats[0],)
    elif kind == "exchange_stmt":
        colon = next(i for i, c in enumerate(kids) if c.type == "COLON")
        discards = tuple(canonical_card(str(c)) for c in kids[:colon] if c.type == "CARD")
        received = tuple(canonical_card(str(c)) for c in kids[colon:] if c.type == "CARD")
        values = (seats[0], discards, received)
    elif kind == "reshuffle_stmt":
        values = ()
    elif kind == "trick_stmt":
        cells = [c for c in kids if c.type in ("SEAT", "CARD")]
        plays = tuple(
            (str(cells[i]), canonical_card(str(cells[i + 1])), int(cells[i].column or 1))
            for i in range(0, len(cells) - 1, 2)
        )
        winner = str(cells[-1]) if len(cells) % 2 else None
        values = (ints[0], plays, winner, ints[1] if len(ints) > 1 else None)
    elif kind == "trick_claim":
        name = "=trick"
        values = (ints[0], seats[0], ints[1] if len(ints) > 1 else None)
    elif kind == "legal_claim":
        name = "=legal"
        values = (seats[0], cards)
    elif kind in (
        "tricks_claim",
        "pot_claim",
        "pays_claim",
        "score_claim",
        "points_claim",
        "total_claim",
    ):
        name = "=" + kind.removesuffix("_claim")
        values = (_pairs(kids),)
    elif kind == "order_claim":
        name = "=order"
        values = (tuple(seats),)
    else:  # pragma: no cover - the grammar has no other statement
        raise AssertionError(kind)
    return (name, values, 0, 0, comment)


def _with_pos(stmt: Stmt, number: int, column: int) -> Stmt:
    return (stmt[0], stmt[1], number, column, stmt[4])


_DESCRIBE = {
    "CARD": "a card like 'TS' or '2H'",
    "SEAT": "a seat like 'P1'",
    "INT": "a whole number",
    "SIGNED": "a whole number, maybe negative",
    "WORD": "a lowercase word",
    "SUIT": "a suit (S, H, D or C)",
    "VERSION": "a version number like '2'",
    "TAG_NAME": "a tag name like 'Ruleset'",
    "STRING": 'a quoted value like "bourre@1"',
    "METADATA": "a metadata block between '---' lines",
    "COMMENT": "a comment",
    "_NL": "the end of the line",
    "_WS": "a space",
    "COLON": "' : ' between the discards and the cards received",
    "RESHUFFLE": "'reshuffle'",
    "RANK": "a rank (T, J, Q, K or A; 2-9 as a number)",
    "$END": "the end of the file",
}

STATEMENT_WORDS = [
    "hand",
    "start",
    "dealer",
    "ante",
    "deal",
    "faceup",
    "bid",
    "raise",
    "exchange",
    "reshuffle",
    "penalty",
    "trick",
    "play",
    "knock",
]
CLAIM_WORDS = ["trick", "legal", "tricks", "pot", "pays", "score", "points", "total", "order"]


def _describe_expected(names: Iterable[str]) -> str:
    parser = lark_parser()
    names = set(names)
    if {"DEALER", "TRICK", "EXCHANGE"} <= names:
        return "a statement (" + ", ".join(STATEMENT_WORDS) + ", '=' for a claim, or '#')"
    if {"LEGAL", "PAYS"} <= names:
        return "a claim name (" + ", ".join(CLAIM_WORDS) + ")"
    return terminal_words(names, parser, _DESCRIBE)


def _hint_for(found: str, expected: str, line: str = "") -> str | None:
    if expected == "'='" and line.lstrip(" \t").startswith("trick"):
        return "the plays of a trick are separated by ', ' (P1 AH, P2 KH); '= P1' names its winner"
    if "a card" in expected:
        return "a card is a rank (2-9 T J Q K A, or 10) and a suit (S H D C, or ♠ ♥ ♦ ♣)"
    if "a seat" in expected:
        return "a seat is a capital and up to two capitals or digits (P1, N), as in [Seats]"
    if expected.startswith("a statement"):
        return "see docs/btn2.md for the list of statements; claims start with '= '"
    if found == "a space" or "a space" in expected:
        return "one space between tokens; ',' and ':' stick to the token before them in a trick"
    return None


def _lark_error(exc: UnexpectedInput, line_text: str, number: int, errors: Errors) -> Exception:
    column = max(1, int(getattr(exc, "column", 1) or 1))
    if isinstance(exc, UnexpectedCharacters):
        expected = _describe_expected(exc.allowed or ())
    elif isinstance(exc, UnexpectedToken):
        expected = _describe_expected(exc.expected or ())
        if exc.token.type in ("$END", "_NL"):
            column = len(line_text.rstrip(" \t")) + 1
    elif isinstance(exc, UnexpectedEOF):
        expected = _describe_expected(exc.expected or ())
        column = len(line_text.rstrip(" \t")) + 1
    else:  # pragma: no cover - Lark raises only the three kinds above
        expected = "valid BTN 2"
    column = min(column, len(line_text) + 1)
    digits = re.match(r"-?[0-9]+", line_text[column - 1 :])
    if digits and len(digits.group().lstrip("-")) > MAX_DIGITS:
        return errors.at(
            f"a number of {len(digits.group().lstrip('-')):,} digits: numbers in BTN have at "
            f"most {MAX_DIGITS} digits",
            number,
            column,
            line_text,
            hint="no count, pot or score needs more",
        )
    found = found_at(line_text, column)
    return errors.at(
        f"expected {expected}, found {found}",
        number,
        column,
        line_text,
        hint=_hint_for(found, expected, line_text),
    )


def slow_statement(text: str, number: int, errors: Errors) -> Stmt:
    """Parse one line with the grammar: its statement, or an error in plain words."""
    try:
        tree = lark_parser().parse(text + "\n", start="line")
    except UnexpectedInput as exc:
        raise _lark_error(exc, text, number, errors) from None
    return _with_pos(_tree_statement(tree), number, column_of(text))


def lark_statements(text: str, path: str = "<string>") -> list[Stmt]:
    """All statements of ``text`` through the grammar alone (the reference front end, slower,
    which builds the whole tree in memory)."""
    errors = Errors(path)
    return whole_text_statements(
        text,
        lark_parser(),
        lambda exc, line_text, number: _lark_error(exc, line_text, number, errors),
        lambda node, number, line_text: _with_pos(
            _tree_statement(node), number, column_of(line_text)
        ),
    )
