"""An exact judge of Sawa (سوا): the claim that one side takes every remaining trick.

A player who says Sawa stops the hand, claiming that their side (or, by some rules, their own
card) wins every trick still to play. The referee sees every remaining card, so the claim is a
question with an exact answer: does the claimant's side have a way of playing that wins every
remaining trick against every legal defence? :func:`judge_sawa` answers it by an AND-OR search
of the rest of the hand and gives the line that shows it: a forcing order against one defence
when the claim is right, a refutation up to the trick the claimant's side loses when it is
wrong. :func:`line_words` says that line the way a player would.

The search only asks :class:`~baloot_conformance.engine.play.PlayRules` which cards are legal
(``legal``) and which card wins (``winner``), so every ruleset's play obligations apply as
they are; the few tables it needs (which cards beat which, the trumps, how strong each card is)
are read off ``winner`` once per ruleset. It is exact, and quick because of:

- cut-offs: a trick is lost as soon as the card winning it is held by a seat that does not
  count for the claim (an opponent; for ``own_cards``, anyone but the claimant) and no player
  still to play who counts holds a card that could beat it; a trick start is won outright
  when its leader counts and nobody else holds a card that beats any of the leader's cards,
  or (the side's claim) no opponent holds a card that beats any of the side's cards;
- move order: the side tries the cards that win the trick first, the defence the cards that
  beat the card winning it;
- equivalent cards. Legality depends on a card only through its suit, its strength against
  the cards still in play, and, for a led card, whether it frees the third hand from trumping
  (a "certain top" under ``fourth_or_certain_top``): that last is probed through ``legal``
  once per ruleset as the card's signature. So of the legal cards of one suit in one hand that
  touch (no card still in play lies between them in strength) and share a signature, only one
  is tried: the others lead to the same play with the cards renamed;
- a transposition table of the trick starts, keyed by the same renaming: for each suit, who
  holds each card still in play, weakest first, with its signature; and the leader. An exact
  true or false, as the question is yes or no.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from baloot_conformance.cards import CARDS
from baloot_conformance.engine.model import SEAT_NAMES, SUIT_MASKS, CardSet, Seat, per_ruleset
from baloot_conformance.engine.play import PlayRules

Line = tuple[tuple[Seat, int], ...]


@dataclass(frozen=True, slots=True)
class SawaJudgement:
    """The verdict on a Sawa claim and the line of play that shows it."""

    right: bool
    line: Line
    """Plays (seat, card index) from the position. Right: a forcing order for the claimant's
    side against one defence, to the end of the hand. Wrong: a refutation line, up to and
    including the trick the claimant's side loses."""
    lost_trick: int | None
    """The trick number (1-8) lost along the line when wrong."""
    lost_to: Seat | None
    """Who wins that trick."""
    nodes: int
    """Search nodes visited (for the benchmark)."""


