// Building a transcript from an engine's game loop: call one method per thing that happens
// at the table (an event) and per thing the engine computes (a claim), then write the
// canonical BTN text (`toString()`, the text `baloot-conformance fmt` prints) or take the JSON
// form (`toJSON()`, what `baloot-conformance convert --to json` gives).
//
//   const game = new TranscriptBuilder({ ruleset: "saudi@1", tags: { Engine: "my-engine 1.0" } });
//   const hand = game.hand(1);
//   hand.dealer("E").deal("N", ["8S", "TS", "8H", "9H", "7C"]) ... .faceup("QS");
//   hand.bid("N", "hokum").bid("W", "pass") ... .contract("N", "hokum", "S");
//   hand.play("N", "TS").play("W", "KS").play("S", "AS").play("E", "JS").trick(1, "E");
//   hand.score(0, 23).total(0, 23);
//   process.stdout.write(game.toString());
//
// Every method returns the builder, so calls chain; `note(text)` puts an end-of-line comment on
// the item added last. The builder keeps items as given and checks them when it writes
// (formatTranscript): a seat, card or word the notation does not have is an error there.
import { TEAM_CLAIMS, formatHand, formatTranscript } from "./writer.js";

function teamItem(base, ns, ew) {
  const item = { ...base };
  if (ns !== undefined && ns !== null) item.NS = ns;
  if (ew !== undefined && ew !== null) item.EW = ew;
  return item;
}

/** One hand being built: its items, in order. */
export class HandBuilder {
  constructor(number, comment) {
    this.number = number;
    this.comment = comment;
    this.items = [];
  }

  /** Add an item in its JSON form as it is ({event: ...}, {claim: ...} or {comment: ...}). */
  add(item) {
    this.items.push(item);
    return this;
  }

  /** An end-of-line comment on the item added last. */
  note(text) {
    const last = this.items[this.items.length - 1];
    if (last === undefined) throw new Error(`hand ${this.number}: no item to put a comment on`);
    last.comment = text;
    return this;
  }

  /** A comment on a line of its own. */
  line(text) {
    return this.add({ comment: text });
  }

  // events

  /** `start NS x EW y`: the running totals before this hand. */
  start(ns, ew) {
    return this.add(teamItem({ event: "start" }, ns, ew));
  }

  dealer(seat) {
    return this.add({ event: "dealer", seat });
  }

  /** `deal N c1 ... c5`: a seat's first five cards. */
  deal(seat, cards) {
    return this.add({ event: "deal", seat, cards: [...cards] });
  }

  faceup(card) {
    return this.add({ event: "faceup", card });
  }

  /** `bid N word args...`: a call of the auction ("pass", "hokum", "hokum", "S", "sun"). */
  bid(seat, call, ...args) {
    const item = { event: "bid", seat, call };
    if (args.length) item.args = args;
    return this.add(item);
  }

  /** `raise E word args...`: a call of the doubling window ("double", "closed"; "pass"). */
  raise(seat, call, ...args) {
    const item = { event: "raise", seat, call };
    if (args.length) item.args = args;
    return this.add(item);
  }

  /** `rest N ...`: the cards that complete a seat's hand after the auction. */
  rest(seat, cards) {
    return this.add({ event: "rest", seat, cards: [...cards] });
  }

  /** `hold N ...`: a seat's eight cards (for an engine that logs only that). */
  hold(seat, cards) {
    return this.add({ event: "hold", seat, cards: [...cards] });
  }

  /** `declare W sira AD KD QD`: a project declared, with its cards if given. */
  declare(seat, project, cards = []) {
    const item = { event: "declare", seat, project };
    if (cards.length) item.cards = [...cards];
    return this.add(item);
  }

  /** `baloot N`: the King and Queen of trump announced, with the cards if given. */
  baloot(seat, cards = []) {
    const item = { event: "baloot", seat };
    if (cards.length) item.cards = [...cards];
    return this.add(item);
  }

  /** A card played; four plays in a row are written as one `trick N:` line. */
  play(seat, card) {
    return this.add({ event: "play", seat, card });
  }

  /** `foul W t2.p2 words...`: a foul call on an earlier card ("-" for none). */
  foul(seat, target, ...words) {
    const item = { event: "foul", seat, target };
    if (words.length) item.words = words;
    return this.add(item);
  }

  sawa(seat) {
    return this.add({ event: "sawa", seat });
  }

  kawesh(seat) {
    return this.add({ event: "kawesh", seat });
  }

