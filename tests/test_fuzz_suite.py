"""Fuzzing ``suite``: engines that answer from a generated script, and generated
expectations files.

A scripted engine (``tests/adapters/scripted.py``) answers the handshake and each request
with a generated action: JSON of the wrong shape or type, lone surrogates and control
characters, huge numbers, text that is not JSON or not UTF-8, closing its output, exiting,
hanging. Whatever it does, ``suite`` ends (the timeout bounds every wait), prints no
traceback, writes a report that is valid in its format, and is never green when a case erred
or nothing was checked. An expectations file, whatever its bytes, is read or refused with a
one-screen message that names the file. The budget is fixed (``max_examples``) and small.
"""

from __future__ import annotations

import io
import itertools
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from baloot_conformance.cli import main
from baloot_conformance.errors import BalootError
from baloot_conformance.suite import expectations

ROOT = Path(__file__).resolve().parent.parent
SCRIPTED = f"{sys.executable} {ROOT / 'tests/adapters/scripted.py'}"
CASES = ("--fixtures", "play.follow-suit.pass-1,play.trick-winner.pass-1", "--generated", "0")
FUZZ = settings(
    max_examples=15,  # each runs an engine process or more: about 10 s in all
    deadline=None,
    derandomize=True,  # the same examples on every run: a CI gate does not flicker
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
FUZZ_FILES = settings(FUZZ, max_examples=200)  # in-process: about a second

# --- what an engine may send ----------------------------------------------------------------

_hostile_text = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["\ud800", "\udfff x", "\x00", "\x1b[2J", "a\nPASS 9 cases", "\u2028", ""]),
)
_names = st.one_of(  # the schema wants them non-empty
    st.text(min_size=1, max_size=12),
    st.sampled_from(["e\ud800", "\udfff", "\x1b[31mred", "a\nPASS 9 cases", "\u2028 x"]),
)
_numbers = st.one_of(
    st.integers(min_value=-3, max_value=40),
    st.sampled_from([2**63, -(2**64), 10**300, 10**4000]),
    st.floats(allow_nan=False, allow_infinity=False),
)
_json = st.recursive(
    st.none() | st.booleans() | _numbers | _hostile_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_hostile_text, inner, max_size=3),
    max_leaves=6,
)
_seq = st.one_of(st.just("$seq"), st.just("$seq"), _json)
_answers = st.one_of(
    st.fixed_dictionaries({"seq": _seq, "accepted": st.booleans()}),
    st.fixed_dictionaries({"seq": st.just("$seq"), "skip": _hostile_text}),
    st.fixed_dictionaries(
        {"seq": _seq, "accepted": st.just(False), "hand": _numbers, "event": _numbers},
        optional={"reason": _hostile_text},
    ),
    st.fixed_dictionaries({"seq": _seq, "skip": _hostile_text}, optional={"issue": _json}),
    st.fixed_dictionaries({"seq": _seq, "error": _hostile_text}),
    st.fixed_dictionaries(
        {
            "seq": _seq,
            "calls": st.lists(st.sampled_from(["pass", "sun", "hokum", "x y"]) | _hostile_text),
            "cards": st.lists(st.sampled_from(["7H", "AS", "TD", "1X"]) | _hostile_text),
        }
    ),
    st.fixed_dictionaries({"seq": _seq, "claims": st.lists(_json, max_size=3)}),
    _json,
)
_start = st.fixed_dictionaries(
    {
        "protocol": st.sampled_from([1] * 8 + [2, "1"]),
        "engine": st.fixed_dictionaries({"name": _names, "version": _names}),
        "rulesets": st.sampled_from([["saudi"]] * 3 + [["saudi", "kuwait"], ["nosuch"], []]),
        "capabilities": st.one_of(
            st.sampled_from([["partial"], ["replay"], ["legal", "claims"]]),
            st.lists(
                st.sampled_from(["replay", "legal", "claims", "judge", "partial", "x"]), max_size=4
            ),
        ),
    }
)
_line = st.one_of(
    _hostile_text,
    st.sampled_from(["9" * 5000, "{", '{"seq": 1', "[1, 2]", "null", "\ud800{}"]),
)
_rare = st.sampled_from([{"close": True}, {"exit": 3}, {"hang": True}])


