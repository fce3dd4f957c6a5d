"""What the trick family's reference engine says of a BTN 2 transcript, in the words of the
adapter protocol's version 2: the first event it rejects, what a seat may do now, a hand's
closing claims.

The kit judges an engine's answers with these (:mod:`.family_cases`) and the reference
adapter answers with them (:mod:`.family_reference_adapter`), each from the very document the
request carries, so that both read the same hand the same way. The hands are replayed as
``check`` replays them (:mod:`baloot_conformance.family.check.hand_check`): a ``legal``
request's hand is the checker's hand after its items, a ``claims`` request's the checker's
hand played out.

A decision is written as the BTN 2 line that would record it, seat included, as the writer
writes it (seats in the table's order) (:func:`action_words`): ``bid P2 pass``, ``bid P1 play
2``, ``bid E trumps S``, ``bid E domino T``, ``raise S pass``, ``raise S double E W``,
``raise W double N, redouble S``, ``knock S``; a card to a trick or to a layout is a card
code. Exchanges (discards, a pass's cards) are not asked about: their choices run to
hundreds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.family.btn import items as b2
from baloot_conformance.family.btn import json_form
from baloot_conformance.family.check.hand_check import HandReplay, replay_hand, start_replay
from baloot_conformance.family.check.moments import replay_through, step_cards
from baloot_conformance.family.check.partial import is_partial
from baloot_conformance.family.check.points_check import is_points_game
from baloot_conformance.family.corpus.generate import closing_items, start_item
from baloot_conformance.family.engine.actions import Action, Choose, Declare, Knock, Play, Wager
from baloot_conformance.family.engine.deck import Ring, cards_of
from baloot_conformance.family.engine.hand import TrickHand
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.engine.obligations import IllegalAction
from baloot_conformance.family.rules.model import TrickRuleset

#: The events before which the kit asks ``legal``: the seat's own choices.
ASKED_EVENTS = (b2.Play, b2.LayoutPlay, b2.Knock, b2.Call, b2.Wager)


class NotPlayable(Exception):
    """The reference engine cannot reach the position a request asks about."""


@dataclass(frozen=True, slots=True)
class FamilyRejection:
    """The first event a trick ruleset forbids: its hand's number, its index in that hand's
    items, its position, the rule and why."""

    hand: int
    event: int
    position: str
    rule_id: str | None
    reason: str


def read_document(
    data: Any, rules: TrickRuleset, path: str = "<request>", validate: bool = True
) -> b2.Transcript:
    """A BTN 2 document in its JSON form, read against ``rules`` (whatever its ``[Ruleset]``
    tag says: the request's ruleset is the one played); ``validate=False`` skips the schema
    (slow) for a document the kit wrote.

    Raises:
        TranscriptSyntaxError: it is not a valid BTN 2 document.
    """
    return json_form.from_json(data, path, lambda reference, location: rules, validate)


def ring_of(transcript: b2.Transcript, rules: TrickRuleset) -> Ring:
    """The ring of seats of a transcript's table, in the order of play."""
    return Ring.of_table(transcript.table.seats, rules.table.direction.option)


def verdicts(
    hands: Sequence[b2.Hand], rules: TrickRuleset, ring: Ring
) -> list[tuple[HandVerdict, Ledger | None]]:
    """Each hand's verdict and the ledger it leaves, the ledger carried as ``check`` does."""
    out: list[tuple[HandVerdict, Ledger | None]] = []
    ledger: Ledger | None = None
    for hand in hands:
        verdict, ledger = replay_hand(hand, rules, ring, ledger, "")
        out.append((verdict, ledger))
    return out


def first_rejection(
    hands: Sequence[b2.Hand], rules: TrickRuleset, ring: Ring
) -> FamilyRejection | None:
    """The first event of the hands (events only) that ``rules`` forbid: the first
    divergence's (a hand that ends before it is over is rejected at its last event), or the
    first event of a hand that cannot start; ``None`` when every event is accepted."""
    for hand, (verdict, _) in zip(hands, verdicts(hands, rules, ring), strict=True):
        if verdict.divergences:
            root = next((d for d in verdict.divergences if d.root), verdict.divergences[0])
            index = next(
                (
                    i
                    for i, item in enumerate(hand.items)
                    if isinstance(item, b2.Event) and item.position == root.position
                ),
                0,
            )
            return FamilyRejection(hand.number, index, root.position, root.rule_id, root.message)
        if verdict.status == "error":
            first = next((item for item in hand.items if isinstance(item, b2.Event)), None)
            position = first.position if first else hand.position
            rule = (verdict.error or "").partition(":")[0] or None
            return FamilyRejection(hand.number, 0, position, rule, verdict.error or "")
    return None


def hand_after(
    hands: Sequence[b2.Hand], rules: TrickRuleset, ring: Ring, walk: HandWalk | None = None
) -> TrickHand:
    """The reference engine's last hand after its items, the hands before it replayed for
    the ledger it starts from; ``walk`` goes on from its last hand when this one extends it
    by cards of the tricks (the next ``legal`` request of a walk through a hand).

    Raises:
        NotPlayable: a hand that records only some seats' deals, a hand that cannot start,
            or an event the ruleset forbids on the way.
    """
    if not hands:
        raise NotPlayable("the transcript has no hand")
    *before, last = hands
    if walk is not None:
        found = walk.extended(before, last, rules)
        if found is not None:
            return found.hand
    ledger = verdicts(before, rules, ring)[-1][1] if before else None
    if is_partial(last.items, ring) and not is_points_game(rules):
        raise NotPlayable(f"{last.position} does not record every seat's deal")
    replay = replay_through(last, rules, ring, ledger, "")
    if isinstance(replay, HandVerdict):
        raise NotPlayable(f"{last.position} cannot start: {replay.error}")
    if replay.divergences:
        root = replay.divergences[0]
        raise NotPlayable(f"{root.position} is not allowed: {root.message}")
    if walk is not None:
        walk.keep(before, last, rules, replay)
    return replay.hand


class HandWalk:
    """The last hand :func:`hand_after` replayed, to go on from: a walk through a hand asks
    about it again and again, each time a card longer (replayed from its start each time, a
    hand of 52 cards would cost some 1,400 cards)."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._items: tuple[b2.HandItem, ...] = ()
        self._replay: HandReplay | None = None

    def keep(
        self, before: Sequence[b2.Hand], last: b2.Hand, rules: TrickRuleset, replay: HandReplay
    ) -> None:
        self._key = (rules.id, rules.digest, tuple(before), last.number)
        self._items = last.items
        self._replay = replay

    def extended(
        self, before: Sequence[b2.Hand], last: b2.Hand, rules: TrickRuleset
    ) -> HandReplay | None:
        """The kept replay gone on to the end of ``last``, when ``last`` extends its hand by
        cards of the tricks; else ``None`` (and nothing is kept)."""
        replay, self._replay = self._replay, None
        done = len(self._items)
        if (
            replay is None
            or self._key != (rules.id, rules.digest, tuple(before), last.number)
            or last.items[:done] != self._items
            or not step_cards(replay, last.items[done:])
        ):
            return None
        self._items, self._replay = last.items, replay
        return replay


# --- legal ----------------------------------------------------------------------------------


def _in_turn(rules: TrickRuleset) -> bool:
    """Whether a Bourré declaration names its discards (``bid P1 play 2``)."""
    return rules.phases.declare is None or rules.phases.declare.option == "in_turn"


def action_words(hand: TrickHand, action: Action) -> str | None:
    """A decision as the BTN 2 line that records it; ``None`` for what is not asked about (a
    card: its code goes in ``cards``; an ante, a deal, a draw, a discard, a penalty)."""
    names = hand.names
    if isinstance(action, Declare):
        name = names[action.seat]
        if not action.play:
            return f"bid {name} pass"
        return f"bid {name} play {action.discards}" if _in_turn(hand.rules) else f"bid {name} play"
    if isinstance(action, Choose):
        words = ["bid", names[action.seat], action.contract]
        if action.arg is not None:
            contract = hand.rules.contracts[action.contract]
            pack = hand.pack
            words.append((pack.ranks if contract.play == "layout" else pack.suits)[action.arg])
        return " ".join(words)
    if isinstance(action, Wager):
        table = _table_order(hand)
        parts = [
            " ".join([word, *(names[s] for s in table if mask >> s & 1)])
            for word, mask in (("double", action.doubles), ("redouble", action.redoubles))
            if mask
        ]
        return f"raise {names[action.seat]} {', '.join(parts) or 'pass'}"
    if isinstance(action, Knock):
        return f"knock {names[action.seat]}"
    return None


def _table_order(hand: TrickHand) -> list[int]:
    """The seats in the table's order (the ``[Seats]`` tag's, as the writer lists seats): the
    ring's, whose tail is reversed when the table plays counter-clockwise."""
    seats = list(range(len(hand.names)))
    if hand.rules.table.direction.option == "counter_clockwise":
        seats = seats[:1] + seats[:0:-1]
    return seats


