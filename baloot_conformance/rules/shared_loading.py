"""The parts of ruleset loading that a second ruleset format shares with ``baloot-ruleset/1``.

The trick family's format (``trick-ruleset/1``, :mod:`baloot_conformance.family.rules`) reads
its files through the same four gates as Baloot's: the same strict YAML with positions, the
same overlay of whole rules, the same wording and placing of schema errors, the same formula
language and the same typed build of a rule from its plain data. Those helpers live, and are
tested, where Baloot's loading uses them; this module names them for the other format, so that
neither copies the other's code and Baloot's modules keep their own private names.

Nothing of Baloot's loading imports this module: a Baloot run does not load it.
"""

from __future__ import annotations

from baloot_conformance.rules.loading import (
    _check_major as check_major,
)
from baloot_conformance.rules.loading import (
    _extend as extend_document,
)
from baloot_conformance.rules.loading import (
    _is_path_reference as is_path_reference,
)
from baloot_conformance.rules.loading import (
    _Lineage as Lineage,
)
from baloot_conformance.rules.loading import (
    _read_document as read_document,
)
from baloot_conformance.rules.loading import (
    _refuse_cycle as refuse_cycle,
)
from baloot_conformance.rules.loading import (
    _replace_subtrees as replace_subtrees,
)
from baloot_conformance.rules.loading import (
    _validate_once as validate_once,
)
from baloot_conformance.rules.ruleset import _build as build_value
from baloot_conformance.rules.strict_yaml import _Document as Document
from baloot_conformance.rules.validation import (
    _compile_formula as compile_formula,
)
from baloot_conformance.rules.validation import (
    _dotted as dotted,
)
from baloot_conformance.rules.validation import (
    _example_problem as example_problem,
)
from baloot_conformance.rules.validation import (
    _explain as explain_schema_error,
)
from baloot_conformance.rules.validation import (
    _formula_error as formula_error,
)
from baloot_conformance.rules.validation import (
    _locate_error as locate_schema_error,
)

__all__ = [
    "Document",
    "Lineage",
    "build_value",
    "check_major",
    "compile_formula",
    "dotted",
    "example_problem",
    "explain_schema_error",
    "extend_document",
    "formula_error",
    "is_path_reference",
    "locate_schema_error",
    "read_document",
    "refuse_cycle",
    "replace_subtrees",
    "validate_once",
]
"""What each name is, at home:

- :class:`Document`: a YAML file as plain data with the ``file:line:col`` of every value and key
  (:mod:`.strict_yaml`);
- :func:`read_document`: a file read strictly (size limit, UTF-8, strict YAML);
- :func:`is_path_reference`, :func:`check_major`: a reference is a path or ``id@major``, and the
  major version asked for is the one there is;
- :func:`extend_document`, :class:`Lineage`, :func:`refuse_cycle`: a profile over the ruleset
  its ``extends`` names (where the base may be, its major version, whole rules replaced), with
  what differs between the formats (how a name is found, the overrides allowed) as a
  :class:`Lineage`;
- :func:`validate_once`: a document validated unless this kit recorded it valid already (a
  record in the user's cache folder), and recorded when it passes;
- :func:`replace_subtrees`: the locations of an overlay (a profile's replaced rules);
- :func:`build_value`: validated plain data to a typed value of a rules model (dataclasses,
  tuples, mappings, ``Literal`` options, formulas);
- :func:`explain_schema_error`, :func:`locate_schema_error`: a JSON Schema error in plain words
  with a "did you mean", placed at the bad key or the deepest value;
- :func:`compile_formula`, :func:`example_problem`, :func:`formula_error`, :func:`dotted`: a
  formula field compiled and typed, a worked example checked, a formula error placed in the
  file, a path written as dotted keys.
"""