class _Tables:
    """What the search needs of a :class:`PlayRules`, read off its ``winner`` and ``legal``."""

    __slots__ = (
        "ascending",
        "beat",
        "classes",
        "descending",
        "kept",
        "merge",
        "power",
        "rules",
        "shapes",
        "sorted_cache",
    )

    def __init__(self, rules: PlayRules) -> None:
        self.rules = rules
        winner = rules.winner
        suit_of = [c >> 3 for c in range(32)]
        # beat[w]: the cards that beat w when w is winning a trick (w is then a trump or of
        # the suit led): higher cards of its suit, and the trumps if w is a plain card.
        beat = [sum(1 << c for c in range(32) if c != w and winner((w, c)) == 1) for w in range(32)]
        trumps = 0
        for c in range(32):
            if beat[c] & ~SUIT_MASKS[suit_of[c]]:
                trumps |= beat[c] & ~SUIT_MASKS[suit_of[c]]
        # power: 0-7 within a suit (how many of its suit a card beats), +8 for a trump.
        power = [
            sum(1 for o in range(32) if o != c and suit_of[o] == suit_of[c] and beat[o] >> c & 1)
            + (8 if trumps >> c & 1 else 0)
            for c in range(32)
        ]
        self.beat: tuple[CardSet, ...] = tuple(beat)
        self.power: tuple[int, ...] = tuple(power)
        self.ascending: tuple[int, ...] = tuple(sorted(range(32), key=lambda c: power[c]))
        self.descending: tuple[int, ...] = self.ascending[::-1]
        # The cards that may be merged, suit by suit, weakest first, each with its lead
        # signature: what the third hand may play after its partner led it and is winning.
        self.merge: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((c & 7, self._lead_signature(c, trumps)) for c in self.ascending if c >> 3 == s)
            for s in range(4)
        )
        # The same with each signature replaced by its class in the suit (0, 1, ...).
        self.classes: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            tuple((place, sorted({sig for _, sig in cards}).index(sig)) for place, sig in cards)
            for cards in self.merge
        )
        self.sorted_cache: dict[int, tuple[int, ...]] = {}
        self.shapes: dict[int, int] = {}
        """Memo of :func:`_shape`: (suit << 128 | the suit's byte of each hand) -> shape."""
        self.kept: dict[int, int] = {}
        """Memo of :func:`_kept`: (suit << 16 | legal byte << 8 | present byte) -> kept byte."""

    def _lead_signature(self, card: int, trumps: CardSet) -> CardSet:
        """The third hand's legal cards after its partner led ``card`` and an opponent
        discarded: void in the suit led, holding one card of each other suit."""
        suit = card >> 3
        others = [s for s in range(4) if s != suit]
        plain = [s for s in others if not SUIT_MASKS[s] & trumps]
        discard = plain[0] * 8 if plain else others[0] * 8
        hand = sum(1 << (s * 8 + 1) for s in others if s * 8 != discard)
        hand |= 1 << (discard + 2)
        return self.rules.legal(hand, (card, discard), 0)

    def order(self, mask: CardSet, descending: bool) -> tuple[int, ...]:
        """The cards of ``mask`` by power (strongest first when ``descending``)."""
        key = mask << 1 | descending
        got = self.sorted_cache.get(key)
        if got is None:
            sequence = self.descending if descending else self.ascending
            got = tuple(c for c in sequence if mask >> c & 1)
            if len(self.sorted_cache) < 1 << 20:
                self.sorted_cache[key] = got
        return got


def _tables(rules: PlayRules) -> _Tables:
    return per_ruleset(rules, "sawa", lambda: _Tables(rules))


def _kept(tables: _Tables, suit: int, legal: int, present: int) -> int:
    """Of the legal cards of a suit (bytes of the suit's eight bits), one of each run of
    touching cards with the same lead signature: the strongest."""
    kept = 0
    previous = -1  # the last card of the current run, -1 when no run is open
    previous_signature = -1
    for place, signature in tables.merge[suit]:
        bit = 1 << place
        if not present & bit:
            continue  # played: no longer between anything
        if legal & bit and previous >= 0 and signature == previous_signature:
            kept &= ~(1 << previous)  # keep the stronger card of the run
            kept |= bit
            previous = place
        elif legal & bit:
            kept |= bit
            previous, previous_signature = place, signature
        else:
            previous = -1
    return kept


#: The low byte of each seat's 32 bits in ``h0 | h1 << 32 | h2 << 64 | h3 << 96``.
_SPARSE = sum(255 << (32 * seat) for seat in range(4))


def _shape(tables: _Tables, suit: int, word: int) -> int:
    """A suit's cards still in play as a number (``word``: the suit's byte of each hand, at
    bits ``32 * seat``): who holds each, weakest first, with its signature class (always 1
    or more). Two trick starts whose suits have the same shapes and the same leader play
    alike, the cards renamed, so they share an entry of the table."""
    shape = 1
    cards = tables.classes[suit]
    classes = 1 + max(c for _, c in cards)
    for place, signature_class in cards:
        for seat in range(4):
            if word >> (32 * seat + place) & 1:
                shape = (shape * 4 + seat) * classes + signature_class
    return shape


