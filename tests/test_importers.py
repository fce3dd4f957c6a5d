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
from pathlib import Path
from typing import Any

import pytest

from baloot_conformance.cli import main
from baloot_conformance.importers import ImportLogError, import_file, importer
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
    data["rounds"][0]["plays"][0]["card"] = "7♣"
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
    assert "majlis, tazjel, toy" in str(caught.value)


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
