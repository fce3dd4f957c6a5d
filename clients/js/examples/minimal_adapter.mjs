#!/usr/bin/env node
// The smallest adapter on the kit, around a toy "engine" that knows only who holds what: it
// accepts every transcript, and offers a seat every card it has not played yet. A real adapter
// calls its engine where this one reads the transcript (clients/js/README.md).
//   baloot-conformance suite --engine "node clients/js/examples/minimal_adapter.mjs" --fixtures 'play.*'
import { dealtCards, events, lastHand, seatIndex, serve } from "../index.js";

serve({
  started: {
    engine: { name: "toy-engine", version: "0.1.0", language: "JavaScript" },
    rulesets: ["saudi"],
    capabilities: ["replay", "legal"],
  },
  replay() {}, // accepted; `throw new Rejected(hand.hand, index, reason)` refuses an event
  legal({ transcript, seat }) {
    const hand = lastHand(transcript);
    const { five, rest } = dealtCards(hand);
    const played = new Set([...events(hand)].filter((e) => e.item.event === "play").map((e) => e.item.card));
    const held = [...five[seatIndex(seat)], ...rest[seatIndex(seat)]];
    return { calls: [], cards: held.filter((c) => !played.has(c)) };
  },
});
