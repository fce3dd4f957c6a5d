"""baloot-conformance: the machine-readable Baloot rulebook and conformance test kit.

The names below are the kit's public face, the handful a Python user needs::

    import baloot_conformance as bc

    rules = bc.load_ruleset("saudi")                          # a shipped id, id@major, or a path
    game = bc.read_transcript("examples/conforming-game.btn")  # BTN: version, header, hands
    for verdict in bc.check_hands(game.hands, "conforming-game.btn", rules):
        print(verdict.position, verdict.status)                # h1 pass, ...
    hand = bc.replay_to(game.hands, rules, "h1.t4.p4")         # the interpreter's hand there
    hand.legal_cards()                                         # what the ruleset allows

Every other module is importable but not promised: its names may move between versions.
The kit's packages, from the top down: ``cli``, ``report``, ``suite`` and ``compare``,
``corpus``, ``check``, ``engine`` and ``btn`` (and ``importers``), ``rules``; see
``docs/architecture.md``. The names load when first used, so that ``import baloot_conformance``
costs nothing (the command line starts in a fraction of a second).
"""

import importlib
from typing import TYPE_CHECKING, Any

# Before any other module of the kit is imported: BALOOT_CONFORMANCE_PURE=1 runs a compiled
# install's Python sources (see build_kind).
from baloot_conformance.build_kind import use_sources_if_asked

use_sources_if_asked()

from baloot_conformance.version import __version__  # noqa: E402

if TYPE_CHECKING:
    from baloot_conformance.btn.items import Transcript
    from baloot_conformance.btn.reader import (
        TranscriptReader,
        iter_hands,
        parse_transcript,
        read_transcript,
    )
    from baloot_conformance.btn.writer import format_transcript
    from baloot_conformance.check.run import (
        NoSuchMoment,
        check_hands,
        check_transcript,
        replay_hands,
        replay_to,
    )
    from baloot_conformance.check.verdicts import Divergence, HandVerdict
    from baloot_conformance.corpus.generate import generate_games
    from baloot_conformance.engine.model import IllegalAction
    from baloot_conformance.errors import BalootError, SpecError, TranscriptSyntaxError
    from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets
    from baloot_conformance.rules.ruleset import Ruleset

#: Each public name and the module that defines it.
_HOMES = {
    "Ruleset": "baloot_conformance.rules.ruleset",
    "load_ruleset": "baloot_conformance.rules.loading",
    "shipped_rulesets": "baloot_conformance.rules.loading",
    "Transcript": "baloot_conformance.btn.items",
    "TranscriptReader": "baloot_conformance.btn.reader",
    "iter_hands": "baloot_conformance.btn.reader",
    "parse_transcript": "baloot_conformance.btn.reader",
    "read_transcript": "baloot_conformance.btn.reader",
    "format_transcript": "baloot_conformance.btn.writer",
    "check_transcript": "baloot_conformance.check.run",
    "check_hands": "baloot_conformance.check.run",
    "replay_hands": "baloot_conformance.check.run",
    "replay_to": "baloot_conformance.check.run",
    "NoSuchMoment": "baloot_conformance.check.run",
    "HandVerdict": "baloot_conformance.check.verdicts",
    "Divergence": "baloot_conformance.check.verdicts",
    "IllegalAction": "baloot_conformance.engine.model",
    "generate_games": "baloot_conformance.corpus.generate",
    "BalootError": "baloot_conformance.errors",
    "SpecError": "baloot_conformance.errors",
    "TranscriptSyntaxError": "baloot_conformance.errors",
}

__all__ = [
    "BalootError",
    "Divergence",
    "HandVerdict",
    "IllegalAction",
    "NoSuchMoment",
    "Ruleset",
    "SpecError",
    "Transcript",
    "TranscriptReader",
    "TranscriptSyntaxError",
    "__version__",
    "check_hands",
    "check_transcript",
    "format_transcript",
    "generate_games",
    "iter_hands",
    "load_ruleset",
    "parse_transcript",
    "read_transcript",
    "replay_hands",
    "replay_to",
    "shipped_rulesets",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'baloot_conformance' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
