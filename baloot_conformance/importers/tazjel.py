"""The tazjel importer: a match log of tazjel/baloot-ai's ``game_engine`` to BTN.

The log is ``{engine, seed, final, seconds, rounds}``; each round gives the dealer, the first
five cards of each seat (``first5``), the face-up card, every call, every card played, the
projects each seat declared, and, unless the round was dealt again after an all-pass
(``redealt``), the engine's own round record (``record``) and the match score after it
(``totals_after``). Seats 0-3 (Bottom, Right, Top, Left) play in that order: N W S E; "us" is
NS.

Placed as:

- ``dealer``, ``first5``, ``faceup`` → ``dealer``, ``deal``, ``faceup``; the record's
  ``initialHands`` → ``rest`` (each seat's eight cards less its first five and the face-up
  card);
- ``calls`` → ``bid`` lines (lower case, suits as letters). A call's ``status`` is the engine's
  answer about its Gablak window (the earlier seats' chance to claim a Sun): a call that opened
  it (``GABLAK_TRIGGERED``) has it as its comment; a call the engine did not take because the
  window had lapsed (``GABLAK_TIMEOUT``) is a comment line, not a call;
- the record's ``bid`` → ``= contract`` (bidder, type, suit, ``xN`` when raised);
- ``declared`` → ``declare`` lines with their cards;
- ``plays`` with the record's ``tricks`` → ``trick`` lines with each trick's winner and points;
- a card's ``metadata.baloot`` → a ``baloot`` line after the card that announced it (the
  first of the King and Queen of trump), its confirmation on the second card a comment; the
  record's ``balootDeclarations`` repeat those, and one the play did not announce goes after
  the last trick (the log does not say when it was made);
- the record's ``aklat`` → ``= aklat``, and ``aklat`` + ``ardh`` (the last trick's bonus) →
  ``= abnat``; ``isKaboot`` → ``= kaboot``;
  ``result`` → ``= score``; ``totals_after`` → ``= total``;
- as comments, because no claim of the notation means the same: ``projectPoints`` (each
  team's own projects before the outcome, in card points), ``winner`` (the side with more
  points, which is not the outcome of the contract: a made buyer can score less than an
  opponent's Baloot lifts it to) and ``baida`` (equal scores). The log does not say whether
  the buyer made the contract, so there is no ``= result`` claim.

Left out on purpose, as repeats of what is placed: the record's ``roundNumber``,
``dealerIndex``, ``floorCard``, ``declarations`` and each team's ``projects`` (the projects that
counted), the record's ``abnat`` (``aklat`` + ``ardh`` + ``projectPoints``),
``multiplierApplied`` (the contract's level), ``scores.bid``, ``scores.project``,
``scores.roundNumber``, the bid's ``doubled``, ``variant`` and ``isTentative``; each trick's
``playedBy``; each Baloot's confirmation on its second card; the log's
``final`` (the last total) and ``seconds``.
"""

from __future__ import annotations

from typing import Any

from baloot_conformance.importers import (
    RANKS,
    SEATS,
    SUIT_SYMBOLS,
    TEAMS,
    Deck,
    Node,
    match,
    pair,
    symbol_card,
)

_POSITIONS = {"Bottom": "N", "Right": "W", "Top": "S", "Left": "E"}
_CALLS = {"PASS": "pass", "HOKUM": "hokum", "SUN": "sun", "ASHKAL": "ashkal"}
_KINDS = {"SUN": "sun", "HOKUM": "hokum"}
_PROJECTS = {"SIRA": "sira", "FIFTY": "fifty", "HUNDRED": "hundred", "FOUR_HUNDRED": "four_hundred"}
_SIDES = {"us": "NS", "them": "EW"}
_STATUSES = {"GABLAK_TRIGGERED": "GABLAK_TRIGGERED", "GABLAK_TIMEOUT": "GABLAK_TIMEOUT"}


def convert(log: Any, source: str) -> str:
    """BTN text for one tazjel match log (see the module docstring)."""
    return match(log, source, "tazjel@3", ("final", "seconds"), _round)


def _card(node: Node) -> str:
    """A card written ``{suit, rank, id, value}``."""
    node.ignore("id", "value")
    card = node["rank"].choice(RANKS, "rank") + node["suit"].choice(SUIT_SYMBOLS, "suit")
    node.done()
    return card


