"""Build the trick family's fixtures (``fixtures/bourre/<area>/<id>.btn``) from the engine.

    .venv/bin/python tools/build_family_fixtures.py [--search] [--to DIR]

Every fixture is a hand (or two) played by the family's engine from a seed: the pack shuffled,
every decision one of :meth:`TrickHand.legal_actions`, drawn by a seeded generator
(:mod:`baloot_conformance.family.engine.playout`'s choices), the play traced
(:mod:`baloot_conformance.family.engine.trace`). A *scenario* says what to look for:

- for each rule of ``bourre``, a hand in which it decides something (the trace counts it) and,
  where a transcript can break it, the same hand with one event or claim changed so that it
  is broken first, at the position and under the rule the metadata names (a card that does
  not follow, head, trump, over-trump, under-trump or lead the cinch's top trump, a wrong
  ante, a face-up card shown by another seat, declarations out of turn, more discards than
  declared, the dealer passing on a face-up Ace, a card not held, a wrong trick winner, pot,
  payment or dealer, a penalty for a renege never made, a hand cut short, a card not in the
  pack);
- for each profile, hands played under the profile that fail under ``bourre`` and hands
  played under ``bourre`` that fail under the profile, one per rule whose reading differs:
  the option values in both directions.

Each fixture records its verdict under every shipped trick ruleset (``readings``), computed
by replaying it; ``fixtures lint`` replays them again. ``--search`` looks for the seeds (it
takes a minute) and writes them to ``tools/family_fixture_seeds.json``; without it the
fixtures are rebuilt from the recorded seeds, byte for byte (``tests/test_family_fixtures.py``
checks that the shipped files are what this writes).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from family_hands import (  # noqa: E402
    Stmt,
    Unwritable,
    outcomes,
    play_session,
    render,
    render_stmt,
    statements,
)
from family_mutations import (  # noqa: E402
    Mutation,
    cut_short,
    dealer_passes,
    declare_out_of_turn,
    faceup_elsewhere,
    fewer_declared,
    no_card_pack,
    no_reshuffle,
    out_of_turn,
    renege,
    renege_unmade,
    trump_ignored,
    wrong_ante,
    wrong_claim,
    wrong_dealer,
    wrong_winner,
)

from baloot_conformance.corpus.family_fixtures import (  # noqa: E402
    run_family_text,
    trick_rulesets,
)
from baloot_conformance.corpus.fixtures import Expectation  # noqa: E402
from baloot_conformance.errors import TranscriptSyntaxError  # noqa: E402
from baloot_conformance.family.rules.loading import isolate_trick  # noqa: E402
from baloot_conformance.family.rules.model import TrickRuleset  # noqa: E402

SEEDS = ROOT / "tools" / "family_fixture_seeds.json"
OUT = ROOT / "fixtures" / "bourre"
BASE = "bourre"
TRIES = 4000

# --- scenarios -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """What a fixture shows: played under ``ruleset`` (``players``, ``hands`` hands from a
    pot of ``pot``), changed by ``mutation``; it holds when ``rules`` all decide and the
    fixture's own verdict is a pass (no mutation) or a failure under ``fails`` (its rule)."""

    id: str
    rules: tuple[str, ...]
    mutation: Mutation | None = None
    fails: str | None = None
    ruleset: str = BASE
    players: tuple[int, ...] = (3, 4, 5, 6, 7)
    hands: int = 1
    pot: int = 0
    syntax: bool = False

    @property
    def area(self) -> str:
        """Its folder: the first rule's section, or the profile it is written for."""
        return self.rules[0].split(".")[0] if self.ruleset == BASE else self.ruleset


