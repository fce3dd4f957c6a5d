"""The ruleset formula language: parse, statically check and exactly evaluate small formulas.

Rulesets compute game points from raw card points with formulas such as the Saudi Sun
conversion ``raw // 5 + (if (raw // 5) % 2 == 1 and raw % 5 > 0 then 1 else 0)``. Scoring
rules differ between tables mostly in how they round, so the language makes rounding explicit
and exact: numbers are integers or :class:`fractions.Fraction` (never floats), and every ``/``
must sit inside the first argument of ``round(x, MODE)``, which names its rounding mode.

The syntax is the Lark grammar ``grammar/formula.lark``
(:mod:`~baloot_conformance.rules.formula_syntax`); the rules a grammar cannot express (declared
variables, function arities, rounding modes, types, the ``/`` rule, size limits) are checked at
parse time (:mod:`~baloot_conformance.rules.formula_checker`), so a ruleset with a bad formula
fails when it is loaded, with the column of the offending token. A checked formula is compiled
once into nested closures (no ``eval``): integral values stay plain ``int`` and only ``/``
creates a ``Fraction``, so an evaluation costs a few microseconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NoReturn

from baloot_conformance.errors import FormulaError
from baloot_conformance.rules.formula_checker import _Checker
from baloot_conformance.rules.formula_syntax import (
    _MODES_TEXT,
    FUNCTIONS,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_LENGTH,
    ROUNDING_MODES,
    Env,
    Value,
    VarType,
    _check_declarations,
    _check_depth,
    _Fn,
    _parse_tree,
)

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


def _bad_value(source: str, name: str, kind: VarType, value: object) -> NoReturn:
    wanted = "a number (int or Fraction)" if kind == "number" else "true/false (bool)"
    raise FormulaError(
        f"the formula {source!r} needs variable {name!r} to be {wanted}, "
        f"but it is {type(value).__name__} {value!r}",
        hint="floats are never accepted: arithmetic is exact" if isinstance(value, float) else None,
    )
