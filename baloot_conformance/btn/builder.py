"""Reading BTN, layer 4: one hand's statements to its items, with the structural checks that
need no rules (a card dealt twice, a missing seat, a claim before the event it refers to, ...)
and the stable positions (``h2.t5.p3``)."""

from __future__ import annotations

import re
from collections.abc import Callable

from baloot_conformance.btn.grammar import _STATEMENT_WORDS, Stmt
from baloot_conformance.btn.items import (
    _MAKE_BALOOT,
    _MAKE_CALL,
    _MAKE_CLOSING,
    _MAKE_CONTRACT,
    _MAKE_DEAL,
    _MAKE_DEALER,
    _MAKE_DECLARE,
    _MAKE_FACEUP,
    _MAKE_FOUL,
    _MAKE_HOLD,
    _MAKE_KAWESH,
    _MAKE_LEGAL,
    _MAKE_PLAY,
    _MAKE_REST,
    _MAKE_SAWA,
    _MAKE_START,
    _MAKE_TEAM,
    _MAKE_TRICK,
    _MAKE_VERDICT,
    SEATS,
    Claim,
    Comment,
    Deal,
    FaceUp,
    Hand,
    HandItem,
    Hold,
    LegalClaim,
    Play,
    Rest,
)
from baloot_conformance.btn.lines import _Errors
from baloot_conformance.cards import Card
from baloot_conformance.errors import TranscriptSyntaxError

# ---------------------------------------------------------------------------------------------
# Layer 4: hands
# ---------------------------------------------------------------------------------------------

_EVENT_KINDS = frozenset(_STATEMENT_WORDS) - {"hand"}  # the statements that are events
_CARD_COUNTS = {"deal": (5,), "hold": (8,), "rest": (2, 3)}
_TARGET = re.compile(r"t([0-9]+)\.p([1-4])")
_VERDICTS = ("right", "wrong")  # the words of a verdict claim (= sawa right, = foul wrong)
_JUDGED = {"=sawa": ("sawa", "Sawa"), "=foul": ("foul", "foul call")}


