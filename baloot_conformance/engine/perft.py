"""Perft: the number of legal continuations of a hand to a depth, as chess engines count them.

``perft(hand, d)`` is the number of sequences of ``d`` plies that may follow ``hand``;
``divide(hand, d)`` splits it by the first ply, as ``go perft`` of a chess engine prints it.
An engine whose move generation differs from the ruleset's anywhere in that tree, not only
along one recorded game, gets another count: perft compares legal-move generation
exhaustively, and ``divide`` leads to the first position where they part.

**A ply** is an action a seat chooses that moves the hand along its tree: a call of the
auction (:class:`~baloot_conformance.engine.actions.Bid`), a raise or a pass of the raise
chain (:class:`~baloot_conformance.engine.actions.Raise`), the lock choice
(:class:`~baloot_conformance.engine.actions.Lock`) and a card
(:class:`~baloot_conformance.engine.actions.Play`), each exactly when
:meth:`~baloot_conformance.engine.hand.Hand.legal_actions` offers it. Not plies:

- the declarations of trick 1 and the Baloot announcement: optional words that change the
  score, never which card or call may come next, so that counting them would multiply every
  count by the ways of saying them without telling move generators apart;
- table talk (a Sawa, a foul call, a Kawesh): claims about the hand, judged apart (the
  ``judge`` request), which end it rather than continue it;
- the completion of the deal: the dealer's, not a choice. A hand dealt from a known pack
  (:meth:`~baloot_conformance.engine.hand.Hand.shuffled`) completes itself when its auction
  ends and the count goes on into the raises and the play; a hand from a transcript knows
  only the completion that its own auction led to (another buyer would have received other
  cards), so there the call that ends the auction is a leaf: 1 at depth 0, no continuation;
- a window that lapses by itself (a Sun-claim window, a pending Hokum confirmed by the next
  card): its calls are plies, its lapse is not (it leaves the hand where the passes would).

The hand is the whole tree: a hand that is over (its eighth trick, a void auction) is a leaf,
and perft does not go on into the next hand. A sequence that ends before ``d`` plies counts
nothing at depth ``d``, as a chess game that ends in mate before the depth.

Speed: in the play, the count runs on the four hands' bit masks alone
(:meth:`~baloot_conformance.engine.play.PlayRules.legal` and ``winner``, which depend on the
holder's cards and the trick only), with an undo instead of a copy, the last ply counted in
bulk (the legal mask's population count), and a transposition table at each trick's start
for deep counts (the same four hands and leader are reached by playing the same cards in
another order; the table is keyed by the contract's play rules too, which a raise may
change). Before the first card it copies the hand and pushes each call.
"""

from __future__ import annotations

from baloot_conformance.engine.actions import Bid, Lock, Play, Raise, call_word
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import SEAT_NAMES, CardSet, Seat
from baloot_conformance.engine.play import PlayRules

Ply = Bid | Raise | Lock | Play
"""The actions that are plies."""

_CARD_BITS = (1 << 32) - 1
"""The card bits of :meth:`~baloot_conformance.engine.play.PlayRules.decide`'s answer."""
_MEMO_DEPTH = 5
"""The least remaining depth at a trick's start whose count is kept in the table: below it
a count is cheaper to make again than to look up."""
_MEMO_SIZE = 1 << 20
"""The most counts the table keeps (a few hundred MB at most)."""


def plies(hand: Hand) -> list[Ply]:
    """The plies that may come next, in the order of
    :meth:`~baloot_conformance.engine.hand.Hand.legal_actions` (calls, then cards by index)."""
    if hand.phase == "auction":
        return list(hand.auction.legal_calls())
    return [a for a in hand.legal_actions() if isinstance(a, (Bid, Raise, Lock, Play))]


def ply_words(ply: Ply) -> str:
    """A ply as ``divide`` and the protocol's ``perft`` answer name it: the seat, then the
    card or the call as the notation writes it after the seat (``S 7H``, ``N pass``,
    ``E hokum S``, ``W double``, ``W closed``)."""
    what = ply.card.code if isinstance(ply, Play) else call_word(ply)
    return f"{SEAT_NAMES[ply.seat]} {what}"


def perft(hand: Hand, depth: int) -> int:
    """The number of sequences of ``depth`` plies that may follow ``hand`` (1 at depth 0).

    Raises:
        ValueError: a negative depth.
    """
    if depth < 0:
        raise ValueError(f"the depth is a number of plies, at least 0, not {depth}")
    if depth == 0:
        return 1
    return _count(_untraced(hand), depth, {})