def legal_now(hand: TrickHand, seat: str) -> dict[str, list[str]]:
    """What ``seat`` may do now: the cards it may play (to the trick, or to the layout) and
    its other decisions (:func:`action_words`), each list sorted."""
    if seat not in hand.names:
        return {"cards": [], "actions": []}
    index = hand.names.index(seat)
    codes = hand.pack.codes
    if hand.phase == "tricks":
        turn = hand.to_act()
        cards = cards_of(hand.legal_cards()) if turn == index else []
        return {"cards": sorted(codes[c] for c in cards), "actions": []}
    found_cards: list[str] = []
    actions: list[str] = []
    for action in hand.legal_actions():
        if getattr(action, "seat", None) != index:
            continue
        if isinstance(action, Play):
            found_cards.append(codes[action.card])
            continue
        words = action_words(hand, action)
        if words is not None:
            actions.append(words)
    return {"cards": sorted(set(found_cards)), "actions": sorted(set(actions))}


#: The rule a phase's decisions are made under, for a decision an engine leaves out.
_PHASE_RULES = {
    "layout": "phases.layout",
    "choose": "phases.choose",
    "wagers": "phases.wagers",
    "draw": "phases.draw.declare",
}


def legal_rule(hand: TrickHand, seat: str, card: str | None, words: str | None) -> str:
    """The rule that decides whether ``seat`` may play ``card`` or take the decision
    ``words`` now: the rule a forbidden one breaks, else the phase's (the obligations in
    the tricks)."""
    action = _action_of(hand, seat, card, words)
    if action is not None:
        try:
            hand.copy().push(action)
        except IllegalAction as error:
            return str(error.rule_id)
    if hand.phase == "tricks":
        return str(hand.rules.play.obligations.id)
    return _PHASE_RULES.get(hand.phase, "phases.pipeline")


