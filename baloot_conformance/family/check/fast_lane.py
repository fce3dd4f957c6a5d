"""The fast lane of the family's ``check``: a hand that passes, replayed without an item per
card.

Most hands of a day's logs pass, and for those the reference path's dearest work is what
nobody reads: a :class:`~baloot_conformance.family.btn.items.Play` item per card (its position
string, its ``file:line:col``) and a dispatch per item. The lane builds the hand with the
reference's own structural checks (:meth:`~baloot_conformance.family.btn.reader.Btn2Reader.
build`, ``lane=True``), each trick line's cards as one
:class:`~baloot_conformance.family.btn.items.CardRun`, and replays it with the reference's
own replay (:func:`~.hand_check.replay_hand`), which pushes those cards straight to the
engine.

It gives the hand up at the first thing out of the ordinary: a structural error, a hand that
does not record every deal, a card the engine refuses or that comes while something else is
pending, any divergence. The hand then goes to the reference path from the start, with the
ledger as it was before the hand (a ledger is immutable), so the reference decides all the
lane does not pass: the lane never yields anything but a pass, and the report is the same
either way (``tests/test_family_fast_lane.py`` compares the two on every family fixture,
generated games and damaged ones). ``check --reference-replay`` turns it off.
"""

from __future__ import annotations

from baloot_conformance.check.verdicts import EngineId, HandVerdict
from baloot_conformance.errors import TranscriptSyntaxError
from baloot_conformance.family.btn.reader import Btn2Reader, HandChunk
from baloot_conformance.family.check.hand_check import GiveUp, replay_hand
from baloot_conformance.family.check.partial import is_partial
from baloot_conformance.family.check.points_check import is_points_game
from baloot_conformance.family.engine.deck import Ring
from baloot_conformance.family.engine.ledger import Ledger
from baloot_conformance.family.rules.model import TrickRuleset


def lane_hand(
    reader: Btn2Reader,
    chunk: HandChunk,
    rules: TrickRuleset,
    ring: Ring,
    ledger: Ledger | None,
    path: str,
    engine: EngineId | None,
) -> tuple[HandVerdict, Ledger | None] | None:
    """The verdict of a hand that passes and the ledger after it, or ``None``: the hand is
    the reference path's."""
    try:
        hand = reader.build(chunk, lane=True)
    except TranscriptSyntaxError:
        return None
    if is_partial(hand.items, ring) and not is_points_game(rules):
        return None
    try:
        verdict, after = replay_hand(hand, rules, ring, ledger, path, engine)
    except GiveUp:
        return None
    return (verdict, after) if verdict.status == "pass" else None
