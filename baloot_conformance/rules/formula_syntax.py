"""The formula language's definitions and syntax: its types, functions, rounding modes and
limits, the Lark grammar ``grammar/formula.lark``, and syntax errors in plain words.

A syntax error names what was expected and what was found at its column, with a hint for the
common slips (``=`` for ``==``, a decimal point, ``&&``). What a grammar cannot check is
:mod:`~baloot_conformance.rules.formula_checker`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from functools import cache
from typing import Any, Literal

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from baloot_conformance.errors import FormulaError
from baloot_conformance.resources import grammar_parser

VarType = Literal["number", "bool"]


Value = int | Fraction | bool


Env = Mapping[str, Value]


_Fn = Callable[[Env], Any]


MAX_LENGTH = 2000
"""The longest formula text accepted, in characters."""


MAX_DEPTH = 64
"""The deepest nesting of operators, calls and parentheses accepted."""


MAX_INT_DIGITS = 30
"""The most digits an integer literal may have."""


ROUNDING_MODES = ("half_up", "half_down", "half_even", "floor", "ceil")
"""The rounding modes of ``round(x, MODE)``; ``half_up`` rounds ties away from zero."""


FUNCTIONS = {
    "abs": "abs(x)",
    "max": "max(a, b, ...)",
    "min": "min(a, b, ...)",
    "round": "round(x, MODE)",
}
"""The functions of the language and how each is called."""


_KEYWORDS = frozenset({"if", "then", "else", "and", "or", "not", "true", "false"})


_MODES_TEXT = ", ".join(ROUNDING_MODES)


_FUNCTIONS_TEXT = ", ".join(FUNCTIONS.values())


_SYNTAX_HINT = "see the formula language in docs/ruleset.md"


_TYPE_WORDS: dict[str, str] = {"number": "a number", "bool": "true/false"}


@cache
def _parser() -> Lark:
    """The LALR parser of ``grammar/formula.lark``, built once."""
    return grammar_parser(
        "formula.lark", lexer="basic", propagate_positions=True, maybe_placeholders=False
    )


def _parse_tree(text: str) -> Tree[Token]:
    """The Lark tree of ``text``, or a :class:`FormulaError` in plain words."""
    try:
        return _parser().parse(text)
    except UnexpectedInput as error:
        raise _syntax_error(text, error) from None
    except LarkError as error:  # pragma: no cover - Lark raises UnexpectedInput for bad input
        raise FormulaError(f"the formula cannot be parsed: {error}", hint=_SYNTAX_HINT) from None


_VALUE_START = frozenset({"INT", "NAME", "LPAR"})


_OPERATORS = ("PLUS", "MINUS", "STAR", "SLASH", "DSLASH", "PERCENT")


def _describe_expected(names: Iterable[str]) -> str:
    """Plain words for a set of Lark terminal names, in a stable order."""
    pending = set(names)
    words: list[str] = []
    if pending >= _VALUE_START:
        words.append("a value (a number, a name, a call or a parenthesised expression)")
        pending -= {"INT", "NAME", "LPAR", "TRUE", "FALSE"}
    if sum(op in pending for op in _OPERATORS) >= 3:
        words.append("an operator (+ - * / // %)")
        pending -= set(_OPERATORS)
    words.extend(word for name, word in _TERMINAL_WORDS.items() if name in pending)
    words.extend(sorted(name for name in pending if name not in _TERMINAL_WORDS))
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _describe_token(token: Token) -> str:
    if token.type == "$END":
        return "the end of the formula"
    if token.type == "INT":
        return f"the number {token.value}"
    if token.type == "NAME":
        return f"the name {token.value!r}"
    return f'"{token.value}"'


def _token_hint(text: str, token: Token, expected: set[str]) -> str:
    """A targeted hint for a common syntax mistake, or the generic one."""
    kind = token.type
    if kind == "COMP_OP" and "COMP_OP" not in expected:
        return "comparisons do not chain: write a < b and b < c"
    if kind in {"IF", "NOT"} and "NAME" in expected:
        example = "1 + (if c then 1 else 0)" if kind == "IF" else "x and (not c)"
        return f"put an {token.value}-expression in parentheses inside a larger one: {example}"
    start = token.start_pos or 0
    if kind == "STAR" and start > 0 and text[start - 1] == "*":
        return "there is no power operator: multiply, e.g. x * x"
    if kind in {"LPAR", "INT", "NAME"} and expected & set(_OPERATORS):
        return "two values need an operator between them, e.g. 2 * (x + 1)"
    if kind == "$END" and expected == {"RPAR"}:
        return 'a "(" is never closed: add the missing ")"'
    if kind == "$END" and expected == {"ELSE"}:
        return "every if needs an else: if COND then A else B"
    if kind == "RPAR" and text[:start].rstrip().endswith(","):
        return "remove the trailing comma or add the missing argument"
    if kind == "RPAR" and text[:start].count("(") <= text[:start].count(")"):
        return 'this ")" has no matching "("'
    return _SYNTAX_HINT


def _syntax_error(text: str, error: UnexpectedInput) -> FormulaError:
    """Turn a Lark error into a :class:`FormulaError` that names no Lark internals."""
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        char = text[position] if 0 <= position < len(text) else ""
        return FormulaError(
            f"unexpected character {char!r} in the formula",
            column=position + 1,
            hint=_CHARACTER_HINTS.get(
                char,
                "a formula uses names, whole numbers, + - * / // % == != < <= > >=, "
                "parentheses and commas",
            ),
        )
    if isinstance(error, UnexpectedToken):
        token = error.token
        expected = set(error.accepts or error.expected)
        column = len(text.rstrip()) + 1 if token.type == "$END" else (token.start_pos or 0) + 1
        found = (
            "the formula ends too early"
            if token.type == "$END"
            else f"unexpected {_describe_token(token)}"
        )
        return FormulaError(
            f"{found}: expected {_describe_expected(expected)}",
            column=column,
            hint=_token_hint(text, token, expected),
        )
    return FormulaError(  # pragma: no cover - the basic lexer and LALR raise the two above
        "the formula ends too early", column=len(text) + 1, hint=_SYNTAX_HINT
    )


def _check_declarations(variables: Mapping[str, VarType]) -> dict[str, VarType]:
    """The declared variables as a plain dict, after checking names and types."""
    declared: dict[str, VarType] = {}
    for name, kind in variables.items():
        if not (isinstance(name, str) and name.isidentifier() and name.isascii()):
            raise FormulaError(
                f"the variable name {name!r} is not a valid name",
                hint="a name is letters, digits and _, and does not start with a digit",
            )
        if name in _KEYWORDS:
            raise FormulaError(
                f"the variable name {name!r} is a keyword of the formula language",
                hint="choose another name",
            )
        if kind not in ("number", "bool"):
            raise FormulaError(
                f"the variable {name!r} is declared with type {kind!r}",
                hint="a variable's type is number or bool",
            )
        declared[name] = kind
    return declared


def _column(node: Tree[Token] | Token) -> int:
    """The 1-based column (character offset + 1) where ``node`` starts."""
    if isinstance(node, Token):
        return (node.start_pos or 0) + 1
    return int(getattr(node.meta, "start_pos", 0)) + 1


def _check_depth(tree: Tree[Token]) -> None:
    """Refuse trees nested deeper than :data:`MAX_DEPTH`, without recursion."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise FormulaError(
                f"the formula is nested too deeply (more than {MAX_DEPTH} levels of "
                "parentheses, operators and calls)",
                column=_column(node),
                hint="simplify the formula or split it into several rules",
            )
        stack.extend(
            (child, depth + 1) for child in reversed(node.children) if isinstance(child, Tree)
        )


