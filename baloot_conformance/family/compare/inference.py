"""Which trick ruleset explains a set of BTN 2 transcripts best: ``infer`` for the family.

The family's counterpart of :mod:`baloot_conformance.compare.inference`: every transcript is
replayed under every candidate ruleset (each file read against that ruleset's table and
pack), and the candidates are ranked by the hands that fail, then by the root divergences.
Candidates with the same verdict on every hand cannot be told apart by these games: they
share a rank and are reported as **tied**, never ordered by chance; so a profile that
generated the games comes first, alone where the games tell it from the others, or tied with
those whose rules they did not reach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from baloot_conformance.family.compare.witness import verdicts
from baloot_conformance.family.rules.model import TrickRuleset


@dataclass(frozen=True)
class Candidate:
    """How well one ruleset explains the transcripts."""

    ruleset: str
    """``id@version``."""
    rank: int
    """1 for the best; tied candidates share a rank."""
    hands: int
    failed: int
    """Hands that do not pass (a failure or an error)."""
    divergences: int
    """Root divergences over every hand (an error counts one)."""
    first: str | None
    """The first failure: ``path position rule: message``."""
    tied: tuple[str, ...]
    """The other candidates with the same verdict on every hand."""


@dataclass(frozen=True)
class TrickInference:
    files: int
    hands: int
    ranking: tuple[Candidate, ...]

    @property
    def best(self) -> tuple[str, ...]:
        """The rulesets of rank 1 (more than one: the games cannot tell them apart)."""
        return tuple(c.ruleset for c in self.ranking if c.rank == 1)


def infer_trick(
    transcripts: Sequence[tuple[str, str]],
    candidates: Sequence[TrickRuleset],
    progress: Callable[[str], None] | None = None,
) -> TrickInference:
    """Rank ``candidates`` by how well they explain ``transcripts`` (``(path, text)`` pairs)."""
    rows: list[tuple[str, int, int, int, str | None, tuple[str, ...]]] = []
    hands = 0
    for ruleset in candidates:
        name = f"{ruleset.id}@{ruleset.version}"
        if progress is not None:
            progress(f"replaying under {name} ...")
        total = failed = divergences = 0
        first: str | None = None
        signature: list[str] = []
        for path, text in transcripts:
            for verdict in verdicts(text, ruleset, path):
                total += 1
                roots = [d for d in verdict.divergences if d.root]
                signature.append(
                    f"{verdict.status}:" + ",".join(f"{d.position} {d.rule_id}" for d in roots)
                )
                if verdict.status == "pass":
                    continue
                failed += 1
                divergences += max(1, len(roots))
                if first is None:
                    root = roots[0] if roots else None
                    where = f"{root.position} {root.rule_id}" if root else verdict.position
                    said = root.message if root else verdict.error or "the hand fails"
                    first = f"{path} {where}: {said}"
        hands = max(hands, total)
        rows.append((name, total, failed, divergences, first, tuple(signature)))
    rows.sort(key=lambda row: (row[2], row[3]))
    ranking: list[Candidate] = []
    for i, (name, total, failed, divergences, first, seen) in enumerate(rows):
        previous = ranking[-1] if ranking else None
        same = previous is not None and (previous.failed, previous.divergences) == (
            failed,
            divergences,
        )
        rank = previous.rank if same and previous is not None else i + 1
        tied = tuple(r[0] for r in rows if r[0] != name and r[5] == seen)
        ranking.append(Candidate(name, rank, total, failed, divergences, first, tied))
    return TrickInference(len(transcripts), hands, tuple(ranking))
