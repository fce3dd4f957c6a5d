"""Build the generated fixtures of the corpus (``fixtures/<area>/<id>.btn``).

    .venv/bin/python tools/build_fixtures.py [--witnesses FILE]

The hand-written fixtures are kept as they are; this writes the ones found by search:

- for each rule of the default ruleset, a hand in which the rule decides something (found
  with the kit's random legal games and the replay trace) and, where the rule can be broken,
  the same hand with one event or claim changed so that it breaks that rule first;
- the boundaries of the scoring: every Sun split from 53-77 to 57-73, 63-67 to 67-63 and
  73-57 to 77-53, Hokum splits whose conversions would total 17, exact ties;
- for the rules of table talk (``claims.sawa``, ``play.fouls``), from candidates of their own
  in which the players claim Sawa and call fouls: a passing hand per verdict (a right and a
  wrong Sawa, a wrong foul call) and the same hands with the verdict claim turned, the Sawa
  moved into the trick before it, or the foul called by another seat;
- for each profile and each rule it changes, a hand that passes under one of the profile and
  the default and fails under the other (a witness, from ``--witnesses``: a JSON file
  written by ``baloot-conformance spec diff A PROFILE --witness --format json``, or a map
  ``{"PROFILE RULE": {"text": BTN}}``). ``A`` is the default, or, for a rule whose effect
  the profile's other differences hide from the default, an overlay that ``extends`` the
  profile and restates that one rule as the default reads it: the fixture must only tell
  the profile from itself with that rule read the default's way.

The hands come from the engine; their figures do not: every passing hand of the default
ruleset is scored again by ``tools/oracle.py`` from the rule statements alone, its claims
must agree, and its description works the numbers out. Ids are stable: a fixture that
exists already is never renamed or rewritten (delete it on purpose to rebuild it); a profile's
fixture whose verdict a major version of the profile changes is retired and replaced under the
next number (``majlis.scoring.failure-2``), and this builds no other fixture for that rule.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle import Declared, HandRecord, Unmodelled, Worked, work

from baloot_conformance import btn
from baloot_conformance.check.run import check_hands
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.corpus.generate import generate_games
from baloot_conformance.engine.playout import Policy
from baloot_conformance.engine.trace import Trace
from baloot_conformance.rules.loading import isolate, load_ruleset
from baloot_conformance.rules.ruleset import Ruleset, rule_documents

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fixtures"
SAUDI = load_ruleset("saudi")

POLICIES = (
    Policy(),
    Policy(contracts={"hokum": 1}, raise_chance=0.0),
    Policy(contracts={"sun": 1}, raise_chance=0.0),
    Policy(contracts={"hokum": 1}, raise_chance=0.7),
    Policy(contracts={"sun": 1}, raise_chance=0.7),
    Policy(contracts={"hokum": 1}, rich_deals=True, raise_chance=0.0),
    Policy(rich_deals=True, raise_chance=0.0),
    Policy(contracts={"hokum": 1}, raise_chance=0.98),
)
STARTS = ((0, 0), (100, 40), (120, 140), (140, 120))
#: The table talk's candidates: the seat to play considers a Sawa, a player calls a foul (or
#: a legal card, now and then), unraised so that the oracle scores them. A stream of its own,
#: so that the candidates above, and what was found in them, stay as they are.
TALK = Policy(sawa=0.3, fouls=0.25, foul_calls=0.3, kawesh=0.4, rich_deals=True, raise_chance=0.0)
TALK_POLICIES = (
    TALK,
    replace(TALK, contracts={"hokum": 1}, rich_deals=False),
    replace(TALK, contracts={"sun": 1}, rich_deals=False),
)
TALK_RULES = ("claims.sawa", "play.fouls")


def area_of(rule_id: str) -> str:
    """The corpus folder of a rule."""
    if rule_id.startswith("projects.baloot"):
        return "baloot"
    if rule_id in ("scoring.kaboot", "scoring.reverse_kaboot"):
        return "kaboot"
    if rule_id.startswith(("cards.order", "play.", "claims.")):
        return "play"
    if rule_id.startswith("cards.") and rule_id != "cards.deck":
        return "scoring"
    if rule_id == "cards.deck":
        return "deal"
    return rule_id.split(".")[0]


def slug(rule_id: str) -> str:
    return rule_id.replace("_", "-")


# --- replay ----------------------------------------------------------------------------------


def replay(text: str, ruleset: Ruleset = SAUDI) -> tuple[list[HandVerdict], Trace]:
    trace = Trace()
    with btn.TranscriptReader(io.StringIO(text), "<fixture>") as reader:
        verdicts = list(check_hands(reader, "<fixture>", ruleset, trace=trace))
    return verdicts, trace


def root(verdicts: list[HandVerdict]) -> tuple[str, str] | None:
    for verdict in verdicts:
        if verdict.status == "pass":
            continue
        found = next((d for d in verdict.divergences if d.root), None)
        if found is None or found.rule_id is None:
            return ("error", "error")
        return found.position, found.rule_id
    return None


def record(hand: btn.Hand) -> HandRecord:
    """The events of a hand as the oracle reads them (its claims are not used)."""
    dealer = ""
    buyer = kind = ""
    trump: str | None = None
    level = 1
    tricks: list[list[tuple[str, str]]] = []
    declared: list[Declared] = []
    eight: dict[str, set[str]] = {s: set() for s in "NWSE"}
    held: dict[str, set[str]] = {s: set() for s in "NWSE"}
    sawa: str | None = None
    foul: tuple[str, int] | None = None
    faceup = ""
    for item in hand.items:
        if isinstance(item, btn.Dealer):
            dealer = item.seat
        elif isinstance(item, (btn.Deal, btn.Rest)):
            held[item.seat] |= {c.code for c in item.cards}
        elif isinstance(item, btn.FaceUp):
            faceup = item.card.code
        elif isinstance(item, btn.Sawa):
            sawa = item.seat
        elif isinstance(item, btn.Foul):
            number, _, index = item.target.removeprefix("t").partition(".p")
            foul = (item.seat, (int(number) - 1) * 4 + int(index) - 1)
        elif isinstance(item, btn.ContractClaim) and item.buyer is not None:
            buyer, kind = item.buyer, item.kind or ""
            trump = item.trump.value if item.trump is not None else None
            level = item.multiplier or 1
        elif isinstance(item, btn.Call) and item.phase == "raise" and item.word not in ("pass",):
            level = 2  # raised: the oracle does not score it
        elif isinstance(item, btn.Declare):
            declared.append(Declared(item.seat, item.project, [c.code for c in item.cards]))
        elif isinstance(item, btn.Play):
            if not tricks or len(tricks[-1]) == 4:
                tricks.append([])
            tricks[-1].append((item.seat, item.card.code))
            eight[item.seat].add(item.card.code)
    if not buyer:
        raise Unmodelled("no contract")
    for cards in held.values():
        if len(cards) == 7:  # the buyer's: the face-up card is his eighth
            cards.add(faceup)
    return HandRecord(dealer, kind, trump, buyer, tricks, declared, eight, level, held, sawa, foul)


def claims(hand: btn.Hand) -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = {}
    for item in hand.items:
        if isinstance(item, btn.TeamClaim) and item.ns is not None and item.ew is not None:
            found[item.name] = {"NS": item.ns, "EW": item.ew}
    return found


def worked(text: str) -> Worked | None:
    """The oracle's numbers for a one-hand text, when it models the hand and agrees with
    every figure claimed; ``None`` otherwise."""
    hands = list(btn.parse_transcript(text).hands)
    try:
        result = work(record(hands[-1]))
    except Unmodelled:
        return None
    said = claims(hands[-1])
    if said.get("abnat") != result.abnat or said.get("score") != result.score:
        print(f"  oracle disagrees: {said.get('abnat')} {said.get('score')} vs "
              f"{result.abnat} {result.score}", file=sys.stderr)  # fmt: skip
        return None
    return result


# --- writing ---------------------------------------------------------------------------------


def yaml_text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def write(
    area: str,
    fid: str,
    description: str,
    rules: list[str],
    expect: tuple[str, str] | None,
    body: str,
    ruleset: Ruleset = SAUDI,
    status: str = "stable",
) -> bool:
    """Write one fixture unless its id exists (ids are never rewritten)."""
    path = OUT / area / f"{fid}.btn"
    if path.exists():
        return False
    sources = sorted({s.split()[0].rstrip(",:") for r in rules for s in ruleset.rule(r).sources})
    sources = [s for s in sources if s in ruleset.document.get("sources", {})] or ["SAKKAH"]
    lines = [
        "%btn 1",
        "---",
        f"id: {fid}",
        f"description: {yaml_text(description)}",
        "rules: [" + ", ".join(rules) + "]",
        "expect: pass"
        if expect is None
        else f"expect: {{position: {expect[0]}, rule: {expect[1]}}}",
        f'ruleset: {{id: {ruleset.id}, versions: ">={ruleset.major}.0 <{ruleset.major + 1}"}}',
        "sources: [" + ", ".join(sources) + "]",
        f"status: {status}",
        "flags: [generated]",
        "---",
    ]
    head, _, rest = body.partition("\n\nhand ")
    head_lines = [
        line
        for line in head.split("\n")[1:]
        if not line.startswith(("[Engine", "[Seed", "[Ruleset"))
    ]
    text = "\n".join(
        [*lines, f'[Ruleset "{ruleset.id}@{ruleset.major}"]', *head_lines, "", "hand " + rest]
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    return True


# --- search ----------------------------------------------------------------------------------


def candidates(
    ruleset: Ruleset = SAUDI,
    count: int = 4000,
    hands: int = 1,
    policies: Sequence[Policy] = POLICIES,
    seed: int = 7_000,
) -> Iterator[str]:
    for i in range(count):
        policy = policies[i % len(policies)]
        start = STARTS[(i // len(policies)) % len(STARTS)]
        yield "".join(generate_games(ruleset, seed + i, hands=hands, policy=policy, start=start))


def positives(texts: list[str]) -> int:
    """A passing hand for every rule: the first candidate in which the rule decides, with a
    modelled score when one can be found."""
    written = 0
    pending = {rule.id for rule in SAUDI.iter_rules()}
    fallback: dict[str, str] = {}
    for text in texts:
        if not pending:
            break
        verdicts, trace = replay(text)
        if root(verdicts) is not None:
            continue
        hits = pending & trace.rules()
        if not hits:
            continue
        numbers = worked(text) if text.count("\nhand ") == 1 else None
        for rule_id in sorted(hits):
            if numbers is None:
                fallback.setdefault(rule_id, text)
                continue
            pending.discard(rule_id)
            written += write_positive(rule_id, text, numbers)
    for rule_id, text in sorted(fallback.items()):
        if rule_id in pending:
            written += write_positive(rule_id, text, None)
    return written


def write_positive(rule_id: str, text: str, numbers: Worked | None) -> bool:
    rule = SAUDI.rule(rule_id)
    description = f"{rule_id} decides in this hand, which is right throughout. {rule.statement}"
    if numbers is not None:
        description += " Worked: " + numbers.text()
    return write(area_of(rule_id), f"{slug(rule_id)}.pass-1", description, [rule_id], None, text)


# --- negatives: one change that breaks one rule --------------------------------------------


Mutation = tuple[str, str]  # (the changed text, what was changed)


def mutations(text: str) -> Iterator[Mutation]:
    """Each way of changing one line of a one-hand text: another call or raise word, a
    card swapped with a later card of the same seat, a claim off by one, a duplicated card."""
    lines = text.split("\n")
    for n, line in enumerate(lines):
        words = line.split()
        if not words:
            continue
        if words[0] == "bid":
            for word in ("hokum", "sun", "ashkal", "pass", "kawesh", "hokum H", "double", "hakam"):
                if word != " ".join(words[2:]):
                    new = f"bid {words[1]} {word}"
                    yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"
        elif words[0] == "raise":
            for word in ("double", "three", "four", "gahwa", "pass"):
                if word != words[2]:
                    for seat in "NWSE":
                        new = f"raise {seat} {word}"
                        yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"
        elif words[0] == "trick" or words[0] == "play":
            yield from _card_swaps(lines, n)
        elif words[0] == "=" and len(words) >= 6 and words[2] == "NS":
            value = int(words[3]) + 1
            new = f"= {words[1]} NS {value} " + " ".join(words[4:])
            yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"
        elif words[0] == "=" and words[1] == "contract" and len(words) >= 4:
            other = "sun" if words[3] == "hokum" else "hokum S"
            new = f"= contract {words[2]} {other}"
            yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"
        elif words[0] == "=" and words[1] == "result":
            for outcome in ("made", "failed", "tie"):
                if outcome != words[2]:
                    new = f"= result {outcome}"
                    yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"
        elif words[0] == "deal" and n + 1 < len(lines) and lines[n + 1].startswith("deal"):
            next_deal = lines[n + 1].split()
            new = " ".join([*words[:2], next_deal[2], *words[3:]])
            yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"
        elif words[0] == "start" and len(words) == 5:
            new = f"start NS {max(int(words[2]) - 1, 0)} EW {words[4]}"
            yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"
        elif words[0] == "dealer":
            for seat in "NWSE":
                if seat != words[1]:
                    new = f"dealer {seat}"
                    yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"


def _swap(lines: list[str], n: int, new: str) -> str:
    return "\n".join([*lines[:n], new, *lines[n + 1 :]])


_CARD = re.compile(r"\b([NWSE]) ([2-9TJQKA][SHDC])\b")


def _card_swaps(lines: list[str], n: int) -> Iterator[Mutation]:
    """A card of line ``n`` swapped with a card the same seat plays later."""
    for match in _CARD.finditer(lines[n]):
        seat, card = match.groups()
        for m in range(n + 1, len(lines)):
            for later in _CARD.finditer(lines[m]):
                if later.group(1) != seat:
                    continue
                other = later.group(2)
                changed = list(lines)
                changed[n] = changed[n].replace(f"{seat} {card}", f"{seat} {other}", 1)
                changed[m] = changed[m].replace(f"{seat} {other}", f"{seat} {card}", 1)
                what = f"{seat} plays {other} on line {n + 1} and {card} on line {m + 1}"
                yield "\n".join(changed), what + " (the cards swapped)"


def negatives(texts: list[str]) -> int:
    """A failing fixture for every rule a change can break first."""
    written = 0
    done: set[str] = set()
    for text in texts:
        for changed, what in mutations(text):
            try:
                verdicts, _ = replay(changed)
            except Exception:
                continue
            found = root(verdicts)
            if found is None or found[1] in done or found[1] == "error":
                continue
            position, rule_id = found
            done.add(rule_id)
            statement = SAUDI.rule(rule_id).statement
            description = (
                f"The recorded hand with one change: {what}. The first thing wrong is at "
                f"{position}, under {rule_id}: {statement}"
            )
            written += write(
                area_of(rule_id), f"{slug(rule_id)}.fail-1", description, [rule_id],
                (position, rule_id), changed,
            )  # fmt: skip
    return written


# --- table talk ----------------------------------------------------------------------------


#: The passing fixture of each verdict of a call: (the claim, its verdict) -> (rule, id).
TALK_VERDICTS = {
    ("sawa", "right"): ("claims.sawa", "claims.sawa.pass-1"),
    ("sawa", "wrong"): ("claims.sawa", "claims.sawa.pass-2"),
    ("foul", "wrong"): ("play.fouls", "play.fouls.pass-1"),
}
_TALK_WORDS = {
    ("sawa", "right"): "a right Sawa: the claimant's side takes the tricks left",
    ("sawa", "wrong"): "a wrong Sawa, which ends the hand with a penalty",
    ("foul", "wrong"): "a foul call on a legal card, which is wrong and ends the hand with a "
    "penalty",
}


def verdict_of(text: str) -> tuple[str, str] | None:
    """The call a one-hand text judges and its verdict (``("sawa", "right")``), if any."""
    found = re.search(r"(?m)^= (sawa|foul) (right|wrong)$", text)
    return (found.group(1), found.group(2)) if found else None


def cards_before_talk(text: str) -> int:
    """How many cards are down when the hand's Sawa or foul call is said."""
    said = re.search(r"(?m)^(sawa|foul) ", text)
    before = text[: said.start()] if said else text
    return 4 * before.count("\ntrick ") + before.count("\nplay ")