def base_scenarios() -> list[Scenario]:
    """A passing hand for each rule of bourre that decides in play, and a hand that breaks it."""
    s = Scenario
    plain = [
        ("table.seats", ()),
        ("table.deck", ()),
        ("table.order.plain", ()),
        ("table.order.trump", ()),
        ("table.teams", ()),
        ("table.direction", ()),
        ("contracts.bourre", ()),
        ("phases.deal", ()),
        ("phases.tricks", ()),
        ("phases.draw.declare", ()),
        ("phases.draw.discards", ()),
        ("phases.draw.refill", ()),
        ("phases.draw.faceup_ace", ()),
        ("phases.draw.lone_player", ()),
        ("play.obligations", ()),
        ("play.follow_suit", ()),
        ("play.head", ()),
        ("play.ruff", ()),
        ("play.overruff", ()),
        ("play.underruff", ()),
        ("play.cinch", ()),
        ("play.trick_winner", ()),
        ("scoring.outcome", ()),
        ("scoring.pot.tie", ()),
        ("scoring.pot.bourre", ()),
    ]
    found = [s(f"bourre.{rule}.pass-1", (rule, *more)) for rule, more in plain]
    found += [
        s("bourre.phases.ante.pass-1", ("phases.ante", "scoring.pot.tie"), hands=2),
        s("bourre.phases.pipeline.pass-1", ("phases.pipeline", "game.kind"), hands=2),
        s("bourre.table.dealer.rotation.pass-1", ("table.dealer.rotation",), hands=2),
        s("bourre.game.kind.pass-1", ("game.kind", "scoring.pot.bourre"), hands=2),
    ]
    broken: list[tuple[str, Mutation, str]] = [
        ("phases.ante", wrong_ante, "phases.ante"),
        ("phases.deal", faceup_elsewhere, "phases.deal"),
        ("phases.draw.declare", declare_out_of_turn, "phases.draw.declare"),
        ("phases.draw.discards", fewer_declared, "phases.draw.discards"),
        ("phases.draw.faceup_ace", dealer_passes, "phases.draw.faceup_ace"),
        ("phases.tricks", out_of_turn, "phases.tricks"),
        ("phases.pipeline", cut_short, "phases.pipeline"),
        ("play.follow_suit", renege("play.follow_suit"), "play.follow_suit"),
        ("play.head", renege("play.head"), "play.head"),
        ("play.ruff", renege("play.ruff"), "play.ruff"),
        ("play.overruff", renege("play.overruff"), "play.overruff"),
        ("play.underruff", renege("play.underruff"), "play.underruff"),
        ("play.cinch", renege("play.cinch"), "play.cinch"),
        ("play.trick_winner", wrong_winner, "play.trick_winner"),
        ("phases.draw.lone_player", wrong_claim("tricks", -1), "play.trick_winner"),
        ("scoring.outcome", wrong_claim("pot"), "scoring.outcome"),
        ("scoring.pot.bourre", wrong_claim("pays"), "scoring.pot.bourre"),
        ("scoring.pot.renege", renege_unmade, "scoring.pot.renege"),
    ]
    found += [s(f"bourre.{rule}.fail-1", (rule,), m, fails) for rule, m, fails in broken]
    found += [
        s("bourre.contracts.bourre.fail-1", ("contracts.bourre", "table.order.trump"),
          trump_ignored, "play.trick_winner"),
        s("bourre.table.deck.fail-1", ("table.deck",), no_card_pack, syntax=True),
        s("bourre.phases.draw.refill.fail-1", ("phases.draw.refill",), no_reshuffle, syntax=True),
        s("bourre.table.dealer.rotation.fail-1", ("table.dealer.rotation",), wrong_dealer,
          "table.dealer.rotation", hands=2),
        s("bourre.scoring.pot.tie.fail-1", ("scoring.pot.tie",), wrong_claim("pot"),
          "scoring.outcome"),
        s("bourre-jorisl.scoring.pot.limit.capped-1", ("scoring.pot.limit",),
          ruleset="bourre-jorisl", pot=40),
        s("bourre-jorisl.scoring.pot.limit.uncapped-1", ("scoring.pot.limit",),
          wrong_claim("pays", 20), "scoring.pot.bourre", ruleset="bourre-jorisl", pot=40),
        s("bourre.scoring.pot.renege.paid-1", ("play.obligations", "scoring.pot.renege"),
          renege("play.follow_suit"), "play.follow_suit"),
    ]  # fmt: skip
    return found


def source_keys(rules: TrickRuleset, rule_ids: Sequence[str]) -> list[str]:
    keys: list[str] = []
    for rule_id in rule_ids:
        for source in rules.rule(rule_id).sources:
            key = source.split(" ")[0]
            if key not in keys:
                keys.append(key)
    return keys or ["SEED-003"]


def _said(expect: Expectation) -> str:
    return "passes" if expect.passes else f"gives {expect}"


def build(scenario: Scenario, seed: int) -> tuple[str, dict[str, Expectation]] | None:
    """The fixture of ``scenario`` from ``seed``, or ``None`` when that seed does not show it."""
    rulesets = trick_rulesets(BASE)
    rules = rulesets[scenario.ruleset]
    players = scenario.players[seed % len(scenario.players)]
    if not rules.table.seats.min <= players <= rules.table.seats.max:
        return None
    ps = play_session(rules, players, seed, scenario.hands, scenario.pot)
    names = ps[0].hand.names
    try:
        hands = [statements(p, i == 0) for i, p in enumerate(ps)]
    except Unwritable:
        return None
    did = None
    if scenario.mutation is not None:
        did = scenario.mutation(ps, hands)
        if did is None:
            return None
    draft = "id: draft\n"
    try:
        text = render(scenario.ruleset, names, hands, draft)
    except TranscriptSyntaxError:  # a mutation the notation itself refuses
        if not scenario.syntax:
            return None
        text = _raw(scenario.ruleset, names, hands, draft)
    found, traces = outcomes(text)
    own = found[scenario.ruleset]
    if scenario.syntax:
        if own.syntax_error is None:
            return None
    elif scenario.fails is None:
        if not own.passes or not all(r in traces[scenario.ruleset] for r in scenario.rules):
            return None
    else:
        if own.rule != scenario.fails:
            return None
        if scenario.fails.startswith("play.") and scenario.fails != "play.trick_winner":
            verdicts, _, _ = run_family_text(text, "(fixture)", rules)
            if sum(len(v.divergences) for v in verdicts) != 1:
                return None  # a renege penalised as the rules price it: its one divergence
        if not all(r in traces[scenario.ruleset] or r == own.rule for r in scenario.rules):
            return None

    def write(found: dict[str, Expectation]) -> str:
        meta = metadata(scenario, seed, players, did, found, rules, "stable")
        if scenario.syntax:
            return _raw(scenario.ruleset, names, hands, meta)
        return render(scenario.ruleset, names, hands, meta)

    return settled(write, found)


