"""A picture of one moment of a trick family's hand (Bourré): what ``show``, ``check
--diagram`` and the HTML report draw for a BTN 2 transcript.

A :class:`RingTable` is the family's counterpart of Baloot's
:class:`~baloot_conformance.check.table.Table`: taken from the family engine's hand at that
moment and holding plain text only, so that it travels with a divergence to any report, in any
process, and renders the same everywhere. Where Baloot's table has four seats at the points of
a compass and two sides, this one has 2 to 8 seats in a ring, each for himself: their names
clockwise as the table lists them, each seat's cards already in the order a player sorts them
(by suit in the ruleset's order, strongest first, the trump suit in its trump order), the seats
that folded, the trick so far, the card played and the legal ones, the trump and the pot. The
reports place the seats and compute nothing (:mod:`baloot_conformance.report.ring_diagram`,
the HTML report's ring template); both kinds of table satisfy
:class:`~baloot_conformance.check.table.Picture`, the type a divergence's ``table`` has.
"""

from __future__ import annotations

from dataclasses import dataclass

from baloot_conformance.family.engine.actions import Play
from baloot_conformance.family.engine.hand import TrickHand


@dataclass(frozen=True, slots=True)
class RingTable:
    """One moment of a trick family's hand, in the notation's words (seats ``P1``, cards
    ``QS``); every per-seat field follows :attr:`seats`."""

    hand: int
    """The hand's number."""
    trick: int
    """The trick on the table (1 up), 0 before the play."""
    dealer: str
    seats: tuple[str, ...]
    """The seats clockwise round the table, as the transcript's ``[Seats]`` lists them."""
    direction: str
    """Which way the play goes round them: ``clockwise`` or ``counter_clockwise``."""
    suits: tuple[str, ...]
    """The pack's suit letters in the ruleset's order (the order a hand is drawn in)."""
    holdings: tuple[tuple[str, ...], ...]
    """Each seat's cards, in the order a player sorts them."""
    phase: str
    """The phase of the hand the picture is in (``draw``, ``tricks``, ``over`` ...)."""
    folded: tuple[str, ...] = ()
    """The seats that passed (folded): they hold no cards any more and play no trick."""
    tricks: tuple[tuple[str, int], ...] = ()
    """Tricks won so far by each seat in the play (none before the tricks)."""
    on_table: tuple[tuple[str, str], ...] = ()
    """The cards played to the trick on the table, in order: (seat, card)."""
    to_play: str | None = None
    """The seat whose card is next, in the tricks."""
    legal: tuple[str, ...] = ()
    """The cards ``to_play`` may play (what the ruleset allows)."""
    played: str | None = None
    """The card this picture is about (an illegal card, or the one shown last)."""
    trump: str | None = None
    """The trump suit's letter, once it is known."""
    faceup: str | None = None
    """The card turned up for trump (Bourré: the dealer's last card)."""
    pot: int = 0
    """The pot the hand is played for: the carried pot and this hand's antes so far."""
    contract: str | None = None
    """A points game's contract, once chosen, and who declared it: ``no_hearts by E``,
    ``trumps (S) by E``, ``domino from 7 by E`` (``None``: a pot game, or not chosen yet)."""
    layout: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """A layout's rows (Domino), by suit in the pack's order: the cards laid, lowest first
    (empty: the row is not opened)."""


def ring_table(hand: TrickHand, number: int, played: str | None = None) -> RingTable:
    """The picture of ``hand`` (hand ``number``) as it stands; ``played``: the card the
    picture is about, when it is not yet on the table (an illegal card, a card about to be
    played)."""
    names = hand.names
    clockwise = names
    direction = hand.rules.table.direction.option
    if direction == "counter_clockwise":  # the ring's own transform, which undoes itself
        clockwise = names[:1] + names[:0:-1]
    seat_of = {name: seat for seat, name in enumerate(names)}
    pack = hand.pack
    order = pack.display_order(hand.trump)

    def cards(mask: int) -> tuple[str, ...]:
        return tuple(pack.codes[c] for c in order if mask >> c & 1)

    on_table = tuple(
        (names[seat], pack.codes[card]) for seat, card in zip(hand.turns, hand.trick, strict=False)
    )
    tricks_done = hand.trick_number
    trick = tricks_done + 1 if hand.phase == "tricks" else tricks_done
    if hand.phase in ("settle", "over") and tricks_done:  # the last trick, still in view
        plays = [a for a in hand.history if isinstance(a, Play)][-len(hand.active) :]
        on_table = tuple((names[p.seat], pack.codes[p.card]) for p in plays)
    to_play = hand.to_act() if hand.phase in ("tricks", "layout") else None
    if hand.phase == "layout" and to_play is not None:
        legal = cards(hand.fitting(to_play))
    else:
        legal = cards(hand.legal_cards()) if to_play is not None else ()
    folded = tuple(n for n in clockwise if not getattr(hand.declared.get(seat_of[n]), "play", 1))
    return RingTable(
        hand=number,
        trick=trick,
        dealer=names[hand.ledger.dealer],
        seats=clockwise,
        direction=direction,
        suits=pack.suits,
        holdings=tuple(cards(hand.hands[seat_of[n]]) for n in clockwise),
        phase=hand.phase,
        folded=folded,
        tricks=tuple((n, hand.tricks[seat_of[n]]) for n in clockwise if seat_of[n] in hand.tricks),
        on_table=on_table,
        to_play=names[to_play] if to_play is not None else None,
        legal=legal,
        played=played,
        trump=pack.suits[hand.trump] if hand.trump is not None else None,
        faceup=pack.codes[hand.faceup] if hand.faceup is not None else None,
        pot=hand.pot,
        contract=_contract(hand),
        layout=_layout(hand),
    )


def _contract(hand: TrickHand) -> str | None:
    """The contract in words, for a points game whose declarer has chosen it."""
    if hand.rules.scoring.outcome.option != "points" or hand.phase in ("deal", "choose"):
        return None
    contract = hand.rules.contracts[hand.contract]
    text = hand.contract
    if contract.trump == "named" and hand.trump is not None:
        text += f" ({hand.pack.suits[hand.trump]})"
    if contract.play == "layout" and hand.start_rank is not None:
        text += f" from {hand.pack.ranks[hand.start_rank]}"
    if hand.declarer is not None:
        text += f" by {hand.names[hand.declarer]}"
    return text


def _layout(hand: TrickHand) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The layout's rows, once the layout phase has begun."""
    if not hand.rows:
        return ()
    pack = hand.pack
    rows = []
    for suit, row in enumerate(hand.rows):
        letter = pack.suits[suit]
        laid: tuple[str, ...] = ()
        if row is not None:
            laid = tuple(pack.ranks[r] + letter for r in range(row[0], row[1] + 1))
        rows.append((letter, laid))
    return tuple(rows)
