"""The table of a BTN 2 transcript at any position: what ``show`` draws for the trick family.

:func:`table_at_position` replays the hands before the one asked for as the checker does
(:func:`~baloot_conformance.family.check.hand_check.replay_hand`, the ledger carried from hand
to hand), then that hand's items up to the position, and pictures the family engine's hand just
before the event or claim there (:class:`~baloot_conformance.family.check.table.RingTable`): at
a card (``h1.t2.p3``), that card shown as the one played with the cards the ruleset allowed; at
a deal line, the table before the deal. A replay that stops before the position (an illegal
event that is not penalised) draws nothing: the table is never drawn from a replay that went
wrong, as for Baloot (:class:`~baloot_conformance.check.run.NoSuchMoment`).
"""

from __future__ import annotations

from collections.abc import Sequence

from baloot_conformance.check.run import NoSuchMoment
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.family.btn import items as b2
from baloot_conformance.family.btn.reader import Btn2Reader
from baloot_conformance.family.check.hand_check import (
    HandReplay,
    _run,
    replay_hand,
    start_replay,
)
from baloot_conformance.family.check.run import _ruleset_for
from baloot_conformance.family.check.table import RingTable, ring_table
from baloot_conformance.family.engine.deck import Ring
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.rules.model import TrickRuleset


def read_hands(
    data: bytes | str, path: str, ruleset: TrickRuleset | None = None
) -> tuple[TrickRuleset, Ring, list[b2.Hand]]:
    """A transcript's ruleset (``ruleset``, else its ``[Ruleset]`` tag's), its ring of seats
    and its hands.

    Raises:
        TranscriptSyntaxError: the file is not valid BTN 2.
        UnreadableInputError: its ``[Ruleset]`` names no shipped trick ruleset.
    """
    reader = Btn2Reader(data, path, lambda ref, at: ruleset or _ruleset_for(ref, at))
    rules = reader.ruleset if ruleset is None else ruleset
    ring = Ring.of_table(reader.head().table.seats, rules.table.direction.option)
    return rules, ring, list(reader)


def table_at_position(
    hands: list[b2.Hand], rules: TrickRuleset, ring: Ring, position: str, path: str = "-"
) -> RingTable:
    """The table just before the event or claim at ``position`` (``h1.t2.p3``, ``h1.bid3``,
    ``h1.pot``).

    Raises:
        NoSuchMoment: no item has that position, or the replay stops before it.
    """
    for index, hand in enumerate(hands):
        at = next(
            (k for k, item in enumerate(hand.items) if getattr(item, "position", None) == position),
            None,
        )
        if at is not None:
            return _table_in(hands, index, at, rules, ring, path)
    known = ", ".join(hand.position for hand in hands) or "none"
    raise NoSuchMoment(
        f"no event or claim is at {position} (the hands are {known}; positions look like "
        "h1.t2.p3, h1.bid2, h1.x.P3, h1.deal.P1, h1.pot)"
    )


def table_at_trick(
    hands: list[b2.Hand], rules: TrickRuleset, ring: Ring, number: int, trick: int, path: str = "-"
) -> RingTable:
    """The table of hand ``number`` at trick ``trick``, its last card shown as the one played.

    Raises:
        NoSuchMoment: no such hand or trick, or the replay stops before that card.
    """
    hand = next((h for h in hands if h.number == number), None)
    if hand is None:
        known = ", ".join(str(h.number) for h in hands) or "none"
        raise NoSuchMoment(f"there is no hand {number} (the hands are {known})")
    if trick < 1:
        raise NoSuchMoment(f"tricks are numbered from 1, not {trick}")
    cards = hand.trick(trick)
    if not cards:
        done = max((i.trick for i in hand.items if isinstance(i, b2.Play)), default=0)
        raise NoSuchMoment(f"hand {number} has {done} tricks, not {trick}")
    return table_at_position(hands, rules, ring, cards[-1].position, path)


def _table_in(
    hands: list[b2.Hand], index: int, at: int, rules: TrickRuleset, ring: Ring, path: str
) -> RingTable:
    ledger: Ledger | None = None
    for before in hands[:index]:
        _, ledger = replay_hand(before, rules, ring, ledger, path)
    hand = hands[index]
    replay = start_replay(hand, rules, ring, ledger, path)
    if isinstance(replay, HandVerdict):
        raise NoSuchMoment(f"{hand.position} cannot be replayed: {replay.error}")
    item = hand.items[at]
    upto = at
    if isinstance(item, (b2.Deal, b2.FaceUp)):  # the table before the deal, not half dealt
        upto = next(k for k, i in enumerate(hand.items) if isinstance(i, (b2.Deal, b2.FaceUp)))
    _run(replay, hand.items[:upto])
    if replay.stopped:  # a renege is played on; any other illegal event stops the replay
        first = replay.divergences[-1] if replay.divergences else None
        why = f"{first.position}: {first.message}" if first else "it stops"
        raise NoSuchMoment(f"the replay of {hand.position} stops before {position_of(item)}: {why}")
    played = item.card if isinstance(item, b2.Play) else None
    return ring_table(replay.hand, hand.number, played)


def replay_through(
    hand: b2.Hand, rules: TrickRuleset, ring: Ring, ledger: Ledger | None, path: str = "-"
) -> HandReplay | HandVerdict:
    """The replay of ``hand`` after all its items (from ``ledger``, or its own ``start``), as
    the checker replays them, or the verdict of a hand that cannot start: the hand just
    before the event that would follow them (the adapter protocol's ``legal``, its
    ``claims`` once the hand is played out)."""
    replay = start_replay(hand, rules, ring, ledger, path)
    if isinstance(replay, HandReplay):
        _run(replay, hand.items)
    return replay


def step_cards(replay: HandReplay, items: Sequence[b2.HandItem]) -> bool:
    """Go on with a replay (after :func:`replay_through`) by ``items``, when they are cards of
    the tricks and nothing is pending (no deal to gather, no draw or discard due): the
    checker's common case, in which its loop only plays each card, so that the replay ends as
    :func:`replay_through` of the longer hand would. Whether it could: ``False`` when an item
    is anything else, or a card is illegal, and then the replay may have changed (replay the
    hand again)."""
    hand = replay.hand
    for item in items:
        if (
            type(item) is not b2.Play
            or replay.stopped
            or replay.divergences
            or replay.taken_up
            or hand.agenda
            or hand.phase != "tricks"
        ):
            return False
        replay.events += 1
        replay.last_event = item
        try:
            replay.play(item)
        except Exception:  # the checker's stop: an illegal card
            return False
        if replay.divergences:
            return False
    return True


def position_of(item: b2.HandItem) -> str:
    """An item's position (a comment has none)."""
    return item.position if isinstance(item, b2.Item) else "a comment"
