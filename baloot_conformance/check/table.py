"""A picture of one moment of a hand: what ``show``, ``check --diagram`` and the HTML report
draw.

A :class:`Table` is taken from the reference interpreter's hand at that moment (each seat's
cards, the trick on the table, the contract, the card points so far) and holds plain text
only, so that it travels with a divergence to any report, in any process, and renders the
same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

from baloot_conformance.cards import CARDS, Card
from baloot_conformance.engine.actions import Play
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import SEAT_NAMES, cards_of


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
