"""The family engine's table and obligations on Bourré's play, position by position.

A small Bourré play section (:data:`BOURRE`: follow suit, head the trick, trump when void,
over-ruff, under-ruff, the cinch) runs on a 52-card pack at a five-seat table without teams,
played clockwise. Each test sets a position by hand; the comments work out the legal cards and
the sentence. Every option value of the section changes a verdict in one of them (the reading
is swapped with :func:`reading`). The pack and ring tests use a 60-card pack and folded seats;
the last ones check the schema and the section's semantic errors.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import jsonschema
import pytest
import referencing
import yaml

from baloot_conformance.errors import SpecError
from baloot_conformance.family.engine.deck import Pack, Ring, build_pack
from baloot_conformance.family.engine.obligations import (
    Context,
    ContractKey,
    IllegalAction,
    PlayTable,
    play_table,
)
from baloot_conformance.family.engine.tricks import card_points, hand_points, trick_table
from baloot_conformance.family.rules.model import CardOrder, Deck
from baloot_conformance.family.rules.play_build import build_play
from baloot_conformance.resources import spec_path

BOURRE_YAML = """
obligations:
  statement: >-
    Follow suit and head the trick; void, trump, over-ruffing a trump if able; a cinch
    plays to win.
  sources: [SEED]
  tree:
    - rule: follow
      when: [following]
      then:
        - rule: head
      otherwise:
        - rule: ruff
          then:
            - rule: overruff
              when: [trump_winning]
              otherwise:
                - rule: underruff
  after:
    - rule: cinch
follow:
  statement: A player must follow the suit led if able.
  sources: [SEED]
  stage: follow_suit
head:
  statement: Following suit, a player must head the trick if able.
  sources: [SEED]
  stage: beat
  target: highest_led
  opponent_winning: must_beat
ruff:
  statement: A player void in the suit led must trump if able.
  sources: [SEED]
  stage: ruff
  option: required
overruff:
  statement: Over a trump, a higher trump if able.
  sources: [SEED]
  stage: overruff
  option: required
underruff:
  statement: Unable to over-ruff, a lower trump.
  sources: [SEED]
  stage: underruff
  option: forced
cinch:
  statement: >-
    A player sure of three tricks leads the top trump, plays it, and wins the trick as the
    last to play.
  sources: [SEED]
  stage: cinch
  definition: top_three_trumps
  effects: [lead_top_trump, play_top_trump, win_if_last]
  touching_equivalent: false
trick_winner:
  statement: The highest trump wins the trick, else the highest card of the suit led.
  sources: [SEED]
"""
BOURRE: dict[str, Any] = yaml.safe_load(BOURRE_YAML)
SUITS = ("S", "H", "D", "C")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
FIVE = Ring.of_table(("P1", "P2", "P3", "P4", "P5"), "clockwise")


def _rule(rule_id: str, **fields: Any) -> Any:
    return dict(id=rule_id, statement="-", sources=("SEED",), notes=None, **fields)


@cache
def pack52() -> Pack:
    high = tuple(reversed(RANKS))
    return build_pack(
        Deck(**_rule("table.deck", suits=SUITS, ranks=RANKS)),
        CardOrder(**_rule("table.order.plain", order=high)),
        CardOrder(**_rule("table.order.trump", order=high)),
    )


def reading(**changes: dict[str, Any]) -> dict[str, Any]:
    """The Bourré section with some stage rules' parameters changed."""
    section = copy.deepcopy(BOURRE)
    for key, fields in changes.items():
        section[key].update(fields)
    return section


def table(section: dict[str, Any], trump: str) -> PlayTable:
    return play_table(
        build_play(section, ("bourre",)), pack52(), ContractKey("bourre", SUITS.index(trump))
    )


def legal(
    section: dict[str, Any],
    trump: str,
    hand: str,
    trick: str = "",
    first: int = 0,
    **context: Any,
) -> str:
    """The legal cards of ``hand`` after ``trick`` (led by seat ``first``), as codes."""
    t = table(section, trump)
    pack = pack52()
    cards = tuple(pack.index[c] for c in trick.split())
    return pack.format(
        t.legal(pack.parse(hand), cards, ctx(cards, first, **context)), t.contract.trump
    )


def ctx(trick: tuple[int, ...], first: int = 0, ring: Ring = FIVE, **fields: Any) -> Context:
    seats = ring.order(first, fields.get("active"))
    return Context(seats[: len(trick) + 1], ring, **fields)


