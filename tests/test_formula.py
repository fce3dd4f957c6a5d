"""Tests of the ruleset formula language (baloot_conformance.rules.formula).

Covers the scoring conversions the rulesets need, every rounding mode, exact arithmetic,
precedence, each static check with its column, evaluation errors, and fuzzing properties:
bad input only ever raises FormulaError, and evaluation agrees with Python's own arithmetic.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import (
    ROUND_CEILING,
    ROUND_FLOOR,
    ROUND_HALF_DOWN,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    Context,
    Decimal,
)
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from baloot_conformance.errors import FormulaError
from baloot_conformance.resources import grammar_text
from baloot_conformance.rules.formula import Formula, parse_formula
from baloot_conformance.rules.formula_syntax import MAX_DEPTH, MAX_LENGTH, ROUNDING_MODES, VarType

SUN = "raw // 5 + (if (raw // 5) % 2 == 1 and raw % 5 > 0 then 1 else 0)"
HOKUM = "raw // 10 + (if raw % 10 >= 6 then 1 else 0)"
RAW: dict[str, VarType] = {"raw": "number"}
VARS: dict[str, VarType] = {"raw": "number", "d": "number", "won": "bool", "doubled": "bool"}
ENV: dict[str, int | Fraction | bool] = {"raw": 65, "d": 3, "won": True, "doubled": False}


def value_of(text: str, env: Mapping[str, int | Fraction | bool] = ENV) -> Fraction | bool:
    return parse_formula(text, VARS).evaluate(env)


def error_of(text: str, variables: Mapping[str, VarType] = VARS) -> FormulaError:
    with pytest.raises(FormulaError) as caught:
        parse_formula(text, variables)
    return caught.value


# --------------------------------------------------------------------------------------------
# The conversions the rulesets use


@pytest.mark.parametrize(
    ("raw", "points"),
    [(65, 13), (66, 14), (64, 12), (55, 11), (67, 14), (53, 10), (57, 12), (130, 26), (0, 0)],
)
def test_saudi_sun_conversion(raw: int, points: int) -> None:
    assert parse_formula(SUN, RAW).evaluate_int({"raw": raw}) == points


def test_saudi_sun_conversion_matches_the_rule_and_splits_130_into_26() -> None:
    sun = parse_formula(SUN, RAW)
    for raw in range(131):
        quotient = raw // 5
        expected = quotient + (1 if quotient % 2 == 1 and raw % 5 > 0 else 0)
        assert sun.evaluate_int({"raw": raw}) == expected
        assert sun.evaluate_int({"raw": raw}) + sun.evaluate_int({"raw": 130 - raw}) == 26


@pytest.mark.parametrize(("raw", "points"), [(85, 8), (86, 9), (81, 8), (76, 8), (0, 0)])
def test_hokum_individual_conversion(raw: int, points: int) -> None:
    assert parse_formula(HOKUM, RAW).evaluate_int({"raw": raw}) == points


@pytest.mark.parametrize(
    ("text", "raw", "points"),
    [
        ("round(raw * 2 / 10, half_up)", 65, 13),
        ("round(raw * 2 / 10, half_up)", 63, 13),
        ("round(raw * 2 / 10, half_up)", 67, 13),
        ("round(raw * 2 / 10, half_up)", 75, 15),
        ("round(raw * 2 / 10, half_up)", 66, 13),
        ("round(raw / 10, half_up) * 2", 65, 14),
        ("round(raw / 10, half_up) * 2", 64, 12),
        ("round(raw / 10, half_down) * 2", 65, 12),
    ],
)
def test_naive_sun_variants(text: str, raw: int, points: int) -> None:
    assert parse_formula(text, RAW).evaluate_int({"raw": raw}) == points


def test_public_fields_describe_the_formula() -> None:
    sun = parse_formula(SUN, VARS)
    assert sun.source == SUN
    assert sun.variables == frozenset({"raw"})
    assert sun.result_type == "number"
    condition = parse_formula("won and raw > 80", VARS)
    assert condition.result_type == "bool"
    assert condition.variables == frozenset({"won", "raw"})
    assert parse_formula("1 + 2", VARS).variables == frozenset()
    assert parse_formula(SUN, VARS) == parse_formula(SUN, VARS)
    assert hash(parse_formula(SUN, VARS)) == hash(parse_formula(SUN, VARS))


def test_grammar_is_shipped_as_a_lark_file() -> None:
    text = grammar_text("formula.lark")
    assert "COMP_OP" in text
    assert '"if" expr "then" expr "else" expr' in text


# --------------------------------------------------------------------------------------------
# Rounding


@pytest.mark.parametrize(
    ("value", "mode", "expected"),
    [
        ("5 / 2", "half_up", 3),
        ("-5 / 2", "half_up", -3),
        ("5 / 2", "half_down", 2),
        ("-5 / 2", "half_down", -2),
        ("5 / 2", "half_even", 2),
        ("7 / 2", "half_even", 4),
        ("-5 / 2", "half_even", -2),
        ("-7 / 2", "half_even", -4),
        ("1 / 2", "half_even", 0),
        ("1 / 2", "floor", 0),
        ("-1 / 2", "floor", -1),
        ("1 / 2", "ceil", 1),
        ("-1 / 2", "ceil", 0),
        # Not ties: every nearest mode agrees.
        ("7 / 3", "half_up", 2),
        ("7 / 3", "half_down", 2),
        ("7 / 3", "half_even", 2),
        ("8 / 3", "half_up", 3),
        ("8 / 3", "half_down", 3),
        ("8 / 3", "half_even", 3),
        ("-8 / 3", "half_up", -3),
        ("-8 / 3", "half_down", -3),
        ("-7 / 3", "half_even", -2),
        ("7 / 3", "floor", 2),
        ("7 / 3", "ceil", 3),
        ("-7 / 3", "floor", -3),
        ("-7 / 3", "ceil", -2),
        # Whole numbers are unchanged.
        ("-6 / 2", "half_up", -3),
        ("6 / 2", "ceil", 3),
        ("raw", "floor", 65),
    ],
)
def test_rounding_modes(value: str, mode: str, expected: int) -> None:
    assert value_of(f"round({value}, {mode})") == expected


_DECIMAL_MODES = {
    "half_up": ROUND_HALF_UP,
    "half_down": ROUND_HALF_DOWN,
    "half_even": ROUND_HALF_EVEN,
    "floor": ROUND_FLOOR,
    "ceil": ROUND_CEILING,
}


@given(
    numerator=st.integers(-(10**6), 10**6),
    denominator=st.integers(1, 10**6) | st.sampled_from([2, 4, 10, 20]),
    mode=st.sampled_from(ROUNDING_MODES),
)
def test_rounding_agrees_with_decimal(numerator: int, denominator: int, mode: str) -> None:
    # With 60 significant digits the quotient is exact when it is a tie and far enough from
    # every rounding boundary otherwise, so Decimal is an independent oracle.
    quotient = Context(prec=60).divide(Decimal(numerator), Decimal(denominator))
    expected = int(quotient.quantize(Decimal(1), rounding=_DECIMAL_MODES[mode]))
    formula = parse_formula(f"round(n / d, {mode})", {"n": "number", "d": "number"})
    assert formula.evaluate_int({"n": numerator, "d": denominator}) == expected


# --------------------------------------------------------------------------------------------
# Exact arithmetic


def test_division_is_exact() -> None:
    assert value_of("round(1/3 + 2/3, floor)") == 1
    assert value_of("round(1/3 + 1/3 + 1/3, ceil)") == 1
    # In floating point (0.1 + 0.2) * 10 is 3.0000000000000004 and would round up to 4.
    assert value_of("round((1/10 + 2/10) * 10, ceil)") == 3
    assert value_of("round(1 / 3 * 3, ceil)") == 1
    assert value_of("round(2 / 3 - 1 / 2, ceil)") == 1
    assert value_of("round((2 / 3 - 1 / 2) * 6, half_even)") == 1


def test_results_are_fractions_or_booleans_never_floats() -> None:
    for text in (SUN, "raw * 2", "round(raw / 3, half_up)", "-raw", "abs(raw - 100)"):
        result = value_of(text)
        assert type(result) is Fraction
    assert value_of("raw > 1") is True
    assert value_of("won and doubled") is False
    assert value_of("raw * 2", {"raw": Fraction(13, 2)}) == 13
    assert value_of("raw + 1", {"raw": Fraction(1, 3)}) == Fraction(4, 3)


def test_evaluate_int_returns_int_and_accepts_whole_fractions() -> None:
    formula = parse_formula("raw * 2", RAW)
    result = formula.evaluate_int({"raw": Fraction(13, 2)})
    assert result == 13
    assert type(result) is int
    assert type(parse_formula(SUN, RAW).evaluate_int({"raw": 65})) is int


def test_evaluate_int_refuses_a_fraction_and_says_the_formula_must_round() -> None:
    formula = parse_formula("raw + 0", RAW)
    with pytest.raises(FormulaError) as caught:
        formula.evaluate_int({"raw": Fraction(13, 2)})
    assert "13/2" in caught.value.message
    assert "round" in caught.value.message
    assert caught.value.hint is not None
    assert "round(" in caught.value.hint


def test_evaluate_int_refuses_a_boolean_formula() -> None:
    with pytest.raises(FormulaError, match="true/false"):
        parse_formula("raw > 3", RAW).evaluate_int({"raw": 4})


def test_large_literals_stay_exact() -> None:
    big = "9" * 30
    assert value_of(f"{big} * {big} + 1") == int(big) * int(big) + 1
    assert value_of(f"round({big} / 7, floor)") == int(big) // 7


# --------------------------------------------------------------------------------------------
# Grammar coverage and precedence


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2 * 3", 7),
        ("(1 + 2) * 3", 9),
        ("10 - 4 - 3", 3),
        ("2 * 3 % 4", 2),
        ("100 // 10 // 3", 3),
        ("-7 // 2", -4),
        ("-7 % 3", 2),
        ("7 % -3", -2),
        ("-2 * 3", -6),
        ("- -3", 3),
        ("-(2 + 3) * 2", -10),
        ("2 - -3", 5),
        ("raw\n  // 5\n", 13),
        ("min(3, 1, 2)", 1),
        ("max(3, 1, 2)", 3),
        ("min(raw, 70)", 65),
        ("max(raw, 70)", 70),
        ("abs(-4)", 4),
        ("abs(4 - raw)", 61),
        ("round(max(raw / 2, 1), half_up)", 33),
        ("if true then 1 else 2 + 3", 1),
        ("if false then 1 else 2 + 3", 5),
        ("if false then 1 else if true then 2 else 3", 2),
        ("if won then if doubled then 4 else 2 else 0", 2),
        ("(if won then 10 else 0) + 1", 11),
        ("min(if won then 5 else 9, 7)", 5),
        ("1 + 2 == 3", True),
        ("not 1 == 2", True),
        ("not true or true", True),
        ("not (true or true)", False),
        ("true or false and false", True),
        ("(true or false) and false", False),
        ("won and not doubled", True),
        ("won or doubled or false", True),
        ("false or false or doubled", False),
        ("won and won and doubled", False),
        ("true and true and won", True),
        ("1 < 2", True),
        ("2 < 2", False),
        ("2 <= 2", True),
        ("3 > 2", True),
        ("2 > 2", False),
        ("2 >= 2", True),
        ("2 == 2", True),
        ("2 != 2", False),
        ("true == won", True),
        ("true != doubled", True),
        ("if raw > 60 and d == 3 then raw else 0", 65),
    ],
)
def test_grammar_and_precedence(text: str, expected: int | bool) -> None:
    result = value_of(text)
    assert result == expected
    assert type(result) is (bool if isinstance(expected, bool) else Fraction)


def test_names_may_contain_keywords() -> None:
    variables: dict[str, VarType] = {
        "iffy": "number",
        "true_count": "number",
        "order": "number",
        "android": "bool",
        "notes": "number",
    }
    formula = parse_formula("if android then iffy + true_count else order - notes", variables)
    env = {"iffy": 1, "true_count": 2, "order": 10, "android": True, "notes": 3}
    assert formula.evaluate(env) == 3
    assert formula.evaluate({**env, "android": False}) == 7


def test_long_flat_chains_do_not_count_as_nesting() -> None:
    text = " + ".join(["1"] * 400)
    assert len(text) < MAX_LENGTH
    assert value_of(text) == 400
    chain = " + ".join(["raw"] * 300)
    assert value_of(chain) == 300 * 65
    assert value_of(" and ".join(["won"] * 200)) is True
    assert value_of(" or ".join(["doubled"] * 150)) is False


def test_nesting_up_to_the_limit_is_accepted() -> None:
    # MAX_DEPTH - 1 parentheses around a literal: MAX_DEPTH levels in all.
    depth = MAX_DEPTH - 1
    assert value_of("(" * depth + "raw" + ")" * depth) == 65
    error = error_of("(" * (depth + 1) + "raw" + ")" * (depth + 1))
    assert "nested too deeply" in error.message
    assert error.column == MAX_DEPTH + 1


# --------------------------------------------------------------------------------------------
# Static errors, each with its column


@pytest.mark.parametrize(
    ("text", "column", "message", "hint"),
    [
        # Syntax, in plain words.
        ("1 +", 4, "ends too early", "docs/ruleset.md"),
        ("(raw + 1", 9, 'expected ")"', "never closed"),
        ("raw + 1)", 8, 'unexpected ")"', "no matching"),
        ("1 = 2", 3, "unexpected character '='", "=="),
        ("raw < 2 < 3", 9, 'unexpected "<"', "do not chain"),
        ("1 + if won then 1 else 0", 5, 'unexpected "if"', "parentheses"),
        ("won and not not", 16, "ends too early", "docs/ruleset.md"),
        ("1 + not won", 5, 'unexpected "not"', "parentheses"),
        ("2(3)", 2, 'unexpected "("', "operator between"),
        ("2 raw", 3, "unexpected the name 'raw'", "operator between"),
        ("raw ** 2", 6, 'unexpected "*"', "power"),
        ("raw ^ 2", 5, "unexpected character '^'", "power"),
        ("1.5 * raw", 2, "unexpected character '.'", "whole"),
        ("won && doubled", 5, "unexpected character '&'", "and"),
        ("if won then 1", 14, 'expected "else"', "every if needs an else"),
        ("min(1,)", 7, 'unexpected ")"', "trailing comma"),
        ("min(1, 2))", 10, 'unexpected ")"', "no matching"),
        ("", 1, "empty", "expression"),
        ("   ", 1, "empty", "expression"),
        # Names, functions, arity, rounding modes.
        ("rwa + 1", 1, "unknown variable 'rwa'", "did you mean 'raw'"),
        ("1 + zzz", 5, "unknown variable 'zzz'", "d, doubled, raw, won"),
        ("min + 1", 1, "unknown variable 'min'", "min(a, b, ...)"),
        ("half_up", 1, "unknown variable 'half_up'", "rounding mode"),
        ("sqrt(raw)", 1, "unknown function 'sqrt'", "round(x, MODE)"),
        ("1 + mx(raw, 2)", 5, "unknown function 'mx'", "did you mean 'max'"),
        ("raw(2)", 1, "unknown function 'raw'", "'raw' is a variable"),
        ("min(raw)", 1, "min needs at least 2 arguments, but got 1", "min(a, b, ...)"),
        ("1 + max()", 5, "max needs at least 2 arguments, but got 0", "max(a, b, ...)"),
        ("abs(raw, 2)", 1, "abs takes exactly 1 argument, but got 2", "abs(x)"),
        ("round(raw)", 1, "round takes 2 arguments", "half_up"),
        ("round(raw / 2, half_up, 1)", 1, "round takes 2 arguments", "half_up"),
        ("round(raw / 10, nearest)", 17, "unknown rounding mode 'nearest'", "half_even"),
        ("round(raw / 10, half_upp)", 17, "unknown rounding mode 'half_upp'", "'half_up'"),
        ("round(raw, 2)", 12, "rounding mode name", "half_up"),
        # Types.
        ("true + 1", 1, "left side of '+' must be a number", "if COND then 1 else 0"),
        ("1 + won", 5, "right side of '+' must be a number", "if COND then 1 else 0"),
        ("raw * (1 < 2)", 7, "right side of '*' must be a number", "numbers only"),
        ("-won", 2, "unary '-' must be a number", "numbers"),
        ("if raw then 1 else 2", 4, "condition of 'if' must be true/false", "comparison"),
        ("raw and won", 1, "'and' must be true/false, but it is a number", "x > 0"),
        ("won or 1", 8, "'or' must be true/false, but it is a number", "x > 0"),
        ("not raw", 5, "'not' must be true/false", "condition"),
        ("if won then 1 else false", 20, "branches of 'if'", "both branches"),
        ("won < doubled", 1, "left side of '<' must be a number", "ordered"),
        ("1 >= won", 6, "right side of '>=' must be a number", "ordered"),
        ("1 == won", 6, "'==' compares two numbers or two true/false", "same kind"),
        ("min(raw, won)", 10, "argument 2 of min must be a number", "numbers"),
        ("abs(won)", 5, "argument 1 of abs must be a number", "numbers"),
        ("round(won, floor)", 7, "first argument of round must be a number", "round"),
        # Every division names its rounding mode.
        ("raw / 2", 5, "division '/' outside round", "round(raw / 10, half_up)"),
        ("round(raw, floor) / 2", 19, "division '/' outside round", "//"),
        ("min(raw / 2, 3)", 9, "division '/' outside round", "half_up"),
        ("if raw / 2 > 30 then 1 else 0", 8, "division '/' outside round", "round("),
        ("round(1, raw / 2)", 10, "rounding mode name", "half_up"),
        # Static division by zero and literal bounds.
        ("raw // 0", 8, "division by zero", "not 0"),
        ("raw % (2 - 2)", 7, "division by zero", "not 0"),
        ("round(raw / 0, floor)", 13, "division by zero", "not 0"),
        ("raw + " + "1" * 31, 7, "31 digits; at most 30", "typo"),
    ],
)
def test_static_errors(text: str, column: int, message: str, hint: str) -> None:
    error = error_of(text)
    assert message in error.message
    assert error.column == column
    assert error.hint is not None
    assert hint in error.hint
    assert isinstance(error, FormulaError)


_LARK_NAMES = re.compile(r"\b(?:LPAR|RPAR|COMP_OP|DSLASH|PERCENT|COMMA|INT|NAME|__ANON\w*)\b|\$END")


@pytest.mark.parametrize(
    "text",
    ["1 +", "(1", "1)", "a < b < c", "min(1,", "if x", "if x then 1", "1 2", "f(", ",", "* 2"],
)
def test_syntax_errors_never_show_lark_terminal_names(text: str) -> None:
    error = error_of(text, {"a": "number", "b": "number", "c": "number", "x": "bool"})
    assert not _LARK_NAMES.search(str(error)), str(error)
    assert error.column is not None


def test_thirty_digit_literals_are_allowed() -> None:
    assert value_of("1" * 30) == int("1" * 30)


def test_text_length_is_bounded() -> None:
    assert value_of(" " * (MAX_LENGTH - 3) + "raw") == 65
    error = error_of(" " * (MAX_LENGTH - 2) + "raw")
    assert "at most 2,000" in error.message
    assert error.column == MAX_LENGTH + 1


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10_000 + "1" + ")" * 10_000,
        "(" * 900 + "1" + ")" * 900,
        "-" * 1500 + "1",
        "not " * 400 + "true",
        "min(" * 300 + "1" + ", 1)" * 300,
        "if true then " * 150 + "1" + " else 0" * 150,
        "round(" * 150 + "1" + ", floor)" * 150,
        "abs(" * 400 + "1" + ")" * 400,
    ],
)
def test_deep_nesting_is_a_formula_error_not_a_crash(text: str) -> None:
    error = error_of(text)
    assert "nested too deeply" in error.message or "at most 2,000" in error.message


def test_non_text_formula_is_refused() -> None:
    with pytest.raises(FormulaError, match="must be text"):
        parse_formula(42, RAW)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"raw": "int"}, "declared with type 'int'"),
        ({"if": "number"}, "keyword"),
        ({"1x": "number"}, "not a valid name"),
        ({"a-b": "bool"}, "not a valid name"),
    ],
)
def test_bad_declarations_are_refused(variables: dict[str, str], message: str) -> None:
    with pytest.raises(FormulaError, match=message):
        parse_formula("1", variables)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Evaluation errors


def test_evaluation_checks_the_environment() -> None:
    formula = parse_formula("if won then raw else 0", VARS)
    with pytest.raises(FormulaError, match="needs a value for variable 'raw'") as caught:
        formula.evaluate({"won": True})
    assert caught.value.hint is not None
    assert "won" in caught.value.hint
    with pytest.raises(FormulaError, match="'raw' to be a number") as caught:
        formula.evaluate({"won": True, "raw": 1.5})  # type: ignore[dict-item]
    assert caught.value.hint is not None
    assert "float" in caught.value.hint
    with pytest.raises(FormulaError, match="'raw' to be a number"):
        formula.evaluate({"won": True, "raw": True})
    with pytest.raises(FormulaError, match="'won' to be true/false"):
        formula.evaluate({"won": 1, "raw": 1})
    with pytest.raises(FormulaError, match="'raw' to be a number"):
        formula.evaluate_int({"won": False, "raw": "65"})  # type: ignore[dict-item]
    # Unused variables are neither required nor checked; extra entries are ignored.
    assert parse_formula("raw + 1", VARS).evaluate({"raw": 1, "won": "junk"}) == 2  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("text", "column"),
    [("raw // d", 5), ("raw % d", 5), ("round(raw / d, floor)", 11), ("1 + 2 + raw // d", 13)],
)
def test_division_by_zero_at_evaluation(text: str, column: int) -> None:
    formula = parse_formula(text, VARS)
    assert formula.evaluate({**ENV, "d": 5}) == value_of(text, {**ENV, "d": 5})
    with pytest.raises(FormulaError, match="division by zero") as caught:
        formula.evaluate({**ENV, "d": 0})
    assert caught.value.column == column


def test_short_circuit_skips_a_guarded_division() -> None:
    formula = parse_formula("d != 0 and raw // d > 5", VARS)
    assert formula.evaluate({**ENV, "d": 0}) is False
    guarded = parse_formula("if d == 0 then 0 else raw // d", VARS)
    assert guarded.evaluate({**ENV, "d": 0}) == 0


# --------------------------------------------------------------------------------------------
# Properties


_CHARACTERS = list("()+-*/%<>=!, _.&|^0123456789abdefhilnortuwx\n\t")
_PIECES = ["if ", " then ", " else ", " and ", " or ", "not ", "true", "false", "round(", "min("]
_PIECES += ["max(", "abs(", ", half_up)", ", floor)", "raw", "won", "//", "==", "<=", "\x00", "é"]
_ALPHABET = st.sampled_from(_CHARACTERS) | st.sampled_from(_PIECES)
_FUZZ_VARS: dict[str, VarType] = {"raw": "number", "won": "bool", "x": "number"}
_FUZZ_ENV: dict[str, int | Fraction | bool] = {"raw": 7, "won": True, "x": 0}


def _parse_and_run(text: str) -> None:
    """Parse and evaluate ``text``; only a FormulaError may escape."""
    try:
        formula = parse_formula(text, _FUZZ_VARS)
    except FormulaError as error:
        assert error.message
        assert error.column is None or 1 <= error.column <= len(text) + 1
        return
    assert isinstance(formula, Formula)
    try:
        result = formula.evaluate(_FUZZ_ENV)
    except FormulaError:
        return
    assert isinstance(result, (Fraction, bool))


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_random_text_only_raises_formula_error(text: str) -> None:
    _parse_and_run(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET, max_size=30).map("".join))
def test_random_token_soup_only_raises_formula_error(text: str) -> None:
    _parse_and_run(text)


_VALID = [
    SUN,
    HOKUM,
    "round(raw * 2 / 10, half_up)",
    "if won and not raw < 3 then max(raw, x, 2) else -abs(x) % 7",
    "round(min(raw / 3, 5) + 1 / 2, half_even) // 2",
    "won == (raw != x) or false",
]


@settings(max_examples=400, deadline=None)
@given(
    base=st.sampled_from(_VALID),
    edits=st.lists(
        st.tuples(st.integers(0, 200), st.integers(0, 3), _ALPHABET), min_size=1, max_size=4
    ),
)
def test_mutated_formulas_only_raise_formula_error(
    base: str, edits: list[tuple[int, int, str]]
) -> None:
    text = base
    for position, deleted, inserted in edits:
        at = position % (len(text) + 1)
        text = text[:at] + inserted + text[at + deleted :]
    _parse_and_run(text)


@dataclass(frozen=True)
class Expr:
    """A random arithmetic expression: its formula text and Python's exact value."""

    text: str
    value: Fraction | None  # None: Python raised ZeroDivisionError
    depth: int


