"""The trick-taking family: Baloot's siblings (Bourré first), as data, on a generic engine.

Everything here runs on rulesets of the format ``trick-ruleset/1`` and transcripts of BTN 2
(``%btn 2``). Baloot keeps its own path (``baloot-ruleset/1``, BTN 1, ``engine/``, the fast
lane): a Baloot run never imports this package, and the two paths meet only where a ruleset's
``format:`` or a transcript's version line is read.

- :mod:`.rules`: the typed shape of a trick ruleset, its loading and validation;
- :mod:`.engine`: the table (any pack, 2-8 seats), the obligation stages, the phase machine;
- :mod:`.btn`: BTN 2, the notation whose seats, pack and trick size come from the ruleset.
"""