def refusal(
    section: dict[str, Any],
    trump: str,
    hand: str,
    trick: str,
    card: str,
    first: int = 0,
    **context: Any,
) -> IllegalAction:
    t = table(section, trump)
    pack = pack52()
    cards = tuple(pack.index[c] for c in trick.split())
    with pytest.raises(IllegalAction) as caught:
        t.check(pack.parse(hand), cards, ctx(cards, first, **context), pack.index[card])
    return caught.value


# --- head the trick ----------------------------------------------------------------------------


def test_head_the_trick_with_a_higher_card_of_the_suit_led() -> None:
    # Hearts trump. P1 leads QS, P2-P4 follow low. P5 holds KS 4S 9D: following spades, KS is
    # the only spade above QS, so head: KS alone.
    trick = "QS 3S 5S 2S"
    assert legal(BOURRE, "H", "KS 4S 9D", trick) == "KS"
    refused = refusal(BOURRE, "H", "KS 4S 9D", trick, "4S")
    assert refused.rule_id == "play.head"
    assert refused.reason == "P5 played 4S but must head P1's QS with KS (holds KS 4S 9D)"
    # Only following, without heading (Wikipedia's reading): either spade.
    follow_only = reading(head={"opponent_winning": "any"})
    assert legal(follow_only, "H", "KS 4S 9D", trick) == "KS 4S"
    # Holding no higher spade: any spade (follow_suit narrowed, the head stage was unable).
    assert legal(BOURRE, "H", "JS 4S 9D", trick) == "JS 4S"
    refused = refusal(BOURRE, "H", "JS 4S 9D", trick, "9D")
    assert refused.rule_id == "play.follow"
    assert refused.reason == "P5 played 9D but must follow P1's QS with JS or 4S (holds JS 4S 9D)"


def test_head_the_highest_card_led_or_the_winning_card() -> None:
    # Diamonds trump. P1 leads QS, P2 trumps with 4D. P3 holds KS 4S 9C.
    # target highest_led: the highest spade is QS, KS heads it: KS alone.
    assert legal(BOURRE, "D", "KS 4S 9C", "QS 4D") == "KS"
    # target winning: 4D is winning and no spade beats a trump, so any spade.
    on_winning = reading(head={"target": "winning"})
    assert legal(on_winning, "D", "KS 4S 9C", "QS 4D") == "KS 4S"


# --- trumping ----------------------------------------------------------------------------------


def test_void_in_the_suit_led_trump_if_able() -> None:
    # Diamonds trump. P1 leads QS; P2 holds no spade: 9D 3D 7C, so a trump: 9D or 3D.
    assert legal(BOURRE, "D", "9D 3D 7C", "QS") == "9D 3D"
    refused = refusal(BOURRE, "D", "9D 3D 7C", "QS", "7C")
    assert refused.rule_id == "play.ruff"
    assert (
        refused.reason
        == "P2 played 7C but, void in spades, must ruff with 9D or 3D (holds 9D 3D 7C)"
    )
    # ruff optional: any card.
    assert legal(reading(ruff={"option": "optional"}), "D", "9D 3D 7C", "QS") == "9D 3D 7C"


def test_over_a_trump_a_higher_trump_if_able() -> None:
    # Diamonds trump. P1 leads QS, P2 trumps with 8D. P3, void in spades, holds TD 3D 7C:
    # TD beats 8D, so TD alone (3D is a trump that does not over-ruff).
    assert legal(BOURRE, "D", "TD 3D 7C", "QS 8D") == "TD"
    refused = refusal(BOURRE, "D", "TD 3D 7C", "QS 8D", "3D")
    assert refused.rule_id == "play.overruff"
    assert refused.reason == "P3 played 3D but must over-ruff P2's 8D with TD (holds TD 3D 7C)"
    # over-ruff not required: any trump.
    assert legal(reading(overruff={"option": "not_required"}), "D", "TD 3D 7C", "QS 8D") == "TD 3D"


def test_unable_to_over_ruff_under_ruff_or_discard() -> None:
    # Diamonds trump. P1 leads QS, P2 trumps with KD. P3 holds 9D 3D 7C: no trump beats KD.
    # under-ruff forced: a lower trump, 9D or 3D.
    assert legal(BOURRE, "D", "9D 3D 7C", "QS KD") == "9D 3D"
    refused = refusal(BOURRE, "D", "9D 3D 7C", "QS KD", "7C")
    assert refused.rule_id == "play.underruff"
    assert refused.reason == (
        "P3 played 7C but, unable to over-ruff P2's KD, must still play a trump: 9D or 3D "
        "(holds 9D 3D 7C)"
    )
    # under-ruff free (seed 003's other sentence): any card.
    assert legal(reading(underruff={"option": "free"}), "D", "9D 3D 7C", "QS KD") == "9D 3D 7C"


