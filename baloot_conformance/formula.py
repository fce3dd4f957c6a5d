"""The ruleset formula language: parse, statically check and exactly evaluate small formulas.

Rulesets compute game points from raw card points with formulas such as the Saudi Sun
conversion ``raw // 5 + (if (raw // 5) % 2 == 1 and raw % 5 > 0 then 1 else 0)``. Scoring
rules differ between tables mostly in how they round, so the language makes rounding explicit
and exact: numbers are integers or :class:`fractions.Fraction` (never floats), and every ``/``
must sit inside the first argument of ``round(x, MODE)``, which names its rounding mode.

The syntax is the Lark grammar ``grammar/formula.lark``; the rules a grammar cannot express
(declared variables, function arities, rounding modes, types, the ``/`` rule, size limits) are
checked here at parse time, so a ruleset with a bad formula fails when it is loaded, with the
column of the offending token. A checked formula is compiled once into nested closures (no
``eval``): integral values stay plain ``int`` and only ``/`` creates a ``Fraction``, so an
evaluation costs a few microseconds.
"""

from __future__ import annotations

import difflib
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Literal, NoReturn

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from baloot_conformance.errors import FormulaError
from baloot_conformance.resources import grammar_parser

__all__ = [
    "FUNCTIONS",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_LENGTH",
    "ROUNDING_MODES",
    "Formula",
    "VarType",
    "parse_formula",
]

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


# --------------------------------------------------------------------------------------------
# Public API


@dataclass(frozen=True, slots=True)
class Formula:
    """A parsed and checked formula; build it with :func:`parse_formula`.

    ``variables`` are the names the formula actually uses and ``result_type`` what it gives.
    """

    source: str
    variables: frozenset[str]
    result_type: VarType
    variable_divisor: bool
    """Some divisor depends on the variables, so a division by zero is possible at run time
    (a ruleset's validation tries every input the engine can give)."""
    _signature: tuple[tuple[str, VarType], ...] = field(repr=False)
    _fn: _Fn = field(repr=False, compare=False)

    def evaluate(self, env: Mapping[str, int | Fraction | bool]) -> Fraction | bool:
        """The exact value of the formula for the variable values in ``env``.

        Every variable in :attr:`variables` must be in ``env`` (even one on an ``if`` branch
        that is not taken): numbers as ``int`` or ``Fraction``, booleans as ``bool``. Raises
        :class:`FormulaError` otherwise, or on a division by zero. Other entries are ignored.
        """
        result: Value = self._run(env)
        if result is True or result is False or isinstance(result, Fraction):
            return result
        return Fraction(result)

    def evaluate_int(self, env: Mapping[str, int | Fraction | bool]) -> int:
        """Evaluate and require a whole number; anything else raises :class:`FormulaError`."""
        if self.result_type != "number":
            raise FormulaError(
                f"the formula {self.source!r} gives true/false, not a number",
                hint="a points formula must compute a number",
            )
        result: int | Fraction = self._run(env)
        if type(result) is int:
            return result
        if result.denominator == 1:
            return int(result.numerator)
        raise FormulaError(
            f"the formula {self.source!r} gave {result}, which is not a whole number; "
            "the formula must round its result",
            hint=f"wrap it in round(..., MODE) with MODE one of {_MODES_TEXT}, or use //",
        )

    def _run(self, env: Env) -> Any:
        """Check the used variables' values in ``env``, then run the compiled closures."""
        for name, kind in self._signature:
            try:
                value = env[name]
            except KeyError:
                given = ", ".join(sorted(map(str, env))) or "none"
                raise FormulaError(
                    f"the formula {self.source!r} needs a value for variable {name!r}, "
                    "but none was given",
                    hint=f"variables given: {given}",
                ) from None
            kind_of_value = type(value)
            if kind == "number":
                if kind_of_value is int or kind_of_value is Fraction:
                    continue
                if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
                    continue
            elif kind_of_value is bool:
                continue
            _bad_value(self.source, name, kind, value)
        return self._fn(env)


