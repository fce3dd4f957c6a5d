"""Importers (baloot_conformance.importers): engines' own logs to BTN, nothing dropped.

Every field of a log is placed or knowingly left out; a field an importer does not know, a
missing one or one of the wrong type is an error naming its JSON pointer. Third parties add
importers through an entry point.
"""

from __future__ import annotations

import copy
import gzip
import importlib.metadata
import io
import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from baloot_conformance.btn import parse_transcript
from baloot_conformance.cli import main
from baloot_conformance.errors import UnreadableInputError
from baloot_conformance.importers import MAX_LOG_BYTES, ImportLogError, import_file, importer
from baloot_conformance.importers.majlis import convert as majlis
from baloot_conformance.importers.tazjel import convert as tazjel

LOGS = Path(__file__).parent / "data" / "peer-logs"


def log(engine: str, seed: int) -> Any:
    prefix = engine[0]
    return json.loads(gzip.decompress((LOGS / engine / f"{prefix}{seed}.json.gz").read_bytes()))


def error(convert: Any, data: Any) -> ImportLogError:
    with pytest.raises(ImportLogError) as caught:
        convert(data, "log.json")
    return caught.value


def test_an_unknown_field_is_an_error_with_its_pointer() -> None:
    data = log("majlis", 2)
    data["rounds"][3]["actions"][5]["tempo"] = 1.5
    exc = error(majlis, data)
    assert exc.pointer == "/rounds/3/actions/5/tempo"
    assert str(exc).startswith("log.json: /rounds/3/actions/5/tempo: a field this importer")
    assert exc.hint is not None and "newer engine version" in exc.hint


def test_a_missing_field_and_a_wrong_type_name_their_pointer() -> None:
    data = log("tazjel", 2)
    broken = copy.deepcopy(data)
    del broken["rounds"][0]["record"]["scores"]["us"]["aklat"]
    assert error(tazjel, broken).pointer == "/rounds/0/record/scores/us"
    broken = copy.deepcopy(data)
    broken["rounds"][1]["record"]["tricks"][2]["points"] = "17"
    exc = error(tazjel, broken)
    assert exc.pointer == "/rounds/1/record/tricks/2/points"
    assert "expected an integer, found a string" in str(exc)


def test_unknown_words_and_cards_are_errors() -> None:
    data = log("majlis", 2)
    data["rounds"][0]["actions"][0]["call"] = "kaboom"
    exc = error(majlis, data)
    assert exc.pointer == "/rounds/0/actions/0/call" and "unknown call 'kaboom'" in str(exc)
    data = log("tazjel", 2)
    data["rounds"][0]["faceup"] = "11♥"
    assert error(tazjel, data).pointer == "/rounds/0/faceup"


def test_tricks_must_agree_with_the_plays() -> None:
    data = log("tazjel", 2)
    plays = data["rounds"][0]["plays"]
    plays[0]["card"], plays[1]["card"] = plays[1]["card"], plays[0]["card"]
    exc = error(tazjel, data)
    assert exc.pointer == "/rounds/0/record/tricks/0" and "other cards than 'plays'" in str(exc)


def test_a_log_of_the_other_engine_is_refused_at_its_first_difference() -> None:
    assert error(tazjel, log("majlis", 2)).pointer == "/rounds/0"


def test_a_gablak_timeout_call_is_not_a_call() -> None:
    text = tazjel(log("tazjel", 10), "t10.json")
    assert "# bid E pass: not taken, its Gablak window had lapsed (GABLAK_TIMEOUT)" in text
    assert "bid W ashkal  # opens a Gablak window (GABLAK_TRIGGERED)" in text


def test_a_redealt_majlis_round_claims_no_contract() -> None:
    text = majlis(log("majlis", 42), "m42.json")
    hand3 = text.split("\nhand 3\n")[1].split("\nhand 4\n")[0]
    assert hand3.count("bid ") == 8 and hand3.rstrip().endswith("= contract none")


def test_third_party_importers_come_from_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    class Point:
        name = "toy"

        def load(self) -> Any:
            return lambda data, source: f'%btn 1\n[Ruleset "saudi@1"]\n# {data["n"]}\n'

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [Point()])
    assert importer("toy")({"n": 7}, "x") == '%btn 1\n[Ruleset "saudi@1"]\n# 7\n'
    assert importer("majlis") is majlis  # a built-in importer cannot be replaced
    with pytest.raises(Exception, match="no importer named 'nope'") as caught:
        importer("nope")
    assert "majlis, tazjel, bloot352, toy" in str(caught.value)


