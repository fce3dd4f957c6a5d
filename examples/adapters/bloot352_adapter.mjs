#!/usr/bin/env node
// An adapter for mohamed352/bloot's Baloot engine (assets/web_game/js/engine/*.js, plain
// JavaScript ES modules, no licence: nothing of it is in this repository): the engine adapter
// protocol, version 1 (docs/protocol.md), on standard input and output (JSON Lines).
//
// Usage:
//   node bloot352_adapter.mjs --engine-dir PATH/TO/bloot   (or BLOOT352_ENGINE_DIR=PATH)
//        [--rulesets bloot352,saudi] [--safe-mode on|off]
//
// The engine is imported from PATH/assets/web_game/js/engine/index.js (Node 20 runs it as it
// is). Every request is answered by replaying the transcript's events through the engine's
// own entry points (createMatch, startHand, nextHand, applyBid, applyDouble, declareProject,
// playCard, claimSawa, claimQaid) and reading what the engine answers: the errors it throws,
// its legalMoves, its trick history and its scoreHand result.
//
// How BTN maps to the engine:
// - seats N W S E are the engine's seats 0-3 (play passes from s to s + 1); team NS is 0;
//   cards TH are the engine's {rank: "10", suit: "♥"};
// - the deal: the engine shuffles its own pack (makeDeck) with the random function it is
//   given; the adapter gives startHand / nextHand a function whose draws make that shuffle
//   put the transcript's cards where the engine deals them: five each from the dealer on, the
//   face-up card, then the eleven cards dealt after the auction (two to the seat that takes
//   the face-up card, three to each other seat in seat order). The seat that takes it is the
//   transcript's (its rest line of two cards, or the hold line with the face-up card); the
//   first rest line is refused when the engine gives the face-up card to another seat;
// - a match: createMatch with four players who are not bots and autoDeclare off, so that every
//   seat with a project says which it declares; the dealer is the transcript's for the first
//   hand of a match (or after a 'start' line), the engine's own rotation after that (nextHand,
//   or its redeal after four passes twice); the totals are the engine's, carried over;
// - calls: pass, sun, ashkal as they are; 'hokum' in round 1 (or 'hokum' with the face-up
//   suit), 'hokum S' in round 2. The engine has no list of legal calls: for 'legal' the
//   adapter tries every call on a copy of the match and lists those the engine accepts;
// - the doubling window: 'raise X double|triple|four|pass' is applyDouble (double or pass; the
//   word must be the level the engine offers); when the transcript goes on to a card with
//   the window open, the adapter passes for the seat whose turn it is (the engine's first pass
//   closes it). The engine has no lock choice: its raises are open ('double open' is its
//   double), and 'closed' is refused;
// - declare lines: the types a seat declares (sira, fifty, hundred, four_hundred: four Aces)
//   are given to declareProject when the seat plays its first card; a type the engine did not
//   find for the seat is refused; the engine's declaration of a kind declares every project of
//   that kind the seat holds, as the ruleset's explicit_by_kind does;
// - baloot lines are accepted once the engine has announced that seat's Baloot (its own rule:
//   King and Queen of trump in consecutive tricks);
// - 'foul W t2.p2 [type]' is claimQaid(match, W, type): the engine judges the call by the foul
//   it holds as proved, not by the card named; a type it does not know is no type;
// - 'sawa N' is claimSawa(match, N); either call ends the hand, as the engine ends it;
// - with safe mode off (the engine's standard play, the default) playCard accepts a card
//   outside the legal set as a latent foul, so replay accepts it too; '--safe-mode on' makes
//   the engine refuse it.
//
// The protocol loop, the reading of the transcript (events, who holds what, the stacked
// shuffle that deals it) and the errors that answer a refusal or a skip are the kit's
// (clients/js, baloot-adapter-kit): what is here is the glue between the notation and the engine.
//
// 'judge' is answered by the engine: a Sawa by claimSawa's own verdict (sawaGuaranteed), a
// foul call by claimQaid's (its result's qatClaim.failed), each on the replayed match.
// Not supported: hands that log no auction (the engine cannot start a hand from a contract),
// Kawesh (the engine has none).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Rejected, SEATS, Unsupported, callText, dealtCards, events, guardStdout, serve, stackedRandom } from "../../clients/js/index.js";

