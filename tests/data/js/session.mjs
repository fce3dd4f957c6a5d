// tests/test_js_client.py: the JS kit's protocol loop with an adapter that gives every kind of
// answer (accepted, refused, legal sets with repeats, claims, verdicts, a skip, an error).
import { Rejected, Unsupported, serve } from "../../../clients/js/index.js";

serve({
  started: { engine: { name: "fake", version: "1.0.0", language: "JavaScript" }, rulesets: ["saudi"] },
  replay({ seq }) {
    if (seq === 2) throw new Rejected(1, 4, "W must follow suit");
  },
  legal: () => ({ calls: ["pass", "hokum", "hokum S", "pass"], cards: ["TS", "TS", "7H"] }),
  claims: () => [{ claim: "contract", buyer: "N", kind: "sun" }, { claim: "score", NS: 26, EW: 0 }],
  judge({ seq }) {
    if (seq === 6) throw new Unsupported("no Sawa", "https://example.org/7");
    return seq === 7 ? { verdict: "wrong", reason: "E takes trick 7" } : "right";
  },
  commands: {
    boom() {
      throw new RangeError("boom");
    },
  },
});