# --- the cinch ---------------------------------------------------------------------------------


def test_a_cinch_leads_the_top_trump() -> None:
    # Hearts trump. P3 leads holding AH KH QH 5C 2S: the three top trumps, a cinch by either
    # definition. Lead the top trump: AH alone.
    hand = "AH KH QH 5C 2S"
    assert legal(BOURRE, "H", hand, first=2) == "AH"
    refused = refusal(BOURRE, "H", hand, "", "5C", first=2)
    assert refused.rule_id == "play.cinch"
    assert refused.reason == (
        "P3 led 5C but, holding a cinch (3 sure tricks), must lead the top trump: AH "
        "(holds 2S AH KH QH 5C)"
    )
    # A touching lower trump counts as the top: AH, KH or QH.
    touching = reading(cinch={"touching_equivalent": True})
    assert legal(touching, "H", hand, first=2) == "AH KH QH"
    # Without the lead effect the lead is free.
    no_lead = reading(cinch={"effects": ["play_top_trump", "win_if_last"]})
    assert legal(no_lead, "H", hand, first=2) == "2S AH KH QH 5C"
    # KH QH JH and AH already played: still the top three of the trumps not yet played.
    gone = pack52().parse("AH 2D 3D 4D 5D")
    assert legal(BOURRE, "H", "KH QH JH 5C", first=2, gone=gone) == "KH"


def test_sure_tricks_judges_the_cinch_with_every_active_hand_known() -> None:
    # Hearts trump. P1 leads holding KH QH JH 5C; AH is in no active hand (P4 and P5 folded,
    # P4 holds it). top_three_trumps: AH is not played, so KH is no sure trick: no cinch, any
    # lead. sure_tricks: the active hands (P2, P3) hold only TH and 9H below JH: three sure
    # tricks, so KH alone.
    pack = pack52()
    hands = (
        pack.parse("KH QH JH 5C"),
        pack.parse("TH 2C 3C 4C"),
        pack.parse("9H 6C 7C 8C"),
        pack.parse("AH 2S 3S 4S"),
        pack.parse("5S 6S 7S 8S"),
    )
    active = 0b00111
    seen: dict[str, Any] = {"active": active, "hands": hands}
    assert legal(BOURRE, "H", "KH QH JH 5C", **seen) == "KH QH JH 5C"
    sure = reading(cinch={"definition": "sure_tricks"})
    assert legal(sure, "H", "KH QH JH 5C", **seen) == "KH"
    # The same lead with P4 still in: AH is in an active hand, no cinch.
    assert legal(sure, "H", "KH QH JH 5C", active=0b01111, hands=hands) == "KH QH JH 5C"
    # Without the hands (a partial transcript) the cinch cannot be judged: every card stands,
    # and the decision says it is unknown, for the checker to list as unchecked.
    t = table(sure, "H")
    decided = t.decide(pack.parse("KH QH JH 5C"), (), ctx((), active=active))
    assert t.unknown(decided)
    assert (
        pack.format(t.legal(pack.parse("KH QH JH 5C"), (), ctx((), active=active))) == "KH QH JH 5C"
    )
    assert not t.unknown(t.decide(pack.parse("KH QH JH 5C"), (), ctx((), **seen)))
    # check says so too: the lead of 5C passes unjudged without the hands, judged with them.
    assert t.check(pack.parse("KH QH JH 5C"), (), ctx((), active=active), pack.index["5C"]) is False
    assert t.check(pack.parse("KH QH JH 5C"), (), ctx((), **seen), pack.index["KH"]) is True


def test_a_cinch_plays_the_top_trump_when_following() -> None:
    # Hearts trump. P1 leads 4H; P2 holds AH KH QH 5C: following hearts, and every heart heads
    # 4H; the cinch narrows to the top trump, AH.
    assert legal(BOURRE, "H", "AH KH QH 5C", "4H") == "AH"
    refused = refusal(BOURRE, "H", "AH KH QH 5C", "4H", "QH")
    assert refused.rule_id == "play.cinch"
    assert refused.reason == (
        "P2 played QH but, holding a cinch (3 sure tricks), must play the top trump: AH "
        "(holds AH KH QH 5C)"
    )
    lead_only = reading(cinch={"effects": ["lead_top_trump"]})
    assert legal(lead_only, "H", "AH KH QH 5C", "4H") == "AH KH QH"


