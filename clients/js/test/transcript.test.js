// Reading the JSON form a request carries: seats in the order of play, card codes, a hand's
// events with the indices a replay answer names, who holds what, the start totals.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  SEATS, Unsupported, allCards, callText, card, claims, contractClaim, dealtCards, events, lastHand, nextSeat,
  partnerOf, seatIndex, stackedRandom, startTotals, teamOf,
} from "../index.js";

const json = (name) => JSON.parse(readFileSync(new URL(`./data/${name}.json`, import.meta.url), "utf8"));

test("the order of play is N W S E: each seat's right-hand neighbour is the next", () => {
  assert.deepEqual([...SEATS], ["N", "W", "S", "E"]);
  assert.deepEqual(SEATS.map((s) => nextSeat(s)), ["W", "S", "E", "N"]);
  assert.equal(nextSeat("E", 3), "S");
  assert.equal(nextSeat(3, 1), 0);
  assert.equal(nextSeat("N", -1), "E");
  assert.equal(partnerOf("W"), "E");
  assert.deepEqual(SEATS.map(teamOf), ["NS", "EW", "NS", "EW"]);
  assert.equal(seatIndex("S"), 2);
  assert.throws(() => seatIndex("X"), /not a seat: "X"/);
});

test("cards are rank then suit, T for the ten; the pack has 32", () => {
  assert.equal(card("10", "♠"), "TS");
  assert.equal(card("a", "h"), "AH");
  assert.throws(() => card("6", "S"), /not a card/);
  const pack = allCards();
  assert.equal(pack.length, 32);
  assert.equal(new Set(pack).size, 32);
  assert.deepEqual(pack.slice(0, 9), ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS", "7H"]);
});

test("a hand's events carry their index in items, plays their trick and place", () => {
  const hand = json("sawa").hands[0];
  const all = [...events(hand)];
  for (const { index, item } of all) assert.equal(hand.items[index], item);
  assert.ok(all.length < hand.items.length, "claims and comments are not events");
  const plays = all.filter((e) => e.item.event === "play");
  assert.equal(plays.length, 16);
  for (const play of plays) {
    assert.equal(play.trick, play.item.trick);
    assert.equal(play.place, play.item.index);
  }
  const bids = all.filter((e) => e.item.event === "bid").map((e) => callText(e.item));
  assert.deepEqual(bids, ["hokum", "pass", "pass", "pass", "sun"]);
  assert.deepEqual(startTotals(hand), { NS: 0, EW: 0 });
  assert.equal(startTotals({ hand: 1, items: [] }), null);
  assert.equal(lastHand(json("sawa")).hand, 2);
  assert.deepEqual(contractClaim(hand), { claim: "contract", buyer: "S", kind: "sun", position: "h1.contract" });
  assert.ok(claims(hand).every((c) => typeof c.claim === "string"));
});

test("who holds what, from deal and rest lines", () => {
  const hand = json("worked-hand").hands[0];
  const dealt = dealtCards(hand);
  assert.equal(dealt.dealer, seatIndex("E"));
  assert.equal(dealt.faceup, "QS");
  assert.equal(dealt.receiver, seatIndex("N"));
  assert.deepEqual(dealt.five[0], ["8S", "TS", "8H", "9H", "7C"]);
  assert.deepEqual(dealt.rest, [["KH", "JC"], ["KD", "AD", "TC"], ["9C", "QC", "KC"], ["TD", "JD", "AC"]]);
});

test("who holds what, from hold lines and, before the rest lines, from the play", () => {
  const hold = (seat, cards) => ({ event: "hold", seat, cards });
  const pack = allCards();
  const held = { hand: 1, items: [{ event: "faceup", card: pack[8] }, ...SEATS.map((s, i) => hold(s, pack.slice(i * 8, i * 8 + 8)))] };
  const dealt = dealtCards(held);
  assert.equal(dealt.receiver, 1);
  assert.deepEqual(dealt.five[1], pack.slice(9, 14));
  assert.deepEqual(dealt.rest[1], pack.slice(14, 16));
  assert.deepEqual(dealt.rest[0], pack.slice(5, 8));

  const hand = structuredClone(json("worked-hand").hands[0]);
  hand.items = hand.items.filter((i) => i.event !== "rest" && i.claim === undefined);
  const cut = dealtCards(hand);
  assert.equal(cut.receiver, 0, "N plays the face-up QS");
  assert.deepEqual(cut.rest[0], ["JC", "KH"], "N's cards in the order N plays them");
  assert.deepEqual(cut.rest.map((r) => r.length), [2, 3, 3, 3]);
  assert.equal(new Set([...cut.five.flat(), ...cut.rest.flat(), cut.faceup]).size, 32);
  assert.throws(() => dealtCards({ hand: 1, items: [{ event: "deal", seat: "N", cards: [] }] }), Unsupported);
});

test("a hand cut in its auction: no receiver, or the guessed one, who gets two cards", () => {
  const hand = structuredClone(json("worked-hand").hands[0]);
  hand.items = hand.items.filter((i) => i.event !== "rest" && i.event !== "play" && i.claim === undefined);
  const unknown = dealtCards(hand);
  assert.equal(unknown.receiver, null);
  const guessed = dealtCards(hand, { guessReceiver: true });
  assert.equal(guessed.receiver, 0);
  assert.deepEqual(guessed.rest.map((r) => r.length), [2, 3, 3, 3]);
  assert.equal(new Set([...guessed.five.flat(), ...guessed.rest.flat(), guessed.faceup]).size, 32);
});

test("stackedRandom makes a Fisher-Yates shuffle of the pack give the order asked for", () => {
  const shuffle = (cards, random) => {
    const out = [...cards];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const pack = allCards();
  const target = [...pack.slice(16), ...pack.slice(0, 16).reverse()];
  assert.deepEqual(shuffle(pack, stackedRandom(pack, target)), target);
  const random = stackedRandom(pack, pack);
  for (let i = 0; i < 31; i += 1) random();
  assert.equal(random(), 0.5, "draws after the shuffle's are 0.5");
  assert.throws(() => stackedRandom(pack, [...pack.slice(1), "XX"]), /cannot stack XX/);
});
