"""The error types a user of the kit can meet, and how they are shown.

Every error a user can cause (a bad ruleset, a bad transcript, bad arguments) is a
:class:`BalootError`: it carries where the problem is (``file:line:col``), what was found and
expected, and what to do about it. The CLI prints ``str(error)`` and never a traceback.

Kept apart, python-chess style: ruleset problems (:class:`SpecError`, with
:class:`FormulaError` for the expression language) and transcript syntax problems
(:class:`TranscriptSyntaxError`). Legality problems belong to the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def by_fields(value: Any) -> tuple[type, tuple[Any, ...]]:
    """``__reduce__`` for a frozen dataclass: pickled as its fields in order, and unpickled
    through its constructor. The default goes through the class's field list for every
    object, twice as slow; worker processes send verdicts back by the thousand."""
    cls = type(value)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return cls, tuple([getattr(value, name) for name in names])


@dataclass(frozen=True, slots=True)
class Location:
    """A position in a source file; ``line`` and ``column`` count from 1."""

    path: str
    line: int
    column: int

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return by_fields(self)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


def caret_excerpt(source_line: str, column: int, line_number: int | None = None) -> str:
    """Two lines: the source line and a caret under ``column`` (1-based).

    Long lines are cut around the column so the excerpt stays on one screen.
    """
    text = source_line.rstrip("\r\n").expandtabs(1)
    # Control and binary characters become U+FFFD, one for one, so the caret still lines up.
    text = "".join(c if c.isprintable() else "\ufffd" for c in text)
    start = 0
    if len(text) > 100:
        start = max(0, min(column - 50, len(text) - 100))
        text = text[start : start + 100]
    gutter = f"{line_number} | " if line_number is not None else "    "
    pad = " " * (len(gutter) - 2) + "| " if line_number is not None else "    "
    return f"{gutter}{text}\n{pad}{' ' * max(0, column - 1 - start)}^"


class BalootError(Exception):
    """Base class of every error the kit reports to a user.

    ``message`` says what is wrong and what was expected; ``hint`` says what to do;
    ``excerpt`` is the offending source line with a caret (see :func:`caret_excerpt`).
    """

    def __init__(
        self,
        message: str,
        *,
        location: Location | None = None,
        hint: str | None = None,
        excerpt: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint
        self.excerpt = excerpt

    def __str__(self) -> str:
        head = f"{self.location}: {self.message}" if self.location else self.message
        parts = [head]
        if self.excerpt:
            parts.append(self.excerpt)
        if self.hint:
            parts.append(f"hint: {self.hint}")
        return "\n".join(parts)


class SpecError(BalootError):
    """A ruleset cannot be loaded: bad YAML, a schema violation or a semantic error.

    ``problems`` holds every problem found, most relevant first; the error's own message is
    the first of them.
    """

    def __init__(
        self,
        message: str,
        *,
        location: Location | None = None,
        hint: str | None = None,
        excerpt: str | None = None,
        problems: tuple[BalootError, ...] = (),
    ) -> None:
        super().__init__(message, location=location, hint=hint, excerpt=excerpt)
        self.problems = problems

    def __str__(self) -> str:
        first = super().__str__()
        rest = [str(p) for p in self.problems[1:]]
        if not rest:
            return first
        shown = rest[:9]
        more = len(rest) - len(shown)
        lines = [first, f"{len(rest)} more problem(s):", *shown]
        if more:
            lines.append(f"... and {more} more")
        return "\n".join(lines)


class FormulaError(SpecError):
    """A formula does not parse, names an undeclared variable, or cannot be evaluated.

    ``column`` (1-based, or ``None``) is the position inside the formula text; the ruleset
    loader turns it into a ``file:line:col`` location in the YAML file.
    """

    def __init__(self, message: str, *, column: int | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.column = column


class TranscriptSyntaxError(BalootError):
    """A BTN transcript does not follow the notation (syntax only, not legality).

    ``token``: the word of the statement the error is about (a card dealt or played twice),
    when it is known; the reader then moves the location from the statement to that word.
    """

    def __init__(
        self,
        message: str,
        *,
        location: Location | None = None,
        hint: str | None = None,
        excerpt: str | None = None,
        token: str | None = None,
    ) -> None:
        super().__init__(message, location=location, hint=hint, excerpt=excerpt)
        self.token = token


class UnreadableInputError(BalootError):
    """An input cannot be read at all: a missing file, an unknown ruleset id, an OS error.

    Kept apart from invalid input because a CI gate treats it as a usage problem (exit 2).
    """
