"""A picture of one moment of a hand: what ``show``, ``check --diagram`` and the HTML report
draw.

A :class:`Table` is taken from the reference interpreter's hand at that moment (each seat's
cards, the trick on the table, the contract, the card points so far) and holds plain text
only, so that it travels with a divergence to any report, in any process, and renders the
same everywhere. The table at table talk (:func:`talk_table`: a Sawa, a foul call) also
names who talks and carries the verdict under the picture, with a Sawa's line of play.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Protocol

from baloot_conformance.cards import CARDS, Card
from baloot_conformance.engine.actions import FoulCall, Play, SawaClaim, target_name
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import SEAT_NAMES, IllegalAction, cards_of
from baloot_conformance.engine.table_talk import Judged


class Picture(Protocol):
    """What a divergence's ``table`` is: Baloot's :class:`Table`, or the picture of another
    game of the trick family (``family/check/table.py``'s ``RingTable``: n seats in a ring),
    which the reports draw with their ring layouts. Both hold plain text only."""

    @property
    def hand(self) -> int: ...

    @property
    def trick(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Table:
    """One moment of a hand, in the notation's words (seats N W S E, cards ``QS``)."""

    hand: int
    """The hand's number."""
    trick: int
    """The trick on the table (1-8), 0 before the play."""
    dealer: str
    contract: str
    """As the notation writes it (``N hokum S x2 closed``), or ``auction`` while it runs."""
    trump: str | None
    """The trump suit's letter in Hokum."""
    holdings: tuple[tuple[str, ...], ...]
    """Each seat's cards, in seat order N, W, S, E."""
    on_table: tuple[tuple[str, str], ...]
    """The cards played to the trick on the table, in order: (seat, card)."""
    to_play: str | None
    """The seat whose card is next, in the play."""
    legal: tuple[str, ...] = ()
    """The cards ``to_play`` may play (what the ruleset allows)."""
    played: str | None = None
    """The card this picture is about (an illegal card, or the one shown last)."""
    points: tuple[int, int] = (0, 0)
    """Card points won so far, NS and EW."""
    totals: tuple[int, int] = (0, 0)
    """The game's running totals before the hand."""
    talk: tuple[str, str] | None = None
    """Table talk the picture is about: the seat that talks and what it does, as its label
    says it (``("N", "claims Sawa")``, ``("E", "calls a foul")``)."""
    called: str | None = None
    """The card a foul call names, marked where the picture shows it."""
    claim: tuple[str, ...] = ()
    """Lines under the picture: the talk in full (who claims, the card called, a rule it
    breaks by being made there) and its verdict in a player's words, with a Sawa's line (its
    forcing order when right, a refutation when wrong): the words of the checker's
    divergences on it."""


def table_of(engine: Hand, number: int, played: Card | None = None) -> Table:
    """The picture of ``engine`` (hand ``number``) as it stands; ``played``: the card the
    picture is about, when it is not yet on the table (an illegal card)."""
    from baloot_conformance.check.words import contract_words

    playing = engine.phase in ("raises", "play", "over")
    contract = contract_words(engine.contract) if engine.contract else "auction"
    if engine.phase == "over" and engine.contract is None:
        contract = "none"
    to_play = engine.to_play() if engine.phase in ("raises", "play") else None
    on_table = [
        (SEAT_NAMES[(engine.leader + i) % 4], CARDS[c].code) for i, c in enumerate(engine.trick)
    ]
    if engine.phase == "over" and engine.tricks_done:  # the last trick, still in view
        plays = [a for a in engine.history if isinstance(a, Play)][-4:]
        on_table = [(SEAT_NAMES[play.seat], play.card.code) for play in plays]
    return Table(
        hand=number,
        trick=engine.tricks_done + 1 if playing and engine.tricks_done < 8 else engine.tricks_done,
        dealer=SEAT_NAMES[engine.dealer],
        contract=contract,
        trump=engine.contract.trump.value if engine.contract and engine.contract.trump else None,
        holdings=tuple(tuple(card.code for card in cards_of(cards)) for cards in engine.hands),
        on_table=tuple(on_table),
        to_play=SEAT_NAMES[to_play] if to_play is not None else None,
        legal=tuple(card.code for card in cards_of(engine.legal_cards()))
        if to_play is not None
        else (),
        played=played.code if played is not None else None,
        points=(engine.points[0], engine.points[1]),
        totals=engine.totals,
    )


def talk_table(
    engine: Hand, number: int, talk: SawaClaim | FoulCall, judged: Judged | None = None
) -> Table:
    """The picture of ``talk`` (a Sawa or a foul call) with ``engine`` the hand just before
    it: every seat's remaining cards, the trick so far (for a call on the trick just
    finished, that trick, still in view), who talks, and under it the verdict with its line.
    ``judged``: the verdict when the replay has it already; else it is judged here, on a
    copy of ``engine``, which says as well a rule the talk breaks by being made there."""
    table = dataclasses.replace(table_of(engine, number), legal=())
    seat = SEAT_NAMES[talk.seat]
    broken = ""
    if judged is None:
        after = engine.copy()
        after.trace = None  # counted once, by the replay itself
        try:
            after.push(talk)
        except IllegalAction as exc:
            broken = f" ({exc.rule_id}: {exc.reason})"
            after.force_claim(talk)
        judged = after.claim
    verdict = judged.reason if judged is not None else "it cannot be judged here"
    if isinstance(talk, SawaClaim):
        left = 8 - engine.tricks_done
        said = f"{seat} claims Sawa with {left} trick{'s' if left != 1 else ''} left{broken}"
        return dataclasses.replace(table, talk=(seat, "claims Sawa"), claim=(said, verdict))
    plays = [action for action in engine.history if isinstance(action, Play)]
    target = target_name(talk.play)
    if talk.play is None:
        said = f"{seat} calls a foul naming no card{broken}"
        return dataclasses.replace(table, talk=(seat, "calls a foul"), claim=(said, verdict))
    if not 0 <= talk.play < len(plays):
        said = f"{seat} calls a foul on {target}, a card not played yet{broken}"
        return dataclasses.replace(table, talk=(seat, "calls a foul"), claim=(said, verdict))
    card = plays[talk.play]
    said = f"{seat} calls a foul on {SEAT_NAMES[card.seat]}'s {card.card} ({target}){broken}"
    if not engine.trick and talk.play // 4 == engine.tricks_done - 1:  # the trick just done
        last = plays[-4:]
        table = dataclasses.replace(
            table,
            trick=engine.tricks_done,
            on_table=tuple((SEAT_NAMES[play.seat], play.card.code) for play in last),
            to_play=None,
        )
    return dataclasses.replace(
        table, talk=(seat, "calls a foul"), called=card.card.code, claim=(said, verdict)
    )
