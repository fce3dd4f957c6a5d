"""Transcripts that log less than a full hand, and what engines' logs showed the checker got
wrong: hold lines with the face-up card, a Baloot logged after the last trick, the game's end
after a wrong total, and the rule a call out of its window breaks.

A partial hand (no auction, no face-up card) is checked from its ``= contract`` claim on; its
verdict names what could not be checked, and ``--require auction`` makes that a failure.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from baloot_conformance.btn import TranscriptReader, read_transcript
from baloot_conformance.check.run import check_hands
from baloot_conformance.check.verdicts import HandVerdict
from baloot_conformance.cli import main
from baloot_conformance.errors import TranscriptSyntaxError
from baloot_conformance.importers import import_file
from baloot_conformance.rules.loading import derive_ruleset, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
LOGS = ROOT / "tests" / "data" / "peer-logs"
WORKED = (ROOT / "fixtures" / "scoring" / "worked-hand.btn").read_text(encoding="utf-8")


def check(text: str, ruleset: str, required: frozenset[str] = frozenset()) -> list[HandVerdict]:
    with TranscriptReader(io.StringIO(text), "t.btn") as reader:
        return list(check_hands(reader, "t.btn", load_ruleset(ruleset), required))


def hand_of(text: str, number: int) -> str:
    """One hand of a transcript as a transcript of its own, starting from its totals."""
    header, *hands = re.split(r"\n(?=hand \d+\n)", text)
    hand = hands[number - 1]
    previous = re.findall(r"= total NS (\d+) EW (\d+)", hands[number - 2]) if number > 1 else []
    start = f"start NS {previous[-1][0]} EW {previous[-1][1]}\n" if previous else ""
    body = hand.split("\n", 1)[1]
    return f"{header}\nhand 1\n{start}{body}"


def holds(text: str) -> str:
    """A hand's deal and rest lines turned into the eight-card 'hold' lines."""
    deal = dict(re.findall(r"^deal (\w) (.+)$", text, re.M))
    rest = dict(re.findall(r"^rest (\w) (.+)$", text, re.M))
    faceup = re.search(r"^faceup (\w\w)$", text, re.M)
    assert faceup is not None
    lines = []
    for seat in "NWSE":
        cards = f"{deal[seat]} {rest[seat]}".split()
        if len(cards) == 7:  # the buyer: the face-up card completes its eight
            cards.append(faceup[1])
        lines.append(f"hold {seat} {' '.join(cards)}")
    text = re.sub(r"^(deal|rest) .*\n", "", text, flags=re.M)
    return text.replace(faceup[0], faceup[0] + "\n" + "\n".join(lines))


T10 = import_file("tazjel", LOGS / "tazjel" / "t10.json.gz")


# --- 1. hold lines and the face-up card -------------------------------------------------------


def test_the_face_up_card_may_be_in_a_hold_line() -> None:
    text = holds(hand_of(T10, 3))
    assert "faceup" in text and "hold" in text
    [verdict] = check(text, "tazjel")
    assert verdict.status == "pass" and not verdict.unchecked


def test_the_face_up_card_in_two_hold_lines_is_dealt_twice(tmp_path: Path) -> None:
    text = holds(hand_of(T10, 3))
    faceup = re.search(r"^faceup (\w\w)$", text, re.M)
    assert faceup is not None
    owner = re.search(rf"^hold (\w) .*{faceup[1]}.*$", text, re.M)
    other = re.search(r"^hold (\w) (\w\w)", text.replace(owner[0], ""), re.M) if owner else None
    assert owner is not None and other is not None
    path = tmp_path / "twice.btn"
    path.write_text(text.replace(f"hold {other[1]} {other[2]}", f"hold {other[1]} {faceup[1]}"))
    with pytest.raises(TranscriptSyntaxError, match=f"card {faceup[1]} is dealt twice"):
        read_transcript(path)


def test_the_shipped_tazjel_game_checks_with_its_hold_lines() -> None:
    text = (ROOT / "fixtures" / "notation" / "tazjel-game-1.btn").read_text(encoding="utf-8")
    verdicts = check(text, "tazjel")
    assert [v.status for v in verdicts] == ["pass"] * 10
    assert all("the auction (no 'faceup' line)" in v.unchecked for v in verdicts)


# --- partial transcripts -----------------------------------------------------------------------


def without_auction(text: str) -> str:
    return re.sub(r"^(bid|raise) .*\n", "", text, flags=re.M)


def test_a_hand_without_its_auction_is_checked_from_its_contract() -> None:
    text = without_auction(holds(hand_of(T10, 3)))
    [verdict] = check(text, "tazjel")
    assert verdict.status == "pass"
    assert verdict.unchecked == ("the auction (no 'bid' lines)",)
    assert verdict.claims > 8  # the trick winners and the scores were checked
    # A wrong score is still found.
    wrong = re.sub(r"^= score NS (\d+)", lambda m: f"= score NS {int(m[1]) + 1}", text, flags=re.M)
    [verdict] = check(wrong, "tazjel")
    assert [d.position for d in verdict.divergences][:1] == ["h1.score"]


def test_an_illegal_card_is_found_without_the_auction() -> None:
    text = without_auction(hand_of(WORKED, 1))
    # W holds KS and no other spade but must follow the spade led (trick 1); swap in a heart.
    bad = text.replace("trick 1: N TS, W KS,", "trick 1: N TS, W JH,").replace(
        "trick 5: N 8H, W JH,", "trick 5: N 8H, W KS,"
    )
    [verdict] = check(bad, "saudi")
    assert verdict.divergences[0].position == "h1.t1.p2"
    assert verdict.divergences[0].rule_id == "play.follow_suit"