def parse_formula(text: str, variables: Mapping[str, VarType]) -> Formula:
    """Parse ``text`` and check it against the declared ``variables`` (name -> type).

    Raises :class:`FormulaError` on a syntax error, an undeclared variable, an unknown
    function or rounding mode, a wrong number of arguments, a type error, a ``/`` outside
    ``round(...)``, a division by a constant 0, or a formula that is too long or too deeply
    nested. The error's ``column`` is the character offset in ``text`` plus one (a newline
    counts as one character), pointing at the offending token.
    """
    if not isinstance(text, str):
        raise FormulaError(
            f"a formula must be text, not {type(text).__name__}",
            hint="write the formula as a string, e.g. raw // 10",
        )
    declared = _check_declarations(variables)
    if len(text) > MAX_LENGTH:
        raise FormulaError(
            f"the formula is {len(text):,} characters long; at most {MAX_LENGTH:,} are allowed",
            column=MAX_LENGTH + 1,
            hint="split the computation into simpler rules",
        )
    if not text.strip():
        raise FormulaError("the formula is empty", column=1, hint="write an expression")
    tree = _parse_tree(text)
    _check_depth(tree)
    checker = _Checker(text, declared)
    node = checker.expr(tree, in_round=False)
    signature = tuple(sorted((name, declared[name]) for name in checker.used))
    return Formula(
        source=text,
        variables=frozenset(checker.used),
        result_type=node.type,
        variable_divisor=checker.variable_divisor,
        _signature=signature,
        _fn=node.fn,
    )


# --------------------------------------------------------------------------------------------
# Parsing and syntax errors


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
_VALUE_START = frozenset({"INT", "NAME", "LPAR"})
_OPERATORS = ("PLUS", "MINUS", "STAR", "SLASH", "DSLASH", "PERCENT")

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


# --------------------------------------------------------------------------------------------
# Exact arithmetic and rounding


def _round_floor(x: int | Fraction) -> int:
    return x if type(x) is int else x.numerator // x.denominator


def _round_ceil(x: int | Fraction) -> int:
    return x if type(x) is int else -(-x.numerator // x.denominator)


def _nearest(x: int | Fraction, tie: Callable[[int, int], int]) -> int:
    """``x`` rounded to the nearest integer, ``tie(floor, numerator)`` choosing on ties."""
    if type(x) is int:
        return x
    quotient, remainder = divmod(x.numerator, x.denominator)
    twice = 2 * remainder
    if twice < x.denominator:
        return quotient
    if twice > x.denominator:
        return quotient + 1
    return tie(quotient, x.numerator)


def _round_half_up(x: int | Fraction) -> int:
    return _nearest(x, lambda q, n: q + 1 if n > 0 else q)


def _round_half_down(x: int | Fraction) -> int:
    return _nearest(x, lambda q, n: q if n > 0 else q + 1)


def _round_half_even(x: int | Fraction) -> int:
    return _nearest(x, lambda q, n: q if q % 2 == 0 else q + 1)


_ROUNDERS: dict[str, Callable[[int | Fraction], int]] = {
    "half_up": _round_half_up,
    "half_down": _round_half_down,
    "half_even": _round_half_even,
    "floor": _round_floor,
    "ceil": _round_ceil,
}

_PLAIN_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
    "%": operator.mod,
    "/": Fraction,
}
_COMPARE_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _guarded(symbol: str, column: int) -> Callable[[Any, Any], Any]:
    """The operation ``symbol`` (``/``, ``//`` or ``%``), raising on a zero right side."""
    plain = _PLAIN_OPS[symbol]

    def divide(left: Any, right: Any) -> Any:
        if not right:
            raise FormulaError(
                f"division by zero: the right side of {symbol!r} at column {column} is 0",
                column=column,
                hint="guard the division, e.g. if d == 0 then 0 else x // d",
            )
        return plain(left, right)

    return divide


def _bad_value(source: str, name: str, kind: VarType, value: object) -> NoReturn:
    wanted = "a number (int or Fraction)" if kind == "number" else "true/false (bool)"
    raise FormulaError(
        f"the formula {source!r} needs variable {name!r} to be {wanted}, "
        f"but it is {type(value).__name__} {value!r}",
        hint="floats are never accepted: arithmetic is exact" if isinstance(value, float) else None,
    )


# --------------------------------------------------------------------------------------------
# Static checking and compilation


@dataclass(frozen=True, slots=True)
class _Node:
    """A checked subexpression: its type, its compiled closure and, if constant, its value."""

    type: VarType
    fn: _Fn
    column: int
    constant: bool = False
    value: Value = 0


def _constant(kind: VarType, value: Value, column: int) -> _Node:
    return _Node(kind, lambda env: value, column, constant=True, value=value)