class _Solver:
    """One judgement: the search, its table and its node count."""

    def __init__(
        self, rules: PlayRules, claimant: Seat, own_cards: bool, partner_helps: bool = False
    ) -> None:
        tables = _tables(rules)
        self.tables = tables
        side = claimant & 1
        #: The seats whose winning a trick keeps the claim alive.
        self.ok = tuple(s == claimant if own_cards else s & 1 == side for s in range(4))
        #: The seats whose cards the claim chooses: the claimant's side, or for
        #: ``own_cards`` the claimant alone (his cards must win whatever the other three play)
        #: unless his partner plays along (``partner_helps``).
        self.chooses = tuple(s & 1 == side for s in range(4)) if partner_helps else self.ok
        self.nodes = 0
        self.table: dict[tuple[int, int, int, int, int], bool] = {}
        self.search = self._build(own_cards)

    def _build(
        self, own_cards: bool
    ) -> Callable[[list[int], tuple[int, ...], Seat, Seat, int], bool]:
        tables = self.tables
        legal_of = tables.rules.legal
        beat = tables.beat
        order = tables.order
        ok = self.ok
        chooses = self.chooses
        table = self.table
        memo = tables.kept
        shapes = tables.shapes
        side_wins = not own_cards

        def reduce(legal: CardSet, present: CardSet) -> CardSet:
            """``legal`` with one card of each run of touching cards."""
            out = 0
            for suit in range(4):
                byte = legal >> (suit * 8) & 255
                if byte & (byte - 1):
                    key = suit << 16 | byte << 8 | (present >> (suit * 8) & 255)
                    kept = memo.get(key)
                    if kept is None:
                        kept = memo[key] = _kept(tables, suit, byte, key & 255)
                    out |= kept << (suit * 8)
                else:
                    out |= byte << (suit * 8)
            return out

        def candidates(
            hands: list[int], trick: tuple[int, ...], leader: Seat, place: Seat, winning: int
        ) -> tuple[int, ...]:
            """The cards to try at a node, best first for the player."""
            n = len(trick)
            seat = (leader + n) & 3
            hand = hands[seat]
            legal = legal_of(hand, trick, leader)
            if legal & (legal - 1):
                present = hands[0] | hands[1] | hands[2] | hands[3]
                for card in trick:
                    present |= 1 << card
                legal = reduce(legal, present)
            if not n:
                return order(legal, True)
            beaters = legal & beat[winning]
            if not beaters:
                return order(legal, False)
            rest = legal & ~beaters
            if chooses[seat]:
                if ok[place] or not ok[seat]:  # already winning, or cannot win it anyway
                    return order(rest, False) + order(beaters, False)
                # Beat high when an opponent still to play could beat the card winning now.
                later = 0
                for k in range(n + 1, 4):
                    s = (leader + k) & 3
                    if not chooses[s]:
                        later |= hands[s]
                return order(beaters, bool(later & beat[winning])) + order(rest, False)
            if not ok[place]:  # the defence already holds it
                return order(rest, False) + order(beaters, True)
            return order(beaters, True) + order(rest, False)

        def canonical(hands: list[int], leader: Seat) -> tuple[int, int, int, int, int]:
            """The table's key for a trick start: the shape of each suit, and the leader."""
            every = hands[0] | hands[1] << 32 | hands[2] << 64 | hands[3] << 96
            one = every & _SPARSE
            two = (every >> 8 & _SPARSE) | 1 << 128
            three = (every >> 16 & _SPARSE) | 2 << 128
            four = (every >> 24 & _SPARSE) | 3 << 128
            get = shapes.get
            return (
                get(one) or shape(one),
                get(two) or shape(two),
                get(three) or shape(three),
                get(four) or shape(four),
                leader,
            )

        def shape(key: int) -> int:
            got = shapes[key] = _shape(tables, key >> 128, key)
            return got

        def unbeaten(cards: CardSet, others: CardSet) -> bool:
            """Whether no card of ``others`` beats any of ``cards``: whoever of ``cards``
            leads then wins every trick (a card only ever loses to one that beats it)."""
            while cards:
                low = cards & -cards
                if beat[low.bit_length() - 1] & others:
                    return False
                cards ^= low
            return True

        def search(
            hands: list[int], trick: tuple[int, ...], leader: Seat, place: Seat, winning: int
        ) -> bool:
            """Whether the claim holds from here; ``place`` and ``winning`` are the seat and
            the card winning the trick so far (unused when it is empty)."""
            self.nodes += 1
            n = len(trick)
            key = (0, 0, 0, 0, 0)
            if n:
                if not ok[place]:
                    # Lost unless a later player who counts for the claim can beat it.
                    threat = beat[winning]
                    for k in range(n, 4):
                        s = (leader + k) & 3
                        if ok[s] and hands[s] & threat:
                            break
                    else:
                        return False
            else:
                mine = hands[leader]
                if not mine:
                    return True  # every trick played
                if ok[leader]:
                    every = hands[0] | hands[1] | hands[2] | hands[3]
                    if unbeaten(mine, every & ~mine) or (
                        side_wins
                        and unbeaten(mine | hands[leader ^ 2], every & ~mine & ~hands[leader ^ 2])
                    ):
                        return True
                key = canonical(hands, leader)
                known = table.get(key)
                if known is not None:
                    return known
            seat = (leader + n) & 3
            wanted = chooses[seat]  # the side looks for a card that holds, the defence for one
            result = not wanted  # that breaks the claim
            hand = hands[seat]
            for card in candidates(hands, trick, leader, place, winning):
                if not n or beat[winning] >> card & 1:
                    now_place, now_winning = seat, card
                else:
                    now_place, now_winning = place, winning
                hands[seat] = hand & ~(1 << card)
                if n == 3:
                    value = ok[now_place] and search(hands, (), now_place, 0, 0)
                else:
                    value = search(hands, (*trick, card), leader, now_place, now_winning)
                hands[seat] = hand
                if value == wanted:
                    result = wanted
                    break
            if not n:
                table[key] = result
            return result

        self.candidates = candidates
        return search


