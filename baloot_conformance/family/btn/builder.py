"""Reading BTN 2, one hand's statements to its items: the structural checks and the positions.

The checks are those the notation and the table alone decide, with no rule of play: a seat
not at the table, a card not in the pack, a deal of more (or fewer) cards than a hand holds,
a card dealt twice, a card played twice, a seat playing twice in one trick, a trick of more
plays than seats, a declaration after the draw began, a claim before the event it is about.
Whether a card may be played, a declaration made or a claim is right is the checker's.

A trick line lists 1 to n plays (n: the seats at the table); the next line of the same trick
number goes on with the same trick (the notation does not know how many seats are still in),
so a trick is as many lines as the writer needs, and a ``= legal`` claim takes the position of
the play that follows it (``h1.t2.p3.legal``).
"""

from __future__ import annotations

from collections.abc import Callable

from baloot_conformance.errors import Location, TranscriptSyntaxError
from baloot_conformance.family.btn.grammar import Stmt
from baloot_conformance.family.btn.items import (
    MAKE_ANTE,
    MAKE_CALL,
    MAKE_CARD_RUN,
    MAKE_DEAL,
    MAKE_EXCHANGE,
    MAKE_LOCATION,
    MAKE_PLAY,
    MAKE_SIDES,
    MAKE_TRICK,
    Comment,
    Dealer,
    FaceUp,
    Hand,
    HandItem,
    LegalClaim,
    Penalty,
    Reshuffle,
    Start,
    Table,
)
from baloot_conformance.family.btn.lines import Errors
from baloot_conformance.family.btn.points_lines import game_start, layout_move, order_claim, wager

#: The stages of a hand, in the order its statements must come: before the deal (start,
#: dealer, antes), the deal (deal, faceup), the declarations and the draw (bid, exchange,
#: reshuffle: in any order between seats, since a ruleset may have each seat declare and
#: draw in turn, or all declare first; a seat's own declaration comes before its draw), the
#: play (trick lines, legal-set claims), the hand's closing claims.
_STAGES = ("the deal", "the deal", "the draw", "the draw", "the play", "the claims")
# (stage 2 is "the draw": the declarations and the exchanges together; 3 is not used)
_DRAW = 2  # the stage of the declarations and the draw


