// tests/test_js_client.py: rebuild a transcript (its JSON form, standard input) call by call
// with the JS kit's TranscriptBuilder, as an engine's game loop would, and write its text.
import { readFileSync } from "node:fs";
import { TEAM_CLAIMS, TranscriptBuilder } from "../../../clients/js/index.js";

const doc = JSON.parse(readFileSync(0, "utf8"));
const [ruleset, ...header] = doc.header;
const game = new TranscriptBuilder({ ruleset: ruleset.value });
for (const e of header) {
  if (e.tag !== undefined) game.tag(e.tag, e.value);
  else game.headerComment(e.comment);
}
for (const h of doc.hands) {
  const hand = game.hand(h.hand);
  for (const i of h.items) {
    if (i.event === "start") hand.start(i.NS, i.EW);
    else if (i.event === "dealer") hand.dealer(i.seat);
    else if (i.event === "deal") hand.deal(i.seat, i.cards);
    else if (i.event === "hold") hand.hold(i.seat, i.cards);
    else if (i.event === "rest") hand.rest(i.seat, i.cards);
    else if (i.event === "faceup") hand.faceup(i.card);
    else if (i.event === "bid") hand.bid(i.seat, i.call, ...(i.args ?? []));
    else if (i.event === "raise") hand.raise(i.seat, i.call, ...(i.args ?? []));
    else if (i.event === "declare") hand.declare(i.seat, i.project, i.cards ?? []);
    else if (i.event === "baloot") hand.baloot(i.seat, i.cards ?? []);
    else if (i.event === "play") hand.play(i.seat, i.card);
    else if (i.event === "foul") hand.foul(i.seat, i.target, ...(i.words ?? []));
    else if (i.event === "sawa") hand.sawa(i.seat);
    else if (i.event === "kawesh") hand.kawesh(i.seat);
    else if (i.claim === "contract") hand.contract(i.buyer, i.kind, i.trump, i);
    else if (i.claim === "trick") hand.trick(i.trick, i.winner, i.points);
    else if (i.claim === "legal") hand.legal(i.seat, i.cards);
    else if (TEAM_CLAIMS.includes(i.claim)) hand.team(i.claim, i.NS, i.EW);
    else if (i.claim === "result") hand.result(i.outcome);
    else if (i.claim === "kaboot") hand.kaboot(i.team);
    else if (i.claim === "winner") hand.winner(i.team);
    else if (i.claim === "sawa" || i.claim === "foul") hand.verdict(i.claim, i.verdict);
    else if (i.event === undefined && i.claim === undefined) {
      hand.line(i.comment);
      continue;
    } else throw new Error(`not rebuilt: ${JSON.stringify(i)}`);
    if (i.comment !== undefined) hand.note(i.comment);
  }
}
process.stdout.write(game.toString());