def talk_positives(texts: list[str]) -> int:
    """A passing hand for each verdict of a Sawa and of a foul call, scored by the oracle: a
    right Sawa with three tricks or more left; where projects were declared, a call made once
    they are shown (after trick 2), so that they count without a doubt."""
    written = 0
    wanted = dict(TALK_VERDICTS)
    for text in texts:
        if not wanted:
            break
        verdict = verdict_of(text)
        if verdict not in wanted:
            continue
        down = cards_before_talk(text)
        if (verdict == ("sawa", "right") and down > 20) or ("\ndeclare " in text and down < 8):
            continue
        rule_id, fid = wanted[verdict]
        verdicts, trace = replay(text)
        if root(verdicts) is not None or rule_id not in trace.rules():
            continue
        numbers = worked(text)
        if numbers is None:
            continue
        del wanted[verdict]
        rule = SAUDI.rule(rule_id)
        description = (
            f"{rule_id} decides in this hand, which is right throughout: "
            f"{_TALK_WORDS[verdict]}. {rule.statement} Worked: {numbers.text()}"
        )
        written += write(area_of(rule_id), fid, description, [rule_id], None, text)
    print(f"  table talk not found: {sorted(wanted)}", file=sys.stderr)
    return written


def talk_mutations(text: str) -> Iterator[Mutation]:
    """Each way of changing one call of a one-hand text: its verdict claim turned, the Sawa
    said in the middle of the trick before it (by the seat to play there), the foul called by
    another seat."""
    lines = text.split("\n")
    for n, line in enumerate(lines):
        words = line.split()
        if len(words) == 3 and words[0] == "=" and words[1] in ("sawa", "foul"):
            new = f"= {words[1]} {'wrong' if words[2] == 'right' else 'right'}"
            yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"
        elif words[:1] == ["sawa"] and n and lines[n - 1].startswith("trick "):
            head, _, result = lines[n - 1].partition(" = ")
            number, _, cards = head.removeprefix("trick ").partition(": ")
            plays = [f"play {card}" for card in cards.split(", ")]
            seat = plays[1].split()[1]
            said = [plays[0], f"sawa {seat}", *plays[1:], f"= trick {number} {result}"]
            changed = [*lines[: n - 1], *said, *lines[n + 1 :]]
            what = (
                f"the Sawa is said by {seat} in the middle of trick {number}, after the first "
                f"card, instead of by {words[1]} after the trick"
            )
            yield "\n".join(changed), what
        elif words[:1] == ["foul"]:
            for seat in "NWSE":
                if seat != words[1]:
                    new = " ".join(["foul", seat, *words[2:]])
                    yield _swap(lines, n, new), f"line {n + 1}: '{line}' becomes '{new}'"


