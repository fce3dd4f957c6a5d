"""Rulesets compared: their differences rule by rule, witness hands, every value of every
parameter, which ruleset an engine plays, and the page of every disagreement.

:mod:`~baloot_conformance.compare.diff` (``spec diff``), :mod:`~baloot_conformance.compare.witness`
(``--witness``), :mod:`~baloot_conformance.compare.variants`,
:mod:`~baloot_conformance.compare.inference` (``infer``) and
:mod:`~baloot_conformance.compare.disagreements` (``docs/disagreements.md``). Every verdict
here is the checker's; this package builds rulesets and transcripts and compares verdicts.
"""
