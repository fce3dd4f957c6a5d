"""Checking transcripts against a ruleset: verdicts, the hand checker and the runs.

From the bottom up: the verdict model (:mod:`~baloot_conformance.check.verdicts`:
``Divergence``, ``HandVerdict``, ``RunSummary``, ``FileError``), the notation's words for the
engine's figures (:mod:`~baloot_conformance.check.words`), the picture of a moment
(:mod:`~baloot_conformance.check.table`), the hand's events through the engine
(:mod:`~baloot_conformance.check.events`), its claims judged
(:mod:`~baloot_conformance.check.claims`), one hand on the reference path and its verdict
(:mod:`~baloot_conformance.check.hand_check`), the fast lane for hands that pass
(:mod:`~baloot_conformance.check.fast_lane`), and the runs that choose between the two
(:mod:`~baloot_conformance.check.run`). This package computes no rule itself: every rule is
the engine's, and a verdict compares the transcript with what the engine says.
"""
