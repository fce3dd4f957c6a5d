"""The fast lane of replay: a hand that passes, judged straight from its statements.

A transcript's reader hands each hand over as its statements
(:meth:`~baloot_conformance.btn.reader.TranscriptReader.chunks`). The reference path builds
the hand's items, then replays them (:func:`~baloot_conformance.check.hand_check.check_hand`).
Most hands of a day's logs pass, and for those most of that work is positions and objects
nobody reads: 32 play items, their position strings, a dispatch per item. The fast lane
replays the same hand with the same parts and skips only that work:

- the structural checks are the reference's own (:class:`~baloot_conformance.btn.builder.
  HandBuilder`), without building the items of the cards;
- every event and claim but the cards goes through the reference's
  :class:`~baloot_conformance.check.events.HandChecker`, item by item;
- a card goes straight to the engine (:meth:`Hand.push_play
  <baloot_conformance.engine.hand.Hand.push_play>`), as the checker's own hot path does, and
  a trick line's winner claim is compared with the trick the engine recorded.

It gives up on the first thing out of the ordinary: a divergence, a stop, a structural
error, a partial transcript, a hand it does not know how to take. The hand then goes to the
reference path from the start, with the game as it was before the hand, so the reference
decides everything the lane does not pass. The lane therefore never yields anything but a
pass, and the report is the same either way (``tests/test_fast_lane.py`` compares the two on
the fixture corpus, generated games and damaged ones); ``check --reference-replay`` turns it
off. :func:`~baloot_conformance.check.run.check_hands` chooses the lane; the lane knows nothing
of the run.
"""

from __future__ import annotations

from collections.abc import Iterator

from baloot_conformance import btn
from baloot_conformance.cards import Card
from baloot_conformance.check.claims import judge_claim
from baloot_conformance.check.events import PLAYS_OF, SEAT_OF, HandChecker, ReplayStop
from baloot_conformance.check.hand_check import check_hand, verdict_at
from baloot_conformance.check.verdicts import EngineId, HandVerdict
from baloot_conformance.engine.game import Game
from baloot_conformance.engine.model import SEAT_NAMES, IllegalAction, Seat, card_set
from baloot_conformance.engine.scoring import HandResult
from baloot_conformance.errors import FormulaError, TranscriptSyntaxError
from baloot_conformance.rules.ruleset import Ruleset


class _GiveUp(Exception):
    """The hand leaves the fast lane for the reference path."""


def check_chunks(
    reader: btn.TranscriptReader,
    path: str,
    ruleset: Ruleset,
    pictures: bool = False,
    engine_id: EngineId | None = None,
) -> Iterator[HandVerdict]:
    """:func:`~baloot_conformance.check.run.check_hands` over a reader: the same verdicts, each
    hand through the fast lane when it passes there, else through the reference path
    (``pictures``: its root divergence carries the table)."""
    name = f"{ruleset.id}@{ruleset.version}"
    game: Game | None = None
    expected_dealer: Seat | None = None
    for chunk in reader.chunks():
        if game is None or game.is_over() or _starts_game(chunk):
            game = Game(ruleset, dealer=0)
            expected_dealer = None
        before = (game.totals, game.dealer, game.winner, len(game.results))
        judged = _judge(
            chunk, reader.builder(chunk), ruleset, path, name, game, expected_dealer, engine_id
        )
        if judged is None:
            game.totals, game.dealer, game.winner = before[:3]
            del game.results[before[3] :]
            hand = reader.build(chunk)
            verdict, checker = check_hand(
                ruleset,
                hand,
                path,
                name,
                game,
                expected_dealer,
                lines=reader.source_line,
                pictures=pictures,
                engine_id=engine_id,
            )
            judged = verdict, checker.result
        yield judged[0]
        result = judged[1]
        expected_dealer = result.next_dealer if result else None


def _starts_game(chunk: btn.HandChunk) -> bool:
    """:func:`~baloot_conformance.check.run.starts_game` on statements: the first event is a
    ``start`` line."""
    for stmt in chunk.body:
        kind = stmt[0]
        if kind != "comment" and kind[0] != "=":
            return kind == "start"
    return False