def test_a_cinch_wins_the_trick_as_the_last_to_play() -> None:
    # Hearts trump; P4 and P5 folded, so P3 plays last. Following only (no heading), P1 leads
    # KS, P2 plays 3S; P3 holds AS 4S AH KH QH: a cinch; as the last to play it must win the
    # trick: AS (a spade must be played, and AS takes KS).
    follow_only = reading(head={"opponent_winning": "any"})
    hand = "AS 4S AH KH QH"
    assert legal(follow_only, "H", hand, "KS 3S", active=0b00111) == "AS"
    refused = refusal(follow_only, "H", hand, "KS 3S", "4S", active=0b00111)
    assert refused.rule_id == "play.cinch"
    assert refused.reason == (
        "P3 played 4S but, holding a cinch (3 sure tricks) and last to play, must win the trick "
        "with AS (holds AS 4S AH KH QH)"
    )
    # Without win_if_last the cinch plays the top trump, which a spade follower cannot: any
    # spade.
    no_win = reading(
        head={"opponent_winning": "any"}, cinch={"effects": ["lead_top_trump", "play_top_trump"]}
    )
    assert legal(no_win, "H", hand, "KS 3S", active=0b00111) == "AS 4S"
    # With P4 still in, P3 is not last: play_top_trump, which a spade follower cannot.
    assert legal(follow_only, "H", hand, "KS 3S", active=0b01111) == "AS 4S"


def test_no_cinch_no_obligation() -> None:
    # Hearts trump. P1 leads holding AH KH 5C: two sure tricks, no cinch: any lead.
    assert legal(BOURRE, "H", "AH KH 5C") == "AH KH 5C"
    # Having taken a trick already, the same two trumps make three: AH.
    assert legal(BOURRE, "H", "AH KH 5C", won=1) == "AH"
    # A ruleset whose cinch is two sure tricks: AH at once.
    assert legal(reading(cinch={"tricks": 2}), "H", "AH KH 5C") == "AH"


# --- the pack, the ring, tricks -----------------------------------------------------------------


def test_a_sixty_card_pack_of_five_suits() -> None:
    suits = ("S", "H", "D", "C", "R")
    ranks = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q")
    order = tuple(reversed(ranks))
    pack = build_pack(
        Deck(**_rule("table.deck", suits=suits, ranks=ranks)),
        CardOrder(**_rule("table.order.plain", order=order)),
        CardOrder(**_rule("table.order.trump", order=("J", *(r for r in order if r != "J")))),
    )
    assert pack.size == 60 and pack.full == (1 << 60) - 1
    assert pack.codes[59] == "QR" and pack.suit_of[59] == 4 and pack.index["1R"] == 48
    assert pack.suit_masks[4] == ((1 << 12) - 1) << 48
    hand = pack.parse("1R QR 5S JR")
    assert pack.format(hand) == "5S QR JR 1R"
    assert pack.format(hand, trump=4) == "5S JR QR 1R"  # the trump suit in its trump order
    section = copy.deepcopy(BOURRE)
    t = play_table(build_play(section), pack, ContractKey("bourre", 4))
    trick = (pack.index["2R"],)
    decided = t.decide(hand, trick, ctx(trick))
    assert decided & pack.full == pack.parse("QR JR")  # heading 2R: every R above it
    assert t.rule_of(decided) == "play.head"
    assert t.winner((pack.index["QR"], pack.index["JR"])) == 1  # the jack is the top trump
    with pytest.raises(ValueError, match="at most 64"):
        build_pack(
            Deck(**_rule("table.deck", suits=(*suits, "X"), ranks=(*ranks, "K"))),
            CardOrder(**_rule("o", order=(*order, "K"))),
            CardOrder(**_rule("o", order=(*order, "K"))),
        )


