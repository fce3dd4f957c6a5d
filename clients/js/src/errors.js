// The two ways a handler says that it cannot give a normal answer, which the protocol loop
// (serve) turns into the protocol's answers (docs/protocol.md, "When the engine cannot answer").

/** The engine refuses an event of the transcript: thrown from a `replay` handler, the loop
 * answers {accepted: false, hand, event, reason}. `hand` is the hand's number, `event` the
 * 0-based index of the refused event in that hand's `items` (the index `events()` gives).
 * Thrown from `legal` the loop answers no call and no card, from `claims` no claim, from
 * `judge` a skip: the engine refused something before the point asked about, so it offers
 * nothing there. */
export class Rejected extends Error {
  constructor(hand, event, reason) {
    super(reason);
    this.name = "Rejected";
    this.hand = hand;
    this.event = event;
    this.reason = reason;
  }
}

/** The engine cannot play this case (a hand without an auction, a rule it lacks): the loop
 * answers {skip: reason}, with `issue` (a URL) when given. */
export class Unsupported extends Error {
  constructor(reason, issue) {
    super(reason);
    this.name = "Unsupported";
    this.reason = reason;
    if (issue !== undefined) this.issue = issue;
  }
}
