"""The trick family's fixtures, part 1: hands played by the engine from a seed, written as
BTN 2 in the writer's canonical form, and their verdicts under every shipped trick ruleset
(``tools/build_family_fixtures.py`` uses them)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from baloot_conformance.corpus.family_fixtures import run_family_text, trick_rulesets
from baloot_conformance.corpus.fixtures import Expectation
from baloot_conformance.engine.trace import Trace
from baloot_conformance.family.btn.reader import read_btn2
from baloot_conformance.family.btn.writer import format_btn2
from baloot_conformance.family.engine.actions import (
    Ante,
    Deal,
    Declare,
    Discard,
    Draw,
    Penalty,
    Play,
    Reshuffle,
)
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.engine.obligations import IllegalAction, PlayTable
from baloot_conformance.family.engine.playout import choose
from baloot_conformance.family.engine.trace import TracedHand
from baloot_conformance.family.rules.model import TrickRuleset

# --- playing ---------------------------------------------------------------------------------


@dataclass
class CardNote:
    """A card as it was played: its trick, seat, the seat's cards and the legal ones, and the
    rule that narrowed them (``None``: every card was free)."""

    trick: int
    seat: int
    card: int
    held: int
    legal: int
    rule: str | None


@dataclass
class Played:
    """One hand played: the hand, the ledger it started from, trick winners, its cards."""

    hand: TracedHand
    start: Ledger
    winners: list[int] = field(default_factory=list)
    cards: list[CardNote] = field(default_factory=list)


def play_hand(rules: TrickRuleset, ledger: Ledger, rng: random.Random) -> Played:
    """A hand from ``ledger``, every decision legal and drawn by ``rng``."""
    hand = TracedHand.shuffled(rules, ledger, None, rng)
    assert isinstance(hand, TracedHand)
    played = Played(hand, ledger)
    while not hand.is_over():
        action = choose(hand.legal_actions(), rng)
        if isinstance(action, Play):
            table = hand.play_rules
            assert isinstance(table, PlayTable)
            held = hand.hands[action.seat]
            decided = table.decide(held, hand.trick, hand.context())
            legal = decided & held & ((1 << 64) - 1)
            rule = None if legal == held else table.rule_of(decided)
            played.cards.append(
                CardNote(hand.trick_number + 1, action.seat, action.card, held, legal, rule)
            )
            before = hand.trick_number
            hand.push(action)
            done = hand.trick_number > before or hand.phase in ("settle", "over")
            if done and len(played.winners) < hand.trick_number:
                played.winners.append(hand.leader)
            continue
        hand.push(action)
    return played


def replay_swapped(played: Played, seat: int, a: int, b: int) -> Played:
    """``played`` again with ``seat`` playing card ``a`` where it played ``b`` and ``b``
    where it played ``a`` (each seat's cards in their order, the turns the engine's): each
    card the obligations refuse is played all the same (a renege), and each renege's penalty
    paid as the rules price it."""
    hand = TracedHand(played.hand.rules, played.start, names=played.hand.names)
    again = Played(hand, played.start)
    queues: dict[int, list[int]] = {}
    for action in played.hand.history:
        if isinstance(action, Play):
            card = action.card
            if action.seat == seat and card in (a, b):
                card = b if card == a else a
            queues.setdefault(action.seat, []).append(card)
        elif not isinstance(action, Penalty):
            hand.push(action)
    while hand.phase == "tricks":
        who = hand.to_act()
        assert who is not None
        play = Play(who, queues[who].pop(0))
        before = hand.trick_number
        try:
            hand.push(play)
        except IllegalAction:
            hand.force_play(play)
        if hand.trick_number > before:
            again.winners.append(hand.leader)
    while hand.phase == "settle" and hand.agenda:
        step, who, due = hand.agenda[0]
        assert step == "penalty"
        hand.push(Penalty(who, due))
    return again


def play_session(
    rules: TrickRuleset, players: int, seed: int, hands: int = 1, pot: int = 0
) -> list[Played]:
    rng = random.Random(seed)
    ledger = Ledger.start(players, dealer=players - 1, pot=pot)
    out = []
    for _ in range(hands):
        played = play_hand(rules, ledger, rng)
        out.append(played)
        assert played.hand.settlement is not None
        ledger = played.hand.settlement.next
    return out


# --- writing ---------------------------------------------------------------------------------

Stmt = list[object]


class Unwritable(Exception):
    """A playout BTN 2 cannot record (the search moves on to the next seed)."""


def statements(played: Played, first: bool) -> list[Stmt]:
    """A hand as statements (the builder's own form; :func:`render` writes them)."""
    hand = played.hand
    names = hand.names
    codes = hand.pack.codes
    out: list[Stmt] = []
    if first:
        exempt = sorted(played.start.exempt)
        out.append(["start", played.start.pot, [names[s] for s in exempt]])
    out.append(["dealer", names[played.start.dealer]])
    history = hand.history
    i = 0
    antes = []
    while i < len(history) and isinstance(history[i], Ante):
        action = history[i]
        assert isinstance(action, Ante)
        antes.append((names[action.seat], action.chips))
        i += 1
    if antes:
        out.append(["ante", antes])
    pending: dict[int, list[object]] = {}
    plays: list[tuple[str, str]] = []
    penalties: list[Stmt] = []
    trick = 1
    for action in history[i:]:
        if isinstance(action, Deal):
            for seat, cards in enumerate(action.hands):
                if cards:
                    out.append(["deal", names[seat], [codes[c] for c in cards]])
            if hand.faceup is not None:
                out.append(["faceup", names[played.start.dealer], codes[hand.faceup]])
        elif isinstance(action, Declare):
            count = action.discards if hand._one_round() else None
            out.append(["bid", names[action.seat], action.play, count])
        elif isinstance(action, Discard):
            pending[action.seat] = [[codes[c] for c in action.cards], [], False]
            if not action.cards:  # BTN 2 cannot write an exchange of no card
                raise Unwritable(f"{names[action.seat]} stays and exchanges no card")
        elif isinstance(action, Reshuffle):
            pending[action.seat][2] = True
        elif isinstance(action, Draw):
            entry = pending[action.seat]
            received = entry[1]
            assert isinstance(received, list)
            received.extend(codes[c] for c in action.cards)
            discards = entry[0]
            assert isinstance(discards, list)
            if len(received) == len(discards):
                if entry[2]:
                    out.append(["reshuffle"])
                out.append(["exchange", names[action.seat], discards, received])
        elif isinstance(action, Penalty):
            penalties.append(["penalty", names[action.seat]])
        elif isinstance(action, Play):
            plays.append((names[action.seat], codes[action.card]))
            if len(plays) == len(hand.active):
                out.append(["trick", trick, plays, names[played.winners[trick - 1]]])
                plays = []
                trick += 1
    if plays:
        out.append(["trick", trick, plays, None])
    out += penalties
    if hand.is_over():
        settlement = hand.pot_settlement
        seats = sorted(hand.tricks)
        if seats:
            out.append(["claim", "tricks", [(names[s], hand.tricks[s]) for s in seats]])
        if settlement.winner is not None:
            out.append(["claim", "pot", [(names[settlement.winner], settlement.won)]])
        elif settlement.tie:
            out.append(["claim", "pot", [(names[s], 0) for s in settlement.tie]])
        pays = {**settlement.bourre}
        for seat, chips in settlement.reneges.items():
            pays[seat] = pays.get(seat, 0) + chips
        if pays:
            out.append(["claim", "pays", [(names[s], pays[s]) for s in sorted(pays)]])
        before, after = played.start.chips, settlement.next.chips
        score = [(names[s], after[s] - before[s]) for s in range(len(names))]
        out.append(["claim", "score", score])
    return out


def render_stmt(stmt: Stmt) -> str:
    kind = stmt[0]
    if kind == "start":
        exempt = stmt[2]
        assert isinstance(exempt, list)
        return f"start pot {stmt[1]}" + (f" exempt {' '.join(exempt)}" if exempt else "")
    if kind == "dealer":
        return f"dealer {stmt[1]}"
    if kind == "ante":
        return "ante " + " ".join(f"{s} {c}" for s, c in stmt[1])  # type: ignore[attr-defined]
    if kind == "deal":
        return f"deal {stmt[1]} " + " ".join(stmt[2])  # type: ignore[arg-type]
    if kind == "faceup":
        return f"faceup {stmt[1]} {stmt[2]}"
    if kind == "bid":
        if not stmt[2]:
            return f"bid {stmt[1]} pass"
        return f"bid {stmt[1]} play" + ("" if stmt[3] is None else f" {stmt[3]}")
    if kind == "reshuffle":
        return "reshuffle"
    if kind == "exchange":
        discards, received = stmt[2], stmt[3]
        return f"exchange {stmt[1]} {' '.join(discards)} : {' '.join(received)}".replace(  # type: ignore[arg-type]
            "  ", " "
        )
    if kind == "trick":
        cards = ", ".join(f"{s} {c}" for s, c in stmt[2])  # type: ignore[attr-defined]
        return f"trick {stmt[1]}: {cards}" + (f" = {stmt[3]}" if stmt[3] else "")
    if kind == "penalty":
        return f"penalty {stmt[1]} renege"
    if kind == "claim":
        return f"= {stmt[1]} " + " ".join(f"{s} {n}" for s, n in stmt[2])  # type: ignore[attr-defined]
    raise AssertionError(kind)


def render(ruleset: str, names: Sequence[str], hands: list[list[Stmt]], meta: str) -> str:
    lines = ["%btn 2", "---", meta.rstrip("\n"), "---", f'[Ruleset "{ruleset}@1"]']
    lines.append(f'[Seats "{" ".join(names)}"]')
    for number, stmts in enumerate(hands, 1):
        lines += ["", f"hand {number}", *(render_stmt(s) for s in stmts)]
    text = "\n".join(lines) + "\n"
    rules = trick_rulesets()
    transcript = read_btn2(text, "(fixture)", lambda ref, where: rules[ref.split("@")[0]])
    return format_btn2(transcript)


# --- outcomes --------------------------------------------------------------------------------


def outcomes(text: str, game: str = "bourre") -> tuple[dict[str, Expectation], dict[str, Trace]]:
    """The verdict of a text under every shipped trick ruleset of ``game`` (its common rules'
    id), and each replay's trace."""
    found: dict[str, Expectation] = {}
    traces: dict[str, Trace] = {}
    for name, rules in trick_rulesets(game).items():
        verdicts, trace, error = run_family_text(text, "(fixture)", rules)
        traces[name] = trace
        if error is not None:
            where = error.location
            found[name] = Expectation(syntax_error=(where.line, where.column) if where else (0, 0))
            continue
        found[name] = Expectation()
        for verdict in verdicts:
            if verdict.status == "pass":
                continue
            root = next((d for d in verdict.divergences if d.root), None)
            if root is None:
                rule = (verdict.error or "").partition(":")[0] or "(error)"
                found[name] = Expectation(position=verdict.position, rule=rule)
            else:
                found[name] = Expectation(position=root.position, rule=root.rule_id or "(none)")
            break
    return found, traces
