"""Generated Bourré sessions as BTN 2: the engine's seeded random playouts, written out with
every claim, for ``baloot-conformance generate --ruleset bourre``.

A session is :func:`~baloot_conformance.family.engine.playout.random_session`'s hands (every
decision a legal one, the pack shuffled by the same seeded generator, so the same seed gives
the same bytes on every machine), each turned into BTN 2 items by :func:`hand_items` and
written by the canonical writer (:mod:`baloot_conformance.family.btn.writer`). The header
names the ruleset (``[Ruleset "<id>@<major>"]``), the seats, the seed and the event; the first
hand states its ``start`` (a new session: an empty pot), every hand its ``dealer``.

How a hand's actions become statements (the checker's reading,
:mod:`baloot_conformance.family.check.hand_check`, in reverse): the antes before the deal one
``ante`` line, a stay (the double-ante variant's second ante) an ``ante`` line of its own
after the declaration; the deal one ``deal`` line per seat dealt in and the ``faceup`` card; a
declaration ``bid SEAT play N`` (``N`` its discards where it says them, ``in_turn``) or
``bid SEAT play`` / ``bid SEAT pass``; a seat's discards and the cards it is served one
``exchange`` line, preceded by ``reshuffle`` when the stock was refilled for it (a seat that
stands pat writes none); a renege's price a ``penalty`` line; each card a play, each trick's
winner a claim on its line. With ``legal``, a ``= legal`` claim (the engine's legal cards)
comes before every card. The closing
claims: ``= tricks`` (every player in the tricks), ``= pot`` (the winner, when one took it),
``= pays`` (who pays into the next pot, when someone does) and ``= score`` (every seat's net
chips for the hand).

This module computes no rule: every number it writes is the engine's.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from baloot_conformance.family.btn import items as b2
from baloot_conformance.family.btn.writer import format_hand, format_header
from baloot_conformance.family.engine.actions import (
    Ante,
    Choose,
    Deal,
    Declare,
    Discard,
    Draw,
    Knock,
    Penalty,
    Play,
    Reshuffle,
    Wager,
)
from baloot_conformance.family.engine.hand import TrickHand
from baloot_conformance.family.engine.pack import pack_of, ring_of
from baloot_conformance.family.engine.playout import random_session
from baloot_conformance.family.rules.model import TrickRuleset

__all__ = [
    "game_seed",
    "generate_games",
    "generate_session",
    "hand_items",
    "reference_of",
    "sessions_text",
    "table_for",
]


def reference_of(rules: TrickRuleset) -> str:
    """The ``[Ruleset]`` value naming ``rules``: ``bourre@1``, ``bourre-hoyle@1``."""
    return f"{rules.id}@{rules.major}"


def table_for(rules: TrickRuleset, players: int) -> b2.Table:
    """The BTN 2 table of ``players`` seats under ``rules`` (what the reader builds from the
    header), for the writer."""
    ring = ring_of(rules, players)
    return b2.Table(
        ruleset=reference_of(rules),
        seats=ring.names,
        pack=pack_of(rules).codes,
        hand_size=rules.phases.deal.cards,
        tricks=rules.phases.tricks.count,
        numbered=not rules.table.seats.names,
        passing=rules.phases.pass_cards is not None,
        points=rules.scoring.outcome.option == "points",
    )


def hand_items(played: TrickHand, number: int, *, legal: bool, start: bool) -> b2.Hand:
    """A played hand's BTN 2 items, its claims the engine's: the hand is replayed from its
    history on a fresh :class:`TrickHand`, which gives the legal sets and the trick winners."""
    rules = played.rules
    names = played.names
    codes = pack_of(rules).codes
    replay = TrickHand(rules, played.ledger, played.compile, names=names)
    prefix = f"h{number}"
    out: list[b2.HandItem] = []
    if start:
        out.append(start_item(played, prefix))
    out.append(b2.Dealer(position=f"{prefix}.dealer", seat=names[played.ledger.dealer]))
    counts = {"ante": 0, "bid": 0, "reshuffle": 0, "penalty": 0}
    antes: list[tuple[str, int]] = []
    discards: dict[int, tuple[int, ...]] = {}
    served: dict[int, list[int]] = {}
    reshuffled: set[int] = set()
    plays = 0

    def flush_antes() -> None:
        if antes:
            counts["ante"] += 1
            out.append(b2.Ante(position=f"{prefix}.ante{counts['ante']}", chips=tuple(antes)))
            antes.clear()

    def exchange(seat: int) -> None:
        if seat in reshuffled:
            counts["reshuffle"] += 1
            out.append(b2.Reshuffle(position=f"{prefix}.reshuffle{counts['reshuffle']}"))
        out.append(
            b2.Exchange(
                position=f"{prefix}.x.{names[seat]}",
                seat=names[seat],
                discards=tuple(codes[c] for c in discards[seat]),
                received=tuple(codes[c] for c in served.pop(seat)),
            )
        )

    for action in played.history:
        if not isinstance(action, Ante):
            flush_antes()
        if isinstance(action, Ante):
            antes.append((names[action.seat], action.chips))
            if replay.phase == "draw":  # a stay: its own line, after the declaration
                replay.push(action)
                flush_antes()
                continue
        elif isinstance(action, Deal):
            for seat, cards in enumerate(action.hands):
                if cards:
                    out.append(
                        b2.Deal(
                            position=f"{prefix}.deal.{names[seat]}",
                            seat=names[seat],
                            cards=tuple(codes[c] for c in cards),
                        )
                    )
            if rules.phases.deal.faceup == "dealer_last" and replay.dealt_in:
                dealer = replay.dealt_in[-1]
                out.append(
                    b2.FaceUp(
                        position=f"{prefix}.faceup",
                        seat=names[dealer],
                        card=codes[action.hands[dealer][-1]],
                    )
                )
        elif isinstance(action, Declare):
            counts["bid"] += 1
            name = names[action.seat]
            words: tuple[str, ...] = ("pass",)
            if action.play:
                in_turn = rules.phases.declare is None or rules.phases.declare.option == "in_turn"
                words = ("play", str(action.discards)) if in_turn else ("play",)
            out.append(
                b2.Call(
                    position=f"{prefix}.bid{counts['bid']}",
                    seat=name,
                    word=words[0],
                    args=words[1:],
                )
            )
        elif isinstance(action, Discard):
            discards[action.seat] = action.cards
            served[action.seat] = []
        elif isinstance(action, Reshuffle):
            reshuffled.add(action.seat)
        elif isinstance(action, Draw):
            served[action.seat].extend(action.cards)
        elif isinstance(action, Choose):
            counts["bid"] += 1
            contract = rules.contracts[action.contract]
            args: tuple[str, ...] = ()
            if action.arg is not None:
                pack = pack_of(rules)
                args = ((pack.ranks if contract.play == "layout" else pack.suits)[action.arg],)
            out.append(
                b2.Call(
                    position=f"{prefix}.bid{counts['bid']}",
                    seat=names[action.seat],
                    word=action.contract,
                    args=args,
                )
            )
        elif isinstance(action, Wager):
            out.append(
                b2.Wager(
                    position=f"{prefix}.raise.{names[action.seat]}",
                    seat=names[action.seat],
                    doubles=_seats(names, action.doubles),
                    redoubles=_seats(names, action.redoubles),
                )
            )
        elif isinstance(action, Knock) or (isinstance(action, Play) and replay.phase == "layout"):
            move = replay.moves + 1
            position = f"{prefix}.m{move}"
            who = names[action.seat]
            out.append(
                b2.Knock(position=position, seat=who, move=move)
                if isinstance(action, Knock)
                else b2.LayoutPlay(position=position, seat=who, card=codes[action.card], move=move)
            )
        elif isinstance(action, Play):
            if legal:
                out.append(
                    b2.LegalClaim(
                        position=f"{prefix}.t{replay.trick_number + 1}.p{len(replay.trick) + 1}"
                        ".legal",
                        seat=names[action.seat],
                        cards=tuple(codes[c] for c in _cards(replay.legal_cards())),
                    )
                )
            trick = replay.trick_number + 1
            plays = len(replay.trick) + 1
            out.append(
                b2.Play(
                    position=f"{prefix}.t{trick}.p{plays}",
                    seat=names[action.seat],
                    card=codes[action.card],
                    trick=trick,
                    index=plays,
                )
            )
        elif isinstance(action, Penalty):
            counts["penalty"] += 1
            out.append(
                b2.Penalty(
                    position=f"{prefix}.penalty{counts['penalty']}",
                    seat=names[action.seat],
                    offence="renege",
                )
            )
        replay.push(action)
        if isinstance(action, Draw) and len(served[action.seat]) == len(discards[action.seat]):
            exchange(action.seat)
        if (
            isinstance(action, Play)
            and not replay.trick
            and replay.phase != "layout"
            and (replay.winners and len(replay.winners) == replay.trick_number)
        ):
            trick = replay.trick_number
            out.append(
                b2.TrickClaim(
                    position=f"{prefix}.t{trick}.winner", trick=trick, winner=names[replay.leader]
                )
            )
    flush_antes()
    out.extend(closing_items(replay, prefix))
    return b2.Hand(number=number, items=tuple(out))


def _cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _seats(names: Sequence[str], mask: int) -> tuple[str, ...]:
    return tuple(names[s] for s in range(len(names)) if mask >> s & 1)


def start_item(played: TrickHand, prefix: str) -> b2.Start:
    """The ``start`` line of a session's first hand: the pot game's pot and exemptions, or the
    points game's hand number, totals and the declarer's block so far."""
    ledger = played.ledger
    names = played.names
    position = f"{prefix}.start"
    if played.rules.scoring.outcome.option != "points":
        exempt = tuple(names[s] for s in sorted(ledger.exempt))
        return b2.Start(position=position, pot=ledger.pot, exempt=exempt)
    scores = tuple((names[s], ledger.total_of(s)) for s in range(ledger.players))
    declarer = played.declarer
    chosen = None if declarer is None else ledger.chosen_by(declarer)
    counts = None if declarer is None else ledger.doubles_of(declarer)
    doubled = () if not counts else tuple((names[s], c) for s, c in enumerate(counts) if c)
    return b2.Start(
        position=position,
        hand=ledger.hand,
        scores=scores if any(v for _, v in scores) else (),
        doubled=doubled,
        chosen=chosen or None,
    )


def closing_items(hand: TrickHand, prefix: str) -> list[b2.HandItem]:
    """The closing claims, as the engine settled the hand: a pot game's ``= tricks``, ``=
    pot``, ``= pays`` and ``= score``; a points game's ``= tricks`` (played as tricks), ``=
    points``, ``= score``, ``= total`` and ``= order`` (played as a layout)."""
    names = hand.names
    claims: list[b2.HandItem] = []

    def sides(name: str, values: dict[int, int]) -> None:
        if values:
            pairs = tuple((names[s], n) for s, n in sorted(values.items()))
            claims.append(b2.SidesClaim(position=f"{prefix}.{name}", name=name, values=pairs))  # type: ignore[arg-type]

    if hand.rules.scoring.outcome.option == "points":
        done = hand.points_settlement
        if hand.winners:
            sides("tricks", dict(hand.tricks))
        every = range(hand.ledger.players)
        sides("points", {s: done.points[s] for s in every})
        sides("score", {s: done.score[s] for s in every})
        sides("total", {s: done.next.scores[s] for s in every})
        if done.order:
            seats = tuple(names[s] for s in done.order)
            claims.append(b2.OrderClaim(position=f"{prefix}.order", seats=seats))
        return claims
    settlement = hand.pot_settlement
    sides("tricks", dict(hand.tricks))
    sides("pot", settlement.taken)
    sides("pays", settlement.pays)
    before, after = hand.ledger.chips, settlement.next.chips
    sides("score", {s: after[s] - before[s] for s in range(hand.ledger.players)})
    return claims


#: The hands of a session under a ruleset whose game has no end of its own (Bourré's).
SESSION_HANDS = 10
#: The most hands a game played to its target runs (Hearts' ends at 100 well before).
GAME_TO_TARGET = 1000


def whole_game(rules: TrickRuleset) -> int:
    """The hands ``generate`` writes by default: a whole game where the game has an end
    (``game.kind``: Barbu's schedule of 28 hands; Hearts' target of 100, at most
    :data:`GAME_TO_TARGET`, the game stopping at its end), else a session of
    :data:`SESSION_HANDS`."""
    kind = rules.game.kind
    if kind.option == "schedule" and kind.hands is not None:
        return int(kind.hands)
    return GAME_TO_TARGET if kind.option == "target" else SESSION_HANDS


def game_seed(seed: int, game: int) -> int:
    """The playout seed of session ``game`` (0-based) of a file generated with ``seed``: the
    first session plays ``seed`` itself, so that one session is reproduced by its seed."""
    return seed if game == 0 else seed * 1_000_003 + game


def generate_session(
    rules: TrickRuleset, players: int, hands: int, seed: int, *, legal: bool = False
) -> Iterator[str]:
    """A session of ``hands`` hands at a table of ``players`` as canonical BTN 2 text, in
    pieces (the header, then one per hand). Raises :class:`ValueError` (its message says the
    range) when ``players`` is outside the ruleset's ``table.seats``."""
    return generate_games(rules, players, hands, seed, 1, legal=legal)