def test_import_command(tmp_path: Path) -> None:
    stdout = io.StringIO()
    logs = [LOGS / "majlis" / "m2.json.gz", LOGS / "majlis" / "m3.json.gz"]
    out, err = io.StringIO(), io.StringIO()
    assert main(["import", "--from", "majlis", *map(str, logs)], out, err) == 2
    assert "several files need --output FOLDER" in err.getvalue()
    folder = tmp_path / "btn"
    assert main(["import", "--from", "majlis", *map(str, logs), "-o", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["m2.btn", "m3.btn"]
    assert (folder / "m2.btn").read_text(encoding="utf-8") == import_file("majlis", logs[0])
    plain = tmp_path / "m2.json"
    plain.write_bytes(gzip.decompress(logs[0].read_bytes()))
    out = io.StringIO()
    assert main(["import", "--from", "majlis", str(plain)], out, io.StringIO()) == 0
    assert out.getvalue() == import_file("majlis", logs[0])
    # A log of the wrong shape (the pointer said), an unknown importer or file: exit 2.
    err = io.StringIO()
    assert main(["import", "--from", "tazjel", str(plain)], io.StringIO(), err) == 2
    assert "m2.json: /rounds/0: the field 'faceup' is missing" in err.getvalue()
    err = io.StringIO()
    assert main(["import", "--from", "nope", str(plain)], io.StringIO(), err) == 2
    assert "no importer named 'nope'" in err.getvalue()
    err = io.StringIO()
    assert main(["import", "--from", "majlis", str(plain), "-o", str(plain)], stdout, err) == 2
    assert "the output is one of the inputs" in err.getvalue() and plain.read_bytes()[:1] == b"{"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    err = io.StringIO()
    assert main(["import", "--from", "majlis", str(bad)], io.StringIO(), err) == 2
    assert "bad.json:1:2: not JSON" in err.getvalue()


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        ("[" * 50_000, 2, "not a usable JSON log"),  # nested beyond the parser's depth
        ('{"seed": ' + "9" * 5000 + "}", 2, "not a usable JSON log"),  # an integer too long
        ("[1, 2]", 2, "/: expected an object, found a list"),
        (b"\x1f\x8b\x08broken", 2, "cannot read the log"),  # a gzip file cut short
    ],
)
def test_hostile_logs_are_refused_cleanly(
    tmp_path: Path, content: str | bytes, code: int, message: str
) -> None:
    path = tmp_path / "log.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    err = io.StringIO()
    assert main(["import", "--from", "majlis", str(path)], io.StringIO(), err) == code
    assert message in err.getvalue() and "Traceback" not in err.getvalue()


# ---- issue 24, F11: hostile logs, mended where values enter the transcript -------------------


def _set(data: Any, pointer: str, value: Any) -> Any:
    """``data`` with the value at a JSON pointer (of plain keys and indices) replaced."""
    *steps, last = pointer.strip("/").split("/")
    node = data
    for step in steps:
        node = node[int(step)] if isinstance(node, list) else node[step]
    node[int(last) if isinstance(node, list) else last] = value
    return data


def _imported(engine: str, data: Any) -> str:
    """The import of ``data``, which must be BTN the reader of ``check`` accepts."""
    text = (majlis if engine == "majlis" else tazjel)(data, "log.json")
    parse_transcript(text, "log.btn")
    return text


@pytest.mark.parametrize(
    ("engine", "pointer", "value", "expected"),
    [
        # wrong-length lists: the pointer of the list, not a traceback from an unpacking
        ("majlis", "/rounds/0/hands", "<drop 1>", "/rounds/0/hands: expected a list of 4"),
        ("majlis", "/rounds/0/hands/1", "<append 0>", "/rounds/0/hands/1: expected a list of 5"),
        ("majlis", "/rounds/0/matchScores", [1, 2, 3], "/rounds/0/matchScores: expected a list"),
        ("majlis", "/rounds/0/result/cardRawPoints", [], "cardRawPoints: expected a list of 2"),
        ("majlis", "/rounds/0/projects/all/0/cards", 7, "/all/0/cards: expected a list"),
        ("majlis", "/rounds/0/projects/counted", [{"cards": 3}], "/counted/0/cards: expected"),
        ("majlis", "/rounds/0/actions/8/legal", [], "/legal: expected a list of at least 1"),
        ("tazjel", "/rounds/0/record/tricks/0/metadata", "<drop 1>", "/metadata: expected"),
        ("tazjel", "/rounds/0/record/tricks/0/cards", "<append 0>", "/0/cards: expected"),
        ("tazjel", "/rounds/0/first5/2", "<drop 1>", "/rounds/0/first5/2: expected a list of 5"),
        ("tazjel", "/rounds/0/record/initialHands/Top", "<drop 1>", "/Top: expected a list of 8"),
        # numbers BTN cannot write (negative, ten digits), given or worked out
        ("majlis", "/rounds/0/result/roundPoints", [-4, 20], "the number -4 is out of range"),
        ("majlis", "/rounds/0/contract/multiplier", 10**10, "/multiplier: the number 10000000000"),
        ("majlis", "/rounds/0/projects/gamePoints", [0, 0], "gamePoints: works out to -"),
        ("tazjel", "/rounds/0/record/tricks/2/points", -17, "/points: the number -17 is out"),
        ("tazjel", "/rounds/0/record/scores/us/ardh", 999_999_999, "/scores: works out to "),
        # a card given or played twice: the structural checks of the reader would refuse
        ("majlis", "/rounds/0/faceUp", "<copy /rounds/0/hands/0/0>", "/faceUp: the card 9H"),
        ("tazjel", "/rounds/0/plays/5/card", "8♣", "/plays/5/card: the card 8C is played twice"),
        # a lone surrogate is refused with its pointer, never replaced
        ("majlis", "/engine", "majlis\ud800", "/engine: a lone surrogate (U+D800) at character 7"),
        ("tazjel", "/rounds/0/faceup", "\udc00♥", "/rounds/0/faceup: a lone surrogate (U+DC00)"),
        ("majlis", "/rounds/0/result/reason", "a\x00b", "/reason: a NUL at character 2"),
    ],
)
def test_a_value_the_notation_cannot_write_is_an_error_at_its_pointer(
    engine: str, pointer: str, value: Any, expected: str
) -> None:
    data = log(engine, 2)
    if value == "<drop 1>":
        _node(data, pointer).pop()
    elif value == "<append 0>":
        node = _node(data, pointer)
        node.append(copy.deepcopy(node[0]))
    elif isinstance(value, str) and value.startswith("<copy "):
        _set(data, pointer, copy.deepcopy(_node(data, value[6:-1])))
    else:
        if pointer.endswith("projects/gamePoints"):  # less than the Baloot it includes
            data["rounds"][0]["projects"]["all"][0]["kind"] = "baloot"
            data["rounds"][0]["projects"]["counted"] = [data["rounds"][0]["projects"]["all"][0]]
        _set(data, pointer, value)
    exc = error(majlis if engine == "majlis" else tazjel, data)
    message = str(exc).splitlines()[0]  # the error's own line (a hint may follow)
    assert expected in message and exc.pointer.startswith("/"), str(exc)