def why_not(hand: TrickHand, seat: str, card: str | None, words: str | None) -> str | None:
    """Why the ruleset forbids it, in the reference engine's words (``None``: it does not,
    or it cannot be told)."""
    action = _action_of(hand, seat, card, words)
    if action is None:
        return None
    try:
        hand.copy().push(action)
    except IllegalAction as error:
        return error.reason
    return None


def _action_of(hand: TrickHand, seat: str, card: str | None, words: str | None) -> Action | None:
    """The action a card or a decision's words stand for, if the hand knows it."""
    if seat not in hand.names:
        return None
    index = hand.names.index(seat)
    if card is not None:
        at = hand.pack.index.get(card)
        return None if at is None else Play(index, at)
    for action in _every_decision(hand, index):
        if action_words(hand, action) == words:
            return action
    return None


def _every_decision(hand: TrickHand, seat: int) -> list[Action]:
    """Every decision of ``seat`` the hand could name, legal or not (to find a rule)."""
    if hand.phase == "layout":
        return [Knock(seat)]
    if hand.phase == "draw":
        return [Declare(seat, False), *(Declare(seat, True, n) for n in range(9))]
    if hand.phase == "choose":
        out: list[Action] = []
        for name, contract in hand.rules.contracts.items():
            if contract.play == "layout":
                out += [Choose(seat, name, r) for r in range(len(hand.pack.ranks))]
            elif contract.trump == "named":
                out += [Choose(seat, name, s) for s in range(len(hand.pack.suits))]
            else:
                out.append(Choose(seat, name))
        return out
    if hand.phase == "wagers":
        every = (1 << len(hand.names)) - 1
        return [Wager(seat, d, r) for d in range(every + 1) for r in range(every + 1)]
    return []


# --- claims ---------------------------------------------------------------------------------


def closing_claims(hand: TrickHand, prefix: str) -> list[dict[str, Any]]:
    """A played-out hand's closing claims in BTN 2's JSON form (without positions): a pot
    game's ``tricks``, ``pot`` and ``pays`` (when a seat takes or pays), ``score``; a points
    game's ``tricks`` (played as tricks), ``points``, ``score``, ``total``, ``order`` (after
    a layout)."""
    if not hand.is_over():
        return []
    claims = [json_form.item_json(item) for item in closing_items(hand, prefix)]
    return [{k: v for k, v in claim.items() if k != "position"} for claim in claims]


# --- what a request shows of a hand ------------------------------------------------------------


def start_json(hand: TrickHand) -> dict[str, Any]:
    """The ``start`` event that states the game before ``hand`` (a pot game's pot and who
    is exempt from the ante, a points game's hand number, totals and the declarer's block)."""
    item = start_item(hand, "h0")
    return {k: v for k, v in json_form.item_json(item).items() if k != "position"}


def opening_hand(
    hand: b2.Hand, ledger: Ledger | None, rules: TrickRuleset, ring: Ring
) -> TrickHand | None:
    """The reference engine's ``hand`` before its first item, from the ``ledger`` the hands
    before it leave (``None`` when it cannot start)."""
    replay = start_replay(hand, rules, ring, ledger, "")
    return None if isinstance(replay, HandVerdict) else replay.hand
