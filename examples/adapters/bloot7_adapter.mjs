#!/usr/bin/env node
// An adapter for 7oossam/bloot's rules engine (src/engine/*.ts, TypeScript, no licence:
// nothing of it is in this repository): the engine adapter protocol, version 1
// (docs/protocol.md), on standard input and output (JSON Lines).
//
// Usage:
//   node bloot7_adapter.mjs --engine-dir PATH/TO/bloot   (or BLOOT7_ENGINE_DIR=PATH)
//        [--rulesets bloot7,saudi] [--sawa-seats N|any]
//   node bloot7_adapter.mjs --bundle bloot7.mjs           (a bundle made beforehand)
//
// With --engine-dir the engine's src/engine/{round,deck,cards,trick,sawa,doubling,projects}.ts
// are bundled at start into one ES module in a temporary folder by esbuild (resolved from the
// checkout's node_modules, then from the current folder's, or an esbuild command on the PATH);
// Node 20 runs the bundle.
//
// The engine is `new Round(dealer, rand, options)`, one hand: the deal, the two-round auction,
// the دبل round, eight tricks and the score sheet. Every request is answered by replaying the
// transcript's events through a Round (bid, double, playCard) and reading what it answers: the
// errors it throws, legalBids, legalDoubleCalls, legalMovesFor, its tricks and HandResult, and
// for a Sawa its sawaHolds. The match loop around the hands is the game's
// src/game/GameController.ts, a UI controller that cannot run headless; the adapter does what
// that loop does: the first dealer is the transcript's, the deal passes to the next seat after
// every hand and every all-pass redeal, each Round is given `doubling: {matchScore, sunLimit:
// 100}`, a hand banks its gamePoints, the match ends at 152 or more with the scores apart, or
// at once when a قهوة hand has a winner; a new match starts after it (or at a 'start' line).
//
// How BTN maps to the engine:
// - seats N W S E are the engine's seats 0-3 (play passes from s to s + 1; N is the game's
//   human seat 0); team NS is 0; cards TH are the engine's {suit: "H", rank: "10"};
// - the deal: the Round shuffles the engine's pack (buildDeck) with the random function it is
//   given (dealInitial); the adapter gives it one whose draws make that shuffle put the
//   transcript's cards where the engine deals them: the first five of seats 0-3 one card at a
//   time, the face-up card (stock[0]), then the stock in seat order, two cards to the seat
//   that takes the face-up card and three to each other (finalizeDeal). That seat is the
//   transcript's (its rest line of two cards, or the hold line with the face-up card); the
//   first rest line is refused when the engine gives the face-up card to another seat;
// - calls: pass, sun, ashkal; 'hokum' in round 1 (the face-up suit), 'hokum S' in round 2;
//   raises double, triple, four, gahwa (the engine's qahwa) and pass, with 'closed' or 'open'
//   (a Hokum's دبل or فور takes the lock); a lock chosen on its own is refused. The engine asks
//   both opponents of the buyer in turn at the first raise, from the buyer's right (the
//   bloot7 profile's doubling.window in_turn_from_buyer), and opens no دبل round for a Sun
//   that its limit of 100 keeps from being doubled: when the transcript goes on to a card with
//   the window open, the adapter passes for each seat it asks;
// - the engine declares every seat's projects itself: a declare line is refused; a baloot line
//   is accepted once the engine has seen the holder play the second of trump King and Queen,
//   and is no call for a holder of four Kings or four Queens, whose بلوت the engine never
//   counts, once he has played both;
// - 'sawa N' is what the controller offers (GameController.canClaimSawa): on the claimer's lead
//   with two cards or more, by seat 0 (N) only unless --sawa-seats any; it is judged by the
//   engine's sawaHolds (the claimer's own cards must take every trick, his partner helping).
//   For the hand's score the hand is then played out as the controller plays it: after a right
//   claim the claimer, and his partner on the claimer's lead, play the engine's sawaMove; every
//   other card is the first of legalMovesFor. After a wrong claim the controller gives the
//   whole hand to the other side: they bank both sides' gamePoints less the claimer's side's
//   بلوت, the claimer's side nothing;
// - the engine refuses every illegal card and has no foul call: a foul line is refused.
//
// The protocol loop, the reading of the transcript (events, who holds what, the stacked
// shuffle that deals it), the errors that answer a refusal or a skip and the bundling of the
// TypeScript engine are the kit's (clients/js, baloot-adapter-kit): what is here is the glue
// between the notation and the engine.
//
// 'judge' answers a Sawa with sawaHolds (any seat, on its lead); a foul call is skipped.
// Not supported: hands that log no auction (a Round cannot start from a contract), Kawesh.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  Rejected, SEATS, Unsupported, callText, dealtCards, events, importTypeScript, serve, stackedRandom,
} from "../../clients/js/index.js";