const ENGINE_COMMIT = "f4cf4ac1865058fa8194";
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_LETTERS = Object.fromEntries(Object.entries(SUITS).map(([l, s]) => [s, l]));
const RANKS = { 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_LETTERS = Object.fromEntries(Object.entries(RANKS).map(([l, r]) => [r, l]));
const LEVEL_WORDS = { 2: "double", 3: "triple", 4: "four" };
const PROJECT_TYPES = { sira: "sira", fifty: "fifty", hundred: "hundred", four_hundred: "fourAces", fourhundred: "fourAces" };

// Whatever the engine prints goes to standard error: standard output is answers.
guardStdout();
process.removeAllListeners("warning"); // Node's note on the engine's untyped package.json

const cardOf = (code) => ({ rank: RANKS[code[0]], suit: SUITS[code[1]] });
const codeOf = (card) => RANK_LETTERS[card.rank] + SUIT_LETTERS[card.suit];
const seatOf = (name) => SEATS.indexOf(name);
const next = (seat, steps = 1) => (seat + steps) % 4;

// --- one transcript, replayed ----------------------------------------------------------------

class Table {
  constructor(E, options, totals = [0, 0]) {
    this.E = E;
    this.options = options;
    this.match = null;
    this.totals = [...totals];
  }

  /** The dealer the engine deals the next hand from, or null when the transcript chooses. */
  expectedDealer() {
    const match = this.match;
    if (match === null || match.matchOver) return null;
    const phase = match.state.phase;
    if (phase === "handEnd") return next(match.dealer);
    if (phase === "bidding" && match.state.trickHistory.length === 0) return match.dealer; // redealt
    return null;
  }
}

class HandRun {
  constructor(table, number, items) {
    this.E = table.E;
    this.table = table;
    this.number = number;
    this.items = items;
    this.dealer = null;
    this.faceup = null;
    this.started = false;
    this.declared = [null, null, null, null]; // types said by each seat, given at its first card
    this.plays = 0;
  }

  reject(index, reason) {
    return new Rejected(this.number, index, reason);
  }

  get match() {
    return this.table.match;
  }

  get st() {
    return this.table.match.state;
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
      if (this.started || this.dealer !== null) throw this.reject(index, "'start' comes first");
      this.table = new Table(this.E, this.table.options, [item.NS ?? 0, item.EW ?? 0]);
      return;
    }
    if (kind === "dealer") {
      const seat = seatOf(item.seat);
      const expected = this.table.expectedDealer();
      if (expected !== null && expected !== seat) {
        throw this.reject(index, `the engine deals this hand from ${SEATS[expected]}, not ${item.seat}`);
      }
      this.dealer = seat;
      return;
    }
    if (kind === "deal" || kind === "hold") return; // read by dealtCards at the deal
    if (kind === "faceup") return void (this.faceup = item.card);
    if (!this.started) this.startHand(index);
    if (kind === "bid") this.bid(index, item);
    else if (kind === "rest") this.rest(index, item);
    else if (kind === "raise") this.raise(index, item);
    else if (kind === "declare") this.declare(index, item);
    else if (kind === "baloot") this.baloot(index, item);
    else if (kind === "play") this.play(index, item);
    else if (kind === "sawa") this.sawa(index, item);
    else if (kind === "foul") this.foul(index, item);
    else throw this.reject(index, `the engine has no counterpart for a '${kind}' line`);
  }

  // the deal

  startHand(index) {
    if (this.dealer === null || this.faceup === null) {
      throw this.reject(index, "the hand needs its 'dealer' and 'faceup' lines before the auction");
    }
    const { five, rest, receiver } = dealtCards({ hand: this.number, items: this.items }, { guessReceiver: true });
    const target = [];
    for (let round = 0; round < 5; round += 1) {
      for (let p = 0; p < 4; p += 1) target.push(five[next(this.dealer, p)][round]);
    }
    target.push(this.faceup);
    target.push(...rest[receiver].slice(0, 2));
    for (let seat = 0; seat < 4; seat += 1) if (seat !== receiver) target.push(...rest[seat].slice(0, 3));
    const rng = stackedRandom(this.E.makeDeck().map(codeOf), target);
    const table = this.table;
    const E = this.E;
    if (table.match === null || table.match.matchOver) {
      const players = [0, 1, 2, 3].map((i) => ({ name: `P${i}`, isBot: false }));
      const match = E.createMatch({ players, safeMode: table.options.safeMode, autoDeclare: false, dealer: this.dealer });
      match.totals = [...table.totals];
      table.match = match;
      E.startHand(match, rng);
    } else if (table.match.state.phase === "handEnd") {
      E.nextHand(table.match, rng);
    } else {
      E.startHand(table.match, rng); // after the engine's own redeal: the same dealer
    }
    if (table.match.dealer !== this.dealer) {
      throw this.reject(index, `the engine deals this hand from ${SEATS[table.match.dealer]}`);
    }
    this.receiver = receiver;
    this.started = true;
  }

  // the auction

  bid(index, item) {
    const st = this.st;
    if (st.phase !== "bidding") throw this.reject(index, `the auction is over (the engine is in its ${st.phase} phase)`);
    const action = bidAction(st, item);
    if (typeof action === "string") throw this.reject(index, action);
    const seat = seatOf(item.seat);
    const events = this.call(index, `the engine refuses ${item.seat} ${callText(item)}`, () =>
      this.E.applyBid(this.match, seat, action, () => 0.5),
    );
    if (events.some((e) => e.type === "redeal")) this.redealt = true;
    if (events.some((e) => e.type === "doubleOpen")) this.windowOpened = true;
  }

  rest(index, item) {
    const st = this.st;
    if (st.phase === "bidding") {
      throw this.reject(index, `the auction is not over: it is ${SEATS[st.bidding.turn]}'s call`);
    }
    if (!this.restChecked) {
      this.restChecked = true;
      const taker = st.ashkal ? next(st.buyer, 2) : st.buyer;
      if (taker !== this.receiver) {
        throw this.reject(index, `the engine gives the face-up card to ${SEATS[taker]}, not ${SEATS[this.receiver]}`);
      }
    }
    const seat = seatOf(item.seat);
    const played = [...st.trickHistory.flatMap((t) => t.plays), ...st.currentTrick]
      .filter((p) => p.seat === seat)
      .map((p) => codeOf(p.card));
    const held = new Set([...st.hands[seat].map(codeOf), ...played]);
    const missing = item.cards.filter((c) => !held.has(c));
    if (missing.length) throw this.reject(index, `the engine did not deal ${missing.join(" ")} to ${item.seat}`);
  }

  // the raises

  raise(index, item) {
    const st = this.st;
    if (!st.awaitingDouble && !this.windowOpened && this.plays === 0 && item.call === "pass" && !(item.args ?? []).length) {
      return; // a pass where the engine opens no window (a Sun it does not let be doubled): no call
    }
    if (!st.awaitingDouble) throw this.reject(index, "the engine's doubling window is not open");
    const args = item.args ?? [];
    // The engine's raises are all open: 'open' states what holds, 'closed' it cannot do.
    if (args.some((a) => a !== "open") || args.length > 1 || item.call === "closed" || item.call === "open") {
      throw this.reject(index, "the engine has no lock choice (its raises are open)");
    }
    let action;
    if (item.call === "pass") action = { type: "pass" };
    else if (item.call === LEVEL_WORDS[st.doubling.nextLevel]) action = { type: "double" };
    else {
      throw this.reject(index, `the engine offers ${LEVEL_WORDS[st.doubling.nextLevel] ?? "no raise"} here, not ${item.call}`);
    }
    this.call(index, `the engine refuses ${item.seat} ${callText(item)}`, () =>
      this.E.applyDouble(this.match, seatOf(item.seat), action),
    );
  }

  /** The doubling window as the table closes it when nobody raises: the seat whose turn it is
   * passes (the engine's first pass closes it). */
  closeWindow() {
    const st = this.st;
    if (st.awaitingDouble && st.doubling) this.E.applyDouble(this.match, st.doubling.turn, { type: "pass" });
  }

  // projects

  declare(index, item) {
    const st = this.st;
    const seat = seatOf(item.seat);
    if (!st.awaitingDeclare || !st.declareSeats.includes(seat)) {
      throw this.reject(index, `the engine takes no declaration from ${item.seat} now`);
    }
    let type = PROJECT_TYPES[item.project];
    const cards = item.cards ?? [];
    if (type === "hundred" && cards.length === 4 && cards.every((c) => c[0] === "A")) type = "fourAces";
    if (!type) throw this.reject(index, `the engine has no project '${item.project}'`);
    if (!st.projects.some((p) => p.seat === seat && p.type === type)) {
      throw this.reject(index, `the engine found no ${item.project} in ${item.seat}'s hand`);
    }
    this.declared[seat] = [...(this.declared[seat] ?? []), type];
  }

  /** The seat's declaration, given to the engine before its first card: the kinds it
   * declared, each declaring every project of that kind the seat holds. */
  flushDeclaration(seat) {
    const st = this.st;
    if (st.awaitingDeclare && st.declareSeats.includes(seat)) {
      this.E.declareProject(this.match, seat, [...new Set(this.declared[seat] ?? [])]);
    }
  }

  baloot(index, item) {
    const seat = seatOf(item.seat);
    if (this.st.balootSeat !== seat) {
      throw this.reject(index, `the engine has announced no Baloot of ${item.seat}'s (King and Queen of trump in consecutive tricks)`);
    }
  }

  // the play

  play(index, item) {
    const st = this.st;
    if (st.phase === "playing") this.closeWindow();
    const seat = seatOf(item.seat);
    if (st.phase === "playing") this.flushDeclaration(seat);
    const card = cardOf(item.card);
    this.call(index, `the engine refuses ${item.seat} ${item.card}`, () => this.E.playCard(this.match, seat, card));
    this.plays += 1;
  }

  sawa(index, item) {
    if (this.st.phase === "playing") this.closeWindow();
    this.talk = this.call(index, `the engine refuses ${item.seat}'s Sawa`, () =>
      this.E.claimSawa(this.match, seatOf(item.seat)),
    );
  }

  foul(index, item) {
    const type = (item.words ?? []).find((w) => w in this.E.VIOLATION_NAMES && w !== "sawa");
    this.talk = this.call(index, `the engine refuses ${item.seat}'s foul call`, () =>
      this.E.claimQaid(this.match, seatOf(item.seat), type),
    );
  }
}

