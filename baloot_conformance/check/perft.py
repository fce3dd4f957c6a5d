"""Perft at a position of a transcript: the hand replayed up to there, and its counts.

A position is the moment just before one event of a hand (``h2.t3.p1``: before the first
card of hand 2's third trick; ``h1.bid1``: before its first call; ``h1.bid6``: before its
sixth call, a raise maybe): :func:`position_name` spells the two common ones from a hand
and a trick. The hands before it are replayed as one game (its totals, which Sun raises
depend on, and its dealer), then the hand up to the event, each seat's cards known from the
whole hand (its ``rest`` lines, or its play); the count is
:func:`~baloot_conformance.engine.perft.perft`'s, whose module says what a ply is. Before
the auction's end the calls are counted up to the call that ends it (a leaf: a transcript
records the completion of its own auction only); from the raises on, the raises, the lock
choice and the cards, to the hand's end.

A position must be legal: one that comes after the transcript's first illegal event, or that
the replay cannot reach, is refused (:class:`PerftError`, one sentence saying which event and
why), as are a hand, trick or position the file does not have and a depth out of range.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass

from baloot_conformance import btn
from baloot_conformance.cards import CARDS, Card
from baloot_conformance.check.events import HandChecker, ReplayStop
from baloot_conformance.check.hand_check import replay_items
from baloot_conformance.check.run import replay_hands, starts_game
from baloot_conformance.check.verdicts import Divergence
from baloot_conformance.engine import perft as counting
from baloot_conformance.engine.actions import Bid, Play, call_action, call_word
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.hand import Hand
from baloot_conformance.engine.model import SEAT_NAMES, IllegalAction, Seat
from baloot_conformance.engine.trace import Trace
from baloot_conformance.errors import BalootError
from baloot_conformance.rules.ruleset import Ruleset

MAX_DEPTH = 64
"""The deepest count asked for: more plies than any hand has (32 cards, and the calls)."""

CARD_CODES = frozenset(card.code for card in CARDS)
_POSITION = re.compile(r"h([1-9][0-9]*)\.(bid[1-9][0-9]*|t([1-9][0-9]*)\.p[1-4])\Z")


class PerftError(BalootError):
    """A position perft cannot count from, or a depth out of range: what is wrong, in one
    sentence, with what to do."""


@dataclass(frozen=True, slots=True)
class PerftCount:
    """The count at a position: ``nodes`` sequences of ``depth`` plies, and with
    ``divide`` each first ply's share, in the order of the plies (calls, then cards)."""

    position: str
    depth: int
    nodes: int
    divide: tuple[tuple[str, int], ...] | None = None

    def to_json(self) -> dict[str, object]:
        """The count as ``perft --format json`` writes it and the protocol answers it."""
        data: dict[str, object] = {
            "position": self.position,
            "depth": self.depth,
            "nodes": self.nodes,
        }
        if self.divide is not None:
            data["divide"] = dict(self.divide)
        return data


def position_name(number: int, trick: int | None) -> str:
    """The position just before the first card of trick ``trick`` of hand ``number``
    (``h2.t3.p1``), or before the hand's first call when ``trick`` is ``None`` (``h2.bid1``)."""
    return f"h{number}.bid1" if trick is None else f"h{number}.t{trick}.p1"


def check_depth(depth: int, divide: bool = False) -> None:
    """Refuse a depth perft does not count.

    Raises:
        PerftError: below 0 (below 1 with ``divide``), or above :data:`MAX_DEPTH`.
    """
    least = 1 if divide else 0
    if depth < least:
        why = "divide splits the count by its first ply" if divide else "a depth counts plies"
        raise PerftError(
            f"the depth must be at least {least}, not {depth}: {why}",
            hint="--depth 1 counts the legal plies at the position",
        )
    if depth > MAX_DEPTH:
        raise PerftError(
            f"the depth {depth} is more plies than a hand has (at most {MAX_DEPTH})",
            hint="perft grows about tenfold a ply: depths of 1 to 8 are the useful ones",
        )