const ENGINE_COMMIT = "a75647faa8fd06f56ea0";
const RANKS = { 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_LETTERS = Object.fromEntries(Object.entries(RANKS).map(([l, r]) => [r, l]));
const RAISES = { pass: "pass", double: "double", triple: "triple", four: "four", gahwa: "qahwa" };
const RAISE_WORDS = Object.fromEntries(Object.entries(RAISES).map(([w, c]) => [c, w]));
const MATCH_TARGET = 152; // GameController.MATCH_TARGET
const SUN_DOUBLE_LIMIT = 100; // GameController.SUN_DOUBLE_LIMIT

const cardOf = (code) => ({ suit: code[1], rank: RANKS[code[0]] });
const codeOf = (card) => RANK_LETTERS[card.rank] + card.suit;
const seatOf = (name) => SEATS.indexOf(name);
const next = (seat, steps = 1) => (seat + steps) % 4;

// --- loading the engine ----------------------------------------------------------------------

const ENTRY = [
  ["round", ["Round"]],
  ["deck", ["buildDeck"]],
  ["cards", ["cardPoints"]],
  ["sawa", ["sawaHolds", "sawaMove"]],
  ["doubling", ["doubleMultiplier"]],
  ["projects", ["BALOOT_VALUE"]],
];

const USAGE = "usage: node bloot7_adapter.mjs (--engine-dir CHECKOUT | --bundle FILE) [--rulesets ID,...] [--sawa-seats N|any]";

/** The options, and the engine's module: the bundle given, or the engine's modules the
 * adapter calls (ENTRY) bundled now. */
async function load() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        "engine-dir": { type: "string" },
        bundle: { type: "string" },
        rulesets: { type: "string", default: "bloot7" },
        "sawa-seats": { type: "string", default: "N" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    console.error(`bloot7_adapter: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.error(USAGE);
    process.exit(0);
  }
  if (values["sawa-seats"] !== "N" && values["sawa-seats"] !== "any") {
    console.error(`--sawa-seats takes N or any, not ${values["sawa-seats"]}`);
    process.exit(2);
  }
  const options = { rulesets: values.rulesets.split(",").filter(Boolean), sawaAnySeat: values["sawa-seats"] === "any" };
  const bundle = values.bundle ?? process.env.BLOOT7_BUNDLE;
  if (bundle) return { options, E: await import(pathToFileURL(resolve(bundle)).href) };
  const engineDir = values["engine-dir"] ?? process.env.BLOOT7_ENGINE_DIR;
  if (!engineDir) {
    console.error("bloot7_adapter: --engine-dir (or BLOOT7_ENGINE_DIR) or --bundle is required: a checkout of 7oossam/bloot");
    process.exit(2);
  }
  const src = join(resolve(engineDir), "src", "engine");
  if (!existsSync(join(src, "round.ts"))) {
    console.error(`bloot7_adapter: ${engineDir}: not a checkout of 7oossam/bloot (no src/engine/round.ts)`);
    process.exit(2);
  }
  const entry = ENTRY.map(([file, names]) => `export { ${names.join(", ")} } from ${JSON.stringify(join(src, `${file}.ts`))};\n`).join("");
  try {
    return { options, E: await importTypeScript(entry, { resolveDir: src, searchFrom: [resolve(engineDir), process.cwd()] }) };
  } catch (error) {
    console.error(`bloot7_adapter: ${error.message}`);
    process.exit(2);
  }
}

// --- one transcript, replayed ----------------------------------------------------------------

/** The match loop GameController runs around the Rounds: totals, the next dealer, its end. */
class Table {
  constructor(totals = [0, 0]) {
    this.totals = [...totals];
    this.nextDealer = null; // null: the transcript's dealer starts the match
    this.over = false;
    this.winner = null;
  }

  bank(dealer, gained, sheet) {
    this.totals = [this.totals[0] + gained[0], this.totals[1] + gained[1]];
    if (sheet?.double?.level === 5 && sheet.winner !== undefined) {
      this.over = true;
      this.winner = sheet.winner;
    } else if ((this.totals[0] >= MATCH_TARGET || this.totals[1] >= MATCH_TARGET) && this.totals[0] !== this.totals[1]) {
      this.over = true;
      this.winner = this.totals[0] > this.totals[1] ? 0 : 1;
    }
    this.nextDealer = next(dealer);
  }
}

class HandRun {
  constructor(E, table, number, items, options) {
    this.E = E;
    this.table = table;
    this.number = number;
    this.items = items;
    this.options = options;
    this.dealer = null;
    this.faceup = null;
    this.round = null;
    this.plays = 0;
    this.sawa = null; // {seat, ok} once claimed
  }

  reject(index, reason) {
    return new Rejected(this.number, index, reason);
  }

  call(index, what, fn) {
    try {
      return fn();
    } catch (error) {
      throw this.reject(index, `${what} (the engine: ${error.message})`);
    }
  }

  event(index, item) {
    const kind = item.event;
    if (kind === "start") {
      if (this.round !== null || this.dealer !== null) throw this.reject(index, "'start' comes first");
      this.table = new Table([item.NS ?? 0, item.EW ?? 0]);
      return;
    }
    if (kind === "dealer") {
      const seat = seatOf(item.seat);
      const expected = this.table.over ? null : this.table.nextDealer;
      if (expected !== null && expected !== seat) {
        throw this.reject(index, `the game deals this hand from ${SEATS[expected]}, not ${item.seat}`);
      }
      if (this.table.over) this.table = new Table();
      this.dealer = seat;
      return;
    }
    if (kind === "deal" || kind === "hold") return; // read by dealtCards at the deal
    if (kind === "faceup") return void (this.faceup = item.card);
    if (this.round === null) this.startHand(index);
    if (kind === "bid") this.bid(index, item);
    else if (kind === "rest") this.rest(index, item);
    else if (kind === "raise") this.raise(index, item);
    else if (kind === "declare") throw this.reject(index, "the engine declares every seat's projects itself");
    else if (kind === "baloot") this.baloot(index, item);
    else if (kind === "play") this.play(index, item);
    else if (kind === "sawa") this.claimSawa(index, item);
    else if (kind === "foul") throw this.reject(index, "the engine has no foul call (it refuses every illegal card)");
    else throw this.reject(index, `the engine has no counterpart for a '${kind}' line`);
  }

  // the deal

  startHand(index) {
    if (this.dealer === null || this.faceup === null) {
      throw this.reject(index, "the hand needs its 'dealer' and 'faceup' lines before the auction");
    }
    const { five, rest, receiver } = dealtCards({ hand: this.number, items: this.items }, { guessReceiver: true });
    const target = [];
    for (let r = 0; r < 5; r += 1) for (let seat = 0; seat < 4; seat += 1) target.push(five[seat][r]);
    target.push(this.faceup);
    for (let seat = 0; seat < 4; seat += 1) target.push(...rest[seat].slice(0, seat === receiver ? 2 : 3));
    const rand = stackedRandom(this.E.buildDeck().map(codeOf), target);
    const matchScore = { 0: this.table.totals[0], 1: this.table.totals[1] };
    this.round = new this.E.Round(this.dealer, rand, { doubling: { matchScore, sunLimit: SUN_DOUBLE_LIMIT } });
    this.receiver = receiver;
  }

  // the auction

  bid(index, item) {
    const round = this.round;
    if (round.phase !== "bidding") throw this.reject(index, `the auction is over (the engine is in its ${round.phase} phase)`);
    const args = item.args ?? [];
    if (!["pass", "sun", "ashkal", "hokum"].includes(item.call) || args.length > (item.call === "hokum" ? 1 : 0)) {
      throw this.reject(index, `the engine has no call ${callText(item)}`);
    }
    const bid = { seat: seatOf(item.seat), call: item.call };
    if (item.call === "hokum") {
      const suit = args[0] ?? (round.bidding.round === 1 ? round.groundCard.suit : undefined);
      if (suit !== undefined) bid.suit = suit;
    }
    this.call(index, `the engine refuses ${item.seat} ${callText(item)}`, () => round.bid(bid));
    if (round.phase === "redeal") {
      this.redealt = true;
      this.table.nextDealer = next(this.dealer); // GameController.applyBid: redeal → nextSeat(dealer)
    }
  }

  rest(index, item) {
    const round = this.round;
    const result = round.bidding.result;
    if (!result) throw this.reject(index, `the auction is not over: it is ${SEATS[round.bidding.turnSeat]}'s call`);
    if (!this.restChecked) {
      this.restChecked = true;
      const taker = result.ashkal?.groundTo ?? result.declarer;
      if (taker !== this.receiver) {
        throw this.reject(index, `the engine gives the face-up card to ${SEATS[taker]}, not ${SEATS[this.receiver]}`);
      }
    }
    const seat = seatOf(item.seat);
    const held = new Set([...round.hands[seat].map(codeOf), ...this.played(seat)]);
    const missing = item.cards.filter((c) => !held.has(c));
    if (missing.length) throw this.reject(index, `the engine did not deal ${missing.join(" ")} to ${item.seat}`);
  }

  /** The cards `seat` has played so far in the hand, as codes. */
  played(seat) {
    const round = this.round;
    return [...round.tricks, ...(round.currentTrick ? [round.currentTrick] : [])]
      .map((t) => t.cards[seat])
      .filter(Boolean)
      .map(codeOf);
  }

  // the raises

  raise(index, item) {
    const round = this.round;
    if (round.phase !== "doubling") throw this.reject(index, `the engine's دبل round is not open (it is in its ${round.phase} phase)`);
    const args = item.args ?? [];
    const call = RAISES[item.call];
    if (call === undefined || args.length > 1 || args.some((a) => a !== "closed" && a !== "open")) {
      const why = item.call === "closed" || item.call === "open" ? " (the lock is chosen with the دبل or the فور)" : "";
      throw this.reject(index, `the engine has no raise ${callText(item)}${why}`);
    }
    const bid = { seat: seatOf(item.seat), call };
    if (args.length) bid.closed = args[0] === "closed";
    this.call(index, `the engine refuses ${item.seat} ${callText(item)}`, () => round.double(bid));
  }

  /** Close an open دبل round as the table does when nobody raises: each seat asked passes. */
  closeWindow() {
    const round = this.round;
    for (let guard = 0; guard < 8 && round.phase === "doubling"; guard += 1) {
      round.double({ seat: round.doubling.turnSeat, call: "pass" });
    }
  }

  // the play

  baloot(index, item) {
    const round = this.round;
    const seat = seatOf(item.seat);
    const scored = round.result ? round.result.baloot === seat : round.balootHolder === seat && round.balootDeclared;
    if (!scored && !this.blockedBaloot(seat)) {
      throw this.reject(index, `the engine has seen no بلوت of ${item.seat}'s (the holder's second trump King or Queen played)`);
    }
  }

  /** Whether `seat` has played the trump King and Queen of a بلوت that the engine never
   * counts, its holder holding four Kings or four Queens (Round.bid, hasFourKingsOrQueens):
   * its announcement is no call. */
  blockedBaloot(seat) {
    const result = this.round.bidding.result;
    if (result?.mode !== "hokum") return false;
    const played = this.played(seat);
    const held = [...this.round.hands[seat].map(codeOf), ...played];
    const count = (rank) => held.filter((c) => c[0] === rank).length;
    const trump = result.trumpSuit;
    return ["K", "Q"].every((r) => played.includes(`${r}${trump}`)) && (count("K") === 4 || count("Q") === 4);
  }

  play(index, item) {
    const round = this.round;
    if (round.phase === "doubling") this.closeWindow();
    const seat = seatOf(item.seat);
    if (round.phase === "playing" && !round.hands[seat].some((c) => codeOf(c) === item.card)) {
      throw this.reject(index, `${item.seat} does not hold ${item.card} (holds ${round.hands[seat].map(codeOf).join(" ")})`);
    }
    this.call(index, `the engine refuses ${item.seat} ${item.card}`, () => round.playCard(seat, cardOf(item.card)));
    this.plays += 1;
  }

  /** Why `seat` may not claim Sawa now (GameController.canClaimSawa), or null. */
  sawaBar(seat, anySeat) {
    const round = this.round;
    if (round.phase === "doubling") this.closeWindow();
    if (round.phase !== "playing") return `no Sawa in the engine's ${round.phase} phase`;
    if (!anySeat && seat !== 0) return "the game offers Sawa to its human seat (N) only";
    if (round.turnSeat !== seat || round.currentTrick.order.length > 0) return `${SEATS[seat]} is not on lead`;
    if (round.hands[seat].length < 2) return "Sawa needs two cards or more in hand";
    if (this.sawa) return "one Sawa a hand";
    return null;
  }

  /** The engine's table for sawaHolds / sawaMove with `seat` claiming. */
  sawaTable(seat) {
    const round = this.round;
    const result = round.bidding.result;
    return {
      hands: round.hands, claimer: seat, mode: result.mode, trumpSuit: result.trumpSuit,
      rules: round.currentTrick?.rules, closed: round.closed,
    };
  }

  claimSawa(index, item) {
    const seat = seatOf(item.seat);
    const bar = this.sawaBar(seat, this.options.sawaAnySeat);
    if (bar) throw this.reject(index, bar);
    this.sawa = { seat, ok: this.E.sawaHolds(this.sawaTable(seat)) };
  }

  /** Play the hand out after a Sawa, as the controller does (see the header). */
  playOut() {
    const round = this.round;
    const claimer = this.sawa.seat;
    const partner = next(claimer, 2);
    while (round.phase === "playing") {
      const seat = round.turnSeat;
      const trick = round.currentTrick;
      let card;
      if (this.sawa.ok && (seat === claimer || (seat === partner && trick.leader === claimer))) {
        card = this.E.sawaMove(this.sawaTable(claimer), trick, seat);
      }
      round.playCard(seat, card ?? round.legalMovesFor(seat)[0]);
    }
  }

  /** The hand's result and what the match banks, once it is over (played out after a Sawa). */
  finish() {
    if (this.finished !== undefined) return this.finished;
    const round = this.round;
    if (this.sawa && round.phase === "playing") this.playOut();
    const result = round.result;
    if (!result) return (this.finished = null);
    let gained = [result.gamePoints[0], result.gamePoints[1]];
    let sheet = result.sheet;
    if (this.sawa && !this.sawa.ok) {
      const us = this.sawa.seat % 2;
      const them = 1 - us;
      const ours = result.baloot !== undefined && result.baloot % 2 === us && result.gamePoints[us] > 0 ? this.E.BALOOT_VALUE : 0;
      gained = [0, 0];
      gained[them] = result.gamePoints[us] + result.gamePoints[them] - ours;
      sheet = { ...sheet, outcome: "lost", judgedTeam: us, winner: them };
    }
    this.table.bank(this.dealer, gained, sheet);
    return (this.finished = { result, gained, sheet });
  }
}

// --- the requests ----------------------------------------------------------------------------

class Adapter {
  constructor(E, options) {
    this.E = E;
    this.options = options;
  }

  get started() {
    return {
      engine: {
        name: "7oossam/bloot src/engine",
        version: ENGINE_COMMIT,
        language: "TypeScript",
        homepage: "https://github.com/7oossam/bloot",
      },
      rulesets: this.options.rulesets,
      capabilities: ["replay", "legal", "claims", "judge"],
    };
  }

  /** Accept the transcript, or throw Rejected at the first event the engine refuses. */
  replay({ transcript }) {
    this.replayHands(transcript.hands);
  }

  /** Replay every hand (each finished hand banked); returns the last hand's run. */
  replayHands(hands) {
    let table = new Table();
    let run = null;
    for (const [h, hand] of hands.entries()) {
      const items = hand.items ?? [];
      if (items.some((i) => i.claim === "contract")) {
        throw new Unsupported(`hand ${hand.hand} logs no auction: a Round cannot start from a contract`);
      }
      run = new HandRun(this.E, table, hand.hand, items, this.options);
      for (const { index, item } of events(hand)) run.event(index, item);
      if (run.round === null && run.dealer !== null && run.faceup !== null) run.startHand(items.length);
      if (h < hands.length - 1 && run.round !== null && !run.redealt) run.finish();
      table = run.table;
    }
    return run;
  }

  legal({ transcript, seat: seatName }) {
    const run = this.replayHands(transcript.hands);
    const seat = seatOf(seatName);
    const round = run?.round;
    if (!round) return { calls: [], cards: [] };
    let calls = [];
    if (round.phase === "bidding") {
      if (round.bidding.turnSeat !== seat) return { calls: [], cards: [] };
      calls = round.legalBids().map((bid) => {
        if (bid.call !== "hokum") return bid.call;
        return round.bidding.round === 1 ? "hokum" : `hokum ${bid.suit}`;
      });
      return { calls, cards: [] };
    }
    if (round.phase === "doubling" && round.doubling.turnSeat === seat) {
      calls = round.legalDoubleCalls().map((c) => RAISE_WORDS[c.call]);
    }
    if (round.phase === "doubling") run.closeWindow(); // the cards as the first card finds them
    const cards = round.phase === "playing" && round.turnSeat === seat ? round.legalMovesFor(seat).map(codeOf) : [];
    return { calls, cards };
  }

  judge({ transcript, event }) {
    if (event?.event === "foul") return { skip: "the engine has no foul call: it refuses every illegal card" };
    if (event?.event !== "sawa") return { error: "only a Sawa or a foul call is judged" };
    const run = this.replayHands(transcript.hands);
    if (!run?.round) return { error: "no hand to judge" };
    const seat = seatOf(event.seat);
    const bar = run.sawaBar(seat, true);
    if (bar) return { error: `not a Sawa the engine can judge: ${bar}` };
    const ok = this.E.sawaHolds(run.sawaTable(seat));
    return {
      verdict: ok ? "right" : "wrong",
      reason: ok ? "sawaHolds: some order of the claimer's cards takes every trick left" : "sawaHolds: no order of the claimer's cards takes every trick left",
    };
  }

  claims({ transcript }) {
    const hands = transcript.hands;
    if (!hands.length) return [];
    const run = this.replayHands(hands);
    if (!run?.round) return [];
    const table = run.table;
    const pair = (name, values) => ({ claim: name, NS: values[0], EW: values[1] });
    if (run.redealt) return [{ claim: "contract", buyer: null }, pair("score", [0, 0]), pair("total", table.totals)];
    const done = run.finish();
    if (!done) throw new Unsupported("the last hand is not played out");
    const { result, gained, sheet } = done;
    const round = run.round;
    const bought = round.bidding.result;
    const claims = [];
    const contract = { claim: "contract", buyer: SEATS[bought.declarer], kind: bought.mode };
    if (bought.trumpSuit) contract.trump = bought.trumpSuit;
    const level = round.doubling?.level ?? 1;
    if (level > 1) {
      contract.multiplier = this.E.doubleMultiplier(level);
      if (bought.mode === "hokum") contract.lock = round.closed ? "closed" : "open";
    }
    claims.push(contract);
    const played = Math.floor(run.plays / 4); // the tricks the transcript played (not a Sawa's)
    round.tricks.slice(0, played).forEach((trick, i) => {
      const points = trick.order.reduce((sum, s) => sum + this.E.cardPoints(trick.cards[s], bought.mode, bought.trumpSuit), 0);
      claims.push({ claim: "trick", trick: i + 1, winner: SEATS[trick.winner], points });
    });
    const buyerTeam = bought.declarerTeam;
    const buyerMade = sheet.judgedTeam === buyerTeam ? sheet.outcome === "won" : sheet.outcome === "lost";
    if (run.sawa && !run.sawa.ok) {
      claims.push({ claim: "result", outcome: buyerMade ? "made" : "failed" });
    } else {
      claims.push(pair("abnat", [result.rawPoints[0], result.rawPoints[1]]));
      claims.push(pair("aklat", [sheet.cards[0], sheet.cards[1]]));
      claims.push(pair("projectscore", [round.projects.points[0], round.projects.points[1]]));
      claims.push({ claim: "result", outcome: sheet.outcome === "tie" ? "tie" : buyerMade ? "made" : "failed" });
      if (sheet.kaboot !== undefined) claims.push({ claim: "kaboot", team: sheet.kaboot === 0 ? "NS" : "EW" });
    }
    claims.push(pair("score", gained));
    claims.push(pair("total", table.totals));
    if (table.over && table.winner !== null) claims.push({ claim: "winner", team: table.winner === 0 ? "NS" : "EW" });
    return claims;
  }
}

// --- the loop (the kit's) --------------------------------------------------------------------

serve(async () => {
  const { options, E } = await load();
  return new Adapter(E, options);
});