def _check(hands: Sequence[CardSet], trick: tuple[int, ...], leader: Seat, done: int) -> int:
    """The number of tricks left; ValueError when the position cannot be."""
    if len(hands) != 4 or not 0 <= leader < 4 or len(trick) > 3 or not 0 <= done <= 8:
        raise ValueError("a position has four hands, a leader 0-3, 0-3 cards on the table")
    seen = 0
    for mask in (*hands, *(1 << c for c in trick)):
        if mask & seen or mask >> 32:
            raise ValueError("a card is held twice, or is not a card")
        seen |= mask
    left = 8 - done
    for seat in range(4):
        played = (seat - leader) % 4 < len(trick)
        if hands[seat].bit_count() + played != left:
            raise ValueError(f"{SEAT_NAMES[seat]} holds the wrong number of cards")
    if left == 0 and trick:
        raise ValueError("cards on the table after the eighth trick")
    return left


def judge_sawa(
    rules: PlayRules,
    hands: Sequence[CardSet],
    trick: tuple[int, ...],
    leader: Seat,
    tricks_done: int,
    claimant: Seat,
    own_cards: bool,
    partner_helps: bool = False,
) -> SawaJudgement:
    """Judge ``claimant``'s Sawa in a position seen by the referee.

    ``hands[s]`` is seat s's remaining cards; ``trick`` the cards already played to the
    current trick, led by ``leader``; ``tricks_done`` tricks are complete. The claim is that
    the claimant's side (``own_cards``: the claimant's own card) wins every remaining trick,
    the current one included. Right iff the side has a way to play that does so against every
    legal defence. Under ``own_cards`` the partner defends too, unless ``partner_helps``: then
    he plays the cards that let the claimant win (``claims.sawa`` ``forced:
    own_cards_partner_helps``).

    Raises:
        ValueError: the position is impossible (cards held twice, wrong counts).
    """
    _check(hands, trick, leader, tricks_done)
    solver = _Solver(rules, claimant, own_cards, partner_helps)
    search = solver.search
    start = list(hands)
    if trick:
        place = (leader + rules.winner(trick)) % 4
        winning = trick[rules.winner(trick)]
    else:
        place, winning = 0, 0
    right = search(start, trick, leader, place, winning)

    # The line: the side's first holding card, the defence's first (right); the defence's
    # first breaking card, the side's first try (wrong).
    ok, chooses, beat = solver.ok, solver.chooses, solver.tables.beat
    line: list[tuple[Seat, int]] = []
    number = tricks_done + 1
    while start[(leader + len(trick)) & 3]:
        n = len(trick)
        seat = (leader + n) & 3
        hand = start[seat]
        pick = -1
        for card in solver.candidates(start, trick, leader, place, winning):
            if pick < 0:
                pick = card
            if chooses[seat] != right:
                break  # every card of the side fails, every defence holds: take the first
            if n and not beat[winning] >> card & 1:
                now_place, now_winning = place, winning
            else:
                now_place, now_winning = seat, card
            start[seat] = hand & ~(1 << card)
            if n == 3:
                value = ok[now_place] and search(start, (), now_place, 0, 0)
            else:
                value = search(start, (*trick, card), leader, now_place, now_winning)
            start[seat] = hand
            if value == right:
                pick = card
                break
        line.append((seat, pick))
        start[seat] = hand & ~(1 << pick)
        if not n or beat[winning] >> pick & 1:
            place, winning = seat, pick
        if n < 3:
            trick = (*trick, pick)
            continue
        if not ok[place]:
            return SawaJudgement(False, tuple(line), number, place, solver.nodes)
        trick, leader, number = (), place, number + 1
    return SawaJudgement(right, tuple(line), None, None, solver.nodes)


