"""``suite --smoke``: a small fixed selection for an adapter's first five minutes, and the
command that reruns one case with its protocol trace.

The smoke selection is one fixture per area of the rules (:data:`SMOKE_FIXTURES`, in the
order of :data:`~baloot_conformance.corpus.fixtures.AREAS`), the judging of one Sawa and of
one foul call, and one generated game: every request of the protocol, every phase of a hand,
a whole game, in about a thousand requests. It is a quick check that an adapter speaks the
protocol and that nothing basic is wrong, not a conformance run: a pass says little of the
rest of the corpus.

:func:`rerun_command` writes the one command that reruns exactly one case of a run, with
``--trace-protocol``, so that a failure reported by any run can be looked at request by
request.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from baloot_conformance.suite.cases import Case
from baloot_conformance.suite.runner import fixture_cases, generated_cases

__all__ = [
    "SMOKE_FIXTURES", "SMOKE_GAMES", "SMOKE_SEED", "rerun_command", "reruns", "smoke_cases",
    "trace_file",
]  # fmt: skip

#: The smoke selection's fixture cases, by area, then the two judging cases. Each is a pass
#: (the reference interpreter agrees with every claim in it) and short (one or two hands).
SMOKE_FIXTURES = (
    "deal.completion.pass-1",  # deal: the face-up card and the completion, from the dealer
    "bidding.round2.hokum-suit.pass-1",  # bidding: both rounds, a second-round Hokum suit
    "doubling.chain.pass-1",  # doubling: Double, Three, Four, Gahwa in turn
    "projects.comparison.pass-1",  # projects: only the best side's count
    "projects.baloot.pass-1",  # baloot: King and Queen of trump outside the comparison
    "play.hokum.overruff.pass-2",  # play: an over-ruff that narrows a legal set
    "sun-split-65-65",  # scoring: the Sun conversion at an exact 65, a tie
    "scoring.kaboot.pass-1",  # kaboot: all eight tricks
    "game.target.pass-1",  # game: the hand that reaches 152
    "tazjel-game-1",  # notation: hands logged without an auction (partial), under tazjel
    "claims.sawa.pass-1.h1.sawa",  # a Sawa to judge (a `judge` request alone)
    "play.fouls.pass-1.h1.foul1",  # a foul call to judge
)
#: The smoke selection's generated games: this many, from seed :data:`SMOKE_SEED`.
SMOKE_GAMES = 1
SMOKE_SEED = 0


def smoke_cases(ruleset: str | None = None) -> list[Case]:
    """The smoke selection: exactly the cases of :data:`SMOKE_FIXTURES` (those under
    ``ruleset`` only, when given, as ``--ruleset`` selects fixtures), in that order, then
    :data:`SMOKE_GAMES` generated games under ``ruleset`` (default saudi)."""
    order = {id_: n for n, id_ in enumerate(SMOKE_FIXTURES)}
    found = [c for c in fixture_cases(",".join(SMOKE_FIXTURES), ruleset) if c.id in order]
    cases = sorted(found, key=lambda case: order[case.id])
    return cases + generated_cases(ruleset or "saudi", SMOKE_GAMES, SMOKE_SEED)


_PLAIN = re.compile(r"[^A-Za-z0-9._-]+")


def trace_file(case: Case) -> str:
    """The trace file a rerun writes: ``trace-<case id>.jsonl`` in the current folder."""
    return f"trace-{_PLAIN.sub('_', case.id)}.jsonl"


def rerun_command(
    case: Case,
    engine: str,
    timeout: float,
    *,
    repeat: int = 1,
    trace: str | None = None,
) -> str:
    """The command (for a POSIX shell, each word quoted with :func:`shlex.join`) that reruns
    exactly ``case`` against ``engine`` with one engine and its protocol trace in ``trace``
    (default :func:`trace_file`): a fixture, a Sawa or foul call to judge, or a perft count,
    by its exact id (``--fixtures =ID``: a fixture alone, without the calls it judges and the
    counts it records); a generated game by its ruleset and seed. The run's ``--timeout``
    and ``--repeat`` are kept; not its ``--expectations``, which change no ``fail`` or
    ``error`` (a rerun of an ``xpass`` shows the case pass), and whose entries for the cases
    left out would each be a problem of the rerun."""
    words = ["baloot-conformance", "suite", "--engine", engine]
    if case.seed is not None:
        words += ["--ruleset", case.ruleset, "--fixtures", "none"]
        words += ["--generated", "1", "--seed", str(case.seed)]
    else:
        words += ["--fixtures", f"={case.id}", "--generated", "0"]
    words += ["--timeout", f"{timeout:g}"]
    if repeat > 1:
        words += ["--repeat", str(repeat)]
    words += ["--jobs", "1", "--trace-protocol", trace or trace_file(case)]
    return shlex.join(words)


def reruns(
    results: Sequence[tuple[Case, str]],
    engine: str,
    timeout: float,
    *,
    repeat: int = 1,
) -> dict[str, str]:
    """The rerun command of each case given with its verdict that fails a run (``fail``,
    ``error``, ``xpass``; an ``invalid`` case is the corpus's defect, not the engine's), by
    case id."""
    return {
        case.id: rerun_command(case, engine, timeout, repeat=repeat)
        for case, verdict in results
        if verdict in ("fail", "error", "xpass")
    }