def settled(
    write: Callable[[dict[str, Expectation]], str], found: dict[str, Expectation]
) -> tuple[str, dict[str, Expectation]]:
    """The final text: its metadata states the verdicts of the final text itself (a syntax
    error's line moves with the metadata's length), written until they agree."""
    for _ in range(4):
        text = write(found)
        again, _ = outcomes(text)
        if again == found:
            return text, found
        found = again
    raise AssertionError("the verdicts of a fixture do not settle")


def _raw(ruleset: str, names: Sequence[str], hands: list[list[Stmt]], meta: str) -> str:
    """The text as written, for a fixture the reader refuses (a card not in the pack)."""
    lines = ["%btn 2", "---", meta.rstrip("\n"), "---", f'[Ruleset "{ruleset}@1"]']
    lines.append(f'[Seats "{" ".join(names)}"]')
    for number, stmts in enumerate(hands, 1):
        lines += ["", f"hand {number}", *(render_stmt(s) for s in stmts)]
    return "\n".join(lines) + "\n"


def metadata(
    scenario: Scenario,
    seed: int,
    players: int,
    did: str | None,
    found: dict[str, Expectation],
    rules: TrickRuleset,
    status: str = "stable",
) -> str:
    own = found[scenario.ruleset]
    hands = "two hands" if scenario.hands == 2 else "a hand"
    start = f" from a pot of {scenario.pot}" if scenario.pot else ""
    text = (
        f"{hands.capitalize()} of {players} players played by the kit's engine under "
        f"{scenario.ruleset}{start} (seed {seed}), in which {', '.join(scenario.rules)} "
        "decided something"
    )
    text += f"; changed: {did}." if did else "."
    text += f" Under {scenario.ruleset} it {_said(own)}"
    differ = [name for name, e in found.items() if e != own]
    if differ:
        text += "; it " + "; ".join(f"{_said(found[n])} under {n}" for n in differ)
    text += "."
    meta: dict[str, object] = {
        "id": scenario.id,
        "description": text,
        "rules": list(scenario.rules),
        "expect": own.to_json(),
        "ruleset": {"id": scenario.ruleset, "versions": ">=1 <2"},
        "readings": {n: e.to_json() for n, e in found.items() if n != scenario.ruleset},
        "sources": source_keys(rules, scenario.rules),
        "status": status,
        "flags": ["generated"],
    }
    dumped: str = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=92)
    return dumped


# --- profiles --------------------------------------------------------------------------------


def changed_rules(profile: str) -> list[str]:
    """The rules ``profile`` reads otherwise than bourre, in document order."""
    base = trick_rulesets(BASE)[BASE].document
    doc = trick_rulesets(BASE)[profile].document
    return [
        f"{section}.{name}"
        for section in ("table", "phases", "play", "scoring", "game")
        for name, rule in doc.get(section, {}).items()
        if base.get(section, {}).get(name) != rule
    ]


@cache
def variant(profile: str, rule_id: str) -> TrickRuleset:
    """bourre with ``rule_id`` read as ``profile`` reads it, and nothing else changed."""
    section, _, name = rule_id.partition(".")
    rule = trick_rulesets(BASE)[profile].document[section][name]
    found = isolate_trick(trick_rulesets(BASE)[BASE], {rule_id: rule})
    assert found is not None, (profile, rule_id)
    return found


