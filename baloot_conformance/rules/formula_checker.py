"""Static checking of a parsed formula, and its compilation into closures of exact arithmetic.

The checker walks the syntax tree once: every name must be a declared variable, every function
known and called with its arity, every operand of the right type (number or true/false), every
``/`` inside the first argument of ``round(x, MODE)`` with a known ``MODE``, and no division by
a constant zero. Each node becomes a closure; constant parts are folded. Numbers stay ``int``
until a ``/`` makes a :class:`fractions.Fraction`, and each rounding mode is exact (below).
"""

from __future__ import annotations

import difflib
import operator
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NoReturn

from lark import Token, Tree

from baloot_conformance.errors import FormulaError
from baloot_conformance.rules.formula_syntax import (
    _FUNCTIONS_TEXT,
    _MODES_TEXT,
    _SYNTAX_HINT,
    _TYPE_WORDS,
    FUNCTIONS,
    MAX_INT_DIGITS,
    ROUNDING_MODES,
    Env,
    Value,
    VarType,
    _column,
    _Fn,
)


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
