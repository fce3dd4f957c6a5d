"""Transcripts as test data: the fixture corpus and generated games.

:mod:`~baloot_conformance.corpus.fixtures` loads and replays the fixtures (one case of a rule
each, with test262-style metadata), :mod:`~baloot_conformance.corpus.lint` checks that each
gives the verdict it expects, :mod:`~baloot_conformance.corpus.coverage` measures which rules
they make decide, :mod:`~baloot_conformance.corpus.export` writes them out for other runners,
and :mod:`~baloot_conformance.corpus.generate` writes seeded random legal games with every
claim.
"""