def _judge(
    chunk: btn.HandChunk,
    builder: btn.HandBuilder,
    rules: Ruleset,
    path: str,
    name: str,
    game: Game,
    expected_dealer: Seat | None,
    engine_id: EngineId | None,
) -> tuple[HandVerdict, HandResult | None] | None:
    """The verdict on a hand that passes, with its result; ``None`` when the hand must go to
    the reference path (``game`` may then have changed: the caller puts it back)."""
    if chunk.problem is not None:
        return None
    _, v, line, column, _ = chunk.head
    checker = HandChecker(rules, path, name, game, expected_dealer, engine_id=engine_id)
    try:
        _scan(chunk.body, checker)
        checker.number = v[0]
        _replay(chunk.body, builder, checker)
        builder.close()
    except (_GiveUp, TranscriptSyntaxError, ReplayStop, FormulaError, IllegalAction):
        return None
    if checker.claimed_total is not None:
        game.go_on_from(checker.claimed_total)
    return verdict_at(checker, f"h{v[0]}", line, column, None), checker.result


def _scan(body: list[btn.Stmt], checker: HandChecker) -> None:
    """:meth:`HandChecker.scan` on statements, for a hand that logs its auction and its four
    ``rest`` lines before the play (or does not play: a void hand)."""
    kinds = {stmt[0] for stmt in body}
    if not {"bid", "faceup", "dealer"} <= kinds:
        raise _GiveUp  # a partial transcript
    if not kinds.isdisjoint(_TABLE_TALK):
        raise _GiveUp  # a foul call, a Sawa, a Kawesh, a verdict on one: left to the reference
    rest = checker.rest
    for stmt in body:
        kind = stmt[0]
        if kind == "rest":
            rest[SEAT_OF[stmt[1][0]]] = card_set(stmt[1][1])
            if len(rest) == 4:
                return
        elif kind == "play" or kind == "trick" or kind == "hold":
            raise _GiveUp  # the completion is read from the play or from 'hold' lines


#: The order of a hand the lane takes, by the first statement of each part: the deal (an
#: optional ``start``, ``dealer``, four ``deal`` lines, ``faceup``), the auction (``bid``
#: lines, four ``rest`` lines unless the hand is void, ``raise`` lines, ``= contract``), the
#: play (cards, declarations, legal-set and trick claims) and the closing claims. A hand in
#: another order, valid or not, goes to the reference path, which checks every order.
_DEAL, _AUCTION, _PLAY, _CLOSING = range(4)
_PLAY_ITEMS = frozenset({"declare", "baloot", "=legal", "=trick"})
#: The calls of the table talk and the verdicts on them: a hand that holds one goes to the
#: reference path.
_TABLE_TALK = frozenset({"foul", "sawa", "kawesh", "=foul", "=sawa"})
_CLOSING_KINDS = frozenset({"=team", "=result", "=kaboot", "=winner"})