class HandBuilder:
    """Checks one hand's statements against the table and builds its items."""

    def __init__(
        self,
        table: Table,
        number: int,
        location: Location,
        comment: str | None,
        errors: Errors,
        lane: bool = False,
    ) -> None:
        self.table = table
        self.lane = lane
        """Whether a trick line's cards become one :class:`~.items.CardRun` (``check``'s fast
        lane) rather than a :class:`~.items.Play` each; the checks are the same."""
        orders = _ORDERS.get(id(table))
        if orders is None or orders[0] is not table:
            if len(_ORDERS) > 64:
                _ORDERS.clear()
            rank = {card: i for i, card in enumerate(table.pack)}
            seat_rank = {seat: i for i, seat in enumerate(table.seats)}
            orders = _ORDERS[id(table)] = (table, rank, seat_rank, frozenset(table.seats))
        _, self.rank, self.seat_rank, self.seat_set = orders
        self.number = number
        self.prefix = f"h{number}"
        self.location = location
        self.comment = comment
        self.errors = errors
        self.items: list[HandItem] = []
        self.single: dict[str, int] = {}
        self.stage = 0
        self.stage_line: dict[int, tuple[int, str]] = {}  # stage -> the line, word that began it
        self.counts = {"ante": 0, "bid": 0, "reshuffle": 0, "penalty": 0}
        self.dealt: dict[str, tuple[str, int]] = {}  # card -> (seat, line) of its deal
        self.hands: dict[str, set[str]] = {}  # the dealt seats' cards
        self.faceup: tuple[str, str, int] | None = None  # seat, card, line
        self.received: dict[str, int] = {}  # card -> line, since the last reshuffle
        self.discarded: dict[str, int] = {}  # card -> line, since the last reshuffle
        self.reshuffled = False
        self.played: dict[str, int] = {}  # card -> trick
        self.trick = 0  # the trick being played (0: none yet)
        self.trick_seats: list[str] = []  # who played in it, in order
        self.trick_closed = False  # its winner is claimed: it takes no more plays
        self.seats_of: dict[int, frozenset[str]] = {}  # who played in each trick
        self.legal: tuple[Stmt, int] | None = None  # a legal claim waiting for its play
        self.moves = 0  # a layout's moves so far

    # -- helpers --
    def fail(
        self, message: str, stmt: Stmt, hint: str | None = None, token: str | None = None
    ) -> TranscriptSyntaxError:
        """The error at ``stmt``, or at its word ``token`` (located when the line is quoted)."""
        message = f"hand {self.number}: {message}"
        return self.errors.at(message, stmt[2], stmt[3], hint=hint, token=token)

    def at(self, stmt: Stmt, column: int | None = None) -> Location:
        location: Location = MAKE_LOCATION(
            self.errors.path, stmt[2], stmt[3] if column is None else column
        )
        return location

    def once(self, position: str, what: str, stmt: Stmt) -> None:
        first = self.single.get(position)
        if first is not None:
            raise self.fail(f"a second {what} (the first is on line {first})", stmt)
        self.single[position] = stmt[2]

    def seat(self, seat: str, stmt: Stmt, locate: bool = True) -> str:
        """``seat``, or the error of a seat not at the table (at its word, if ``locate``)."""
        if seat not in self.seat_set:  # the callers on the hot paths test it first
            where = "from [Seats]" if self.table.numbered else f"under {self.table.ruleset}"
            raise self.fail(
                f"{seat} is not a seat at this table ({' '.join(self.table.seats)}, {where})",
                stmt,
                hint="every seat of a hand is one of the table's seats",
                token=seat if locate else None,
            )
        return seat

    def card(self, card: str, stmt: Stmt) -> str:
        if card not in self.rank:
            table = self.table
            raise self.fail(
                f"{card} is not in this ruleset's {len(table.pack)}-card pack",
                stmt,
                hint=f"the pack of {table.ruleset} is {_pack_text(table.pack)}",
                token=card,
            )
        return card

    def card_set(self, cards: tuple[str, ...], stmt: Stmt, what: str) -> tuple[str, ...]:
        """Cards of a set (a deal, an exchange, a legal-set claim): in the pack, none twice;
        in the pack's order."""
        try:
            ordered = sorted(cards, key=self.rank.__getitem__)
        except KeyError:
            ordered = []
        if len(ordered) == len(cards) and len(set(cards)) == len(cards):
            return tuple(ordered)
        seen: set[str] = set()  # the error, spelt out
        for card in cards:
            self.card(card, stmt)
            if card in seen:
                raise self.fail(f"card {card} is {what} twice on this line", stmt, token=card)
            seen.add(card)
        raise AssertionError("a set of cards in the pack, none twice")  # pragma: no cover

    def sides(self, pairs: tuple[tuple[str, int], ...], stmt: Stmt) -> tuple[tuple[str, int], ...]:
        """Per-seat values: seats at the table, each once; in the table's order."""
        seen: set[str] = set()
        for seat, _ in pairs:
            self.seat(seat, stmt)
            if seat in seen:
                raise self.fail(f"{seat} is listed twice on this line", stmt, token=seat)
            seen.add(seat)
        order = self.seat_rank
        return tuple(sorted(pairs, key=lambda pair: order[pair[0]]))

    def enter(self, stage: int, stmt: Stmt, what: str) -> None:
        """Move the hand on to ``stage``, refusing a statement whose stage is over."""
        if self.stage == stage:
            return
        if self.stage > stage:
            since, word = self.stage_line[self.stage]
            if self.stage == 5:
                raise self.fail(
                    f"an event after the hand's closing claims (line {since})",
                    stmt,
                    hint="claims about the whole hand come after its last event",
                )
            raise self.fail(
                f"{what} after {_STAGES[self.stage]} began (the first '{word}' is on line {since})",
                stmt,
                hint="a hand goes: start, dealer, antes, deal, declarations (bid), the draw "
                "(exchange, reshuffle), the tricks, the claims",
            )
        if stage > self.stage:
            for passed in range(self.stage + 1, stage + 1):
                self.stage_line.setdefault(passed, (stmt[2], stmt[0].lstrip("=")))
            self.stage = stage

    def waiting(self, stmt: Stmt) -> None:
        """Refuse anything but a play after a ``= legal`` claim."""
        if self.legal is not None:
            claim = self.legal[0]
            raise self.fail(
                f"the '= legal {claim[1][0]}' claim on line {claim[2]} is not followed by a play",
                stmt,
                hint="a legal-set claim comes right before the play it is about",
            )

    # -- the statements (one method per kind; see _HANDLERS) --
    def add(self, stmt: Stmt) -> None:
        """Check one statement and append its item(s)."""
        kind = stmt[0]
        if self.legal is not None and kind != "comment" and kind != "trick":
            self.waiting(stmt)
        _HANDLERS[kind](self, stmt)

    def _comment(self, stmt: Stmt) -> None:
        self.items.append(Comment(text=stmt[1][0], location=self.at(stmt)))

    def _start(self, stmt: Stmt) -> None:
        if any(not isinstance(i, Comment) for i in self.items):
            raise self.fail("'start' comes first in a hand, before the deal", stmt)
        position = f"{self.prefix}.start"
        self.once(position, "'start' line", stmt)
        pot, exempt = stmt[1][:2]
        if (pot is None) != self.table.points:
            game = "a points game's" if self.table.points else "a pot game's"
            form = "'start hand 9, score ...'" if self.table.points else "'start pot 6 ...'"
            raise self.fail(f"{game} 'start' line states {form}", stmt)
        if pot is None:
            self.items.append(game_start(self, stmt, position))
            return
        seen = set()
        for seat in exempt:
            self.seat(seat, stmt)
            if seat in seen:
                raise self.fail(f"{seat} is listed twice on this line", stmt, token=seat)
            seen.add(seat)
        exempt = tuple(sorted(exempt, key=self.seat_rank.__getitem__))
        self.items.append(
            Start(
                position=position, comment=stmt[4], location=self.at(stmt), pot=pot, exempt=exempt
            )
        )

    def _dealer(self, stmt: Stmt) -> None:
        self.enter(0, stmt, "a 'dealer' line")
        position = f"{self.prefix}.dealer"
        self.once(position, "'dealer' line", stmt)
        seat = self.seat(stmt[1][0], stmt)
        self.items.append(
            Dealer(position=position, comment=stmt[4], location=self.at(stmt), seat=seat)
        )

    def _ante(self, stmt: Stmt) -> None:
        self.enter(min(self.stage, _DRAW), stmt, "an 'ante' line")
        chips = self.sides(stmt[1][0], stmt)
        self.counts["ante"] += 1
        position = f"{self.prefix}.ante{self.counts['ante']}"
        self.items.append(MAKE_ANTE(position, stmt[4], self.at(stmt), chips))

    def _deal(self, stmt: Stmt) -> None:
        if self.stage != 1:
            self.enter(1, stmt, "a 'deal' line")
        seat, cards = stmt[1]
        if seat not in self.seat_set:
            self.seat(seat, stmt)
        position = f"{self.prefix}.deal.{seat}"
        self.once(position, f"'deal {seat}' line", stmt)
        size = self.table.hand_size
        if len(cards) != size:
            more = len(cards) > size
            raise self.fail(
                f"'deal {seat}' lists {len(cards)} cards: a hand is dealt {size} under "
                f"{self.table.ruleset}",
                stmt,
                hint=f"list the {size} cards the seat was dealt, each once",
                token=cards[size] if more else None,
            )
        cards = self.card_set(cards, stmt, "dealt")
        dealt = self.dealt
        for card in cards if not dealt.keys().isdisjoint(cards) else ():
            first = dealt.get(card)
            if first is not None:
                raise self.fail(
                    f"card {card} is dealt twice (first on line {first[1]}, to {first[0]})",
                    stmt,
                    hint="each card of the pack is dealt once",
                    token=card,
                )
        faceup = self.faceup
        if faceup is not None and faceup[1] in cards and faceup[0] != seat:
            raise self.fail(
                f"card {faceup[1]} is dealt twice (it is {faceup[0]}'s face-up card, line "
                f"{faceup[2]})",
                stmt,
                token=faceup[1],
            )
        if faceup is not None and faceup[0] == seat and faceup[1] not in cards:
            raise self.fail(
                f"{seat}'s deal does not hold its face-up card {faceup[1]} (line {faceup[2]})",
                stmt,
                hint="the face-up card is one of the cards its seat was dealt",
            )
        dealt.update(dict.fromkeys(cards, (seat, stmt[2])))
        self.hands[seat] = set(cards)
        location = MAKE_LOCATION(self.errors.path, stmt[2], stmt[3])
        self.items.append(MAKE_DEAL(position, stmt[4], location, seat, cards))

    def _faceup(self, stmt: Stmt) -> None:
        self.enter(1, stmt, "a 'faceup' line")
        position = f"{self.prefix}.faceup"
        self.once(position, "'faceup' line", stmt)
        seat, card = stmt[1]
        self.seat(seat, stmt)
        self.card(card, stmt)
        owner = self.dealt.get(card)
        if owner is not None and owner[0] != seat:
            raise self.fail(
                f"the face-up card {card} is dealt to {owner[0]} (line {owner[1]}), not {seat}",
                stmt,
                token=card,
            )
        if owner is None and seat in self.hands:
            raise self.fail(
                f"{seat}'s face-up card {card} is not among the cards it was dealt "
                f"(line {self.single[f'{self.prefix}.deal.{seat}']})",
                stmt,
                hint="the face-up card is one of the cards its seat was dealt",
                token=card,
            )
        self.faceup = (seat, card, stmt[2])
        self.items.append(
            FaceUp(position=position, comment=stmt[4], location=self.at(stmt), seat=seat, card=card)
        )

    def _bid(self, stmt: Stmt) -> None:
        if self.stage != _DRAW:
            self.enter(_DRAW, stmt, "a declaration")
        seat, word, args = stmt[1]
        if seat not in self.seat_set:
            self.seat(seat, stmt)
        drew = self.single.get(f"{self.prefix}.x.{seat}")
        if drew is not None:
            raise self.fail(
                f"a declaration by {seat} after its draw (its exchange is on line {drew})",
                stmt,
                hint="a seat declares (plays or passes) before it discards and draws",
                token=seat,
            )
        counts = self.counts
        counts["bid"] += 1
        position = f"{self.prefix}.bid{counts['bid']}"
        location = MAKE_LOCATION(self.errors.path, stmt[2], stmt[3])
        self.items.append(MAKE_CALL(position, stmt[4], location, seat, word, args))

    def _exchange(self, stmt: Stmt) -> None:
        self.enter(_DRAW, stmt, "an 'exchange' line")
        seat, discards, received = stmt[1]
        self.seat(seat, stmt)
        position = f"{self.prefix}.x.{seat}"
        self.once(position, f"'exchange {seat}' line", stmt)
        discards = self.card_set(discards, stmt, "discarded")
        received = self.card_set(received, stmt, "received")
        stmt_received = received
        if len(discards) != len(received):
            raise self.fail(
                f"{seat} discards {len(discards)} card(s) and receives {len(received)}: a hand "
                f"keeps its {self.table.hand_size} cards",
                stmt,
                hint="list the discards, then ' : ', then as many cards received",
            )
        if len(discards) > self.table.hand_size:
            raise self.fail(
                f"{seat} discards {len(discards)} cards: a hand holds {self.table.hand_size}",
                stmt,
            )
        for card in discards:
            self.discarded[card] = stmt[2]
        own = self.hands.get(seat, set())
        if self.table.passing:  # a pass: each card received comes from another seat's hand
            self._passed(seat, discards, received, own, stmt)
            received = ()
        for card in received:
            clash: str | None = None
            if self.reshuffled:  # the gathered cards are dealt on: only its own hand is known
                if card in own - set(discards):
                    clash = f"{seat} holds it"
                elif card in self.received:
                    clash = f"received on line {self.received[card]}"
            else:
                dealt = self.dealt.get(card)
                if card in self.received:
                    clash = f"received on line {self.received[card]}"
                elif card in self.discarded:
                    clash = f"discarded on line {self.discarded[card]}"
                elif dealt is not None:
                    clash = f"dealt on line {dealt[1]}"
            if clash is not None:
                raise self.fail(
                    f"{seat} receives {card}, which is already out ({clash})",
                    stmt,
                    hint="the cards received come from the stock: no card dealt, discarded or "
                    "received before (until a 'reshuffle')",
                    token=card,
                )
            self.received[card] = stmt[2]
        if seat in self.hands and not self.table.passing:
            self.hands[seat] = (self.hands[seat] - set(discards)) | set(received)
        self.items.append(
            MAKE_EXCHANGE(position, stmt[4], self.at(stmt), seat, discards, stmt_received)
        )

    def _passed(
        self,
        seat: str,
        discards: tuple[str, ...],
        received: tuple[str, ...],
        own: set[str],
        stmt: Stmt,
    ) -> None:
        """A pass's exchange line: the seat passes cards of its own dealt hand and receives
        cards of another seat's, none received twice (which seat passes to which is the
        ruleset's, checked on replay)."""
        for card in discards:
            if own and card not in own:
                raise self.fail(f"{seat} passes {card}, which it was not dealt", stmt, token=card)
        for card in received:
            if card in own:
                raise self.fail(
                    f"{seat} receives {card}, which it was dealt itself",
                    stmt,
                    hint="in a pass the cards received come from another seat's hand",
                    token=card,
                )
            if card in self.received:
                raise self.fail(
                    f"{card} is received twice (first on line {self.received[card]})",
                    stmt,
                    token=card,
                )
            self.received[card] = stmt[2]

    def _reshuffle(self, stmt: Stmt) -> None:
        self.enter(_DRAW, stmt, "a 'reshuffle' line")
        self.counts["reshuffle"] += 1
        self.reshuffled = True
        self.received = {}
        self.discarded = {}
        position = f"{self.prefix}.reshuffle{self.counts['reshuffle']}"
        self.items.append(Reshuffle(position=position, comment=stmt[4], location=self.at(stmt)))

    def _penalty(self, stmt: Stmt) -> None:
        self.enter(min(self.stage, 4), stmt, "a 'penalty' line")
        seat, offence = stmt[1]
        self.seat(seat, stmt)
        self.counts["penalty"] += 1
        position = f"{self.prefix}.penalty{self.counts['penalty']}"
        self.items.append(
            Penalty(
                position=position,
                comment=stmt[4],
                location=self.at(stmt),
                seat=seat,
                offence=offence,
            )
        )

    def _trick(self, stmt: Stmt) -> None:
        if self.stage != 4:
            self.enter(4, stmt, "a trick")
        if self.moves:
            raise self.fail(
                "a trick in a hand played as a layout (Domino)",
                stmt,
                hint="a hand is played as tricks or as a layout, not both",
            )
        number, plays, winner, points = stmt[1]
        if number == self.trick + 1:  # the next trick
            if number > self.table.tricks:
                self._trick_order(number, stmt)
        elif number != self.trick or self.trick_closed or number < 1:  # not the current one
            self._trick_order(number, stmt)
        if number != self.trick:
            if self.trick:
                self.seats_of[self.trick] = frozenset(self.trick_seats)
            self.trick = number
            self.trick_seats = []
            self.trick_closed = False
        items = self.items
        base = f"{self.prefix}.t{number}.p"
        seats = self.trick_seats
        seat_set, rank, played, size = self.seat_set, self.rank, self.played, len(self.table.seats)
        path, line, last = self.errors.path, stmt[2], len(plays) - 1
        make_play, make_location, lane = MAKE_PLAY, MAKE_LOCATION, self.lane
        for k, (seat, card, column) in enumerate(plays):
            if (
                seat not in seat_set
                or card not in rank
                or len(seats) == size
                or seat in seats
                or card in played
            ):
                self._bad_play(seat, card, number, (stmt[0], stmt[1], line, column, stmt[4]))
            if k == 0 and self.legal is not None:
                self._place_legal(seat, number, len(seats) + 1, (*stmt[:3], column, stmt[4]))
            played[card] = number
            seats.append(seat)
            if lane:
                continue
            index = len(seats)
            items.append(
                make_play(
                    base + str(index),
                    stmt[4] if k == last and winner is None else None,
                    make_location(path, line, column),
                    seat,
                    card,
                    number,
                    index,
                )
            )
        if lane:
            cards = tuple([(seat, card) for seat, card, _ in plays])
            location = make_location(path, line, stmt[3])
            items.append(MAKE_CARD_RUN(f"{self.prefix}.t{number}", None, location, number, cards))
        if winner is not None:
            self._winner(number, winner, points, stmt)

    def _trick_order(self, number: int, stmt: Stmt) -> None:
        """The error of a trick line whose number neither goes on with the current trick nor
        starts the next one, or that starts one past the ruleset's count."""
        if number < 1:
            raise self.fail("trick numbers start at 1", stmt)
        if number == self.trick and self.trick_closed:
            raise self.fail(
                f"trick {number} goes on after its winner claim",
                stmt,
                hint=f"the next trick is {number + 1}",
            )
        if number != self.trick and number != self.trick + 1:
            expected = f"the next trick is {self.trick + 1}"
            if self.trick and not self.trick_closed:
                expected = f"trick {self.trick} goes on, or trick {self.trick + 1} begins"
            raise self.fail(f"trick {number} out of order: {expected}", stmt)
        if number > self.table.tricks:
            raise self.fail(
                f"trick {number}: a hand has {self.table.tricks} tricks under {self.table.ruleset}",
                stmt,
            )
        raise AssertionError(f"trick {number} is in order")  # pragma: no cover

    def _bad_play(self, seat: str, card: str, number: int, where: Stmt) -> None:
        """The error of a play that is not at the table, not in the pack, one too many, or a
        repeat (the checks of :meth:`_trick`, spelt out)."""
        self.seat(seat, where, locate=False)
        self.card(card, where)
        if len(self.trick_seats) == len(self.table.seats):
            raise self.fail(
                f"trick {number} has more plays than the table's {len(self.trick_seats)} seats",
                where,
            )
        if seat in self.trick_seats:
            raise self.fail(f"{seat} plays twice in trick {number}", where)
        first = self.played[card]
        raise self.fail(f"card {card} is played twice (first in trick {first})", where, token=card)

    def _place_legal(self, seat: str, trick: int, index: int, stmt: Stmt) -> None:
        assert self.legal is not None
        claim, at = self.legal
        self.legal = None
        if claim[1][0] != seat:
            raise self.fail(
                f"the '= legal {claim[1][0]}' claim on line {claim[2]} is followed by a card "
                f"of {seat}",
                stmt,
            )
        position = f"{self.prefix}.t{trick}.p{index}.legal"
        self.items.insert(
            at,
            LegalClaim(
                position=position,
                comment=claim[4],
                location=self.at(claim),
                seat=claim[1][0],
                cards=claim[1][1],
            ),
        )

    def _winner(self, trick: int, winner: str, points: int | None, stmt: Stmt) -> None:
        if winner not in self.seat_set:
            self.seat(winner, stmt)
        seats = self.trick_seats if trick == self.trick else self.seats_of.get(trick, frozenset())
        if winner not in seats:
            raise self.fail(
                f"the winner of trick {trick}, {winner}, played no card in it",
                stmt,
                token=winner,
            )
        position = f"{self.prefix}.t{trick}.winner"
        if position in self.single:
            self.once(position, f"winner claim for trick {trick}", stmt)
        self.single[position] = stmt[2]
        if trick == self.trick:
            self.trick_closed = True
        location = MAKE_LOCATION(self.errors.path, stmt[2], stmt[3])
        self.items.append(MAKE_TRICK(position, stmt[4], location, trick, winner, points))

    def _trick_claim(self, stmt: Stmt) -> None:
        trick, winner, points = stmt[1]
        if not 1 <= trick <= self.trick:
            raise self.fail(
                f"a claim on trick {trick} before its first card"
                + (f" (tricks begun: {self.trick})" if self.trick else " (no trick played yet)"),
                stmt,
                hint="put the winner claim after the trick it is about",
            )
        self._winner(trick, winner, points, stmt)

    def _legal(self, stmt: Stmt) -> None:
        self.enter(4, stmt, "a '= legal' claim")
        seat, cards = stmt[1]
        self.seat(seat, stmt)
        cards = self.card_set(cards, stmt, "listed")
        self.legal = ((stmt[0], (seat, cards), stmt[2], stmt[3], stmt[4]), len(self.items))

    def _sides(self, stmt: Stmt) -> None:
        self.enter(5, stmt, "a claim")
        name = stmt[0][1:]
        position = f"{self.prefix}.{name}"
        self.once(position, f"'= {name}' claim", stmt)
        values = self.sides(stmt[1][0], stmt)
        self.items.append(MAKE_SIDES(position, stmt[4], self.at(stmt), name, values))

    def finish(self) -> Hand:
        """The checks at the end of the hand, and the hand."""
        if self.legal is not None:
            claim = self.legal[0]
            raise self.fail(
                "the '= legal' claim is not followed by a play",
                claim,
                hint="a legal-set claim comes right before the play it is about",
            )
        return Hand(
            number=self.number,
            items=tuple(self.items),
            comment=self.comment,
            location=self.location,
        )