class _Checker:
    """Walks a Lark tree once: checks every static rule and compiles closures."""

    def __init__(self, text: str, declared: dict[str, VarType]) -> None:
        self.text = text
        self.declared = declared
        self.used: set[str] = set()
        self.variable_divisor = False

    def fail(self, message: str, at: Tree[Token] | Token | int, hint: str) -> NoReturn:
        column = at if isinstance(at, int) else _column(at)
        raise FormulaError(message, column=column, hint=hint)

    def expr(self, tree: Tree[Token] | Token, in_round: bool) -> _Node:
        """Check and compile ``tree``; ``in_round`` is true inside round's first argument."""
        if isinstance(tree, Token):  # pragma: no cover - the grammar wraps every token
            self.fail("unexpected token", tree, _SYNTAX_HINT)
        handler = getattr(self, f"rule_{tree.data}", None)
        if handler is None:  # pragma: no cover - one handler per grammar rule
            self.fail(f"unsupported construct {tree.data!r}", tree, _SYNTAX_HINT)
        node: _Node = handler(tree, in_round)
        return node

    def subtree(self, child: Tree[Token] | Token) -> Tree[Token]:
        assert isinstance(child, Tree)
        return child

    def expect(self, node: _Node, kind: VarType, what: str, hint: str) -> None:
        if node.type != kind:
            self.fail(
                f"{what} must be {_TYPE_WORDS[kind]}, but it is {_TYPE_WORDS[node.type]}",
                node.column,
                hint,
            )

    # Leaves ---------------------------------------------------------------------------------

    def rule_number(self, tree: Tree[Token], in_round: bool) -> _Node:
        token = tree.children[0]
        assert isinstance(token, Token)
        digits = str(token.value)
        if len(digits) > MAX_INT_DIGITS:
            self.fail(
                f"the number has {len(digits)} digits; at most {MAX_INT_DIGITS} are allowed",
                token,
                "points formulas need small numbers; check for a typo",
            )
        return _constant("number", int(digits), _column(token))

    def rule_true(self, tree: Tree[Token], in_round: bool) -> _Node:
        return _constant("bool", True, _column(tree))

    def rule_false(self, tree: Tree[Token], in_round: bool) -> _Node:
        return _constant("bool", False, _column(tree))

    def rule_var(self, tree: Tree[Token], in_round: bool) -> _Node:
        token = tree.children[0]
        assert isinstance(token, Token)
        name = str(token.value)
        kind = self.declared.get(name)
        if kind is None:
            self.fail(f"unknown variable {name!r}", token, self.unknown_name_hint(name))
        self.used.add(name)
        return _Node(kind, operator.itemgetter(name), _column(token))

    def unknown_name_hint(self, name: str) -> str:
        if name in FUNCTIONS:
            return f"{name!r} is a function: call it as {FUNCTIONS[name]}"
        if name in ROUNDING_MODES:
            return "a rounding mode is only the second argument of round(x, MODE)"
        if not self.declared:
            return "this formula has no declared variables"
        hint = "declared variables: " + ", ".join(sorted(self.declared))
        close = difflib.get_close_matches(name, list(self.declared), n=1)
        return f"did you mean {close[0]!r}? {hint}" if close else hint

    def rule_group(self, tree: Tree[Token], in_round: bool) -> _Node:
        inner = self.expr(tree.children[0], in_round)
        return _Node(inner.type, inner.fn, _column(tree), inner.constant, inner.value)

    # Arithmetic -----------------------------------------------------------------------------

    def rule_neg(self, tree: Tree[Token], in_round: bool) -> _Node:
        operand = self.expr(tree.children[1], in_round)
        self.expect(operand, "number", "the operand of unary '-'", "negate only numbers")
        column = _column(tree)
        if operand.constant:
            return _constant("number", -operand.value, column)
        inner = operand.fn
        return _Node("number", lambda env: -inner(env), column)

    def rule_sum(self, tree: Tree[Token], in_round: bool) -> _Node:
        return self.arith_chain(tree, in_round)

    def rule_term(self, tree: Tree[Token], in_round: bool) -> _Node:
        return self.arith_chain(tree, in_round)

    def arith_chain(self, tree: Tree[Token], in_round: bool) -> _Node:
        """``a OP b OP c ...`` (left-associative), compiled into one closure."""
        children = tree.children
        first = self.number_operand(children[0], f"the left side of '{children[1]}'", in_round)
        steps: list[tuple[Callable[[Any, Any], Any], _Node]] = []
        for index in range(1, len(children), 2):
            token = children[index]
            assert isinstance(token, Token)
            symbol = str(token.value)
            if symbol == "/" and not in_round:
                self.fail(
                    "a division '/' outside round(...): every division names its rounding mode",
                    token,
                    f"wrap it in round(..., MODE) with MODE one of {_MODES_TEXT}, "
                    "e.g. round(raw / 10, half_up); or use // to divide rounding down",
                )
            right = self.number_operand(
                children[index + 1], f"the right side of '{symbol}'", in_round
            )
            if symbol in ("/", "//", "%"):
                if right.constant and not right.value:
                    self.fail(
                        f"division by zero: the right side of {symbol!r} is 0",
                        right.column,
                        "divide by a number that is not 0",
                    )
                op = _PLAIN_OPS[symbol] if right.constant else _guarded(symbol, _column(token))
                self.variable_divisor |= not right.constant
            else:
                op = _PLAIN_OPS[symbol]
            steps.append((op, right))
        return self.fold(first, steps, _column(tree))

    def number_operand(self, child: Tree[Token] | Token, where: str, in_round: bool) -> _Node:
        """Check and compile an operand of ``+ - * / // %``, which must be a number."""
        node = self.expr(child, in_round)
        if node.type != "number":
            self.fail(
                f"{where} must be a number, but it is true/false",
                node.column,
                "arithmetic works on numbers only; to count a condition write "
                "(if COND then 1 else 0)",
            )
        return node

    def fold(
        self, first: _Node, steps: list[tuple[Callable[[Any, Any], Any], _Node]], column: int
    ) -> _Node:
        if all(node.constant for _, node in steps) and first.constant:
            value: Any = first.value
            for op, node in steps:
                value = op(value, node.value)
            return _constant("number", value, column)
        if len(steps) == 1:
            return _Node("number", _binary(steps[0][0], first, steps[0][1]), column)
        head = first.fn
        rest = tuple((op, node.fn) for op, node in steps)

        def chain(env: Env) -> Any:
            acc = head(env)
            for op, fn in rest:
                acc = op(acc, fn(env))
            return acc

        return _Node("number", chain, column)

    # Comparisons and logic ------------------------------------------------------------------

    def rule_comparison(self, tree: Tree[Token], in_round: bool) -> _Node:
        left = self.expr(tree.children[0], in_round)
        token = tree.children[1]
        assert isinstance(token, Token)
        symbol = str(token.value)
        right = self.expr(tree.children[2], in_round)
        if symbol in ("==", "!="):
            if left.type != right.type:
                self.fail(
                    f"{symbol!r} compares two numbers or two true/false values, but its left "
                    f"side is {_TYPE_WORDS[left.type]} and its right side is "
                    f"{_TYPE_WORDS[right.type]}",
                    right.column,
                    "compare values of the same kind",
                )
        else:
            for side, node in (("left", left), ("right", right)):
                self.expect(
                    node, "number", f"the {side} side of {symbol!r}", "only numbers are ordered"
                )
        return _Node("bool", _binary(_COMPARE_OPS[symbol], left, right), _column(tree))

    def bool_operands(self, tree: Tree[Token], word: str, in_round: bool) -> list[_Fn]:
        fns: list[_Fn] = []
        for child in tree.children:
            node = self.expr(child, in_round)
            self.expect(
                node,
                "bool",
                f"an operand of {word!r}",
                "combine conditions, not numbers: compare a number first, e.g. x > 0",
            )
            fns.append(node.fn)
        return fns

    def rule_and_expr(self, tree: Tree[Token], in_round: bool) -> _Node:
        fns = self.bool_operands(tree, "and", in_round)
        if len(fns) == 2:
            first, second = fns
            return _Node("bool", lambda env: first(env) and second(env), _column(tree))
        every = tuple(fns)
        return _Node("bool", lambda env: all(fn(env) for fn in every), _column(tree))

    def rule_or_expr(self, tree: Tree[Token], in_round: bool) -> _Node:
        fns = self.bool_operands(tree, "or", in_round)
        if len(fns) == 2:
            first, second = fns
            return _Node("bool", lambda env: first(env) or second(env), _column(tree))
        every = tuple(fns)
        return _Node("bool", lambda env: any(fn(env) for fn in every), _column(tree))

    def rule_not_(self, tree: Tree[Token], in_round: bool) -> _Node:
        operand = self.expr(tree.children[0], in_round)
        self.expect(operand, "bool", "the operand of 'not'", "negate a condition, e.g. not x > 0")
        inner = operand.fn
        return _Node("bool", lambda env: not inner(env), _column(tree))

    def rule_cond(self, tree: Tree[Token], in_round: bool) -> _Node:
        condition = self.expr(tree.children[0], in_round)
        self.expect(
            condition,
            "bool",
            "the condition of 'if'",
            "write a comparison, e.g. if raw % 10 >= 6 then 1 else 0",
        )
        then = self.expr(tree.children[1], in_round)
        otherwise = self.expr(tree.children[2], in_round)
        if then.type != otherwise.type:
            self.fail(
                f"the branches of 'if' must have the same type, but 'then' gives "
                f"{_TYPE_WORDS[then.type]} and 'else' gives {_TYPE_WORDS[otherwise.type]}",
                otherwise.column,
                "make both branches numbers or both true/false",
            )
        test, yes, no = condition.fn, then.fn, otherwise.fn
        return _Node(then.type, lambda env: yes(env) if test(env) else no(env), _column(tree))

    # Calls ----------------------------------------------------------------------------------

    def rule_call(self, tree: Tree[Token], in_round: bool) -> _Node:
        name_token = tree.children[0]
        assert isinstance(name_token, Token)
        name = str(name_token.value)
        args = [self.subtree(child) for child in tree.children[1:]]
        column = _column(tree)
        if name not in FUNCTIONS:
            hint = f"functions: {_FUNCTIONS_TEXT}"
            if name in self.declared:
                hint = f"{name!r} is a variable: to multiply write {name} * (...); {hint}"
            else:
                close = difflib.get_close_matches(name, list(FUNCTIONS), n=1)
                if close:
                    hint = f"did you mean {close[0]!r}? {hint}"
            self.fail(f"unknown function {name!r}", name_token, hint)
        if name == "round":
            return self.call_round(name_token, args, column, in_round)
        if name == "abs" and len(args) != 1:
            self.fail(
                f"abs takes exactly 1 argument, but got {len(args)}",
                name_token,
                "write abs(x)",
            )
        if name in ("min", "max") and len(args) < 2:
            self.fail(
                f"{name} needs at least 2 arguments, but got {len(args)}",
                name_token,
                f"write {FUNCTIONS[name]}",
            )
        nodes = [self.expr(arg, in_round) for arg in args]
        for position, node in enumerate(nodes, start=1):
            self.expect(node, "number", f"argument {position} of {name}", f"{name} takes numbers")
        fns = tuple(node.fn for node in nodes)
        if name == "abs":
            (inner,) = fns
            return _Node("number", lambda env: abs(inner(env)), column)
        pick: Callable[..., Any] = min if name == "min" else max
        if len(fns) == 2:
            first, second = fns
            return _Node("number", lambda env: pick(first(env), second(env)), column)
        return _Node("number", lambda env: pick([fn(env) for fn in fns]), column)

    def call_round(
        self, name_token: Token, args: list[Tree[Token]], column: int, in_round: bool
    ) -> _Node:
        if len(args) != 2:
            self.fail(
                f"round takes 2 arguments, round(x, MODE), but got {len(args)}",
                name_token,
                f"name the rounding mode, e.g. round(x, half_up); modes: {_MODES_TEXT}",
            )
        value_tree, mode_tree = args
        value = self.expr(value_tree, in_round=True)
        self.expect(value, "number", "the first argument of round", "round numbers only")
        mode_token = mode_tree.children[0] if mode_tree.data == "var" else None
        if not isinstance(mode_token, Token):
            self.fail(
                "the second argument of round must be a rounding mode name",
                mode_tree,
                f"modes: {_MODES_TEXT}",
            )
        mode = str(mode_token.value)
        if mode not in _ROUNDERS:
            close = difflib.get_close_matches(mode, ROUNDING_MODES, n=1)
            prefix = f"did you mean {close[0]!r}? " if close else ""
            self.fail(
                f"unknown rounding mode {mode!r}",
                mode_token,
                f"{prefix}modes: {_MODES_TEXT} (half_up rounds ties away from zero)",
            )
        rounder = _ROUNDERS[mode]
        if value.constant:
            return _constant("number", rounder(value.value), column)
        inner = value.fn
        return _Node("number", lambda env: rounder(inner(env)), column)


def _binary(op: Callable[[Any, Any], Any], left: _Node, right: _Node) -> _Fn:
    """A closure computing ``op(left, right)``, with fast paths for constant sides."""
    left_fn, right_fn = left.fn, right.fn
    if right.constant:
        constant = right.value
        return lambda env: op(left_fn(env), constant)
    if left.constant:
        constant = left.value
        return lambda env: op(constant, right_fn(env))
    return lambda env: op(left_fn(env), right_fn(env))
