"""Write ``tests/data/family-witnesses.json``: for every shipped trick ruleset and every other
value of each of its parameters (:func:`baloot_conformance.family.compare.variants.
rule_variants`), a BTN 2 witness hand that passes under one and fails under the other.

The live-option test (``tests/test_family_compare.py``) replays each committed witness under
the two rulesets, which takes a second, instead of searching them again, which takes minutes:
run this after changing a Bourré ruleset, the schema's options or the engine. A value none is
found for is printed; it must be listed, with its reason, in ``variants.UNWITNESSED``.

Usage: ``python bench/family_witnesses.py [--tries N]`` (default 600 sessions per side).
Each ruleset's values are compared with its own game's rulesets only (``family_of``). With
``--only barbu,hearts`` only those are searched again, the file's other entries kept. With
``--pairs`` it writes nothing and searches instead a witness for every difference between
every two shipped trick rulesets of the same game (what ``spec diff A B --witness`` does for each
pair), printing those none is found for; exit 1 if any.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from baloot_conformance.family.compare.variants import (  # noqa: E402
    family_of,
    reference_ruleset,
    rule_variants,
    unwitnessed,
    variant_ruleset,
)
from baloot_conformance.family.compare.witness import witness_between  # noqa: E402
from baloot_conformance.family.rules.loading import (  # noqa: E402
    load_trick_ruleset,
    shipped_trick_rulesets,
)

OUT = ROOT / "tests" / "data" / "family-witnesses.json"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=600)
    parser.add_argument("--pairs", action="store_true", help="witness every pair's differences")
    parser.add_argument(
        "--only", help="search only these rulesets (comma-separated), keeping the others' witnesses"
    )
    args = parser.parse_args()
    if args.pairs:
        return pairs(args.tries)
    shipped = [load_trick_ruleset(name) for name in shipped_trick_rulesets()]
    only = set(args.only.split(",")) if args.only else None
    found: dict[str, dict[str, str]] = {}
    if only is not None and OUT.exists():
        found = json.loads(OUT.read_text("utf-8"))
    missing = 0
    start = time.process_time()
    for base in shipped:
        if only is not None and base.id not in only:
            continue
        pool = family_of(base, shipped)
        mine: dict[str, str] = {}
        for variant in rule_variants(base, pool):
            if unwitnessed(base.id, variant.label) is not None:
                continue
            reference, changed = reference_ruleset(base, variant), variant_ruleset(base, variant)
            assert reference is not None and changed is not None
            witness = witness_between(reference, changed, args.tries)
            if witness is None:  # a rare position: search five times longer
                witness = witness_between(reference, changed, 5 * args.tries)
            if witness is None:
                missing += 1
                print(f"no witness: {base.id} {variant.label}", flush=True)
            else:
                mine[variant.label] = witness.text
        found[base.id] = mine
    found = {r.id: found[r.id] for r in shipped if r.id in found}
    OUT.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    count = sum(len(v) for v in found.values())
    print(f"{count} witnesses written to {OUT} ({time.process_time() - start:.0f} s CPU)")
    return 1 if missing else 0


def pairs(tries: int) -> int:
    """Every difference between every two shipped trick rulesets, witnessed."""
    import itertools

    from baloot_conformance.family.compare.diff import diff_trick_rulesets
    from baloot_conformance.family.compare.witness import find_witness

    pool = [load_trick_ruleset(name) for name in shipped_trick_rulesets()]
    count = missing = 0
    pairs_ = [(a, b) for a, b in itertools.combinations(pool, 2) if a.lineage[-1] == b.lineage[-1]]
    for a, b in pairs_:
        for difference in diff_trick_rulesets(a, b):
            count += 1
            if find_witness(a, b, difference, tries) is None:
                missing += 1
                print(f"no witness: {a.id} {b.id} {difference.rule_id}", flush=True)
    print(f"{count - missing} of {count} differences between {len(pool)} rulesets witnessed")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
