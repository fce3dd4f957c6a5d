"""The generic trick engine decides every card as the Baloot engine does.

``tests/data/baloot-as-trick.yaml`` writes Baloot's table and play obligations in
``trick-ruleset/1`` under saudi@1's rule IDs. For each shipped Baloot ruleset (saudi and its
profiles) :func:`carried` carries that ruleset's play options and card tables into the document,
and the generic :class:`PlayTable` of each contract is compared with the Baloot
:class:`PlayRules`:

- on every card of generated hands (``engine.playout``, under every shipped ruleset; at least
  100,000 cards): the same legal set, the same rule behind it (the rule a wrong card breaks, or
  the one that left every card free, as the trace counts it), the same trick winners and the
  same card points per side;
- on hypothesis positions (any hand, trick prefix, contract, lock and raise; 2,000 examples):
  the same legal set, the same rule behind it, which both engines' ``check`` cite for every
  card they refuse (so every card of the hand has the same verdict and rule ID), and the same
  trick winner.

The document goes through the format's four gates (:func:`load_trick_ruleset`), and each
Baloot ruleset's reading is derived from it as a profile is (:func:`derive_trick_ruleset`:
validated again), so the proof runs on what a user's trick ruleset would load to.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot_conformance.cards import CARDS, Suit
from baloot_conformance.engine.actions import Play
from baloot_conformance.engine.model import Contract, ContractKind
from baloot_conformance.engine.model import IllegalAction as BalootIllegal
from baloot_conformance.engine.play import DECIDED_BY, PlayRules, play_rules
from baloot_conformance.engine.playout import random_hand
from baloot_conformance.family.engine.deck import Pack, Ring, build_pack
from baloot_conformance.family.engine.obligations import (
    Context,
    ContractKey,
    IllegalAction,
    PlayTable,
    play_table,
)
from baloot_conformance.family.engine.tricks import card_points, hand_points
from baloot_conformance.family.rules.loading import derive_trick_ruleset, load_trick_ruleset
from baloot_conformance.family.rules.model import TrickRuleset
from baloot_conformance.family.rules.play import PlaySection
from baloot_conformance.family.rules.play_build import build_play
from baloot_conformance.rules.loading import load_ruleset, shipped_rulesets
from baloot_conformance.rules.ruleset import Ruleset

DOCUMENT = Path(__file__).parent / "data" / "baloot-as-trick.yaml"
_CARD_BITS = (1 << 64) - 1
_BALOOT_BITS = (1 << 32) - 1

#: Baloot's option values where the generic stage names them otherwise.
_EXEMPTION = {
    "any_seat": "any_seat",
    "fourth_or_certain_top": "last_or_certain_top",  # four seats: the fourth is the last
    "never": "never",
    "unraised_only": "unraised_only",
}
#: A led trump Jack never reaches the exemption (a trump lead is followed with trump): Baloot's
#: ``trump_jack`` decides nothing there (engine/play.py keeps it "for completeness"), and the
#: generic library has no such value.
_TOPS = {"plain_ace": ["plain_top"], "trump_jack": []}
_BEAT = {"must_beat": "must_beat", "any_trump": "any"}


@cache
def base_document() -> dict[str, Any]:
    document: dict[str, Any] = copy.deepcopy(dict(base_ruleset().document))
    return document


def carried(ruleset: Ruleset) -> dict[str, Any]:
    """The document with ``ruleset``'s play options, card orders and points carried in.

    A Baloot option value with no generic reading raises KeyError: a finding to report, never
    a value to skip."""
    doc = copy.deepcopy(base_document())
    play, table, scoring = doc["play"], doc["table"], doc["scoring"]
    p = ruleset.play
    for key, rule in (
        ("follow_suit", p.follow_suit),
        ("sun.void", p.sun_void),
        ("hokum.ruff", p.hokum_ruff),
        ("hokum.partner_winning", p.hokum_partner_winning),
        ("hokum.overruff", p.hokum_overruff),
        ("hokum.underruff", p.hokum_underruff),
        ("hokum.trump_lead", p.hokum_trump_lead),
        ("hokum.locked_lead", p.hokum_locked_lead),
        ("trick_winner", p.trick_winner),
    ):
        play[key]["statement"] = rule.statement
    play["hokum.ruff"]["option"] = p.hokum_ruff.option
    exemption = p.hokum_partner_winning
    play["hokum.partner_winning"]["option"] = _EXEMPTION[exemption.option]
    play["hokum.partner_winning"]["certain_tops"] = [
        top for t in exemption.certain_tops for top in _TOPS[t]
    ]
    play["hokum.overruff"]["option"] = p.hokum_overruff.option
    play["hokum.underruff"]["option"] = p.hokum_underruff.option
    play["hokum.trump_lead"]["opponent_winning"] = _BEAT[p.hokum_trump_lead.opponent_winning]
    play["hokum.trump_lead"]["partner_winning"] = _BEAT[p.hokum_trump_lead.partner_winning]
    cards = ruleset.cards
    table["order.plain"]["order"] = [r.value for r in cards.order_plain.order]
    table["order.trump"]["order"] = [r.value for r in cards.order_trump.order]
    scoring["points.plain"]["points"] = {r.value: v for r, v in cards.points_plain.points.items()}
    scoring["points.trump"]["points"] = {r.value: v for r, v in cards.points_trump.points.items()}
    return doc


@dataclasses.dataclass(frozen=True)
class Generic:
    """One Baloot ruleset's generic reading: its pack, ring, play section and point tables."""

    pack: Pack
    ring: Ring
    play: PlaySection
    plain: Mapping[str, int]
    trump: Mapping[str, int]

    def table(self, contract: Contract) -> PlayTable:
        key = ContractKey(contract.kind, contract.trump_index, contract.locked, contract.level > 1)
        return play_table(self.play, self.pack, key)


