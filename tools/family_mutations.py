"""The trick family's fixtures, part 2: the changes that make a played hand break one rule
first (a card the obligations refuse, a wrong ante, claim, dealer...), on the statements of
:mod:`family_hands` (``tools/build_family_fixtures.py`` uses them)."""

from __future__ import annotations

from collections.abc import Callable

from family_hands import Played, Stmt, replay_swapped, statements

# --- mutations -------------------------------------------------------------------------------

Mutation = Callable[[list[Played], list[list[Stmt]]], str | None]
"""Changes the statements of a session in place; returns what it did (``None``: it cannot)."""


def _first(stmts: list[Stmt], kind: str) -> int | None:
    return next((i for i, s in enumerate(stmts) if s[0] == kind), None)


def renege(rule: str) -> Mutation:
    """A card the obligations refuse, where ``rule`` narrowed the choice: the seat plays one of
    its refused cards instead, and the card it should have played where it played that one;
    the hand is played again so (its tricks, winners and claims the engine's), the renege's
    penalty paid. Only a swap after which that is the hand's one renege will do."""

    def mutate(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
        played = ps[0]
        note = next((n for n in played.cards if n.rule == rule), None)
        if note is None:
            return None
        codes = played.hand.pack.codes
        refused = note.held & ~note.legal
        for wrong in (c for c in range(len(codes)) if refused >> c & 1):
            again = replay_swapped(played, note.seat, note.card, wrong)
            if len(again.hand.reneges) != 1 or again.hand.settlement is None:
                continue
            hands[0] = statements(again, first=True)
            name = played.hand.names[note.seat]
            return (
                f"{name} plays {codes[wrong]} in trick {note.trick} where {rule} allows "
                f"{codes[note.card]}, and pays the renege's penalty"
            )
        return None

    return mutate


def wrong_claim(word: str, delta: int = 1) -> Mutation:
    def mutate(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
        stmt = next((s for s in hands[0] if s[0] == "claim" and s[1] == word), None)
        if stmt is None:
            return None
        values = stmt[2]
        assert isinstance(values, list)
        seat, n = values[0]
        values[0] = (seat, n + delta)
        return f"the '= {word}' claim says {seat} {n + delta}, not {n}"

    return mutate


def wrong_winner(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    stmt = next((s for s in hands[0] if s[0] == "trick"), None)
    if stmt is None:
        return None
    cards = stmt[2]
    assert isinstance(cards, list)
    other = next(seat for seat, _ in cards if seat != stmt[3])
    said, stmt[3] = stmt[3], other
    return f"trick {stmt[1]} is claimed for {other}; {said} wins it"


def wrong_ante(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    stmt = hands[0][_first(hands[0], "ante") or 0]
    antes = stmt[1]
    assert isinstance(antes, list)
    seat, chips = antes[0]
    antes[0] = (seat, chips + 1)
    return f"{seat} antes {chips + 1} chips, not {chips}"


def faceup_elsewhere(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    stmts = hands[0]
    k = _first(stmts, "faceup")
    deal = stmts[_first(stmts, "deal") or 0]
    if k is None or deal[1] == stmts[k][1]:
        return None
    said = stmts[k][1]
    cards = deal[2]
    assert isinstance(cards, list)
    stmts[k] = ["faceup", deal[1], cards[-1]]
    return f"{deal[1]} shows the face-up card {cards[-1]}; the dealer {said} shows it"


def declare_out_of_turn(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    stmts = hands[0]
    bids = [i for i, s in enumerate(stmts) if s[0] == "bid"]
    if len(bids) < 2 or any(s[0] in ("exchange", "reshuffle") for s in stmts[bids[0] : bids[1]]):
        return None
    first, second = bids[0], bids[1]
    stmts[first], stmts[second] = stmts[second], stmts[first]
    return f"{stmts[first][1]} declares before {stmts[second][1]}, whose turn it is"


def fewer_declared(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    stmt = next(
        (s for s in hands[0] if s[0] == "bid" and s[2] and isinstance(s[3], int) and s[3] >= 2),
        None,
    )
    if stmt is None:
        return None
    said = stmt[3]
    assert isinstance(said, int)
    stmt[3] = said - 1
    return f"{stmt[1]} declares {said - 1} discards and exchanges {said}"


def dealer_passes(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    stmts = hands[0]
    hand = ps[0].hand
    dealer = hand.names[ps[0].start.dealer]
    if hand.faceup is None or hand.pack.codes[hand.faceup][0] != "A":
        return None
    k = next((i for i, s in enumerate(stmts) if s[0] == "bid" and s[1] == dealer), None)
    if k is None:
        return None
    del stmts[k + 1 :]
    stmts[k] = ["bid", dealer, False, None]
    return f"the dealer {dealer} passes on the face-up {hand.pack.codes[hand.faceup]}"


def out_of_turn(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    trick = next((s for s in hands[0] if s[0] == "trick"), None)
    if trick is None:
        return None
    cards = trick[2]
    assert isinstance(cards, list)
    cards[0], cards[1] = cards[1], cards[0]
    return f"{cards[0][0]} plays first to trick 1; {cards[1][0]} leads it"


def renege_unmade(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    stmts = hands[0]
    k = _first(stmts, "claim")
    trick = next((s for s in stmts if s[0] == "trick"), None)
    if k is None or trick is None:
        return None
    seat = trick[2][0][0]  # type: ignore[index]
    stmts.insert(k, ["penalty", seat])
    return f"{seat} is penalised for a renege it never made"


def cut_short(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    stmts = hands[0]
    k = max((i for i, s in enumerate(stmts) if s[0] == "trick"), default=None)
    if k is None:
        return None
    del stmts[k:]
    return "the hand stops before its last trick"


def no_card_pack(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    stmt = next(s for s in hands[0] if s[0] == "deal")
    cards = stmt[2]
    assert isinstance(cards, list)
    said, cards[0] = cards[0], "1" + str(cards[0])[-1]
    return f"{stmt[1]} is dealt {cards[0]}, a card not in the 52-card pack, for {said}"


def wrong_dealer(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    if len(hands) < 2:
        return None
    stmts = hands[1]
    k = _first(stmts, "dealer")
    assert k is not None
    names = ps[0].hand.names
    was = stmts[k][1]
    other = names[(names.index(str(was)) + 1) % len(names)]
    stmts[k] = ["dealer", other]
    return f"hand 2 is dealt by {other}; the deal passes to {was}"


def no_reshuffle(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    k = _first(hands[0], "reshuffle")
    if k is None:
        return None
    del hands[0][k]
    return (
        "the reshuffle is not recorded: the exchange after it draws cards that are not in the stock"
    )


def trump_ignored(ps: list[Played], hands: list[list[Stmt]]) -> str | None:
    """A trick a trump won, claimed for the highest card of the suit led: the claim reads the
    hand as if no suit were trump."""
    hand = ps[0].hand
    if hand.trump is None:
        return None
    trump = hand.pack.suits[hand.trump]
    for stmt in hands[0]:
        if stmt[0] != "trick" or stmt[3] is None:
            continue
        cards = stmt[2]
        assert isinstance(cards, list)
        led = cards[0][1][-1]
        if led == trump or not any(c[-1] == trump for _, c in cards[1:]):
            continue
        order = hand.rules.table.deck.ranks
        same = [(order.index(c[:-1]), s) for s, c in cards if c[-1] == led]
        said = max(same)[1]
        if said == stmt[3]:
            continue
        was, stmt[3] = stmt[3], said
        return (
            f"trick {stmt[1]} is claimed for {said}, whose card heads the suit led; {was} "
            "trumped it"
        )
    return None