def _action(answer: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Mostly an answer (of the right shape or not), sometimes a raw line or an ending."""
    answered = answer.map(lambda value: {"answer": value})
    return st.one_of(answered, answered, answered, _line.map(lambda t: {"line": t}), _rare)


_scripts = st.fixed_dictionaries(
    {
        "start": st.one_of(*[_start.map(lambda v: {"answer": v})] * 4, _action(_json)),
        "answers": st.lists(_action(_answers), max_size=4),
        "then": st.one_of(st.just({"close": True}), _action(_answers)),
    }
)  # fmt: skip

_counter = itertools.count()


def _check_report(fmt: str, text: str, code: int) -> None:
    """The report is valid in its format, and green only when the exit code is 0."""
    if fmt == "json":
        found = [json.loads(line) for line in text.split("\n") if line]
        summary = found[-1]
        assert summary["record"] == "summary"
        results = [r for r in found if r["record"] == "case"]
        assert summary["ok"] is (code == 0)
        if any(r["verdict"] in ("error", "fail", "invalid", "xpass") for r in results):
            assert code != 0
        if code == 0:  # green: some case was judged on the engine's answers
            assert any(r["verdict"] == "pass" and r["requests"] > 0 for r in results)
    elif fmt == "junit":
        root = ET.fromstring(text)
        bad = int(root.get("errors", "0")) + int(root.get("failures", "0"))
        assert (bad == 0) is (code == 0)
    else:
        *lines, last = text.rstrip("\n").split("\n")
        assert last.startswith("PASS " if code == 0 else "FAIL ")
        # Nothing an engine says starts a line of its own, or reaches the terminal raw.
        assert not any(line.startswith(("PASS ", "FAIL ")) and "cases" in line for line in lines)
        assert "\x1b" not in text


@FUZZ
@given(script=_scripts, fmt=st.sampled_from(["json", "junit", "text"]))
def test_a_scripted_engine_never_breaks_the_run(
    script: dict[str, Any], fmt: str, tmp_path: Path
) -> None:
    folder = tmp_path / str(next(_counter))
    folder.mkdir()
    (folder / "script.json").write_text(json.dumps(script))
    report = folder / "report"
    out, err = io.StringIO(), io.StringIO()
    argv = ["suite", "--engine", f"{SCRIPTED} {folder / 'script.json'}", *CASES]
    argv += ["--jobs", "1", "--timeout", "0.3", "--format", fmt, "-o", str(report)]
    code = main(argv, stdout=out, stderr=err)
    assert code in (0, 1, 2), err.getvalue()
    assert "Traceback" not in err.getvalue() + out.getvalue()
    text = report.read_bytes().decode("utf-8")  # written, in full, as valid UTF-8
    _check_report(fmt, text, code)
    if code == 2:  # the engine did not start: one error, said on stderr
        assert err.getvalue().count("error: the engine cannot start") == 1


# --- expectations files ----------------------------------------------------------------------

_values = st.one_of(
    _hostile_text.filter(lambda t: "\n" not in t),
    st.sampled_from(
        ["1.5", "9" * 5000, "yes", "0x1F", "2024-13-45", "2030-01-01", "'quoted'", "[a, b]",
         "{observable: legal}", '"' + "x" * 5000 + '"', "*alias", "&anchor x",
         "!!python/object x", "null", "~", "'"]
    ),
)  # fmt: skip
_keys = st.sampled_from(["reason", "signature", "link", "expires", "reasn", "observable"])


@st.composite
def _expectation_texts(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 5)) == 0:
        return draw(st.binary(max_size=60))
    lines = [draw(st.sampled_from(["expectations:", "engine: x", "expectations: {}", "- a"]))]
    for _ in range(draw(st.integers(0, 3))):
        lines.append(f"  {draw(st.sampled_from(['some.case', 'play.*', '12', 'a: b']))}:")
        for _ in range(draw(st.integers(0, 3))):
            lines.append(f"    {draw(_keys)}: {draw(_values)}")
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "latin-1"]))
    return "\n".join(lines).encode(encoding, "surrogatepass" if encoding == "utf-8" else "replace")


@FUZZ_FILES
@given(data=_expectation_texts())
def test_an_expectations_file_is_read_or_refused_in_one_message(
    data: bytes, tmp_path: Path
) -> None:
    path = tmp_path / f"e{next(_counter)}.yaml"
    path.write_bytes(data)
    try:
        entries = expectations.load(str(path))
    except BalootError as exc:
        message = str(exc)
        assert message.startswith(str(path)) and len(message) < 1500, message
        where = exc.location
        if where is not None and where.line is not None:
            assert 1 <= where.line <= data.count(b"\n") + 1
        return
    for entry in entries:  # what was read can be applied and written back
        assert isinstance(entry.reason, str)
    expectations.updated([], entries, "x")