@cache
def base_ruleset() -> TrickRuleset:
    """The document through the format's four gates (strict YAML, schema, semantic checks)."""
    return load_trick_ruleset(DOCUMENT)


@cache
def generic(name: str) -> Generic:
    """``name``'s reading: the document with its rules carried in, derived from the loaded
    document and validated as a profile would be."""
    doc, base = carried(baloot(name)), base_document()
    changes = {
        f"{section}.{key}": rule
        for section in ("table", "play", "scoring")
        for key, rule in doc[section].items()
        if rule != base[section][key]
    }
    ruleset = derive_trick_ruleset(base_ruleset(), changes, f"{name}-as-trick")
    table, scoring = ruleset.table, ruleset.scoring
    assert scoring.points_plain is not None and scoring.points_trump is not None
    return Generic(
        pack=build_pack(table.deck, table.order_plain, table.order_trump or table.order_plain),
        ring=Ring.of_table(
            table.seats.names, table.direction.option, table.teams.option == "partners"
        ),
        play=ruleset.play,
        plain=scoring.points_plain.points,
        trump=scoring.points_trump.points,
    )


@cache
def baloot(name: str) -> Ruleset:
    return load_ruleset(name)


NAMES = tuple(shipped_rulesets())


def _cited(decided: int) -> str | None:
    rules = DECIDED_BY[decided >> 32]
    return rules[0] if rules else None


def _context(g: Generic, trick: tuple[int, ...], leader: int) -> Context:
    return Context(tuple((leader + i) % 4 for i in range(len(trick) + 1)), g.ring)


def test_the_document_reads_as_baloots_table() -> None:
    g = generic("saudi")
    assert g.ring.names == ("N", "W", "S", "E")  # listed clockwise, played counter-clockwise
    assert g.pack.codes == tuple(c.code for c in CARDS)  # the indices of engine/'s cards
    assert set(g.play.stages) == {
        "follow_suit",
        "sun.void",
        "hokum.ruff",
        "hokum.partner_winning",
        "hokum.overruff",
        "hokum.underruff",
        "hokum.trump_lead",
        "hokum.locked_lead",
    }
    assert {r.id for r in g.play.stages.values()} <= {
        r.id for r in baloot("saudi").iter_rules() if r.id.startswith("play.")
    }


def test_every_shipped_ruleset_is_carried_into_the_generic_reading() -> None:
    # the carried options differ where the rulesets do: 6 readings of the play section
    readings = {
        tuple(
            (k, tuple(sorted((f, str(v)) for f, v in dataclasses.asdict(r).items() if f != "id")))
            for k, r in sorted(generic(name).play.stages.items())
            if k != "follow_suit"
        )
        for name in NAMES
    }
    assert len(NAMES) == 17
    assert len(readings) >= 6


def test_generated_cards_are_decided_alike_under_every_shipped_ruleset() -> None:
    cards = 0
    cited: dict[str, int] = {}
    for number, name in enumerate(NAMES):
        rules, g = baloot(name), generic(name)
        rng = random.Random(2800 + number)
        for deal in range(210):  # plain random play: an aimed policy costs twice the time
            hand = random_hand(rules, rng, dealer=deal % 4)
            contract = hand.contract
            plays = [a for a in hand.history if isinstance(a, Play)]
            if contract is None or not plays:
                continue
            cards += _replay(rules, g, contract, hand.initial, plays, hand.points, cited)
    assert cards >= 100_000
    # every play rule decided some generated card, so none is compared vacuously
    assert set(cited) == {
        "play.follow_suit",
        "play.sun.void",
        "play.hokum.ruff",
        "play.hokum.partner_winning",
        "play.hokum.overruff",
        "play.hokum.underruff",
        "play.hokum.trump_lead",
        "play.hokum.locked_lead",
        None,
    }