def generate_games(
    rules: TrickRuleset, players: int, hands: int, seed: int, games: int, *, legal: bool = False
) -> Iterator[str]:
    """``games`` sessions of ``hands`` hands in one file: each starts with its ``start`` line
    (an empty pot), its hands numbered on from the last session's; session ``k`` plays
    :func:`game_seed` ``(seed, k)``."""
    sessions = [
        random_session(rules, players, hands, None, game_seed(seed, k)) for k in range(games)
    ]
    tags = (("Event", f"Generated session, {rules.id}"), ("Seed", str(seed)))
    return sessions_text(rules, sessions, tags, legal=legal)


def sessions_text(
    rules: TrickRuleset,
    sessions: Sequence[Sequence[TrickHand]],
    tags: Iterable[tuple[str, str]] = (),
    *,
    legal: bool = False,
) -> Iterator[str]:
    """Played sessions (each a non-empty list of hands, in order) as one canonical BTN 2
    file, in pieces: the header (``[Ruleset]``, ``[Seats]`` where seats are numbered, then
    ``tags``), then one per hand, each session's first hand with its ``start`` line."""
    table = table_for(rules, sessions[0][0].ledger.players)
    header: list[b2.Tag | b2.Comment] = [b2.Tag(name="Ruleset", value=table.ruleset)]
    if table.numbered:
        header.append(b2.Tag(name="Seats", value=" ".join(table.seats)))
    header += [b2.Tag(name=name, value=value) for name, value in tags]
    yield format_header(b2.Transcript(version="2", header=tuple(header), hands=(), table=table))
    number = 0
    for played in sessions:
        for k, hand in enumerate(played):
            number += 1
            yield format_hand(hand_items(hand, number, legal=legal, start=k == 0), table)