/** The engine's bid action for a bid line, or why it has none. */
function bidAction(st, item) {
  const args = item.args ?? [];
  if (item.call === "hokum") {
    if (args.length > 1 || (args.length && !SUITS[args[0]])) return `the engine has no call ${callText(item)}`;
    if (st.bidding.round === 1) {
      if (args.length && SUITS[args[0]] !== st.topCard.suit) {
        return "the engine's first-round Hokum is in the face-up card's suit";
      }
      return { type: "hokum" };
    }
    // 'hokum' alone is a Hokum in the face-up suit, which the engine refuses in round 2 (its
    // {type: "hokum"} with no suit, a Hokum with no trump, is no call the notation writes).
    return { type: "hokum", suit: args.length ? SUITS[args[0]] : st.topCard.suit };
  }
  if (args.length || !["pass", "sun", "ashkal"].includes(item.call)) return `the engine has no call ${callText(item)}`;
  return { type: item.call };
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
        name: "mohamed352/bloot assets/web_game/js/engine",
        version: ENGINE_COMMIT,
        language: "JavaScript",
        homepage: "https://github.com/mohamed352/bloot",
      },
      rulesets: this.options.rulesets,
      capabilities: ["replay", "legal", "claims", "judge"],
    };
  }

  /** Accept the transcript, or throw Rejected at the first event the engine refuses. */
  replay({ transcript }) {
    this.replayHands(transcript.hands);
  }

  /** Replay every hand; returns the last hand's run. */
  replayHands(hands, extra = null) {
    let table = new Table(this.E, this.options);
    let run = null;
    for (const [h, hand] of hands.entries()) {
      const items = [...(hand.items ?? [])];
      if (extra && h === hands.length - 1) items.push(extra);
      if (items.some((i) => i.claim === "contract")) {
        throw new Unsupported(`hand ${hand.hand} logs no auction: the engine cannot start a hand from a contract`);
      }
      run = new HandRun(table, hand.hand, items);
      for (const { index, item } of events({ items })) run.event(index, item);
      if (!run.started && run.dealer !== null && run.faceup !== null) run.startHand(items.length);
      table = run.table;
    }
    return run;
  }

  /** The calls the engine accepts from `seat` now, tried one by one on a copy of the match. */
  probe(run, seat, candidates, apply) {
    const accepted = [];
    for (const [word, action] of candidates) {
      const copy = structuredClone(run.match);
      try {
        apply(copy, seat, action);
        accepted.push(word);
      } catch {
        // refused
      }
    }
    return accepted;
  }

  legal({ transcript, seat: seatName }) {
    const run = this.replayHands(transcript.hands);
    const seat = seatOf(seatName);
    if (run === null || !run.started) return { calls: [], cards: [] };
    const E = this.E;
    const st = run.st;
    if (st.phase === "bidding") {
      const round = st.bidding.round;
      const candidates = [["pass", { type: "pass" }], ["sun", { type: "sun" }], ["ashkal", { type: "ashkal" }]];
      if (round === 1) candidates.push(["hokum", { type: "hokum" }]);
      else for (const [letter, suit] of Object.entries(SUITS)) candidates.push([`hokum ${letter}`, { type: "hokum", suit }]);
      const calls = this.probe(run, seat, candidates, (m, s, a) => E.applyBid(m, s, a, () => 0.5));
      return { calls, cards: [] };
    }
    if (st.phase !== "playing") return { calls: [], cards: [] };
    let calls = [];
    if (!st.awaitingDouble && !run.windowOpened && run.plays === 0) calls = ["pass"]; // no window: a pass is no call
    if (st.awaitingDouble) {
      const word = LEVEL_WORDS[st.doubling.nextLevel];
      const candidates = [["pass", { type: "pass" }], [word, { type: "double" }]];
      calls = this.probe(run, seat, candidates, (m, s, a) => E.applyDouble(m, s, a));
    }
    run.closeWindow(); // the cards as the first card finds them
    if (st.turn !== seat) return { calls, cards: [] };
    const strict = (st.doubleLevel || 1) >= 2;
    const cards = E.legalMoves(st.hands[seat], st.currentTrick, st.mode, st.trump, seat, strict).map(codeOf);
    return { calls, cards };
  }

  judge({ transcript, event }) {
    if (event?.event !== "sawa" && event?.event !== "foul") return { error: "only a Sawa or a foul call is judged" };
    const run = this.replayHands(transcript.hands, event);
    const talk = run.talk ?? [];
    if (event.event === "sawa") {
      const claimed = talk.find((e) => e.type === "sawaClaimed");
      return { verdict: claimed.valid ? "right" : "wrong", reason: `the engine's sawaGuaranteed says ${claimed.valid}` };
    }
    const qc = run.st.result.qatClaim;
    const held = qc.violCard ? ` (${codeOf(qc.violCard)} by ${SEATS[qc.violSeat]}, proved by ${codeOf(qc.provedBy)})` : "";
    return {
      verdict: qc.failed ? "wrong" : "right",
      reason: qc.failed ? "the engine holds no proved foul of the other side's of that type" : `the engine holds the foul ${qc.type}${held}`,
    };
  }

  claims({ transcript }) {
    const hands = transcript.hands;
    if (!hands.length) return [];
    const run = this.replayHands(hands);
    if (run === null || !run.started) return [];
    const match = run.match;
    const st = run.st;
    const pair = (name, values) => ({ claim: name, NS: values[0], EW: values[1] });
    const total = pair("total", match.totals);
    if (run.redealt) return [{ claim: "contract", buyer: null }, pair("score", [0, 0]), total];
    const result = st.result;
    if (!result) throw new Unsupported("the last hand is not over");
    const claims = [];
    const contract = { claim: "contract", buyer: SEATS[st.buyer], kind: st.mode };
    if (st.mode === "hokum" && st.trump) contract.trump = SUIT_LETTERS[st.trump];
    if ((st.doubleLevel || 1) > 1) contract.multiplier = st.doubleLevel;
    claims.push(contract);
    const played = Math.floor(run.plays / 4); // the tricks the transcript played (not a Sawa's)
    st.trickHistory.slice(0, played).forEach((trick, i) => {
      claims.push({ claim: "trick", trick: i + 1, winner: SEATS[trick.winner], points: trick.pts });
    });
    const buyerTeam = st.buyer % 2;
    const qc = result.qatClaim;
    if (qc) {
      // A hand a claim ended: the engine's pts, trickWins and buyerLost are placeholders.
      const winTeam = qc.winTeam ?? 1 - (qc.claimSeat % 2);
      claims.push(pair("projectscore", result.projQaid));
      claims.push({ claim: "result", outcome: winTeam === buyerTeam ? "made" : "failed" });
    } else {
      claims.push(pair("abnat", result.pts));
      claims.push(pair("projectscore", result.projQaid));
      claims.push({ claim: "result", outcome: result.buyerLost ? "failed" : "made" });
      if (result.capotTeam !== null && result.capotTeam !== undefined) {
        claims.push({ claim: "kaboot", team: result.capotTeam === 0 ? "NS" : "EW" });
      }
    }
    claims.push(pair("score", result.qaid));
    claims.push(total);
    if (match.matchOver && match.winnerTeam !== null) {
      claims.push({ claim: "winner", team: match.winnerTeam === 0 ? "NS" : "EW" });
    }
    return claims;
  }
}

