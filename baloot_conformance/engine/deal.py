"""The deal of a hand: the first round [deal.first_round], the face-up card [deal.faceup] and
the completion after the auction [deal.completion].

Pure checks and counts on card sets: the hand (:mod:`~baloot_conformance.engine.hand`) calls
them when it starts and when its deal is completed, so that a recorded deal and a deal from a
shuffled pack obey the same rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from baloot_conformance.cards import Card
from baloot_conformance.engine.model import (
    SEAT_NAMES,
    CardSet,
    IllegalAction,
    Seat,
    card_set,
    format_cards,
)
from baloot_conformance.rules.ruleset import Ruleset


def check_first_deal(
    rules: Ruleset, first_five: Sequence[CardSet], faceup: Card, stock: Sequence[Card] | None
) -> None:
    """Refuse a first round where a seat has the wrong number of cards or a card is given
    twice, a face-up card also dealt, or a stock that holds a card already dealt."""
    size = sum(rules.deal.first_round.packets)
    seen = 0
    for seat, cards in enumerate(first_five):
        if cards.bit_count() != size:
            raise IllegalAction(
                "deal.first_round",
                f"{SEAT_NAMES[seat]} was dealt {cards.bit_count()} cards, not {size}",
            )
        if seen & cards:
            raise IllegalAction(
                "deal.first_round", f"{format_cards(seen & cards)} dealt to two seats"
            )
        seen |= cards
    if seen >> faceup.index & 1:
        raise IllegalAction("deal.faceup", f"the face-up card {faceup} was also dealt")
    if stock is not None and (card_set(stock) & (seen | 1 << faceup.index)):
        raise IllegalAction("deal.completion", "the stock holds cards already dealt")


def first_seat(rules: Ruleset, dealer: Seat) -> Seat:
    """The seat dealt first, which calls first and may lead first [bidding.order]: the
    dealer's right, or the dealer himself (``first: dealer``)."""
    return dealer if rules.bidding.order.first == "dealer" else (dealer + 1) % 4


def deal_from_pack(
    rules: Ruleset, dealer: Seat, pack: Sequence[Card]
) -> tuple[tuple[CardSet, CardSet, CardSet, CardSet], Card, tuple[Card, ...]]:
    """The first round dealt from ``pack`` (top first), in packets from the first seat
    (:func:`first_seat`); then the face-up card and the stock the completion comes from."""
    hands = [0, 0, 0, 0]
    position = 0
    first = first_seat(rules, dealer)
    for packet in rules.deal.first_round.packets:
        for offset in range(4):
            seat = (first + offset) % 4
            for card in pack[position : position + packet]:
                hands[seat] |= 1 << card.index
            position += packet
    first_five = (hands[0], hands[1], hands[2], hands[3])
    return first_five, pack[position], tuple(pack[position + 1 :])


def rest_from_stock(
    rules: Ruleset, dealer: Seat, receiver: Seat, faceup: Card, stock: Sequence[Card]
) -> tuple[CardSet, CardSet, CardSet, CardSet]:
    """The completion dealt from the stock: the buyer's cards and the face-up card to the
    ``receiver``, the others' to the others, from the first seat."""
    completion = rules.deal.completion
    rest = [0, 0, 0, 0]
    position = 0
    first = first_seat(rules, dealer)
    for offset in range(4):
        seat = (first + offset) % 4
        size = completion.buyer if seat == receiver else completion.others
        for card in stock[position : position + size]:
            rest[seat] |= 1 << card.index
        position += size
    rest[receiver] |= 1 << faceup.index
    return (rest[0], rest[1], rest[2], rest[3])


def check_completion(
    rules: Ruleset,
    receiver: Seat,
    faceup: Card,
    rest: Sequence[CardSet],
    held: Sequence[CardSet],
) -> None:
    """Refuse a completion (``rest``, each seat's cards) where the ``receiver`` does not get
    the face-up card, a seat gets the wrong number of cards, or a card is given twice (or
    was ``held`` already)."""
    completion = rules.deal.completion
    dealt = held[0] | held[1] | held[2] | held[3]
    given = 0
    for seat, cards in enumerate(rest):
        receives = seat == receiver
        if receives and not cards >> faceup.index & 1:
            raise IllegalAction(
                "deal.completion",
                f"{SEAT_NAMES[seat]} bought and must receive the face-up card {faceup}",
            )
        size = completion.buyer + 1 if receives else completion.others
        if cards.bit_count() != size:
            raise IllegalAction(
                "deal.completion",
                f"{SEAT_NAMES[seat]} received {cards.bit_count()} cards, not {size}",
            )
        if cards & (given | dealt):
            clash = cards & (given | dealt)
            raise IllegalAction("deal.completion", f"{format_cards(clash)} was dealt twice")
        given |= cards
