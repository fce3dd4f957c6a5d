"""Rulesets as data: reading and validating them, the typed rules, the formula language.

The only part of the kit that reads YAML (:mod:`~baloot_conformance.rules.strict_yaml`). A
ruleset goes from a file to the engine in three steps: :mod:`~baloot_conformance.rules.loading`
reads it (a shipped id or a path), resolves the profiles it extends and has it validated
(:mod:`~baloot_conformance.rules.validation`); :mod:`~baloot_conformance.rules.ruleset` builds
the typed :class:`~baloot_conformance.rules.ruleset.Ruleset` out of the dataclasses of
:mod:`~baloot_conformance.rules.model`, with its formulas compiled
(:mod:`~baloot_conformance.rules.formula`). The engine imports only those last two, so it
never comes near YAML or a file. :mod:`~baloot_conformance.rules.rulebook` writes the reference
pages of the documentation from the schema.
"""