def _leaf(value: int) -> Expr:
    return Expr(f"({value})" if value < 0 else str(value), Fraction(value), 3)


def _apply(symbol: str, left: Expr, right: Expr) -> Expr:
    text = f"({left.text} {symbol} {right.text})"
    depth = max(left.depth, right.depth) + 2
    if left.value is None or right.value is None:
        return Expr(text, None, depth)
    a, b = left.value, right.value
    try:
        value = {
            "+": lambda: a + b,
            "-": lambda: a - b,
            "*": lambda: a * b,
            "/": lambda: a / b,
            "//": lambda: Fraction(a // b),
            "%": lambda: a % b,
        }[symbol]()
    except ZeroDivisionError:
        return Expr(text, None, depth)
    return Expr(text, value, depth)


def _unary(kind: str, operand: Expr) -> Expr:
    value = operand.value
    if kind == "-":
        return Expr(f"(-{operand.text})", None if value is None else -value, operand.depth + 2)
    return Expr(f"abs({operand.text})", None if value is None else abs(value), operand.depth + 1)


def _pair(kind: str, left: Expr, right: Expr) -> Expr:
    text = f"{kind}({left.text}, {right.text})"
    if left.value is None or right.value is None:
        return Expr(text, None, max(left.depth, right.depth) + 1)
    pick = min if kind == "min" else max
    return Expr(text, pick(left.value, right.value), max(left.depth, right.depth) + 1)


def _expressions(symbols: list[str]) -> st.SearchStrategy[Expr]:
    def extend(children: st.SearchStrategy[Expr]) -> st.SearchStrategy[Expr]:
        return st.one_of(
            st.builds(_apply, st.sampled_from(symbols), children, children),
            st.builds(_unary, st.sampled_from(["-", "abs"]), children),
            st.builds(_pair, st.sampled_from(["min", "max"]), children, children),
        )

    return st.recursive(st.integers(-30, 30).map(_leaf), extend, max_leaves=16)


@settings(max_examples=300, deadline=None)
@given(_expressions(["+", "-", "*", "//", "%"]))
def test_integer_expressions_match_python(expr: Expr) -> None:
    assume(expr.depth < MAX_DEPTH - 2)
    if expr.value is None:
        with pytest.raises(FormulaError, match="division by zero"):
            parse_formula(expr.text, {}).evaluate({})
        return
    formula = parse_formula(expr.text, {})
    assert formula.evaluate({}) == expr.value
    assert formula.evaluate_int({}) == expr.value


@settings(max_examples=300, deadline=None)
@given(_expressions(["+", "-", "*", "/", "//", "%"]))
def test_fraction_expressions_match_python_exactly(expr: Expr) -> None:
    assume(expr.depth < MAX_DEPTH - 4)
    if expr.value is None:
        with pytest.raises(FormulaError, match="division by zero"):
            parse_formula(f"round({expr.text}, floor)", {}).evaluate({})
        return
    # Scaled by its denominator, the exact value is the integer numerator: floor and ceil
    # both give it only if no precision was lost anywhere.
    scaled = f"{expr.text} * {expr.value.denominator}"
    for mode in ("floor", "ceil"):
        assert parse_formula(f"round({scaled}, {mode})", {}).evaluate({}) == expr.value.numerator


@settings(max_examples=300, deadline=None)
@given(
    first=st.integers(0, 99),
    rest=st.lists(
        st.tuples(st.sampled_from(["+", "-", "*", "//", "%"]), st.booleans(), st.integers(0, 99)),
        max_size=8,
    ),
)
def test_precedence_matches_python(first: int, rest: list[tuple[str, bool, int]]) -> None:
    text = str(first) + "".join(
        f" {op} {'-' if negative else ''}{number}" for op, negative, number in rest
    )
    try:
        # The oracle: Python's own parser, on a string of digits and operators only.
        expected = eval(text, {"__builtins__": {}}, {})
    except ZeroDivisionError:
        expected = None
    try:
        formula = parse_formula(text, {})
    except FormulaError as error:
        assert expected is None
        assert "division by zero" in error.message
        return
    if expected is None:
        with pytest.raises(FormulaError, match="division by zero"):
            formula.evaluate({})
    else:
        assert formula.evaluate({}) == expected
