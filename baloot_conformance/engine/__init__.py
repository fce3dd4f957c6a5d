"""The reference interpreter: a complete Baloot hand and game, driven by a ruleset.

Every rule of the ruleset is implemented once, in the module named for what it governs, under
its rule ID; the engine reads no YAML and no text, only the typed
:class:`~baloot_conformance.rules.ruleset.Ruleset`.
"""