def test_the_ring_skips_folded_seats_and_knows_teams() -> None:
    assert FIVE.next(4) == 0 and FIVE.team_of(3) is None
    folded = 0b10101  # P1, P3, P5 still in
    assert FIVE.next(0, folded) == 2 and FIVE.next(4, folded) == 0
    assert FIVE.order(2, folded) == (2, 4, 0)
    baloot = Ring.of_table(("N", "E", "S", "W"), "counter_clockwise", teams=True)
    assert baloot.names == ("N", "W", "S", "E")
    assert [baloot.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    with pytest.raises(ValueError, match="no seat"):
        FIVE.next(0, 0)
    with pytest.raises(ValueError, match="even"):
        Ring.of_table(("P1", "P2", "P3"), "clockwise", teams=True)


def test_the_trick_goes_to_the_highest_trump_else_the_highest_of_the_suit_led() -> None:
    pack = pack52()
    t = trick_table(pack, SUITS.index("D"))
    cards = tuple(pack.index[c] for c in ("QS", "AC", "KS", "2D", "3D"))
    assert t.winner(cards[:3]) == 2  # AC is off-suit: KS heads QS
    assert t.winner(cards) == 4  # 3D over 2D
    points = card_points(pack, 2, {"A": 4, "K": 3}, {"K": 5})
    assert points[pack.index["AC"]] == 4 and points[pack.index["KD"]] == 5
    assert points[pack.index["AD"]] == 0
    tricks = [((pack.index["AC"], pack.index["KS"]), 1), ((pack.index["KD"],), 0)]
    assert hand_points(points, tricks, 2, last_trick=10) == [15, 7]


# --- the schema and the section's semantic errors ------------------------------------------------


@cache
def play_validator() -> jsonschema.Draft202012Validator:
    schemas = {
        name: json.loads(spec_path("schema", name).read_text(encoding="utf-8"))
        for name in ("ruleset.schema.json", "trick-play.schema.json")
    }
    jsonschema.Draft202012Validator.check_schema(schemas["trick-play.schema.json"])
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(
        (s["$id"], referencing.Resource.from_contents(s)) for s in schemas.values()
    )
    return jsonschema.Draft202012Validator(schemas["trick-play.schema.json"], registry=registry)


def test_the_schema_takes_bourre_and_baloot_and_refuses_unknown_readings() -> None:
    from pathlib import Path

    baloot = yaml.safe_load(
        (Path(__file__).parent / "data" / "baloot-as-trick.yaml").read_text(encoding="utf-8")
    )
    validator = play_validator()
    assert not list(validator.iter_errors(BOURRE))
    assert not list(validator.iter_errors(baloot["play"]))
    bad = reading(head={"target": "lowest"}, ruff={"stage": "trump"})
    messages = sorted(e.message for e in validator.iter_errors(bad))
    assert any("'lowest' is not one of" in m for m in messages)
    assert any("'trump' is not one of" in m for m in messages)
    bad = reading(cinch={"tricks": 0, "effects": []})
    assert len(list(validator.iter_errors(bad))) == 2
    bad = copy.deepcopy(BOURRE)
    bad["obligations"]["tree"][0]["when"] = ["winning"]
    assert list(validator.iter_errors(bad))


def test_semantic_errors_name_their_json_pointer() -> None:
    bad = copy.deepcopy(BOURRE)
    bad["obligations"]["tree"][0]["then"][0]["rule"] = "heads"
    bad["obligations"]["tree"][0]["contracts"] = ["sun"]
    with pytest.raises(SpecError) as caught:
        build_play(bad, ("bourre",))
    text = str(caught.value)
    assert text.splitlines()[0] == (  # in document order
        "/play/obligations/tree/0/contracts/0: 'sun' is not a contract of this ruleset (bourre)"
    )
    assert (
        "/play/obligations/tree/0/then/0/rule: 'heads' is not a stage rule of the play section "
        "(follow, head, ruff, overruff, underruff, cinch)"
    ) in text
    assert "/play/head: play.head is reached by no node of play.obligations" in text
    assert "hint:" in text
    # A lead ban names suits of the pack, or trump.
    ban = copy.deepcopy(BOURRE)
    ban["no_hearts"] = {"statement": "-", "sources": ["S"], "stage": "lead_ban", "suits": ["X"]}
    ban["obligations"]["tree"].insert(0, {"rule": "no_hearts", "when": ["leading"]})
    with pytest.raises(SpecError) as caught:
        build_play(ban, ("bourre",), SUITS)
    assert str(caught.value).splitlines()[0] == (
        "/play/no_hearts/suits/0: 'X' is not a suit of the pack (S H D C) or trump"
    )


def test_a_card_not_held_is_refused_as_a_revoke() -> None:
    refused = refusal(BOURRE, "D", "9D 3D 7C", "QS", "AS")
    assert refused.rule_id == "play.follow"
    assert refused.reason == "P2 played AS, which it does not hold (holds 9D 3D 7C)"


def test_the_family_engine_loads_no_baloot_engine() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import baloot_conformance.family.engine.obligations\n"
        "import baloot_conformance.family.rules.play_build\n"
        "print(sorted(m for m in sys.modules if m.startswith(('baloot_conformance.engine', "
        "'baloot_conformance.btn', 'baloot_conformance.check', 'yaml'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
