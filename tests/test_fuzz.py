"""Fuzzing: mutated transcripts, JSON forms, rulesets and formulas give only the kit's own
documented errors (never another exception), and whatever is read back round-trips.

The mutations start from real files (the fixtures, the shipped profiles) and change bytes,
lines and values, the way a buggy engine or a hostile file would.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot_conformance.btn import TranscriptReader
from baloot_conformance.btn.json_form import JsonReader, to_json_text
from baloot_conformance.btn.writer import format_transcript
from baloot_conformance.check.run import check_hands
from baloot_conformance.errors import BalootError, FormulaError, TranscriptSyntaxError
from baloot_conformance.rules.formula import parse_formula
from baloot_conformance.rules.loading import load_ruleset
from baloot_conformance.rules.model import CONVERSION_VARIABLES

ROOT = Path(__file__).resolve().parent.parent
SEEDS = [
    (ROOT / "fixtures" / "scoring" / "worked-hand.btn").read_bytes(),
    (ROOT / "examples" / "notation-tour.btn").read_bytes(),
    (ROOT / "examples" / "nonconforming-game.btn").read_bytes()[:6000],
]
SAUDI = load_ruleset("saudi")
FUZZ = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """A seed with a few random edits: bytes replaced, inserted or deleted, lines dropped
    or repeated."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["replace", "insert", "delete", "line"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "replace" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 8))]
        else:
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines[i : i + 1] = draw(st.sampled_from([[], [lines[i], lines[i]]]))
            data = bytearray(b"\n".join(lines))
    return bytes(data)


@FUZZ
@given(data=mutated(SEEDS))
def test_mutated_transcripts_give_only_syntax_errors_or_verdicts(data: bytes) -> None:
    try:
        with TranscriptReader(io.BytesIO(data), "m.btn") as reader:
            verdicts = list(check_hands(reader, "m.btn", SAUDI))
    except TranscriptSyntaxError:
        return
    assert all(v.status in ("pass", "fail", "error") for v in verdicts)


@FUZZ
@given(data=mutated(SEEDS))
def test_what_reads_back_round_trips_through_both_forms(data: bytes) -> None:
    try:
        with TranscriptReader(io.BytesIO(data), "m.btn") as reader:
            hands = list(reader)
            transcript = dataclasses.replace(reader.head(), hands=tuple(hands))
    except TranscriptSyntaxError:
        return
    text = format_transcript(transcript)
    with TranscriptReader(io.BytesIO(text.encode("utf-8")), "again.btn") as again:
        assert [h.items for h in again] == [h.items for h in hands]
    back = JsonReader(io.StringIO(to_json_text(transcript)), "m.json")
    assert [h.items for h in back] == [h.items for h in hands]


def _json_mutations() -> st.SearchStrategy[str]:
    with TranscriptReader(ROOT / "fixtures" / "scoring" / "worked-hand.btn") as reader:
        from baloot_conformance.btn import Transcript

        transcript = Transcript(version=reader.version, header=reader.header, hands=tuple(reader))
    document = json.loads(to_json_text(transcript))
    values = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**12), 10**12),
        st.text(max_size=6),
        st.lists(st.integers(0, 3), max_size=3),
        st.dictionaries(st.text(max_size=4), st.integers(0, 3), max_size=2),
    )

    @st.composite
    def change(draw: st.DrawFn) -> str:
        doc: Any = json.loads(json.dumps(document))
        node = doc
        for _ in range(draw(st.integers(0, 5))):  # walk down to a random place
            if isinstance(node, dict) and node:
                key = draw(st.sampled_from(sorted(node)))
                if not isinstance(node[key], (dict, list)):
                    node[key] = draw(values)
                    break
                node = node[key]
            elif isinstance(node, list) and node:
                index = draw(st.integers(0, len(node) - 1))
                if not isinstance(node[index], (dict, list)):
                    node[index] = draw(values)
                    break
                node = node[index]
        if isinstance(node, dict):
            node[draw(st.text(max_size=5))] = draw(values)
        elif isinstance(node, list) and node:
            node[draw(st.integers(0, len(node) - 1))] = draw(values)
        return json.dumps(doc)

    return change()


@FUZZ
@given(text=_json_mutations())
def test_mutated_json_forms_give_only_syntax_errors(text: str) -> None:
    with contextlib.suppress(TranscriptSyntaxError):
        list(JsonReader(io.StringIO(text), "m.json"))


PROFILE = (ROOT / "spec" / "profiles" / "majlis.yaml").read_bytes()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=mutated([PROFILE]))
def test_mutated_rulesets_give_only_spec_errors(data: bytes, tmp_path_factory: Any) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "p.yaml"
    path.write_bytes(data)
    with contextlib.suppress(BalootError):
        load_ruleset(str(path))


FORMULA_TEXT = st.text(alphabet="raw_othebuyisk 0123456789+-*/%()<>=!.,fnedlsa", max_size=40)


@FUZZ
@given(text=FORMULA_TEXT)
def test_random_formulas_give_only_formula_errors(text: str) -> None:
    try:
        formula = parse_formula(text, CONVERSION_VARIABLES)
    except FormulaError:
        return
    with contextlib.suppress(FormulaError):
        formula.evaluate({"raw": 65, "other_raw": 65, "is_buyer": True, "takes_risk": False})