def _replay(
    rules: Ruleset,
    g: Generic,
    contract: Contract,
    dealt: tuple[int, ...],
    plays: list[Play],
    points: list[int],
    cited: dict[Any, int],
) -> int:
    """Compare both engines on every card of one hand; the number of cards compared."""
    b: PlayRules = play_rules(rules, contract)
    t = g.table(contract)
    table_points = card_points(g.pack, contract.trump_index, g.plain, g.trump)
    assert table_points == b.card_points
    hands = list(dealt)
    trick: tuple[int, ...] = ()
    leader = plays[0].seat
    taken: list[tuple[tuple[int, ...], int]] = []
    for action in plays:
        seat = action.seat
        held = hands[seat]
        expected = b.decide(held, trick)
        decided = t.decide(held, trick, _context(g, trick, leader))
        assert decided & _CARD_BITS == expected & _BALOOT_BITS, (contract, trick)
        rule = t.rule_of(decided)
        assert rule == _cited(expected), (contract, g.pack.format(held), trick)
        cited[rule] = cited.get(rule, 0) + 1
        hands[seat] = held & ~(1 << action.card.index)
        trick = (*trick, action.card.index)
        if len(trick) == 4:
            place = t.winner(trick)
            assert place == b.winner(trick)
            taken.append((trick, (leader + place) % 2))
            leader = (leader + place) % 4
            trick = ()
    if len(taken) == 8:
        assert hand_points(table_points, taken, 2) == points
    return len(plays)


# --- hypothesis positions ---------------------------------------------------------------------


_CONTRACTS: tuple[tuple[ContractKind, Suit | None], ...] = (
    ("sun", None),
    *(("hokum", c.suit) for c in CARDS[::8]),
)


def position(data: bytes) -> tuple[str, Contract, int, tuple[int, ...], int]:
    """The position 16 bytes stand for: (ruleset, contract, hand, trick, leader), 1-8 cards
    held and 0-3 played. Hypothesis draws the bytes (one draw an example, so 2,000 are quick)
    and shrinks them towards zeros, the simplest position: saudi, Sun, N leads, the 7S alone."""
    number = int.from_bytes(data, "little")

    def take(n: int) -> int:
        nonlocal number
        number, digit = divmod(number, n)
        return digit

    def fresh(card: int, used: set[int]) -> int:
        while card in used:  # the next card not dealt yet
            card = (card + 1) % 32
        used.add(card)
        return card

    name = NAMES[take(len(NAMES))]
    kind, trump = _CONTRACTS[take(len(_CONTRACTS))]
    level, locked = 1 + take(2), bool(take(2)) and kind == "hokum"
    leader = take(4)
    used: set[int] = set()
    trick = tuple(fresh(take(32), used) for _ in range(take(4)))
    hand = sum(1 << fresh(take(32), used) for _ in range(1 + take(8)))
    contract = Contract(kind, trump, 0, 0, level=level, locked=locked)
    return name, contract, hand, trick, leader