def talk_negatives(texts: list[str]) -> int:
    """A failing fixture for each rule of table talk and each place a change breaks it first:
    ``fail-1`` at the verdict claim, ``fail-2`` at the call itself."""
    written = 0
    done: set[str] = set()
    for text in texts:
        if verdict_of(text) is None or root(replay(text)[0]) is not None:
            continue
        for changed, what in talk_mutations(text):
            try:
                verdicts, _ = replay(changed)
            except Exception:
                continue
            found = root(verdicts)
            if found is None or found[1] not in TALK_RULES:
                continue
            position, rule_id = found
            fid = f"{slug(rule_id)}.fail-{1 if position.endswith('.verdict') else 2}"
            if fid in done:
                continue
            done.add(fid)
            statement = SAUDI.rule(rule_id).statement
            description = (
                f"The recorded hand with one change: {what}. The first thing wrong is at "
                f"{position}, under {rule_id}: {statement}"
            )
            written += write(
                area_of(rule_id), fid, description, [rule_id], (position, rule_id), changed
            )
    return written


# --- boundaries ------------------------------------------------------------------------------


def boundaries(texts: list[str]) -> int:
    """Sun splits 53-57, 63-67, 73-77 (either side); Hokum splits both rounding up; exact
    ties in Sun (65-65) and Hokum (81-81)."""
    wanted_sun = {v for low in (53, 63, 73) for v in range(low, low + 5)}
    written = 0
    hokum_cases: set[str] = set()
    for text in texts:
        if "\nhand " not in text or text.count("\nhand ") != 1:
            continue
        numbers = worked(text)
        if numbers is None or numbers.outcome not in ("made", "tie"):
            continue
        kind = "sun" if " sun" in re.search(r"= contract .*", text).group(0) else "hokum"  # type: ignore[union-attr]
        ns, ew = numbers.abnat["NS"], numbers.abnat["EW"]
        if "\ndeclare " in text or "\nbaloot " in text:
            continue
        if kind == "sun" and ns in wanted_sun:
            wanted_sun.discard(ns)
            rule = "scoring.sun.conversion"
            if ns == 65:
                rule = "scoring.contract.tie"
            written += write(
                "scoring", f"sun-split-{ns}-{ew}",
                f"Sun, abnat NS {ns} EW {ew}: a boundary of the Sun conversion. "
                + numbers.text(),
                [rule, "scoring.sun.conversion"] if rule != "scoring.sun.conversion" else [rule],
                None, text,
            )  # fmt: skip
        if kind == "hokum":
            case = ""
            if ns % 10 >= 6 and ew % 10 >= 6:
                case = "equal-ones" if ns % 10 == ew % 10 else "both-round-up"
            if ns == ew == 81:
                case = "tie-81"
            if case and case not in hokum_cases:
                hokum_cases.add(case)
                rules = ["scoring.hokum.conversion"]
                if case == "tie-81":
                    rules.append("scoring.contract.tie")
                written += write(
                    "scoring", f"hokum-split-{ns}-{ew}",
                    f"Hokum, abnat NS {ns} EW {ew}: both sides' ones are 6 or more, so "
                    "their conversions would total 17; the rule gives one back. "
                    + numbers.text(),
                    rules, None, text,
                )  # fmt: skip
    print(f"  Sun splits not found: {sorted(wanted_sun)}", file=sys.stderr)
    return written