_TERMINAL_WORDS: dict[str, str] = {
    "INT": "a number",
    "NAME": "a name",
    "TRUE": '"true"',
    "FALSE": '"false"',
    "LPAR": '"("',
    "MINUS": '"-"',
    "NOT": '"not"',
    "IF": '"if"',
    "PLUS": '"+"',
    "STAR": '"*"',
    "SLASH": '"/"',
    "DSLASH": '"//"',
    "PERCENT": '"%"',
    "COMP_OP": "a comparison (== != < <= > >=)",
    "AND": '"and"',
    "OR": '"or"',
    "THEN": '"then"',
    "ELSE": '"else"',
    "COMMA": '","',
    "RPAR": '")"',
    "$END": "the end of the formula",
}


_CHARACTER_HINTS: dict[str, str] = {
    "=": "write == to compare two values",
    ".": "numbers are whole: write a fraction as a division inside round(...), e.g. "
    "round(raw * 15 / 10, half_up) instead of raw * 1.5",
    "&": 'write "and" to combine conditions',
    "|": 'write "or" to combine conditions',
    "!": 'write "not" to negate a condition, or != for "not equal"',
    "^": "there is no power operator: multiply, e.g. x * x",
    "[": "only round parentheses ( ) group an expression",
    "{": "only round parentheses ( ) group an expression",
    '"': "a formula has no text strings: use numbers, variables and true/false",
    "'": "a formula has no text strings: use numbers, variables and true/false",
}