  // claims

  /** `= contract N hokum S x2 closed`, or `= contract none` for a null buyer. */
  contract(buyer, kind, trump, { multiplier, lock } = {}) {
    if (buyer === null || buyer === undefined) return this.add({ claim: "contract", buyer: null });
    const item = { claim: "contract", buyer, kind };
    if (trump !== undefined && trump !== null) item.trump = trump;
    if (multiplier !== undefined && multiplier !== null) item.multiplier = multiplier;
    if (lock !== undefined && lock !== null) item.lock = lock;
    return this.add(item);
  }

  /** A trick's winner and, if given, its card points (joins the trick's line). */
  trick(number, winner, points) {
    const item = { claim: "trick", trick: number, winner };
    if (points !== undefined && points !== null) item.points = points;
    return this.add(item);
  }

  /** `= legal W KS QS`: the cards the engine offers the seat about to play. */
  legal(seat, cards) {
    return this.add({ claim: "legal", seat, cards: [...cards] });
  }

  /** `= NAME NS x EW y` for a per-team claim (abnat, aklat, projects, cardscore,
   * projectscore, score, total); a team given as null or undefined is left out. */
  team(name, ns, ew) {
    if (!TEAM_CLAIMS.includes(name)) throw new Error(`not a per-team claim: ${JSON.stringify(name)}`);
    return this.add(teamItem({ claim: name }, ns, ew));
  }

  abnat(ns, ew) {
    return this.team("abnat", ns, ew);
  }

  aklat(ns, ew) {
    return this.team("aklat", ns, ew);
  }

  projects(ns, ew) {
    return this.team("projects", ns, ew);
  }

  cardscore(ns, ew) {
    return this.team("cardscore", ns, ew);
  }

  projectscore(ns, ew) {
    return this.team("projectscore", ns, ew);
  }

  score(ns, ew) {
    return this.team("score", ns, ew);
  }

  total(ns, ew) {
    return this.team("total", ns, ew);
  }

  /** `= result made` (or failed, tie). */
  result(outcome) {
    return this.add({ claim: "result", outcome });
  }

  kaboot(team) {
    return this.add({ claim: "kaboot", team });
  }

  winner(team) {
    return this.add({ claim: "winner", team });
  }

  /** `= sawa right`, `= foul wrong`: the engine's verdict on the latest such call. */
  verdict(call, verdict) {
    return this.add({ claim: call, verdict });
  }

  /** The hand in its JSON form. */
  toJSON() {
    const out = { hand: this.number };
    if (this.comment !== undefined) out.comment = this.comment;
    out.items = this.items.map((item) => ({ ...item }));
    return out;
  }

  /** The hand as canonical BTN text (its blank line, `hand N`, its lines). */
  toString() {
    return formatHand(this.toJSON());
  }
}

/** A transcript being built: the header, then hands. */
export class TranscriptBuilder {
  /** `ruleset` is the Ruleset tag's value ("saudi@1", a profile id); `tags` the other header
   * tags in order ({Engine: "...", Date: "..."}); `metadataText` a fixture's YAML block. */
  constructor({ ruleset = "saudi@1", tags = {}, version = "1", metadataText } = {}) {
    this.version = version;
    this.metadataText = metadataText;
    this.header = [{ tag: "Ruleset", value: ruleset }];
    for (const [tag, value] of Object.entries(tags)) this.header.push({ tag, value: String(value) });
    this.hands = [];
  }

  /** Another header tag, after those given. */
  tag(name, value) {
    this.header.push({ tag: name, value: String(value) });
    return this;
  }

  /** A header comment line. */
  headerComment(text) {
    this.header.push({ comment: text });
    return this;
  }

  /** Start hand `number` (by default the next one) and return its builder. */
  hand(number = this.hands.length ? this.hands[this.hands.length - 1].number + 1 : 1, comment) {
    const hand = new HandBuilder(number, comment);
    this.hands.push(hand);
    return hand;
  }

  /** The transcript in its JSON form (spec/schema/btn.schema.json). */
  toJSON() {
    const out = { btn: this.version };
    if (this.metadataText !== undefined) out.metadataText = this.metadataText;
    out.header = this.header.map((entry) => ({ ...entry }));
    out.hands = this.hands.map((hand) => hand.toJSON());
    return out;
  }

  /** The transcript as canonical BTN text. */
  toString() {
    return formatTranscript(this.toJSON());
  }
}