# --- games ---------------------------------------------------------------------------------


def games() -> int:
    """Full games to the target: a plain one, one that a Gahwa ends, one with a Kaboot."""
    wanted = ["plain", "gahwa", "kaboot"]
    written = 0
    for seed in range(400):
        if not wanted:
            break
        policy = POLICIES[seed % len(POLICIES)]
        text = "".join(generate_games(SAUDI, 9_000 + seed, games=1, policy=policy))
        verdicts, trace = replay(text)
        if root(verdicts) is not None:
            continue
        for case in list(wanted):
            gahwa = case == "gahwa" and "gahwa" in text and "doubling.gahwa" in trace
            kaboot = case == "kaboot" and "= kaboot" in text
            plain = case == "plain" and "raise" not in text and len(verdicts) >= 6
            if not (gahwa or kaboot or plain):
                continue
            wanted.remove(case)
            winner = re.search(r"= winner (\w+)", text)
            totals = re.findall(r"= total NS (\d+) EW (\d+)", text)[-1]
            rules = ["game.target"] + (["doubling.gahwa"] if gahwa else [])
            rules += ["scoring.kaboot"] if kaboot else []
            how = {
                "plain": "a game of unraised and raised hands",
                "gahwa": "a game that a Gahwa ends: the winner of the Gahwa hand wins the game",
                "kaboot": "a game with a Kaboot in it",
            }[case]
            description = (
                f"A full game to 152, {how}: {len(verdicts)} hands, ending at NS {totals[0]} "
                f"EW {totals[1]}, won by {winner.group(1) if winner else '?'}. Every hand's "
                "claims are right."
            )
            written += write("game", f"full-game-{case}", description, rules, None, text)
    return written