def count(hand: Hand, depth: int, divide: bool = False, position: str = "") -> PerftCount:
    """The count of ``hand`` (an engine hand: a position already replayed)."""
    check_depth(depth, divide)
    if not divide:
        return PerftCount(position, depth, counting.perft(hand, depth))
    shares = tuple((counting.ply_words(ply), n) for ply, n in counting.divide(hand, depth))
    return PerftCount(position, depth, sum(n for _, n in shares), shares)


def perft_at(
    hands: Sequence[btn.Hand], rules: Ruleset, position: str, depth: int, divide: bool = False
) -> PerftCount:
    """The count at ``position`` of the transcript's ``hands`` under ``rules``.

    Raises:
        PerftError: the depth is out of range, or the position is not in the transcript,
            comes after its first illegal event, or cannot be reached by its replay.
    """
    check_depth(depth, divide)
    return count(hand_at(hands, rules, position), depth, divide, position)


def hand_at(hands: Sequence[btn.Hand], rules: Ruleset, position: str) -> Hand:
    """The reference interpreter's hand just before the event at ``position``, the hands
    before it replayed as one game; the deal completed when the position is past the
    auction (before a raise, a card, ...).

    Raises:
        PerftError: see :func:`perft_at`.
    """
    index, at = _locate(hands, position)
    hand = hands[index]
    game: Game | None = None
    dealer: Seat | None = None
    for verdict, checker in replay_hands(hands[:index], "", rules):
        _refuse_after(verdict.divergences, position)
        game = checker.game
        dealer = checker.result.next_dealer if checker.result else None
    if game is None or game.is_over() or starts_game(hand):
        game, dealer = Game(rules, dealer=0), None
    checker = HandChecker(rules, "", "", game, dealer)
    checker.scan(hand)  # each seat's cards, from the whole hand
    item = hand.items[at]
    assert isinstance(item, btn.Item)
    try:
        replay_items(checker, hand.items[:at])
        _refuse_after(checker.divergences, position)
        return engine_now(checker, item, auction=type(item) is btn.Call and item.phase == "bid")
    except ReplayStop as exc:
        _refuse_after(checker.divergences, position)
        raise PerftError(f"the replay of {hand.position} stops before {position}: {exc}") from None


def engine_now(checker: HandChecker, item: btn.Item, auction: bool) -> Hand:
    """The engine hand of a replay stopped just before ``item``: started from the deal if no
    event needed it yet; once its auction is over, with its deal completed; and unless
    ``auction`` (the next event is a call of the auction, or not known), with what the
    auction leaves open settled (a Sun-claim window that lapses, a pending Hokum confirmed),
    as the next raise or card would find it.

    Raises:
        ReplayStop: the deal does not allow it.
    """
    engine = checker.engine_at(item)
    if not auction and engine.phase == "auction":
        with suppress(IllegalAction):  # a round-2 Hokum without its suit stays pending
            engine.settle_auction()
    if engine.phase == "completion":
        engine = checker.settle(item)
    return engine


def _locate(hands: Sequence[btn.Hand], position: str) -> tuple[int, int]:
    """The index of the hand holding the event at ``position``, and the event's index."""
    for index, hand in enumerate(hands):
        for at, item in enumerate(hand.items):
            if isinstance(item, btn.Item) and item.position == position:
                if not isinstance(item, btn.Event):
                    raise PerftError(
                        f"{position} is a claim, not an event: perft counts from just before "
                        "an event (a call or a card)",
                        hint="name the event the claim follows, e.g. h1.t3.p1",
                    )
                return index, at
    raise PerftError(_missing(hands, position), hint=_POSITIONS)


_POSITIONS = (
    "a position is --hand N with --trick T (before the first card of trick T) or --auction "
    "(before the first call), or the position of an event: h2.t3.p1, h1.bid4"
)