def line_words(
    judgement: SawaJudgement, tricks_done: int, trick: tuple[int, ...], leader: Seat
) -> str:
    """The judgement as a player says it, on one line: ``W answers 9H in trick 6 and wins it:
    line t6 N AS, W 9H, S 8H, E 7H`` for a wrong claim, ``the forcing order: t5 N AS, W 7H,
    ...; t6 ...`` for a right one. Cards already on the table are in brackets."""
    parts: list[str] = []
    on_table = ", ".join(f"{SEAT_NAMES[(leader + i) % 4]} {CARDS[c]}" for i, c in enumerate(trick))
    head = f"t{tricks_done + 1} ({on_table}) " if trick else f"t{tricks_done + 1} "
    current: list[str] = []
    number = tricks_done + 1
    count = len(trick)
    winning_play = ""
    lead_of_lost = False
    for seat, card in judgement.line:
        current.append(f"{SEAT_NAMES[seat]} {CARDS[card]}")
        if judgement.lost_to == seat and judgement.lost_trick == number:
            winning_play = str(CARDS[card])  # the winner of a trick plays its winning card
            lead_of_lost = count == 0
        count += 1
        if count == 4:
            parts.append(head + ", ".join(current))
            current, count, number = [], 0, number + 1
            head = f"t{number} "
    if current:
        parts.append(head + ", ".join(current))
    text = "; ".join(parts)
    if judgement.right:
        return f"the forcing order: {text}" if text else "no trick is left to play"
    lost_to = judgement.lost_to
    who = SEAT_NAMES[lost_to] if lost_to is not None else "?"
    if not winning_play and lost_to is not None:  # the winning card was on the table already
        held = CARDS[trick[(lost_to - leader) % 4]]
        return f"{who}'s {held} on the table wins trick {judgement.lost_trick}: line {text}"
    verb = "leads" if lead_of_lost else "answers"
    return f"{who} {verb} {winning_play} in trick {judgement.lost_trick} and wins it: line {text}"
