// Seats, teams and cards as the notation writes them (docs/btn.md, "Seats, teams, cards").
//
// Seats are N W S E, and dealing, bidding and play go counter-clockwise, which in the
// notation is N -> W -> S -> E -> N: each seat's right-hand neighbour is the next one. The
// index of a seat in SEATS is its place in that order, which is how most engines number their
// seats (0-3, the turn passing from s to s + 1); teams are NS (indices 0 and 2) and EW.

/** The four seats in the order of play (each one's right-hand neighbour is the next). */
export const SEATS = Object.freeze(["N", "W", "S", "E"]);
/** The two teams; a seat's team is TEAMS[index % 2]. */
export const TEAMS = Object.freeze(["NS", "EW"]);
/** The ranks, lowest first as the pack lists them (T is the ten). */
export const RANKS = Object.freeze(["7", "8", "9", "T", "J", "Q", "K", "A"]);
/** The suits: spades, hearts, diamonds, clubs. */
export const SUITS = Object.freeze(["S", "H", "D", "C"]);

const CARD = /^[789TJQKA][SHDC]$/;
const SYMBOLS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

/** Whether `value` is a seat letter. */
export function isSeat(value) {
  return typeof value === "string" && SEATS.includes(value);
}

/** Whether `value` is a card code in canonical form ("TS", "7H"). */
export function isCard(value) {
  return typeof value === "string" && CARD.test(value);
}

/** The index of a seat (N 0, W 1, S 2, E 3); an error for anything else. */
export function seatIndex(seat) {
  const index = SEATS.indexOf(seat);
  if (index < 0) throw new TypeError(`not a seat: ${JSON.stringify(seat)} (seats are N W S E)`);
  return index;
}

/** The seat `steps` places after `seat` in the order of play (its right-hand neighbour for 1);
 * `seat` is a letter or an index, the answer is of the same kind. */
export function nextSeat(seat, steps = 1) {
  if (typeof seat === "number") return (((seat + steps) % 4) + 4) % 4;
  return SEATS[(((seatIndex(seat) + steps) % 4) + 4) % 4];
}

/** The partner of a seat (letter or index, answered in kind). */
export function partnerOf(seat) {
  return nextSeat(seat, 2);
}

/** The team of a seat ("NS" or "EW"). */
export function teamOf(seat) {
  return TEAMS[(typeof seat === "number" ? seat : seatIndex(seat)) % 2];
}

/** The rank letter of a card code ("T" for "TS"). */
export function rankOf(code) {
  return code[0];
}

/** The suit letter of a card code ("S" for "TS"). */
export function suitOf(code) {
  return code[1];
}

/** A card's canonical code from its rank and suit, taking "10" for the ten and the suit
 * symbols for the letters, as the notation's reader does: card("10", "♠") is "TS". */
export function card(rank, suit) {
  const r = String(rank) === "10" ? "T" : String(rank).toUpperCase();
  const s = SYMBOLS[suit] ?? String(suit).toUpperCase();
  const code = r + s;
  if (!CARD.test(code)) {
    throw new TypeError(`not a card: rank ${JSON.stringify(rank)}, suit ${JSON.stringify(suit)}`);
  }
  return code;
}

/** The 32 card codes, suit by suit (S H D C), each from 7 to A. */
export function allCards() {
  return SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
}

/** A random function (a stand-in for Math.random) whose draws make the common Fisher-Yates
 * shuffle, from the last card down (j = floor(random() * (i + 1)), then swap i and j), put
 * the cards of `pack` (codes, in the engine's own order) in the order `target` (codes, the
 * same cards): how an adapter deals a transcript's hand through an engine that shuffles its
 * own pack, without setting any hand behind its back. Draws after the shuffle's are 0.5. */
export function stackedRandom(pack, target) {
  const cards = [...pack];
  const draws = [];
  for (let i = cards.length - 1; i > 0; i -= 1) {
    const j = cards.indexOf(target[i]);
    if (j < 0 || j > i) throw new Error(`cannot stack ${target[i]}: not in the pack, or placed twice`);
    [cards[i], cards[j]] = [cards[j], cards[i]];
    draws.push((j + 0.5) / (i + 1));
  }
  let k = 0;
  return () => (k < draws.length ? draws[k++] : 0.5);
}