// --- the loop (the kit's) --------------------------------------------------------------------

const USAGE = "usage: node bloot352_adapter.mjs --engine-dir CHECKOUT [--rulesets ID,...] [--safe-mode on|off]";

function options() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        "engine-dir": { type: "string" },
        rulesets: { type: "string", default: "bloot352" },
        "safe-mode": { type: "string", default: "off" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    console.error(`bloot352_adapter: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.error(USAGE);
    process.exit(0);
  }
  if (values["safe-mode"] !== "on" && values["safe-mode"] !== "off") {
    console.error(`--safe-mode takes on or off, not ${values["safe-mode"]}`);
    process.exit(2);
  }
  const engineDir = values["engine-dir"] ?? process.env.BLOOT352_ENGINE_DIR;
  if (!engineDir) {
    console.error("bloot352_adapter: --engine-dir (or BLOOT352_ENGINE_DIR) is required: a checkout of mohamed352/bloot");
    process.exit(2);
  }
  return { engineDir, rulesets: values.rulesets.split(",").filter(Boolean), safeMode: values["safe-mode"] === "on" };
}

serve(async () => {
  const args = options();
  const index = join(resolve(args.engineDir), "assets", "web_game", "js", "engine", "index.js");
  if (!existsSync(index)) {
    console.error(`bloot352_adapter: ${args.engineDir}: not a checkout of mohamed352/bloot (no assets/web_game/js/engine/index.js)`);
    process.exit(2);
  }
  return new Adapter(await import(pathToFileURL(index).href), args);
});