def test_require_auction_fails_a_partial_hand_in_every_report(tmp_path: Path) -> None:
    path = tmp_path / "partial.btn"
    path.write_text(without_auction(hand_of(WORKED, 1)), encoding="utf-8")
    [verdict] = check(path.read_text(encoding="utf-8"), "saudi", frozenset({"auction"}))
    assert verdict.status == "fail"
    assert verdict.divergences[0].kind == "missing_event"
    outputs = {}
    for fmt in ("text", "json", "junit", "markdown"):
        out = io.StringIO()
        code = main(["check", str(path), "--format", fmt], out, io.StringIO())
        strict = main(
            ["check", str(path), "--format", fmt, "--require", "auction"],
            io.StringIO(),
            io.StringIO(),
        )
        assert (code, strict) == (0, 1)
        outputs[fmt] = out.getvalue()
    assert "t.btn" not in outputs["text"]
    assert "partial.btn:20:1: h1 not checked: the auction (no 'bid' lines)" in outputs["text"]
    assert "PASS " in outputs["text"] and "1 partly unchecked" in outputs["text"]
    hand = next(json.loads(line) for line in outputs["json"].splitlines() if '"hand"' in line)
    assert hand["unchecked"] == ["the auction (no 'bid' lines)"]
    assert 'name="unchecked" value="the auction (no \'bid\' lines)"' in outputs["junit"]
    assert "Not checked (partial transcripts)" in outputs["markdown"]


def test_a_partial_hand_needs_its_contract_claim() -> None:
    text = without_auction(hand_of(WORKED, 1)).replace("= contract N hokum S\n", "")
    [verdict] = check(text, "saudi")
    assert verdict.status == "error" and verdict.error is not None
    assert "'= contract' claim" in verdict.error


# --- 2. a Baloot logged after the last trick ---------------------------------------------------


def test_a_baloot_after_the_last_trick_is_checked_for_its_holder() -> None:
    hand = hand_of(T10, 3)
    line = re.search(r"^baloot (\w)  #.*\n", hand, re.M)
    assert line is not None
    late = hand.replace(line[0], "").replace(
        "# tazjel winner", f"baloot {line[1]}\n# tazjel winner"
    )
    [verdict] = check(late, "tazjel")
    assert verdict.status == "pass"
    assert verdict.unchecked == ("when Baloot was announced (logged after the last trick)",)
    other = "N" if line[1] != "N" else "W"
    [verdict] = check(late.replace(f"baloot {line[1]}\n", f"baloot {other}\n"), "tazjel")
    [root] = verdict.divergences
    assert (root.rule_id, root.position) == ("projects.baloot", "h1.baloot1")
    assert verdict.claims > 8  # the replay went on to the scores


# --- 3. the game's end after a wrong total -----------------------------------------------------


def test_the_game_goes_on_from_a_wrong_claimed_total() -> None:
    """A total claimed below the target keeps the game going, though the kit's own total
    reached it: the next hand is not a new game at 0-0."""
    text = import_file("majlis", LOGS / "majlis" / "m2.json.gz")
    totals = [tuple(map(int, t)) for t in re.findall(r"= total NS (\d+) EW (\d+)", text)]
    # Claim one point less than the target in the hand before last, where the game ended.
    last = len(totals)
    hands = re.split(r"\n(?=hand \d+\n)", text)
    ns, ew = totals[-1]
    lowered = hands[last].replace(f"= total NS {ns} EW {ew}", "= total NS 100 EW 100")
    lowered = re.sub(r"= winner \w+\n", "", lowered)
    extra = hands[last].replace(f"hand {last}\n", f"hand {last + 1}\n")
    extra = re.sub(r"= winner \w+\n", "", extra)
    text = "\n".join([*hands[:last], lowered, extra])
    verdicts = check(text, "majlis")
    # Hand `last`: the total is wrong. Hand `last + 1` starts from NS 100 EW 100 (its dealer
    # rotates on, so its totals are judged against 100-100 and not 0-0).
    assert verdicts[last - 1].divergences[0].position == f"h{last}.total"
    new_total = verdicts[last].divergences[-1] if verdicts[last].divergences else None
    assert new_total is not None and new_total.expected is not None
    assert int(new_total.expected.split()[1]) >= 100


# --- 4. the rule a call out of its window breaks -----------------------------------------------


def test_an_event_in_the_sun_claim_window_cites_sun_priority() -> None:
    # Under saudi (live_only) an earlier Hokum bidder may claim a later Sun: the auction is
    # not over when the contract is claimed and the deal completed.
    text = hand_of(T10, 2)
    assert '[Ruleset "tazjel@3"]' in text  # the importer tags the profile's major version
    [verdict] = check(text.replace('[Ruleset "tazjel@3"]', '[Ruleset "saudi@1"]'), "saudi")
    assert verdict.divergences[0].rule_id == "bidding.sun_priority"
    [verdict] = check(text, "tazjel")
    assert verdict.status == "pass"


def test_an_event_in_the_hijack_window_cites_hokum_over_hokum() -> None:
    saudi = load_ruleset("saudi")
    rule = dict(saudi.document["bidding"]["hokum_over_hokum"], option="priority_hijack")
    hijack = derive_ruleset(saudi, {"bidding.hokum_over_hokum": rule}, "hijack")
    calls = "bid N pass\nbid W hokum\nbid S pass\nbid E pass\n= contract W hokum S\n"
    text = hand_of(WORKED, 1).replace(
        "bid N hokum\nbid W pass\nbid S pass\nbid E pass\n= contract N hokum S\n", calls
    )
    with TranscriptReader(io.StringIO(text), "t.btn") as reader:
        [verdict] = check_hands(reader, "t.btn", hijack)
    # N passed before W's Hokum, so N may take it over: the contract claim comes too early.
    assert verdict.divergences[0].rule_id == "bidding.hokum_over_hokum"