def test_two_kaboot_claims_are_an_error_not_a_transcript() -> None:
    data = log("tazjel", 2)
    for side in ("us", "them"):
        data["rounds"][0]["record"]["scores"][side]["isKaboot"] = True
    exc = error(tazjel, data)
    assert exc.pointer == "/rounds/0/record/scores/them/isKaboot"
    assert "both sides are logged as taking every trick" in str(exc)


def _node(data: Any, pointer: str) -> Any:
    node = data
    for step in pointer.strip("/").split("/"):
        node = node[int(step)] if isinstance(node, list) else node[step]
    return node


@pytest.mark.parametrize(
    ("engine", "pointer"),
    [
        ("majlis", "/rounds/0/projects/all/0/kind"),  # the injection of the issue
        ("majlis", "/rounds/0/result/reason"),
        ("majlis", "/engine"),
        ("tazjel", "/rounds/7/record/tricks/0/metadata/2/baloot/message"),
        ("tazjel", "/engine"),
    ],
)
def test_free_text_with_line_breaks_stays_on_its_line(engine: str, pointer: str) -> None:
    data = log(engine, 2)
    # '= projects' is a claim neither importer writes: here it could only be injected.
    _set(data, pointer, 'x\n= projects NS 7\r\n# "quoted" \\ = projects NS 8\u2028= projects EW 9')
    text = _imported(engine, data)
    assert not [line for line in text.splitlines() if line.startswith("= projects ")]
    (line,) = [line for line in text.splitlines() if "x = projects NS 7" in line]
    assert line.startswith("[") or "#" in line.split("x = projects NS 7")[0]


def test_a_quote_in_the_engine_name_is_escaped_in_its_tag() -> None:
    data = log("majlis", 2)
    data["engine"] = 'majlis "lib" \\ baloot'
    text = _imported("majlis", data)
    assert '[Engine "majlis \\"lib\\" \\\\ baloot"]' in text
    assert parse_transcript(text).tags["Engine"] == 'majlis "lib" \\ baloot'


def test_free_text_too_long_for_a_line_is_an_error() -> None:
    data = log("majlis", 2)
    data["rounds"][1]["result"]["reason"] = "why " * 5000
    assert error(majlis, data).pointer == "/rounds/1/result/reason"


def test_a_seed_of_any_size_is_a_tag_value() -> None:
    data = log("tazjel", 2)
    data["seed"] = -(10**30)
    assert f'[Seed "{-(10**30)}"]' in _imported("tazjel", data)


def test_a_third_party_importer_is_held_to_lines_btn_can_carry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Point:
        name = "toy"

        def load(self) -> Any:
            return lambda data, source: f'%btn 1\n[Ruleset "saudi@1"]\n# {data["note"]}\n'

    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: [Point()])
    path = tmp_path / "toy.json"
    for note, problem in [("a\rb", "a carriage return"), ("\ud800", "a lone surrogate")]:
        path.write_text(json.dumps({"note": note}), encoding="utf-8")
        with pytest.raises(ImportLogError, match=f"line 3: {problem}"):
            import_file("toy", path)


def test_a_gzip_bomb_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    # 160 MiB of spaces in a 160 kB file: ten gzip members of 16 MiB each.
    member = gzip.compress(b" " * (16 << 20), compresslevel=9)
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(member * 10)
    tracemalloc.start()
    try:
        with pytest.raises(UnreadableInputError) as caught:
            import_file("majlis", bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(caught.value).startswith(f"{bomb}: the log is larger than 64 MiB once decompressed")
    assert peak < MAX_LOG_BYTES * 3 // 2  # not the 160 MiB, twice over, of reading it whole