def _seat(node: Node) -> str:
    return node.choice(dict(enumerate(SEATS)), "seat")


def _round(node: Node) -> list[str]:
    deck = Deck()
    faceup = symbol_card(node["faceup"])
    first5 = node["first5"]
    five = {
        SEATS[int(key)]: [deck.give(symbol_card(c), c) for c in first5[key].items(5)]
        for key in "0123"
    }
    first5.done()
    deck.give(faceup, node["faceup"])
    lines = [f"dealer {_seat(node['dealer'])}"]
    lines += [f"deal {seat} {' '.join(five[seat])}" for seat in SEATS]
    lines.append(f"faceup {faceup}")
    for call in node["calls"].items():
        words = [call["call"].choice(_CALLS, "call")]
        suit = call.get("suit")
        if suit is not None:
            words.append(suit.choice(SUIT_SYMBOLS, "suit"))
        text = f"bid {_seat(call['seat'])} {' '.join(words)}"
        status = call.get("status")
        if status is None:
            lines.append(text)
        elif status.choice(_STATUSES, "call status") == "GABLAK_TIMEOUT":
            lines.append(f"# {text}: not taken, its Gablak window had lapsed (GABLAK_TIMEOUT)")
        else:
            lines.append(f"{text}  # opens a Gablak window (GABLAK_TRIGGERED)")
        call.done()
    if node.has("redealt") and node["redealt"].flag():
        node.ignore("plays", "declared")
        return [*lines, "= contract none"]
    node.ignore("redealt")
    record = node["record"]
    lines += _rest(record["initialHands"], five, faceup, deck)
    lines.append(f"= contract {_contract(record['bid'])}")
    for position, projects in _by_position(node["declared"]):
        for project in projects.items():
            word = project["type"].choice(_PROJECTS, "project")
            cards = " ".join(symbol_card(c) for c in project["cards"].items())
            lines.append(f"declare {position} {word} {cards}")
            project.ignore("rank")
            project.done()
    tricks, announced = _tricks(node["plays"], record["tricks"], deck)
    lines += tricks
    scores = record["scores"]
    for baloot in scores["balootDeclarations"].items():
        seat = baloot["position"].choice(_POSITIONS, "position")
        if seat not in announced:  # logged without its moment: after the last trick
            lines.append(f"baloot {seat}")
        baloot.ignore("type", "team", "game_points", "abnat")
        baloot.done()
    lines += _scores(scores, node["totals_after"])
    record.ignore("roundNumber", "dealerIndex", "floorCard", "declarations")
    record.done()
    return lines


def _by_position(node: Node) -> list[tuple[str, Node]]:
    """The entries of an object keyed by position name, with their seats."""
    entries = []
    for key in node.fields():
        if key not in _POSITIONS:
            raise node[key].error(f"unknown position {key!r}", hint="known: Bottom Right Top Left")
        entries.append((_POSITIONS[key], node[key]))
    node.done()
    return entries


def _rest(node: Node, five: dict[str, list[str]], faceup: str, deck: Deck) -> list[str]:
    """``rest`` lines: each seat's eight cards less its first five and the face-up card (the
    eight must hold the five; the rest, two or three cards, must not have been given out)."""
    lines = []
    for position in ("Bottom", "Right", "Top", "Left"):
        seat = _POSITIONS[position]
        hand = node[position]
        eight = [(_card(c), c) for c in hand.items(8)]
        missing = [c for c in five[seat] if c not in {card for card, _ in eight}]
        if missing:
            raise hand.error(f"the eight cards lack {' '.join(missing)} of the seat's first five")
        rest = [deck.give(c, at) for c, at in eight if c not in five[seat] and c != faceup]
        lines.append(f"rest {seat} {' '.join(rest)}")
    node.done()
    return lines


def _contract(node: Node) -> str:
    words = [node["bidder"].choice(_POSITIONS, "position"), node["type"].choice(_KINDS, "bid")]
    suit = node.get("suit")
    if suit is not None:
        words.append(suit.choice(SUIT_SYMBOLS, "suit"))
    level = node["level"].integer()
    if level > 1:
        words.append(f"x{level}")
    node.ignore("doubled", "variant", "isAshkal", "isTentative")
    node.done()
    return " ".join(words)


