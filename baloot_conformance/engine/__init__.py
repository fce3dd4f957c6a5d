"""The reference interpreter: a complete Baloot hand and game, driven by a ruleset.

Every rule of the ruleset is implemented once, in the module named for what it governs, under
its rule ID: the deal (:mod:`~baloot_conformance.engine.deal`), the auction
(:mod:`~baloot_conformance.engine.auction`), the raises
(:mod:`~baloot_conformance.engine.raises`), the legal cards and the trick's winner
(:mod:`~baloot_conformance.engine.play`), projects and Baloot
(:mod:`~baloot_conformance.engine.projects`, :mod:`~baloot_conformance.engine.declarations`),
the score (:mod:`~baloot_conformance.engine.scoring`); a hand
(:mod:`~baloot_conformance.engine.hand`) sequences them and a game
(:mod:`~baloot_conformance.engine.game`) adds hands up. The engine reads no YAML and no text,
only the typed :class:`~baloot_conformance.rules.ruleset.Ruleset`, and knows nothing of the
notation: the checker (:mod:`baloot_conformance.check`) translates.
"""