# --- profiles --------------------------------------------------------------------------------


def profiles(witness_file: Path) -> int:
    """A fixture per profile and rule it changes, from a witness hand: it must give another
    verdict with that one rule read as the default reads it."""
    found = json.loads(witness_file.read_text(encoding="utf-8"))
    if "differences" in found:  # a spec diff report: the profile is its second ruleset
        name = found["b"].partition("@")[0]
        found = {
            f"{name} {d['rule']}": d["witness"] and {"text": d["witness"]["btn"]}
            for d in found["differences"]
        }
    readings = rule_documents(SAUDI)
    written = 0
    for key, witness in sorted(found.items()):
        if witness is None:
            continue
        name, rule_id = key.split(" ")
        if any((OUT / name).glob(f"{name}.{slug(rule_id)}-*.btn")):
            continue  # the rule has its fixture (a later number where a major version retired one)
        profile = load_ruleset(name)
        changed = isolate(profile, {rule_id: readings[rule_id]}) or SAUDI
        verdicts, _ = replay(witness["text"], profile)
        expect = root(verdicts)
        other = root(replay(witness["text"], changed)[0])
        if expect == other or (expect and expect[1] == "error"):
            continue
        under = "passes" if expect is None else f"fails at {expect[0]} ({expect[1]})"
        there = "passes" if other is None else f"fails at {other[0]} ({other[1]})"
        description = (
            f"{rule_id} as {name} reads it: {profile.rule(rule_id).statement} The default "
            f"reads: {SAUDI.rule(rule_id).statement} This hand {under} under {name}; with "
            f"{rule_id} read as the default reads it, it {there}."
        )
        written += write(
            name, f"{name}.{slug(rule_id)}-1", description, [rule_id], expect,
            witness["text"], profile, status="disputed",
        )  # fmt: skip
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--witnesses", type=Path, action="append", default=[])
    parser.add_argument("--tries", type=int, default=3000)
    args = parser.parse_args()
    texts = list(candidates(count=args.tries))
    pairs = list(candidates(count=200, hands=2))
    talk = list(candidates(count=600, policies=TALK_POLICIES, seed=20_000))
    steps: list[tuple[str, Callable[[], int]]] = [
        ("positives", lambda: positives(texts + pairs)),
        ("negatives", lambda: negatives(texts[:60] + pairs[:10])),
        ("games", games),
        ("boundaries", lambda: boundaries(texts)),
        ("table talk", lambda: talk_positives(talk)),
        ("table talk negatives", lambda: talk_negatives(talk[:200])),
        *[(f"profiles {w}", lambda w=w: profiles(w)) for w in args.witnesses],
    ]
    for name, step in steps:
        print(f"{name}: {step()} written", file=sys.stderr)


if __name__ == "__main__":
    main()