def _tricks(plays: Node, tricks: Node, deck: Deck) -> tuple[list[str], set[str]]:
    """The trick lines, and the seats whose Baloot the play announced."""
    cards = [
        (_seat(p["seat"]), deck.play(symbol_card(p["card"]), p["card"])) for p in plays.items()
    ]
    lines: list[str] = []
    announced: set[str] = set()
    for number, trick in enumerate(tricks.items(), start=1):
        played = cards[4 * (number - 1) : 4 * number]
        logged = []
        after: list[list[str]] = []
        entries = zip(trick["cards"].items(4), trick["metadata"].items(4), strict=True)
        for entry, meta in entries:
            logged.append((entry["playedBy"].choice(_POSITIONS, "position"), _card(entry["card"])))
            entry.done()
            after.append(_announcement(meta, announced))
        if logged != played:
            raise trick.error(
                f"trick {number} lists other cards than 'plays': {logged} against {played}"
            )
        winner = trick["winner"].choice(_POSITIONS, "position")
        points = trick["points"].integer()
        if any(after):
            for (seat, card), extra in zip(played, after, strict=True):
                lines += [f"play {seat} {card}", *extra]
            lines.append(f"= trick {number} {winner} {points}")
        else:
            text = ", ".join(f"{seat} {card}" for seat, card in played)
            lines.append(f"trick {number}: {text} = {winner} {points}")
        trick.ignore("playedBy")
        trick.done()
    if len(cards) != 4 * len(tricks.value):
        raise plays.error(
            f"{len(cards)} cards played, but the record has {len(tricks.value)} tricks"
        )
    return lines, announced


def _announcement(meta: Node, announced: set[str]) -> list[str]:
    """What a card's metadata says: the Baloot announced with it (``baloot`` on the first of
    the King and Queen, its confirmation on the second, kept as a comment)."""
    lines = []
    baloot = meta.get("baloot")
    if baloot is not None:
        seat = baloot["position"].choice(_POSITIONS, "position")
        phase = baloot["phase"].choice({"BALOOT": "BALOOT", "RE_BALOOT": "RE_BALOOT"}, "phase")
        message = baloot["message"].note()
        if phase == "BALOOT":
            lines.append(f"baloot {seat}  # {message}")
            announced.add(seat)
        baloot.ignore("team", "card_rank", "card_suit", "game_points", "abnat", "declared")
        baloot.done()
    meta.done()
    return lines


def _scores(scores: Node, totals: Node) -> list[str]:
    sides = {side: scores[side] for side in ("us", "them")}
    figures: dict[str, tuple[int, int]] = {}
    for name in ("aklat", "ardh", "projectPoints", "result"):
        us, them = sides["us"][name].integer(), sides["them"][name].integer()
        figures[name] = (us, them)
    kaboot = [
        team for side, team in zip(sides, TEAMS, strict=True) if sides[side]["isKaboot"].flag()
    ]
    if len(kaboot) > 1:  # one team takes every trick, or none does
        raise sides["them"]["isKaboot"].error("both sides are logged as taking every trick")
    winner = scores["winner"].choice(_SIDES, "side")
    (aklat_us, aklat_them), (ardh_us, ardh_them) = figures["aklat"], figures["ardh"]
    abnat = (aklat_us + ardh_us, aklat_them + ardh_them)
    lines = [
        f"# tazjel winner: {winner} (the side with more points; EW when equal)",
        f"# tazjel projectPoints (own projects, before the outcome): "
        f"{pair(*figures['projectPoints'], scores)}",
    ]
    if scores["baida"].flag():
        lines.append("# tazjel baida: equal scores")
    lines += [
        f"= aklat {pair(*figures['aklat'], scores)}",
        f"= abnat {pair(*abnat, scores)}",
        *(f"= kaboot {team}" for team in kaboot),
        f"= score {pair(*figures['result'], scores)}",
        f"= total {pair(totals['us'].integer(), totals['them'].integer(), totals)}",
    ]
    for side in sides.values():
        side.ignore("abnat", "multiplierApplied", "projects")
        side.done()
    totals.done()
    scores.ignore("bid", "project", "roundNumber")
    scores.done()
    return lines
