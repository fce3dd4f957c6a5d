// Reading the JSON form of BTN that every request carries (docs/btn.md, "The JSON form";
// spec/schema/btn.schema.json): a transcript is {btn, header, hands: [{hand, items}]}, each
// item an event ({event: "play", seat: "N", card: "TS"}), a claim ({claim: "contract", ...})
// or a comment ({comment: "..."}). The kit sends events only (and a hand's contract claim
// when it logs no auction), but these helpers read any transcript.
import { allCards, seatIndex } from "./cards.js";
import { Unsupported } from "./errors.js";

/** Whether an item is an event (it has `event`). */
export function isEvent(item) {
  return item !== null && typeof item === "object" && typeof item.event === "string";
}

/** Whether an item is a claim (it has `claim`). */
export function isClaim(item) {
  return item !== null && typeof item === "object" && typeof item.claim === "string";
}

/** A hand's events in order, each as {index, item}: `index` is the item's 0-based index in
 * the hand's `items`, the number a `replay` answer names (`Rejected`). A play also gets
 * `trick` (1-8) and `place` (1-4, its place in the trick), counted here from the plays
 * before it, as the notation groups plays into tricks of four. */
export function* events(hand) {
  let plays = 0;
  const items = hand?.items ?? [];
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index];
    if (!isEvent(item)) continue;
    if (item.event === "play") {
      yield { index, item, trick: Math.floor(plays / 4) + 1, place: (plays % 4) + 1 };
      plays += 1;
    } else {
      yield { index, item };
    }
  }
}

/** A hand's claims in order (the kit's requests hold none, but a hand that logs no auction). */
export function claims(hand) {
  return (hand?.items ?? []).filter(isClaim);
}

/** A hand's contract claim, or null: in a request, present only in a hand that logs no
 * auction (then it says what is played). */
export function contractClaim(hand) {
  return claims(hand).find((c) => c.claim === "contract") ?? null;
}

/** The last hand of a transcript (the one a `legal`, `claims` or `judge` request asks about),
 * or null when it has none. */
export function lastHand(transcript) {
  const hands = transcript?.hands ?? [];
  return hands.length ? hands[hands.length - 1] : null;
}

/** The running totals before a hand, from its `start` event ({NS, EW}, a team left out being
 * 0), or null when the hand has no `start` event. */
export function startTotals(hand) {
  for (const { item } of events(hand)) {
    if (item.event === "start") return { NS: item.NS ?? 0, EW: item.EW ?? 0 };
  }
  return null;
}

/** A call as the notation writes it after the seat: its word and arguments ("hokum S",
 * "double closed"), as a `legal` answer lists calls. */
export function callText(item) {
  return [item.call, ...(item.args ?? [])].join(" ");
}

/** Who holds what in a hand, as an engine's deal needs it: `dealer` (a seat index or null),
 * `faceup` (a code or null), `five` (each seat's first five cards), `rest` (the cards that
 * complete each seat's hand after the auction) and `receiver` (the index of the seat that
 * takes the face-up card, or null when the transcript does not tell). Arrays are indexed by
 * seat index (N 0, W 1, S 2, E 3).
 *
 * From `deal` and `rest` lines (the receiver is the seat with two `rest` cards), from `hold`
 * lines (the receiver holds the face-up card; its other cards are its five and its rest), or,
 * for a hand cut before its `rest` lines, from the cards each seat plays; cards nobody is
 * shown holding are then spread over the seats that lack some, in the order of `allCards()`,
 * so that every seat gets its eight. With `guessReceiver`, for an engine that must deal the
 * face-up card before the transcript says who takes it, an unknown receiver is the first seat
 * shown holding fewer than three `rest` cards (N when none is), and it gets two. Throws
 * Unsupported when the hand lacks its four `deal` (or `hold`) lines. */
export function dealtCards(hand, { guessReceiver = false } = {}) {
  let dealer = null;
  let faceup = null;
  const deals = [null, null, null, null];
  const holds = [null, null, null, null];
  const restLines = [];
  const plays = [];
  for (const { item } of events(hand)) {
    if (item.event === "dealer") dealer = seatIndex(item.seat);
    else if (item.event === "faceup") faceup = item.card;
    else if (item.event === "deal") deals[seatIndex(item.seat)] = [...item.cards];
    else if (item.event === "hold") holds[seatIndex(item.seat)] = [...item.cards];
    else if (item.event === "rest") restLines.push(item);
    else if (item.event === "play") plays.push(item);
  }
  const rest = [[], [], [], []];
  let receiver = null;
  let five;
  if (holds.some((h) => h !== null)) {
    if (holds.some((h) => h === null)) throw new Unsupported("four 'hold' lines are needed");
    five = holds.map((hold, seat) => {
      if (hold.includes(faceup)) receiver = seat;
      const own = hold.filter((c) => c !== faceup);
      rest[seat] = own.slice(5);
      return own.slice(0, 5);
    });
  } else {
    if (deals.some((d) => d === null)) throw new Unsupported("four 'deal' lines are needed");
    five = deals;
    for (const item of restLines) rest[seatIndex(item.seat)] = [...item.cards];
    if (restLines.length) {
      const two = rest.findIndex((r) => r.length === 2);
      receiver = two >= 0 ? two : null;
    } else {
      for (const item of plays) {
        const seat = seatIndex(item.seat);
        if (item.card === faceup) receiver = seat;
        else if (!five[seat].includes(item.card)) rest[seat].push(item.card);
      }
    }
  }
  if (receiver === null && guessReceiver) receiver = [0, 1, 2, 3].find((seat) => rest[seat].length < 3) ?? 0;
  const known = new Set([...five.flat(), ...rest.flat(), faceup]);
  const spare = allCards().filter((c) => !known.has(c));
  for (let seat = 0; seat < 4; seat += 1) {
    const wanted = seat === receiver ? 2 : 3;
    while (rest[seat].length < wanted && spare.length) rest[seat].push(spare.shift());
  }
  return { dealer, faceup, five, rest, receiver };
}
