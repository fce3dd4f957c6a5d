#!/usr/bin/env node
// An adapter for majlis-baloot's lib/baloot engine (TypeScript, MIT): the engine adapter
// protocol, version 1 (docs/protocol.md), on standard input and output (JSON Lines).
//
// Usage:
//   node majlis_adapter.mjs --engine-dir PATH/TO/majlis-baloot   (or MAJLIS_ENGINE_DIR=PATH)
//   node majlis_adapter.mjs --bundle majlis.mjs                  (a bundle made beforehand)
//
// With --engine-dir the engine's lib/baloot/engine.ts and rules.ts are bundled at start into
// one ES module in a temporary folder by esbuild (resolved from the checkout's node_modules,
// then from the current folder's, or an esbuild command on the PATH); nothing of the engine
// is copied here. Node 20 runs the bundle.
//
// The protocol loop, the reading of the transcript (events, who holds what) and the errors
// that answer a refusal or a skip are the kit's (clients/js, baloot-adapter-kit): what is here
// is the glue between the notation and the engine.
//
// Every request is answered by replaying the transcript's events through the engine's pure
// reducer (applyGameAction) and reading the engine's own answers: its RuleViolation
// refusals, legalBids / legalDoubleCalls / legalCards, its tricks and its RoundResult.
//
// How BTN maps to the engine:
// - seats N W S E are the engine's seats 0-3 (play passes from s to s + 1); team NS is 0;
// - cards TH are ids "hearts-10";
// - calls are the engine's words: hokom is written hokum (round 1 without its suit, round 2
//   with it), confirm_hokom is confirm_hokum (listed with the Hokum's suit); the words are
//   read as the majlis profile's aliases read them (confirm_hokum is hokum, confirm_sun is
//   sun): the pending Hokum's bidder confirms with either word, and a confirm_sun said
//   outside the confirmation is a Sun bid; the raise gahwa is the engine's coffee;
//   "raise S double closed" is the engine's double with locked: true;
// - the deal: the engine's startMatch is given a pack stacked to deal, 3 then 2 from the
//   dealer's right, the transcript's first five cards, the face-up card and, at the close of
//   the auction, the transcript's rest cards; each hand is dealt that way, from the dealer
//   and the scores the engine carries over (a match the engine ended starts a new one);
// - the doubling window: the engine asks for an explicit pass; when the transcript goes on to
//   the play with the window open, the adapter passes for the seat whose turn it is;
// - projects are the engine's own (it declares them): a declare line is refused; a baloot
//   line is accepted after the second of the King and Queen of trump of a seat that held both;
// - foul lines are ignored.
//
// Not supported: hands that log no auction (the engine cannot start a hand from a contract).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Rejected, Unsupported, SEATS, allCards, callText, dealtCards, events, importTypeScript, serve } from "../../clients/js/index.js";

