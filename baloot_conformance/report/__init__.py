"""Reports: of a ``check`` run (text, JSON Lines, JUnit XML, Markdown and HTML), of a
``suite`` run (:mod:`~baloot_conformance.report.suite_report`), of ``spec diff`` and ``infer``
(:mod:`~baloot_conformance.report.spec_report`), the table drawn for a terminal
(:mod:`~baloot_conformance.report.diagram`) and the rulebook as HTML pages
(:mod:`~baloot_conformance.report.rulebook_pages`, with the Jinja2 templates in
``templates/``).

Every format of a ``check`` run is a :class:`Reporter` fed the run's verdicts as they are
decided (``start``, ``hand`` per hand in output order, ``finish``), so a run of any size
streams. Reporters only render the objects of :mod:`baloot_conformance.check.verdicts`; the
checker decides everything, and nothing here computes a rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TextIO

from baloot_conformance.report.base import Reporter
from baloot_conformance.report.jsonl import JsonLinesReporter
from baloot_conformance.report.markdown import MarkdownReporter
from baloot_conformance.report.text import TextReporter

if TYPE_CHECKING:
    from baloot_conformance.rules.ruleset import Ruleset

Format = Literal["text", "json", "junit", "markdown", "html"]
FORMATS: tuple[Format, ...] = ("text", "json", "junit", "markdown", "html")
"""The values of ``--format``, the default first."""


def make_reporter(
    fmt: Format,
    stream: TextIO,
    *,
    color: bool = False,
    verbose: bool = False,
    ruleset: Ruleset | None = None,
    defects_fail: bool = False,
) -> Reporter:
    """The reporter for ``fmt`` writing to ``stream``.

    ``color`` (ANSI escapes) and ``verbose`` (the run header and a line per hand) concern the
    text format only; the others are complete and plain by design. ``ruleset``: the one the
    run was given (``--ruleset``), whose rules the HTML report quotes.
    """
    if fmt == "text":
        return TextReporter(stream, color=color, verbose=verbose, defects_fail=defects_fail)
    if fmt == "json":
        return JsonLinesReporter(stream)
    if fmt == "junit":
        from baloot_conformance.report.junit import JUnitReporter  # start-up: on demand

        return JUnitReporter(stream, defects_fail=defects_fail)
    if fmt == "markdown":
        return MarkdownReporter(stream)
    if fmt == "html":
        from baloot_conformance.report.html import HtmlReporter  # Jinja2: on demand

        return HtmlReporter(stream, ruleset=ruleset)
    raise ValueError(f"unknown report format {fmt!r}; expected one of {', '.join(FORMATS)}")


__all__ = [
    "FORMATS",
    "Format",
    "JsonLinesReporter",
    "MarkdownReporter",
    "Reporter",
    "TextReporter",
    "make_reporter",
]