def session_shape(seed: int) -> tuple[int, int, int]:
    """The players, hands and starting pot a profile search tries for ``seed``."""
    return 2 + seed % 7, 1 + (seed // 7) % 2, 40 if (seed // 14) % 2 else 0


def build_profile(
    profile: str, rule_id: str, direction: str, seed: int
) -> tuple[str, dict[str, Expectation]] | None:
    """A hand telling ``profile``'s ``rule_id`` apart from bourre's: played under bourre with
    that one rule read the profile's way, it fails under bourre (direction ``pass``: the
    profile's reading allows it); played under bourre, it fails with the profile's reading
    (``fail``). The fixture is written for bourre (its table); ``readings`` say the rest."""
    players, hands, pot = session_shape(seed)
    one = variant(profile, rule_id)
    base = trick_rulesets(BASE)[BASE]
    play_under, other = (one, base) if direction == "pass" else (base, one)
    seats = trick_rulesets(BASE)[profile].table.seats
    if not play_under.table.seats.min <= players <= play_under.table.seats.max:
        return None
    if rule_id != "table.seats" and not seats.min <= players <= seats.max:
        return None  # a table the profile does not seat would hide the rule
    ps = play_session(play_under, players, seed, hands, pot)
    try:
        stmts = [statements(p, i == 0) for i, p in enumerate(ps)]
    except Unwritable:
        return None
    names = ps[0].hand.names
    text = render(BASE, names, stmts, "id: draft\n")
    verdicts, _, error = run_family_text(text, "(search)", other)
    if error is None and all(v.status == "pass" for v in verdicts):
        return None
    found, _ = outcomes(text)
    # the profile's other rules may refuse the hand first (its declarations): the variant,
    # bourre with this one rule changed, is what tells the rule apart
    if direction == "pass" and (found[BASE].passes or found[profile] == found[BASE]):
        return None
    if direction == "fail" and (not found[BASE].passes or found[profile].passes):
        return None
    fixture_id = f"{profile}.{rule_id}.{direction}-1"
    scenario = Scenario(fixture_id, (rule_id,), ruleset=BASE, hands=hands, pot=pot)
    how = "read as" if direction == "pass" else "as bourre reads it, which"
    did = (
        f"played with {rule_id} {how} {profile} reads it"
        if direction == "pass"
        else f"played under bourre, which {profile} reads otherwise in {rule_id}"
    )
    del how

    def write(found: dict[str, Expectation]) -> str:
        meta = metadata(scenario, seed, players, did, found, base, status="disputed")
        return render(BASE, names, stmts, meta)

    return settled(write, found)


def search_profiles(tries: int) -> dict[str, list[object]]:
    """Fixture id -> [seed], one per profile, rule it changes and direction that a seed
    shows."""
    found: dict[str, list[object]] = {}
    for profile in trick_rulesets(BASE):
        if profile == BASE:
            continue
        for rule_id in changed_rules(profile):
            for direction in ("pass", "fail"):
                seed = next(
                    (k for k in range(tries) if build_profile(profile, rule_id, direction, k)),
                    None,
                )
                if seed is None:
                    print(f"no witness: {profile} {rule_id} {direction}", file=sys.stderr)
                    continue
                found[f"{profile}.{rule_id}.{direction}-1"] = [seed]
    return found


# --- main ------------------------------------------------------------------------------------


def search(tries: int) -> dict[str, object]:
    seeds: dict[str, object] = {}
    for scenario in base_scenarios():
        seed = next((k for k in range(tries) if build(scenario, k) is not None), None)
        if seed is None:
            print(f"not found: {scenario.id}", file=sys.stderr)
            continue
        seeds[scenario.id] = seed
    seeds.update(search_profiles(tries))
    return seeds


def fixtures(seeds: dict[str, object]) -> dict[str, str]:
    """Every fixture's path below ``fixtures/bourre`` and its text, from the recorded seeds."""
    by_id = {s.id: s for s in base_scenarios()}
    out: dict[str, str] = {}
    for fixture_id, entry in seeds.items():
        if isinstance(entry, int):
            scenario, seed = by_id[fixture_id], entry
            built = build(scenario, seed)
            folder = scenario.area
        else:
            assert isinstance(entry, list)
            seed = int(str(entry[0]))
            folder, _, rest = fixture_id.partition(".")
            rule_id, _, direction = rest.rpartition(".")
            built = build_profile(folder, rule_id, direction.split("-")[0], seed)
        if built is None:
            raise SystemExit(f"{fixture_id}: seed {seed} no longer shows it (run --search)")
        out[f"{folder}/{fixture_id}.btn"] = built[0]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--search", action="store_true", help="look for the seeds again")
    parser.add_argument("--tries", type=int, default=TRIES, help="seeds tried per scenario")
    parser.add_argument("--to", type=Path, default=OUT, help="the folder to write")
    args = parser.parse_args(argv)
    if args.search:
        seeds = search(args.tries)
        SEEDS.write_text(json.dumps(seeds, indent=1) + "\n", encoding="utf-8")
    seeds = json.loads(SEEDS.read_text(encoding="utf-8"))
    built = fixtures(seeds)
    for name, text in built.items():
        path = args.to / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(built)} fixtures under {args.to}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