const ENGINE_COMMIT = "4bb936fd20b7";
const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_LETTERS = Object.fromEntries(Object.entries(SUITS).map(([l, s]) => [s, l]));
const RANKS = { 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_LETTERS = Object.fromEntries(Object.entries(RANKS).map(([l, r]) => [r, l]));
const RAISES = { pass: "pass", double: "double", triple: "triple", four: "four", gahwa: "coffee" };
const RAISE_WORDS = Object.fromEntries(Object.entries(RAISES).map(([w, c]) => [c, w]));

/** The engine's card id of a notation card ("TH" -> "hearts-10"). */
const cardId = (code) => `${SUITS[code[1]]}-${RANKS[code[0]]}`;
/** The notation's code of an engine card. */
const codeOf = (card) => RANK_LETTERS[card.rank] + SUIT_LETTERS[card.suit];
const seatOf = (name) => SEATS.indexOf(name);
const next = (seat, steps = 1) => (seat + steps) % 4;

// --- loading the engine ----------------------------------------------------------------------

const USAGE = "usage: node majlis_adapter.mjs (--engine-dir CHECKOUT | --bundle FILE)";

/** The engine's module: the bundle given, or lib/baloot/engine.ts and rules.ts of the
 * checkout bundled now. */
async function loadEngine() {
  let values;
  try {
    ({ values } = parseArgs({ options: { "engine-dir": { type: "string" }, bundle: { type: "string" }, help: { type: "boolean", short: "h" } } }));
  } catch (error) {
    console.error(`majlis_adapter: ${error.message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.error(USAGE);
    process.exit(0);
  }
  const bundle = values.bundle ?? process.env.MAJLIS_BUNDLE;
  if (bundle) return import(pathToFileURL(resolve(bundle)).href);
  const engineDir = values["engine-dir"] ?? process.env.MAJLIS_ENGINE_DIR;
  if (!engineDir) {
    console.error("majlis_adapter: --engine-dir (or MAJLIS_ENGINE_DIR) or --bundle is required");
    process.exit(2);
  }
  const lib = join(resolve(engineDir), "lib", "baloot");
  if (!existsSync(join(lib, "engine.ts"))) {
    throw new Error(`${engineDir}: not a checkout of majlis-baloot (no lib/baloot/engine.ts)`);
  }
  const entry = ["engine.ts", "rules.ts"].map((f) => `export * from ${JSON.stringify(join(lib, f))};\n`).join("");
  return importTypeScript(entry, { resolveDir: lib, searchFrom: [resolve(engineDir), process.cwd()] });
}

// --- one transcript, replayed ----------------------------------------------------------------

/** The engine's game state between hands, with what the adapter tracks beside it. */
function newTable(E, totals = [0, 0]) {
  return { E, state: null, totals: [...totals], fresh: true };
}

class HandRun {
  constructor(E, table, number, items) {
    this.E = E;
    this.table = table;
    this.number = number;
    this.items = items;
    this.dealer = null;
    this.faceup = null;
    this.started = false;
  }

  reject(index, reason) {
    return new Rejected(this.number, index, reason);
  }

  get state() {
    return this.table.state;
  }

  apply(seat, action, index, what) {
    try {
      this.table.state = this.E.applyGameAction(this.table.state, seat, action);
    } catch (error) {
      throw this.reject(index, `${what} (the engine: ${error.message})`);
    }
  }

  event(index, item) {
    const kind = item.event;
    if (kind === "start") {
      if (this.started || this.dealer !== null) throw this.reject(index, "'start' comes first");
      this.table = newTable(this.E, [item.NS ?? 0, item.EW ?? 0]);
      return;
    }
    if (kind === "dealer") {
      const seat = seatOf(item.seat);
      const expected = this.expectedDealer();
      if (expected !== null && expected !== seat) {
        throw this.reject(index, `the engine deals this hand from ${SEATS[expected]}, not ${item.seat}`);
      }
      this.dealer = seat;
      return;
    }
    if (kind === "deal" || kind === "hold") return; // read by dealtCards at the deal
    if (kind === "faceup") {
      this.faceup = item.card;
      return;
    }
    if (!this.started) this.startHand(index);
    if (kind === "bid") this.bid(index, item);
    else if (kind === "rest") this.rest(index, item);
    else if (kind === "raise") this.raise(index, item);
    else if (kind === "declare") {
      throw this.reject(index, "the engine declares every player's projects itself");
    } else if (kind === "baloot") this.baloot(index, item);
    else if (kind === "play") this.play(index, item);
    else if (kind === "foul") return;
    else throw this.reject(index, `the engine has no counterpart for a '${kind}' line`);
  }

  /** The dealer the engine deals this hand from, or null when the transcript chooses. */
  expectedDealer() {
    const state = this.table.state;
    if (state === null || this.table.fresh) return null;
    // after a played hand the engine's next_round deals from the next seat; after an
    // all-pass it has already dealt again, from the next seat
    return state.phase === "round_end" ? next(state.dealer) : state.dealer;
  }

  // the deal

  startHand(index) {
    if (this.dealer === null || this.faceup === null) {
      throw this.reject(index, "the hand needs its 'dealer' and 'faceup' lines before the auction");
    }
    const { five, rest, receiver } = dealtCards({ hand: this.number, items: this.items });
    const order = [next(this.dealer), next(this.dealer, 2), next(this.dealer, 3), this.dealer];
    const pack = [];
    for (const seat of order) pack.push(...five[seat].slice(0, 3));
    for (const seat of order) pack.push(...five[seat].slice(3, 5));
    pack.push(this.faceup);
    for (const seat of order) pack.push(...rest[seat].slice(0, seat === receiver ? 2 : 3));
    const known = new Set(pack);
    for (const code of allCards()) if (!known.has(code)) pack.push(code);
    const deck = pack.map((code) => ({ id: cardId(code), rank: RANKS[code[0]], suit: SUITS[code[1]] }));
    const previous = this.table.state;
    if (previous && !this.table.fresh && previous.phase === "round_end") {
      // the engine's own move to the next hand (its new pack is replaced below)
      this.table.state = this.E.applyGameAction(previous, previous.currentPlayer, { type: "next_round" });
    }
    const carried = this.table.state;
    let state;
    try {
      state = this.E.startMatch(this.dealer, deck);
    } catch (error) {
      throw this.reject(index, `the engine cannot deal this hand: ${error.message}`);
    }
    if (carried && !this.table.fresh) {
      if (carried.dealer !== this.dealer) {
        throw this.reject(index, `the engine deals this hand from ${SEATS[carried.dealer]}`);
      }
      state.matchScores = [...carried.matchScores];
      state.roundNumber = carried.roundNumber;
    } else {
      state.matchScores = [...this.table.totals];
    }
    this.table.state = state;
    this.table.fresh = false;
    this.started = true;
    this.receiver = receiver;
  }

  // the auction

  bid(index, item) {
    const state = this.state;
    const seat = seatOf(item.seat);
    if (state.phase !== "bidding") {
      throw this.reject(index, `the auction is over (the engine is in its ${state.phase} phase)`);
    }
    const action = bidAction(state, seat, item);
    if (action === null) throw this.reject(index, `the engine has no call ${JSON.stringify(item.call)}`);
    if (state.auction.turn !== seat) {
      throw this.reject(index, `it is ${SEATS[state.auction.turn]}'s call, not ${item.seat}'s`);
    }
    const round = state.roundNumber;
    this.apply(seat, action, index, `the engine refuses ${item.seat} ${callText(item)}`);
    if (this.state.roundNumber !== round) this.table.redealt = true; // all passed: dealt again
  }

  rest(index, item) {
    const state = this.state;
    if (state.phase === "bidding") {
      throw this.reject(index, `the auction is not over: it is ${SEATS[state.auction.turn]}'s call`);
    }
    if (!this.restChecked) {
      this.restChecked = true;
      const receiver = state.contract?.receiver;
      if (this.receiver !== null && receiver !== undefined && receiver !== this.receiver) {
        throw this.reject(
          index,
          `the engine gives the face-up card to ${SEATS[receiver]}, not ${SEATS[this.receiver]}`,
        );
      }
    }
    const seat = seatOf(item.seat);
    const held = new Set(this.heldBy(seat));
    const missing = item.cards.filter((c) => !held.has(c));
    if (missing.length) {
      throw this.reject(index, `the engine did not deal ${missing.join(" ")} to ${item.seat}`);
    }
  }

  /** The cards a seat holds or has played this hand, as the engine has them. */
  heldBy(seat) {
    const state = this.state;
    const played = [...state.completedTricks, state.currentTrick]
      .flatMap((trick) => trick.plays)
      .filter((play) => play.seat === seat)
      .map((play) => codeOf(play.card));
    return [...state.hands[seat].map(codeOf), ...played];
  }

  // the raises

  raise(index, item) {
    const state = this.state;
    const seat = seatOf(item.seat);
    if (state.phase !== "doubling") {
      throw this.reject(index, `the engine's doubling window is not open (it is in its ${state.phase} phase)`);
    }
    const args = item.args ?? [];
    if (item.call === "closed" || item.call === "open") {
      throw this.reject(index, "the engine takes the lock with the double or the four, not on its own");
    }
    const call = RAISES[item.call];
    if (call === undefined || args.some((a) => a !== "closed" && a !== "open")) {
      throw this.reject(index, `the engine has no raise ${callText(item)}`);
    }
    const action = { type: "double", call };
    if (args.length) action.locked = args.includes("closed");
    if (state.doubling && state.doubling.turn !== seat) {
      throw this.reject(index, `the engine asks ${SEATS[state.doubling.turn]} first in its doubling window`);
    }
    this.apply(seat, action, index, `the engine refuses ${item.seat} ${callText(item)}`);
  }

  /** Close an open doubling window as the table does when nobody raises: pass for each
   * seat whose turn it is. */
  closeWindow() {
    for (let guard = 0; guard < 8 && this.state.phase === "doubling"; guard += 1) {
      this.table.state = this.E.applyGameAction(this.state, this.state.currentPlayer, {
        type: "double",
        call: "pass",
      });
    }
  }

  // the play

  baloot(index, item) {
    const state = this.state;
    const seat = seatOf(item.seat);
    const trump = state.contract?.trump;
    if (!trump) throw this.reject(index, "Baloot exists in Hokum only");
    const royals = [`K${SUIT_LETTERS[trump]}`, `Q${SUIT_LETTERS[trump]}`];
    const plays = [...state.completedTricks, state.currentTrick].flatMap((trick) => trick.plays);
    const last = plays.at(-1);
    const mine = plays.filter((p) => p.seat === seat).map((p) => codeOf(p.card));
    const finished = state.phase === "round_end" || state.phase === "match_end";
    const both = royals.every((c) => mine.includes(c));
    if (!both) throw this.reject(index, `${item.seat} did not hold ${royals.join(" ")}`);
    if (finished) return;
    if (!last || last.seat !== seat || !royals.includes(codeOf(last.card))) {
      throw this.reject(index, "Baloot is told with the second of the King and Queen of trump");
    }
  }

  play(index, item) {
    if (this.state.phase === "doubling") this.closeWindow();
    const state = this.state;
    const seat = seatOf(item.seat);
    if (state.phase !== "playing") {
      const why = state.phase === "bidding" ? `the auction is not over: it is ${SEATS[state.auction.turn]}'s call` : `the engine is in its ${state.phase} phase`;
      throw this.reject(index, `no card may be played now (${why})`);
    }
    if (state.currentPlayer !== seat) {
      throw this.reject(index, `it is ${SEATS[state.currentPlayer]}'s turn, not ${item.seat}'s`);
    }
    const hand = state.hands[seat].map(codeOf);
    if (!hand.includes(item.card)) {
      throw this.reject(index, `${item.seat} does not hold ${item.card} (holds ${hand.join(" ")})`);
    }
    const legal = this.E.legalCards(state, seat).map(codeOf);
    if (!legal.includes(item.card)) {
      throw this.reject(index, `the engine does not allow ${item.card}: it allows ${legal.join(" ")}`);
    }
    this.apply(seat, { type: "play_card", cardId: cardId(item.card) }, index, "the engine refuses it");
  }
}

/** The engine's bid action for a bid line, or null for a call it has no word for. The
 * notation's words are read as the majlis profile reads them (confirm_hokum is hokum,
 * confirm_sun is sun); the pending Hokum's bidder confirms with hokum or switches with sun. */
function bidAction(state, seat, item) {
  const args = item.args ?? [];
  const auction = state.auction;
  const word = { confirm_hokum: "hokum", confirm_sun: "sun" }[item.call] ?? item.call;
  const confirming = auction.confirming && auction.pendingHokom?.bidder === seat;
  if (word === "hokum") {
    const suit = args.length ? SUITS[args[0]] : undefined;
    if (args.length > 1 || (args.length && !suit)) return null;
    if (confirming) {
      if (suit && suit !== auction.pendingHokom.suit) return null;
      return { type: "bid", call: "confirm_hokom" };
    }
    return { type: "bid", call: "hokom", suit: suit ?? state.faceUpCard.suit };
  }
  if (args.length || !["pass", "sun", "ashkal"].includes(word)) return null;
  if (word === "sun" && confirming) return { type: "bid", call: "confirm_sun" };
  return { type: "bid", call: word };
}

// --- the requests ----------------------------------------------------------------------------

class Adapter {
  constructor(E) {
    this.E = E;
  }

  get started() {
    return {
      engine: {
        name: "majlis-baloot lib/baloot",
        version: ENGINE_COMMIT,
        language: "TypeScript",
        homepage: "https://github.com/Motl1234/majlis-baloot",
      },
      rulesets: ["majlis"],
      capabilities: ["replay", "legal", "claims"],
    };
  }

  /** Accept the transcript, or throw Rejected at the first event the engine refuses. */
  replay({ transcript }) {
    this.replayHands(transcript.hands);
  }

  /** Replay every hand; returns the table and the last hand's run. */
  replayHands(hands) {
    let table = newTable(this.E);
    let run = null;
    for (const hand of hands) {
      const items = hand.items ?? [];
      if (items.some((i) => i.claim === "contract")) {
        throw new Unsupported(`hand ${hand.hand} logs no auction: the engine cannot start a hand from a contract`);
      }
      if (table.state && table.state.phase === "match_end") table = newTable(this.E);
      run = new HandRun(this.E, table, hand.hand, items);
      for (const { index, item } of events(hand)) run.event(index, item);
      if (!run.started && run.dealer !== null && run.faceup !== null) run.startHand(items.length);
      table = run.table;
    }
    return { table, run };
  }

  legal({ transcript, seat: seatName }) {
    const { run } = this.replayHands(transcript.hands);
    const seat = seatOf(seatName);
    if (run === null || run.state === null) return { calls: [], cards: [] };
    const state = run.state;
    const E = this.E;
    let calls = [];
    if (state.phase === "bidding") {
      const auction = state.auction;
      calls = E.legalBids(state, seat).map((bid) => {
        if (bid.call === "hokom") {
          return auction.round === 1 ? "hokum" : `hokum ${SUIT_LETTERS[bid.suit]}`;
        }
        if (bid.call === "confirm_hokom") {
          return `confirm_hokum ${SUIT_LETTERS[auction.pendingHokom.suit]}`;
        }
        return bid.call;
      });
    } else if (state.phase === "doubling") {
      calls = E.legalDoubleCalls(state, seat).map((call) => RAISE_WORDS[call] ?? call);
    }
    run.closeWindow(); // the cards as the first card finds them
    const cards = run.state.phase === "playing" ? E.legalCards(run.state, seat).map(codeOf) : [];
    return { calls, cards };
  }

  claims({ transcript }) {
    const hands = transcript.hands;
    if (!hands.length) return [];
    const { run } = this.replayHands(hands);
    const state = run?.state;
    if (!state) return [];
    const plays = (hands.at(-1).items ?? []).filter((i) => i.event === "play").length;
    const total = { claim: "total", NS: state.matchScores[0], EW: state.matchScores[1] };
    if (plays === 0) {
      return [{ claim: "contract", buyer: null }, { claim: "score", NS: 0, EW: 0 }, total];
    }
    const result = state.roundResult;
    const contract = state.contract;
    if (!result || !contract) throw new Unsupported("the last hand is not played out");
    const claims = [];
    const claim = { claim: "contract", buyer: SEATS[contract.bidder] };
    claim.kind = contract.kind === "hokom" ? "hokum" : "sun";
    if (contract.trump) claim.trump = SUIT_LETTERS[contract.trump];
    if (contract.multiplier > 1) {
      claim.multiplier = contract.multiplier;
      if (contract.kind === "hokom") claim.lock = contract.locked ? "closed" : "open";
    }
    claims.push(claim);
    state.completedTricks.forEach((trick, i) => {
      claims.push({
        claim: "trick",
        trick: i + 1,
        winner: SEATS[trick.winner],
        points: this.E.trickRawValue(trick, contract),
      });
    });
    const pair = (name, values) => ({ claim: name, NS: values[0], EW: values[1] });
    claims.push(pair("abnat", result.cardRawPoints));
    claims.push(pair("cardscore", result.cardGamePoints));
    const projects = state.projects;
    if (projects) {
      const points = [...projects.gamePoints];
      for (const project of projects.counted) {
        if (project.kind === "baloot") points[project.team] -= project.gamePoints;
      }
      claims.push(pair("projectscore", points));
    }
    claims.push({ claim: "result", outcome: result.contractMade ? "made" : "failed" });
    if (result.kaboot !== null && result.kaboot !== undefined) {
      claims.push({ claim: "kaboot", team: result.kaboot === 0 ? "NS" : "EW" });
    }
    claims.push(pair("score", result.roundPoints));
    claims.push(total);
    if (result.matchWinner !== null && result.matchWinner !== undefined) {
      claims.push({ claim: "winner", team: result.matchWinner === 0 ? "NS" : "EW" });
    }
    return claims;
  }
}

// --- the loop (the kit's) --------------------------------------------------------------------

serve(async () => new Adapter(await loadEngine()));