def _missing(hands: Sequence[btn.Hand], position: str) -> str:
    """Why there is no event at ``position``, in the transcript's terms."""
    numbers = [hand.number for hand in hands]
    found = _POSITION.match(position)
    if found is None:
        return f"{position!r} is not the position of a call or a card (h2.t3.p1, h1.bid4)"
    number = int(found.group(1))
    if number not in numbers:
        listed = ", ".join(str(n) for n in numbers) or "none"
        return f"there is no hand {number} (the hands are {listed})"
    hand = hands[numbers.index(number)]
    if found.group(3) is not None:
        trick = int(found.group(3))
        plays = sum(1 for item in hand.items if isinstance(item, btn.Play))
        if trick > 8:
            return f"a hand has 8 tricks, not {trick}"
        return f"hand {number} has no {position} (its play stops after {plays} cards)"
    calls = sum(1 for item in hand.items if type(item) is btn.Call)
    if not calls:
        return f"hand {number} logs no calls: its auction is not in the transcript"
    return f"hand {number} has {calls} calls, not {found.group(2).removeprefix('bid')}"


def _refuse_after(divergences: Sequence[Divergence], position: str) -> None:
    """Refuse a position after an illegal event: perft counts from a legal position only."""
    wrong = next((d for d in divergences if d.kind == "illegal_event"), None)
    if wrong is not None:
        raise PerftError(
            f"{position} comes after the transcript's first illegal event, {wrong.position} "
            f"({wrong.rule_id or 'no rule'}): {wrong.message}",
            hint="perft counts from a legal position: choose one before it",
        )


# --- comparing an engine's counts ---------------------------------------------------------


def first_difference(
    kit: Sequence[tuple[str, int]], theirs: Mapping[str, int]
) -> tuple[str, int, int] | None:
    """The first ply, in the kit's order and then the engine's, that the two divides count
    differently (a ply that begins no sequence may be left out on either side): its words,
    the kit's count and the engine's; ``None`` when they agree."""
    mine = {words: n for words, n in kit if n}
    other = {words: n for words, n in theirs.items() if n}
    for words in [*mine, *(w for w in other if w not in mine)]:
        if mine.get(words, 0) != other.get(words, 0):
            return words, mine.get(words, 0), other.get(words, 0)
    return None


def ply_named(hand: Hand, words: str) -> counting.Ply | None:
    """The legal ply ``words`` names (``S 7H``, ``N pass``), or ``None``."""
    return next((p for p in counting.plies(hand) if counting.ply_words(p) == words), None)


def after(hand: Hand, ply: counting.Ply) -> Hand:
    """The hand after a legal ply (a copy)."""
    child = hand.copy()
    child.trace = child.auction.trace = child.raises.trace = child.declarations.trace = None
    child.push(ply)
    return child


def ply_event(ply: counting.Ply) -> dict[str, object]:
    """A ply as the event the notation's JSON form writes for it."""
    seat = SEAT_NAMES[ply.seat]
    if isinstance(ply, Play):
        return {"event": "play", "seat": seat, "card": ply.card.code}
    word, _, arg = call_word(ply).partition(" ")
    event: dict[str, object] = {
        "event": "bid" if isinstance(ply, Bid) else "raise",
        "seat": seat,
        "call": word,
    }
    if arg:
        event["args"] = [arg]
    return event


def ply_rule(hand: Hand, words: str) -> tuple[str | None, str]:
    """Why ``words`` is or is not a ply at ``hand``: for one that is not, the rule that
    forbids it and the reason; for one that is, the rule that decided it may come (the first
    the engine counts on pushing it), and an empty reason."""
    seat_name, _, what = words.partition(" ")
    if seat_name not in SEAT_NAMES or not what:
        return None, f"{words!r} is not a ply the notation names (a seat, then a card or a call)"
    seat = SEAT_NAMES.index(seat_name)
    code = what if len(what) == 2 and what in CARD_CODES else None
    ply: counting.Ply
    if code is not None:
        ply = Play(seat, Card.from_code(code))
    else:
        ply = call_action(seat, "bid" if hand.phase == "auction" else "raise", what)
    legal = ply_named(hand, words) is not None
    trace = Trace()
    child = hand.copy()
    child.trace = child.auction.trace = child.raises.trace = child.declarations.trace = trace
    try:
        child.push(ply)
    except IllegalAction as exc:
        return exc.rule_id, exc.reason
    if not legal:  # pushed, but not offered: a card that stands as a foul, a declaration's kin
        return None, f"{words} is not among the plies the ruleset offers here"
    return next(iter(trace.counts), None), ""