def divide(hand: Hand, depth: int) -> list[tuple[Ply, int]]:
    """Each first ply and the number of sequences of ``depth`` plies it begins, in the order
    of :func:`plies`; their sum is ``perft(hand, depth)``.

    Raises:
        ValueError: a depth below 1 (there is no first ply to divide by).
    """
    if depth < 1:
        raise ValueError(
            f"divide counts from a first ply: the depth must be at least 1, not {depth}"
        )
    root = _untraced(hand)
    memo: dict[tuple[int, ...], int] = {}
    counts = []
    for ply in plies(root):
        child = root.copy()
        child.push(ply)
        counts.append((ply, 1 if depth == 1 else _count(child, depth - 1, memo)))
    return counts


def _untraced(hand: Hand) -> Hand:
    """A copy of ``hand`` that counts no rule: perft explores, it does not check a game."""
    copy = hand.copy()
    copy.trace = None
    copy.auction.trace = None
    copy.raises.trace = None
    copy.declarations.trace = None
    return copy


def _count(hand: Hand, depth: int, memo: dict[tuple[int, ...], int]) -> int:
    """:func:`perft` for ``depth`` at least 1, on an untraced hand it may change."""
    phase = hand.phase
    if phase == "play":
        return _cards_from(hand, depth, memo)
    if phase == "auction":
        calls: list[Ply] = list(hand.auction.legal_calls())
        cards = False
    elif phase == "raises":
        assert hand.contract is not None
        window = (*hand.raises.legal(hand.contract), *hand.raises.locks())  # legal_actions'
        calls = [a for a in window if isinstance(a, (Raise, Lock))]
        cards = True  # the first card closes the window: the count goes on as in the play
    else:  # over, or a deal whose completion is not known: a leaf
        return 0
    if depth == 1:
        total = len(calls)
    else:
        total = 0
        for call in calls:
            child = hand.copy()
            child.push(call)
            total += _count(child, depth - 1, memo)
    if cards:
        total += _cards_from(hand, depth, memo)
    return total


def _cards_from(hand: Hand, depth: int, memo: dict[tuple[int, ...], int]) -> int:
    """The sequences of ``depth`` cards from the hand's position in the play."""
    hands = list(hand.hands)
    if depth > sum(cards.bit_count() for cards in hands):
        return 0  # the hand ends first
    rules = hand.play_rules
    assert rules is not None
    if hand.trick or depth < 2:
        return _cards(rules, hands, hand.trick, hand.leader, depth, memo)
    # Before the first card, the raise window's calls in another order (N pass, S pass; S
    # pass, N pass) reach the same cards and the same contract: their count is kept too.
    key = (id(rules), hands[0], hands[1], hands[2], hands[3], hand.leader, depth)
    known = memo.get(key)
    if known is None:
        known = memo[key] = _cards(rules, hands, (), hand.leader, depth, memo)
    return known


def _cards(
    rules: PlayRules,
    hands: list[CardSet],
    trick: tuple[int, ...],
    leader: Seat,
    depth: int,
    memo: dict[tuple[int, ...], int],
) -> int:
    """The sequences of ``depth`` cards (at least 1) from ``hands`` (changed and restored),
    ``trick`` on the table, led by ``leader``."""
    n = len(trick)
    seat = (leader + n) & 3
    held = hands[seat]
    legal = rules.decide(held, trick) & _CARD_BITS  # PlayRules.legal, without its call
    if depth == 1:
        return legal.bit_count()
    key: tuple[int, ...] | None = None
    if n == 0 and depth >= _MEMO_DEPTH:
        key = (id(rules), hands[0], hands[1], hands[2], hands[3], leader, depth)
        known = memo.get(key)
        if known is not None:
            return known
    total = 0
    if depth == 2 and n < 3:  # the next seat's legal cards, counted in bulk
        after = (seat + 1) & 3
        other = hands[after]
        while legal:
            low = legal & -legal
            legal ^= low
            total += (rules.decide(other, (*trick, low.bit_length() - 1)) & _CARD_BITS).bit_count()
        return total
    while legal:
        low = legal & -legal
        legal ^= low
        hands[seat] = held ^ low
        card = low.bit_length() - 1
        if n == 3:
            done = (*trick, card)
            winner = (leader + rules.winner(done)) & 3
            total += _cards(rules, hands, (), winner, depth - 1, memo)
        else:
            total += _cards(rules, hands, (*trick, card), leader, depth - 1, memo)
    hands[seat] = held
    if key is not None and len(memo) < _MEMO_SIZE:
        memo[key] = total
    return total