def _replay(body: list[btn.Stmt], builder: btn.HandBuilder, checker: HandChecker) -> None:
    """Check the statements' order and replay them as the checker does; raises at the first
    thing the lane leaves to the reference path.

    The deal and the auction are checked here: their order (above) makes the builder's
    checks on them (each line once, four seats per group, no call after the contract claim)
    a matter of distinct seats and cards; the builder checks the play and the claims.
    """
    divergences = checker.divergences
    plays_of = PLAYS_OF
    game = checker.game
    stmts = iter(body)
    dealt = 0  # the cards given so far, each once
    # The deal.
    stmt = _next(stmts)
    if stmt[0] == "start":
        ns, ew = stmt[1]
        checker.totals = game.totals = (
            checker.totals[0] if ns is None else ns,
            checker.totals[1] if ew is None else ew,
        )
        checker.events += 1
        stmt = _next(stmts)
    if stmt[0] != "dealer":
        raise _GiveUp
    checker.dealer = dealer = SEAT_OF[stmt[1][0]]
    expected = checker.expected_dealer
    if expected is not None and dealer != expected:
        raise _GiveUp  # a divergence: the reference reports it
    five = checker.first_five
    for _ in range(4):
        stmt = _next(stmts)
        if stmt[0] != "deal" or len(stmt[1][1]) != 5:
            raise _GiveUp
        seat = SEAT_OF[stmt[1][0]]
        cards = card_set(stmt[1][1])
        if seat in five or cards & dealt or cards.bit_count() != 5:
            raise _GiveUp
        five[seat] = cards
        dealt |= cards
    stmt = _next(stmts)
    if stmt[0] != "faceup" or dealt >> stmt[1][0].index & 1:
        raise _GiveUp
    checker.faceup = stmt[1][0]
    dealt |= 1 << stmt[1][0].index
    checker.events += 6  # the dealer, the four deal lines, the face-up card
    # The auction.
    stmt = _next(stmts)
    engine = checker.engine_at(_NOWHERE)
    while stmt[0] == "bid":
        seat_name, word, args = stmt[1]
        engine.push(checker.bid(seat_name, word, args))  # IllegalAction: the reference reports it
        checker.events += 1
        if engine.phase == "over":  # a void hand
            checker.finish(engine)
        stmt = _next(stmts)
    if stmt[0] == "rest":
        seats = 0
        for number in range(4):
            if number:
                stmt = _next(stmts)
            if stmt[0] != "rest":
                raise _GiveUp
            _, (seat_name, cards_given), line, column, _ = stmt
            cards = card_set(cards_given)
            bit = 1 << SEAT_OF[seat_name]
            if seats & bit or cards & dealt or len(cards_given) not in (2, 3):
                raise _GiveUp
            if cards.bit_count() != len(cards_given):
                raise _GiveUp
            seats |= bit
            dealt |= cards
            checker.events += 1
            if not number and engine.phase in ("auction", "completion"):
                first = btn.Rest(
                    position="", line=line, column=column, seat=seat_name, cards=cards_given
                )
                checker.complete(first)
        stmt = _next(stmts)
    part = _AUCTION
    while True:
        kind = stmt[0]
        if kind == "trick":
            if part > _PLAY:
                raise _GiveUp
            part = _PLAY
            builder.take_trick(stmt)
            trick, plays, winner, points = stmt[1]
            playing = checker.engine
            if playing is not None and playing.phase == "play" and not playing.trick:
                # The whole trick at once (the checker's hot path, four cards in one call).
                checker.events += 4
                checker.plays += 4
                (s1, c1), (s2, c2), (s3, c3), (s4, c4) = plays
                playing.push_cards(  # IllegalAction: the reference path reports it
                    (
                        plays_of[s1][c1.index],
                        plays_of[s2][c2.index],
                        plays_of[s3][c3.index],
                        plays_of[s4][c4.index],
                    )
                )
                checker.trick_done(playing)
            else:
                for k, (seat_name, card) in enumerate(plays, 1):
                    _card(checker, stmt, seat_name, card, trick, k)
            if winner is not None:
                checker.claims += 1
                done_by, done_points = checker.tricks[trick - 1]
                if SEAT_NAMES[done_by] != winner or (points is not None and points != done_points):
                    raise _GiveUp
        elif kind == "play":
            if part > _PLAY:
                raise _GiveUp
            part = _PLAY
            seat_name, card = stmt[1]
            trick, index = builder.take_play(seat_name, card, stmt)
            _card(checker, stmt, seat_name, card, trick, index)
        elif kind in _CLOSING_KINDS:
            part = _CLOSING
            _as_item(stmt, builder, checker)
        elif kind in _PLAY_ITEMS:
            if part > _PLAY:
                raise _GiveUp
            if kind[0] == "=":
                part = _PLAY  # declarations and Baloot may come among the raises
            _as_item(stmt, builder, checker)
        elif kind == "raise" or kind == "=contract":
            if part > _AUCTION:
                raise _GiveUp
            if kind == "=contract":
                part = _PLAY  # no call after the contract claim
            _as_item(stmt, builder, checker)
        elif kind != "comment":
            raise _GiveUp  # 'hold' lines, a deal or a call out of order, header lines
        if divergences:
            raise _GiveUp
        following = next(stmts, None)
        if following is None:
            return
        stmt = following


def _as_item(stmt: btn.Stmt, builder: btn.HandBuilder, checker: HandChecker) -> None:
    """A statement the lane leaves to the reference's parts: the builder checks it and makes
    its item, the checker applies or checks the item."""
    builder.add(stmt)
    item = builder.items[-1]
    if isinstance(item, btn.Claim):
        judge_claim(checker, item)
    elif isinstance(item, btn.Event):
        checker.event(item)


def _next(stmts: Iterator[btn.Stmt]) -> btn.Stmt:
    """The next statement but comments; the end of the hand gives up (too short)."""
    for stmt in stmts:
        if stmt[0] != "comment":
            return stmt
    raise _GiveUp


#: Where an error would point when the lane gives up anyway (it never reports one).
_NOWHERE = btn.Event(position="")


def _card(
    checker: HandChecker, stmt: btn.Stmt, seat: str, card: Card, trick: int, index: int
) -> None:
    """One card: straight to the engine in the play, else as an item through the checker
    (the first card, which may complete the deal and close the raises)."""
    engine = checker.engine
    if engine is not None and engine.phase == "play":
        checker.events += 1
        checker.plays += 1
        engine.push_play(PLAYS_OF[seat][card.index])  # IllegalAction: the reference reports it
        if not engine.trick:
            checker.trick_done(engine)
        return
    item = btn.Play(
        position=f"h{checker.number}.t{trick}.p{index}",
        line=stmt[2],
        column=stmt[3],
        seat=seat,
        card=card,
        trick=trick,
        index=index,
    )
    checker.event(item)