@settings(
    max_examples=2000,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
@given(st.binary(min_size=16, max_size=16))
def test_hypothesis_positions_are_checked_alike(data: bytes) -> None:
    name, contract, hand, trick, leader = position(data)
    g = generic(name)
    b = play_rules(baloot(name), contract)
    t = g.table(contract)
    context = _context(g, trick, leader)
    expected = b.decide(hand, trick)
    decided = t.decide(hand, trick, context)
    assert decided & _CARD_BITS == expected & _BALOOT_BITS
    assert t.rule_of(decided) == _cited(expected)
    if trick:
        assert t.winner(trick) == b.winner(trick)
    # Both engines' check refuses a card with the rule behind the decision (compared above), so
    # every held card has the same verdict and rule ID; check is run on one card of each kind.
    legal = expected & hand
    assert t.check(hand, trick, context, (legal & -legal).bit_length() - 1)  # judged, passes
    illegal = hand & ~legal
    if illegal:
        card = CARDS[(illegal & -illegal).bit_length() - 1]
        try:
            b.check(hand, trick, leader, card)
        except BalootIllegal as refused:
            rule_id = refused.rule_id
        else:
            raise AssertionError(f"Baloot's check lets {card} pass")
        with pytest.raises(IllegalAction) as caught:
            t.check(hand, trick, context, card.index)
        assert caught.value.rule_id == rule_id
        player = "NWSE"[context.player]
        verb = "led" if not trick else "played"
        assert caught.value.reason.startswith(f"{player} {verb} {card.code} but")


# --- every reading of Baloot's stages changes a verdict -------------------------------------------


def _reading(**changes: dict[str, Any]) -> PlaySection:
    play = copy.deepcopy(base_document()["play"])
    for key, fields in changes.items():
        play[key].update(fields)
    return build_play(play, ("sun", "hokum"))


def _legal(section: PlaySection, trick: str, hand: str, leader: int = 0, **flags: bool) -> str:
    """The legal cards of ``hand`` after ``trick`` (led by ``leader``), spades trump."""
    g = generic("saudi")
    t = play_table(section, g.pack, ContractKey("hokum", 0, **flags))
    cards = tuple(g.pack.index[c] for c in trick.split())
    return g.pack.format(t.legal(g.pack.parse(hand), cards, _context(g, cards, leader)), 0)


def test_every_reading_of_the_exemption_changes_a_verdict() -> None:
    # Spades trump. N leads AH, W plays 7H; S (N's partner, third hand) holds no heart: 7S 8D.
    # N's AH is winning: the exemption frees S (any card) or S must ruff with 7S.
    trick, hand = "AH 7H", "7S 8D"
    exempt = "hokum.partner_winning"
    assert _legal(_reading(**{exempt: {"option": "any_seat"}}), trick, hand) == "7S 8D"
    assert _legal(_reading(**{exempt: {"option": "never"}}), trick, hand) == "7S"
    last_or_top = {"option": "last_or_certain_top", "certain_tops": []}
    assert _legal(_reading(**{exempt: last_or_top}), trick, hand) == "7S"  # third, not last
    # E leads 7H, N takes it with AH, W plays 8H: S plays last, and is free.
    assert _legal(_reading(**{exempt: last_or_top}), "7H AH 8H", hand, 3) == "7S 8D"
    last_or_top["certain_tops"] = ["plain_top"]
    assert _legal(_reading(**{exempt: last_or_top}), trick, hand) == "7S 8D"  # AH: a top
    unraised = _reading(**{exempt: {"option": "unraised_only"}})
    assert _legal(unraised, trick, hand) == "7S 8D"
    assert _legal(unraised, trick, hand, raised=True) == "7S"
    # Raised, the partner's trump binds as an opponent's: W leads 7H, S ruffs with 8S, E plays
    # 8H; N (S's partner, last) holds JS 7S 8D and must over-ruff 8S with JS; unraised, free.
    assert _legal(unraised, "7H 8S 8H", "JS 7S 8D", 1, raised=True) == "JS"
    assert _legal(unraised, "7H 8S 8H", "JS 7S 8D", 1) == "JS 7S 8D"
    # The sentence says why the exemption did not free the player.
    g = generic("saudi")
    for option, why in (
        (
            "never",
            "but this ruleset has no partner-winning exemption (play.hokum.partner_winning: never)",
        ),
        (
            "last_or_certain_top",
            "but the exemption (play.hokum.partner_winning) frees only the last to play, or a "
            "player after a certain top was led (none); S is hand 3 and N's lead KH is not a "
            "certain top",
        ),
    ):
        t = play_table(_reading(**{exempt: {"option": option}}), g.pack, ContractKey("hokum", 0))
        cards = (g.pack.index["KH"], g.pack.index["7H"])
        with pytest.raises(IllegalAction) as caught:
            t.check(g.pack.parse(hand), cards, _context(g, cards, 0), g.pack.index["8D"])
        assert caught.value.rule_id == "play.hokum.ruff"
        assert caught.value.reason == (
            f"S played 8D but, void in hearts, must ruff with 7S; partner N is winning with KH, "
            f"{why} (holds 7S 8D)"
        )


def test_every_reading_of_the_trump_lead_changes_a_verdict() -> None:
    # Spades trump. N leads 9S, W plays 8S; S (N's partner) holds JS 7S: N is winning.
    lead = "hokum.trump_lead"
    assert _legal(_reading(), "9S 8S", "JS 7S") == "JS 7S"  # partner winning: any trump
    assert _legal(_reading(**{lead: {"partner_winning": "must_beat"}}), "9S 8S", "JS 7S") == "JS"
    # E leads 9S; N (E's opponent) holds JS 7S and must beat it, unless the reading says any.
    assert _legal(_reading(), "9S", "JS 7S", 3) == "JS"
    assert _legal(_reading(**{lead: {"opponent_winning": "any"}}), "9S", "JS 7S", 3) == "JS 7S"