#: The orders of the tables read lately (a reader builds one builder per hand): by the
#: table's identity, with the table itself so that a reused identity is not mistaken.
_ORDERS: dict[int, tuple[Table, dict[str, int], dict[str, int], frozenset[str]]] = {}


def _pack_text(pack: tuple[str, ...]) -> str:
    ranks = list(dict.fromkeys(card[0] for card in pack))
    suits = list(dict.fromkeys(card[1] for card in pack))
    return f"{' '.join(ranks)} of {' '.join(suits)}"


_HANDLERS: dict[str, Callable[[HandBuilder, Stmt], None]] = {
    "comment": HandBuilder._comment,
    "start": HandBuilder._start,
    "dealer": HandBuilder._dealer,
    "ante": HandBuilder._ante,
    "deal": HandBuilder._deal,
    "faceup": HandBuilder._faceup,
    "bid": HandBuilder._bid,
    "exchange": HandBuilder._exchange,
    "reshuffle": HandBuilder._reshuffle,
    "penalty": HandBuilder._penalty,
    "trick": HandBuilder._trick,
    "=trick": HandBuilder._trick_claim,
    "=legal": HandBuilder._legal,
    "=tricks": HandBuilder._sides,
    "=pot": HandBuilder._sides,
    "=pays": HandBuilder._sides,
    "=score": HandBuilder._sides,
    "=points": HandBuilder._sides,
    "=total": HandBuilder._sides,
    "=order": order_claim,
    "raise": wager,
    "play": layout_move,
    "knock": layout_move,
}
