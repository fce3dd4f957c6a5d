"""Which ruleset an engine plays: replay its transcripts under candidate rulesets and rank them.

:func:`infer` replays every transcript under every candidate, ranks the candidates by fit
(failed hands, then root divergences), the ruleset nearest its base first among equals,
and for the best one says:

* which rules the transcripts never exercised: a rule whose every other value (see
  :func:`~baloot_conformance.compare.variants.rule_variants`) the transcripts pass under as
  well cannot be told apart by them;
* where the transcripts do not all pass, an overlay: the rules to change, one at a time and
  each time the change that makes the most hands pass, until all pass or no change helps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from baloot_conformance import btn
from baloot_conformance.check.run import check_hands
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.compare.diff import diff_rulesets
from baloot_conformance.compare.variants import Variant, rule_variants
from baloot_conformance.rules.loading import isolate
from baloot_conformance.rules.ruleset import Ruleset
from baloot_conformance.rules.strict_yaml import dump_yaml


@dataclass(frozen=True)
class Fit:
    """How well one ruleset explains the transcripts."""

    ruleset: str
    """``id@version``."""
    hands: int
    failed: int
    """Hands that do not pass (a failure or an error)."""
    divergences: int
    """Root divergences (one per failed hand that could be replayed)."""

    @property
    def key(self) -> tuple[int, int]:
        return (self.failed, self.divergences)


@dataclass(frozen=True)
class Inference:
    """The answer of :func:`infer`."""

    ranking: tuple[Fit, ...]
    """Best first."""
    best: tuple[str, ...]
    """The rulesets tied at the top."""
    unexercised: tuple[tuple[str, tuple[str, ...]], ...]
    """Rules of the best ruleset the transcripts cannot tell from other values: rule ID and
    the values that fit as well."""
    overlay: tuple[Variant, ...]
    """Changes to the best ruleset that make more transcripts pass, in the order found."""
    overlay_fit: Fit | None
    """The fit with the overlay applied (``None`` when no overlay was needed or found)."""


Transcripts = Sequence[tuple[str, Sequence[btn.Hand]]]
"""Each transcript's name and its hands (read once, replayed under every candidate)."""


def read_transcripts(paths: Iterable[str]) -> list[tuple[str, list[btn.Hand]]]:
    """Read each file's hands.

    Raises:
        TranscriptSyntaxError, UnreadableInputError: a file is not a readable transcript.
    """
    found = []
    for path in paths:
        with btn.TranscriptReader(path) as reader:
            found.append((path, list(reader)))
    return found


def fit(ruleset: Ruleset, transcripts: Transcripts) -> Fit:
    """Replay every transcript under ``ruleset``."""
    hands = failed = divergences = 0
    for path, items in transcripts:
        for verdict in check_hands(items, path, ruleset):
            hands += 1
            if verdict.status != "pass":
                failed += 1
                divergences += sum(1 for d in verdict.divergences if d.root) or 1
    return Fit(f"{ruleset.id}@{ruleset.version}", hands, failed, divergences)


def _all_pass(ruleset: Ruleset, transcripts: Transcripts) -> bool:
    """Whether every hand passes (stops at the first that does not)."""
    for path, items in transcripts:
        verdicts: Iterable[HandVerdict] = check_hands(items, path, ruleset)
        if any(v.status != "pass" for v in verdicts):
            return False
    return True


def infer(
    transcripts: Transcripts,
    candidates: Sequence[Ruleset],
    pool: Sequence[Ruleset] = (),
    progress: Callable[[str], None] | None = None,
) -> Inference:
    """Rank ``candidates`` by how well they explain ``transcripts`` (see the module
    docstring); ``pool`` supplies the values tried for numbers, lists and formulas."""
    say = progress or (lambda message: None)
    fits: list[tuple[Fit, Ruleset]] = []
    for ruleset in candidates:
        say(f"replaying under {ruleset.id}")
        fits.append((fit(ruleset, transcripts), ruleset))
    # Among rulesets that fit equally, the one closest to its base first: the simplest
    # explanation (saudi before a profile that changes a rule the transcripts never show).
    bases = {r.id: r for r in candidates if len(r.lineage) == 1}

    def distance(ruleset: Ruleset) -> int:
        base = bases.get(ruleset.lineage[-1])
        return len(diff_rulesets(base, ruleset)) if base is not None else 0

    fits.sort(key=lambda pair: (pair[0].key, distance(pair[1]), pair[0].ruleset))
    top_key = fits[0][0].key
    best_fit, best = fits[0]
    variants = rule_variants(best, pool)
    say(f"trying {len(variants)} other values of {best.id}'s rules")
    unexercised = _unexercised(best, variants, transcripts) if best_fit.failed == 0 else ()
    overlay, overlay_fit = _overlay(best, best_fit, variants, transcripts, say)
    return Inference(
        ranking=tuple(f for f, _ in fits),
        best=tuple(f.ruleset for f, _ in fits if f.key == top_key),
        unexercised=unexercised,
        overlay=overlay,
        overlay_fit=overlay_fit,
    )


def _unexercised(
    best: Ruleset, variants: Sequence[Variant], transcripts: Transcripts
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The rules with another value under which every transcript passes too."""
    alike: dict[str, list[str]] = {}
    for variant in variants:
        ruleset = isolate(best, variant.changes)
        if ruleset is not None and _all_pass(ruleset, transcripts):
            alike.setdefault(variant.rule_id, []).append(variant.label)
    return tuple((rule_id, tuple(labels)) for rule_id, labels in alike.items())


def _overlay(
    best: Ruleset,
    best_fit: Fit,
    variants: Sequence[Variant],
    transcripts: Transcripts,
    say: Callable[[str], None],
) -> tuple[tuple[Variant, ...], Fit | None]:
    """Greedy: apply the single change that fixes the most hands, while any helps."""
    chosen: list[Variant] = []
    changes: dict[str, Mapping[str, Any]] = {}
    current_fit = best_fit
    while current_fit.failed:
        better: tuple[Fit, Variant, dict[str, Mapping[str, Any]]] | None = None
        for variant in variants:
            if variant.rule_id in changes:
                continue
            trial_changes = {**changes, **variant.changes}
            trial = isolate(best, trial_changes)
            if trial is None:
                continue
            trial_fit = fit(trial, transcripts)
            if trial_fit.key < (better[0] if better else current_fit).key:
                better = (trial_fit, variant, trial_changes)
        if better is None:
            break
        current_fit, variant, changes = better
        chosen.append(variant)
        say(f"overlay: {variant.label} leaves {current_fit.failed} failed hands")
    return tuple(chosen), (current_fit if chosen else None)


def overlay_yaml(best: Ruleset, overlay: Sequence[Variant], new_id: str = "my-engine") -> str:
    """The profile that applies ``overlay`` over ``best``, as YAML to save and edit."""
    sections: dict[str, dict[str, Any]] = {}
    for variant in overlay:
        for rule_id, rule in variant.changes.items():
            section, _, name = rule_id.partition(".")
            entry = dict(rule)
            entry["notes"] = f"Inferred from transcripts: {variant.label}."
            sections.setdefault(section, {})[name] = entry
    document: dict[str, Any] = {
        "format": "baloot-ruleset/1",
        "id": new_id,
        "version": "0.1.0",
        "extends": f"{best.id}@{best.major}",
        "title": f"{new_id} (inferred)",
        "description": f"{best.id} with the changes that make the transcripts pass; edit the "
        "statements to say what the engine does.",
        **sections,
    }
    return dump_yaml(document)