class HandBuilder:
    """Checks one hand's statements and builds its items with their positions."""

    def __init__(self, number: int, line: int, column: int, comment: str | None, errors: _Errors):
        self.number = number
        self.prefix = f"h{number}"
        self.line = line
        self.column = column
        self.comment = comment
        self.errors = errors
        self.items: list[HandItem] = []
        self.single: dict[str, int] = {}
        self.dealt = 0  # bit set of the cards given out (deal, hold, rest, faceup)
        self.faceup = 0  # the face-up card's bit: a hold line includes it (its receiver's)
        self.held = 0  # bit set of the cards given by hold lines
        self.played = 0
        self.claimed = 0  # bit set of the tricks that have a winner claim
        self.calls = 0
        self.declarations = 0
        self.baloots = 0
        self.fouls = 0
        self.trick = 1
        self.index = 0  # cards played in the current trick
        self.group: tuple[str, int, int, set[str]] | None = None  # kind, line, column, seats
        self.group_done: set[str] = set()
        self.legal: LegalClaim | None = None
        self.closed_at = 0  # line of the first result claim
        self.contract_at = 0

    # -- helpers --
    def fail(
        self, message: str, stmt: Stmt, hint: str | None = None, token: str | None = None
    ) -> TranscriptSyntaxError:
        """The error at ``stmt``, or at its word ``token`` (located when the line is quoted)."""
        message = f"hand {self.number}: {message}"
        return self.errors.at(message, stmt[2], stmt[3], hint=hint, token=token)

    def once(self, position: str, what: str, stmt: Stmt) -> None:
        """Refuse a second statement at ``position``; ``what`` names it in the error, where
        ``{}`` stands for the position's last part and ``{position}`` for the position (filled
        only on an error: this runs for most statements)."""
        first = self.single.get(position)
        if first is not None:
            what = what.format(position.rsplit(".", 1)[1], position=position)
            raise self.fail(f"a second {what} (the first is on line {first})", stmt)
        self.single[position] = stmt[2]

    def give(self, cards: tuple[Card, ...], stmt: Stmt, kind: str = "deal") -> None:
        """Note cards given out, refusing one given twice; the face-up card is also part of
        one ``hold`` line (the eight cards of the seat that took it)."""
        given = 0
        for c in cards:
            given |= 1 << c.index
        # The face-up card and the hold line that holds it, in either order, are one card.
        shared = self.faceup & ~self.held if kind == "hold" else 0
        if kind == "faceup":
            shared = given & self.held
        if given & self.dealt & ~shared or given.bit_count() != len(cards):
            self._given_twice(cards, stmt, shared)
        self.dealt |= given
        if kind == "hold":
            self.held |= given
        elif kind == "faceup":
            self.faceup = given

    def _given_twice(self, cards: tuple[Card, ...], stmt: Stmt, shared: int) -> None:
        seen = 0
        for c in cards:
            bit = 1 << c.index
            if ((self.dealt & ~shared) | seen) & bit:
                first = stmt[2] if seen & bit else self._dealt_on(c)
                raise self.fail(
                    f"card {c.code} is dealt twice (first on line {first})",
                    stmt,
                    hint="each of the 32 cards is dealt exactly once; the face-up card may "
                    "also be in the 'hold' line of the seat that took it",
                    token=c.code,
                )
            seen |= bit

    def _dealt_on(self, card: Card) -> int:
        """The line of the deal, hold, rest or face-up line that already gave ``card``."""
        for item in self.items:
            if isinstance(item, (Deal, Hold, Rest)) and card in item.cards:
                return item.line
            if isinstance(item, FaceUp) and item.card == card:
                return item.line
        raise AssertionError(f"{card} is in no line of the hand")  # pragma: no cover

    def end_group(self) -> None:
        if self.group is None:
            return
        kind, line, column, seats = self.group
        self.group = None
        missing = [s for s in SEATS if s not in seats]
        if missing:
            raise self.errors.at(
                f"hand {self.number}: the '{kind}' lines have no line for seat "
                f"{' and '.join(missing)}",
                line,
                column,
                hint=f"give one '{kind}' line for each of N, W, S and E, one after the other",
            )
        self.group_done.add(kind)

    def take_play(self, seat: str, card: Card, stmt: Stmt) -> tuple[int, int]:
        """Check one card played and count it: its trick and place in the trick."""
        if self.trick > 8:
            raise self.fail("a hand has at most 8 tricks", stmt)
        bit = 1 << card.index
        if self.played & bit:
            raise self.fail(f"card {card.code} is played twice", stmt, token=card.code)
        self.played |= bit
        self.index += 1
        if self.legal is not None:
            if self.legal.seat != seat:
                raise self.fail(
                    f"the '= legal {self.legal.seat}' claim on line {self.legal.line} is "
                    f"followed by a card of seat {seat}",
                    stmt,
                )
            self.legal = None
        trick = self.trick
        index = self.index
        if index == 4:
            self.trick += 1
            self.index = 0
        return trick, index

    def play(self, seat: str, card: Card, stmt: Stmt, comment: str | None = None) -> Play:
        trick, index = self.take_play(seat, card, stmt)
        play: Play = _MAKE_PLAY(
            f"{self.prefix}.t{trick}.p{index}", comment, stmt[2], stmt[3], seat, card, trick, index
        )
        return play

    def take_trick(self, stmt: Stmt) -> None:
        """Check a trick line and count its cards and its winner claim, without building its
        items (see :meth:`add_trick`; the fast lane of replay needs no items)."""
        trick, plays, winner, _ = stmt[1]
        if trick != self.trick or self.index:
            expected = (
                f"trick {self.trick} has {self.index} of 4 cards"
                if self.index
                else f"the next trick is {self.trick}"
            )
            raise self.fail(f"trick {trick} out of order: {expected}", stmt)
        if self.group is not None:
            self.end_group()
        if self.closed_at:
            raise self.fail(
                f"an event after the hand's result claims (line {self.closed_at})",
                stmt,
                hint="claims about the whole hand come after its last event",
            )
        if self.legal is None and trick <= 8:  # the common case, inlined
            played = self.played
            for _seat, card in plays:
                bit = 1 << card.index
                if played & bit:
                    raise self.fail(f"card {card.code} is played twice", stmt, token=card.code)
                played |= bit
            self.played = played
            self.trick = trick + 1
        else:
            for seat, card in plays:
                self.take_play(seat, card, stmt)
        if winner is not None:  # the trick has just ended: no claim on it can exist yet
            self.claimed |= 1 << trick

    def add_trick(self, stmt: Stmt) -> None:
        self.take_trick(stmt)
        trick, plays, winner, points = stmt[1]
        number, column, comment = stmt[2], stmt[3], stmt[4]
        items = self.items
        base = f"{self.prefix}.t{trick}.p"
        make_play = _MAKE_PLAY
        for k, (seat, card) in enumerate(plays, 1):
            items.append(
                make_play(
                    base + str(k),
                    comment if k == 4 and winner is None else None,
                    number,
                    column,
                    seat,
                    card,
                    trick,
                    k,
                )
            )
        if winner is not None:
            position = f"{self.prefix}.t{trick}.winner"
            items.append(_MAKE_TRICK(position, comment, number, column, trick, winner, points))

    # -- the statements (one method per kind; see _HANDLERS) --
    def add(self, stmt: Stmt) -> None:
        """Check one statement and append its item(s)."""
        kind = stmt[0]
        if self.group is not None and kind != self.group[0] and kind != "comment":
            self.end_group()
        if self.closed_at and kind in _EVENT_KINDS:
            raise self.fail(
                f"an event after the hand's result claims (line {self.closed_at})",
                stmt,
                hint="claims about the whole hand come after its last event",
            )
        _HANDLERS[kind](self, stmt)

    def _comment(self, stmt: Stmt) -> None:
        self.items.append(Comment(text=stmt[1][0], line=stmt[2], column=stmt[3]))

    def _trick(self, stmt: Stmt) -> None:
        self.add_trick(stmt)

    def _play(self, stmt: Stmt) -> None:
        v = stmt[1]
        self.items.append(self.play(v[0], v[1], stmt, stmt[4]))

    def _cards_line(self, stmt: Stmt) -> None:
        kind, (seat, cards), number, column, comment = stmt
        group = self.group
        if kind in self.group_done or (group is not None and seat in group[3]):
            raise self.fail(f"a second '{kind} {seat}' line", stmt)
        if (kind == "hold" and ("deal" in self.group_done or "rest" in self.group_done)) or (
            kind != "hold" and "hold" in self.group_done
        ):
            raise self.fail(
                "a hand gives the cards either with 'deal' and 'rest' or with 'hold', not both",
                stmt,
            )
        if len(cards) not in _CARD_COUNTS[kind]:
            counts = " or ".join(str(n) for n in _CARD_COUNTS[kind])
            raise self.fail(f"'{kind}' lists {counts} cards, found {len(cards)}", stmt)
        if group is None:
            group = self.group = (kind, number, column, set())
        group[3].add(seat)
        self.give(cards, stmt, kind)
        make = _MAKE_DEAL if kind == "deal" else _MAKE_REST if kind == "rest" else _MAKE_HOLD
        self.items.append(
            make(f"{self.prefix}.{kind}.{seat}", comment, number, column, seat, cards)
        )

    def _dealer(self, stmt: Stmt) -> None:
        position = f"{self.prefix}.dealer"
        self.once(position, "'dealer' line", stmt)
        self.items.append(_MAKE_DEALER(position, stmt[4], stmt[2], stmt[3], stmt[1][0]))

    def _start(self, stmt: Stmt) -> None:
        if any(not isinstance(i, Comment) for i in self.items):
            raise self.fail("'start' comes first in a hand, before the deal", stmt)
        position = f"{self.prefix}.start"
        self.once(position, "'start' line", stmt)
        ns, ew = stmt[1]
        self.items.append(_MAKE_START(position, stmt[4], stmt[2], stmt[3], ns, ew))

    def _faceup(self, stmt: Stmt) -> None:
        position = f"{self.prefix}.faceup"
        self.once(position, "'faceup' line", stmt)
        self.give(stmt[1], stmt, "faceup")
        self.items.append(_MAKE_FACEUP(position, stmt[4], stmt[2], stmt[3], stmt[1][0]))

    def _call(self, stmt: Stmt) -> None:
        if self.contract_at:
            raise self.fail(
                f"a call after the '= contract' claim on line {self.contract_at}",
                stmt,
                hint="the contract claim comes after the last call it describes",
            )
        self.calls += 1
        seat, word, args = stmt[1]
        self.items.append(
            _MAKE_CALL(
                f"{self.prefix}.bid{self.calls}",
                stmt[4],
                stmt[2],
                stmt[3],
                stmt[0],
                seat,
                word,
                args,
            )
        )

    def _declare(self, stmt: Stmt) -> None:
        self.declarations += 1
        seat, project, cards = stmt[1]
        position = f"{self.prefix}.decl{self.declarations}"
        self.items.append(_MAKE_DECLARE(position, stmt[4], stmt[2], stmt[3], seat, project, cards))

    def _baloot(self, stmt: Stmt) -> None:
        self.baloots += 1
        seat, cards = stmt[1]
        position = f"{self.prefix}.baloot{self.baloots}"
        self.items.append(_MAKE_BALOOT(position, stmt[4], stmt[2], stmt[3], seat, cards))

    def _foul(self, stmt: Stmt) -> None:
        seat, target, words = stmt[1]
        m = _TARGET.fullmatch(target)
        assert m is not None or target == "-"  # "-": a call that names no card
        if m is not None and (int(m.group(1)), int(m.group(2))) > (self.trick, self.index):
            raise self.fail(
                f"the foul call names play {target}, which has not been played yet", stmt
            )
        self.fouls += 1
        position = f"{self.prefix}.foul{self.fouls}"
        self.items.append(_MAKE_FOUL(position, stmt[4], stmt[2], stmt[3], seat, target, words))

    def _sawa(self, stmt: Stmt) -> None:
        position = f"{self.prefix}.sawa"
        self.once(position, "'sawa' line", stmt)
        seat = stmt[1][0]
        if self.trick > 8:
            raise self.fail(
                f"{seat} claims Sawa after the last trick: no trick remains",
                stmt,
                hint="a Sawa claims the tricks still to be played; after the 32nd card there "
                "are none",
            )
        self.items.append(_MAKE_SAWA(position, stmt[4], stmt[2], stmt[3], seat))

    def _kawesh(self, stmt: Stmt) -> None:
        position = f"{self.prefix}.kawesh"
        self.once(position, "'kawesh' line", stmt)
        self.items.append(_MAKE_KAWESH(position, stmt[4], stmt[2], stmt[3], stmt[1][0]))

    def _verdict(self, stmt: Stmt) -> None:
        """``= sawa right``, ``= foul wrong``: the verdict on the hand's latest Sawa or foul
        call, at that call's position with ``.verdict``."""
        kind, (verdict,), number, column, comment = stmt
        call, name = _JUDGED[kind]
        if verdict not in _VERDICTS:
            raise self.fail(
                f"expected 'right' or 'wrong' after '= {call}', found '{verdict}'",
                stmt,
                hint=f"the claim says whether the engine judged the {name} right or wrong",
                token=verdict,
            )
        if call == "sawa":
            judged = f"{self.prefix}.sawa" if f"{self.prefix}.sawa" in self.single else ""
        else:
            judged = f"{self.prefix}.foul{self.fouls}" if self.fouls else ""
        if not judged:
            raise self.fail(
                f"'= {call} {verdict}' judges a {name}, but no '{call}' line comes before it "
                "in the hand",
                stmt,
                hint=f"the verdict claim comes after the '{call}' line it is about",
            )
        position = f"{judged}.verdict"
        self.once(position, f"'= {call}' verdict on {judged}", stmt)
        self.items.append(_MAKE_VERDICT(position, comment, number, column, call, verdict))

    def _contract(self, stmt: Stmt) -> None:
        position = f"{self.prefix}.contract"
        self.once(position, "'= contract' claim", stmt)
        self.contract_at = stmt[2]
        self.items.append(_MAKE_CONTRACT(position, stmt[4], stmt[2], stmt[3], *stmt[1]))

    def _trick_claim(self, stmt: Stmt) -> None:
        trick, winner, points = stmt[1]
        done = self.trick - 1
        if trick > done:
            raise self.fail(
                f"a claim on trick {trick} before its fourth card"
                + (f" (tricks played: {done})" if done else " (no trick played yet)"),
                stmt,
                hint="put the winner claim after the trick it is about",
            )
        if self.claimed & (1 << trick):
            raise self.fail(f"a second winner claim for trick {trick}", stmt)
        self.claimed |= 1 << trick
        position = f"{self.prefix}.t{trick}.winner"
        self.items.append(_MAKE_TRICK(position, stmt[4], stmt[2], stmt[3], trick, winner, points))

    def _legal(self, stmt: Stmt) -> None:
        if self.trick > 8:
            raise self.fail("a '= legal' claim after the last trick", stmt)
        position = f"{self.prefix}.t{self.trick}.p{self.index + 1}.legal"
        self.once(position, "'= legal' claim for the next play ({position})", stmt)
        seat, cards = stmt[1]
        legal = _MAKE_LEGAL(position, stmt[4], stmt[2], stmt[3], seat, cards)
        self.legal = legal
        self.items.append(legal)

    def _closing(self, stmt: Stmt) -> None:
        kind, v, number, column, comment = stmt
        item: Claim
        if kind == "=team":
            position = f"{self.prefix}.{v[0]}"
            item = _MAKE_TEAM(position, comment, number, column, v[0], v[1], v[2])
        else:
            position = f"{self.prefix}.{kind[1:]}"
            item = _MAKE_CLOSING[kind](position, comment, number, column, v[0])
        self.once(position, "'= {}' claim", stmt)
        if not self.closed_at:
            self.closed_at = number
        self.items.append(item)

    def close(self) -> None:
        """The checks at the end of the hand."""
        self.end_group()
        if self.legal is not None:
            legal = self.legal
            raise self.errors.at(
                f"hand {self.number}: the '= legal' claim is not followed by a play",
                legal.line,
                legal.column,
                hint="a legal-set claim comes right before the play it is about",
            )

    def finish(self) -> Hand:
        self.close()
        return Hand(
            number=self.number,
            items=tuple(self.items),
            comment=self.comment,
            line=self.line,
            column=self.column,
        )


_HANDLERS: dict[str, Callable[[HandBuilder, Stmt], None]] = {
    "comment": HandBuilder._comment,
    "trick": HandBuilder._trick,
    "play": HandBuilder._play,
    "deal": HandBuilder._cards_line,
    "hold": HandBuilder._cards_line,
    "rest": HandBuilder._cards_line,
    "dealer": HandBuilder._dealer,
    "start": HandBuilder._start,
    "faceup": HandBuilder._faceup,
    "bid": HandBuilder._call,
    "raise": HandBuilder._call,
    "declare": HandBuilder._declare,
    "baloot": HandBuilder._baloot,
    "foul": HandBuilder._foul,
    "sawa": HandBuilder._sawa,
    "kawesh": HandBuilder._kawesh,
    "=contract": HandBuilder._contract,
    "=trick": HandBuilder._trick_claim,
    "=legal": HandBuilder._legal,
    "=team": HandBuilder._closing,
    "=result": HandBuilder._closing,
    "=kaboot": HandBuilder._closing,
    "=winner": HandBuilder._closing,
    "=sawa": HandBuilder._verdict,
    "=foul": HandBuilder._verdict,
}
