// Types of baloot-adapter-kit (the package is JavaScript: this file is written by hand, and a
// test checks that it declares every export of index.js).

// --- seats, teams, cards ---------------------------------------------------------------------

export type Seat = "N" | "W" | "S" | "E";
export type Team = "NS" | "EW";
export type Rank = "7" | "8" | "9" | "T" | "J" | "Q" | "K" | "A";
export type Suit = "S" | "H" | "D" | "C";
/** A card code: rank then suit ("TS", "7H"). */
export type Card = `${Rank}${Suit}`;
/** A seat's index in the order of play: N 0, W 1, S 2, E 3. */
export type SeatIndex = 0 | 1 | 2 | 3;

/** The four seats in the order of play (each one's right-hand neighbour is the next). */
export declare const SEATS: readonly ["N", "W", "S", "E"];
export declare const TEAMS: readonly ["NS", "EW"];
export declare const RANKS: readonly Rank[];
export declare const SUITS: readonly Suit[];
export declare function isSeat(value: unknown): value is Seat;
export declare function isCard(value: unknown): value is Card;
export declare function seatIndex(seat: Seat): SeatIndex;
export declare function nextSeat(seat: Seat, steps?: number): Seat;
export declare function nextSeat(seat: number, steps?: number): SeatIndex;
export declare function partnerOf(seat: Seat): Seat;
export declare function partnerOf(seat: number): SeatIndex;
export declare function teamOf(seat: Seat | number): Team;
export declare function rankOf(code: Card): Rank;
export declare function suitOf(code: Card): Suit;
/** A card's code from its rank ("T" or "10") and suit (a letter or ♠ ♥ ♦ ♣). */
export declare function card(rank: string | number, suit: string): Card;
/** The 32 codes, suit by suit (S H D C), each from 7 to A. */
export declare function allCards(): Card[];
/** A random function whose draws make a Fisher-Yates shuffle (from the last card down) of
 * `pack` give the order `target`. */
export declare function stackedRandom(pack: readonly string[], target: readonly string[]): () => number;

// --- the JSON form of BTN (spec/schema/btn.schema.json) ----------------------------------------

interface ItemBase {
  position?: string;
  comment?: string;
}
export interface StartEvent extends ItemBase { event: "start"; NS?: number; EW?: number }
export interface DealerEvent extends ItemBase { event: "dealer"; seat: Seat }
export interface CardsEvent extends ItemBase { event: "deal" | "hold" | "rest"; seat: Seat; cards: Card[] }
export interface FaceUpEvent extends ItemBase { event: "faceup"; card: Card }
export interface CallEvent extends ItemBase { event: "bid" | "raise"; seat: Seat; call: string; args?: string[] }
export interface DeclareEvent extends ItemBase { event: "declare"; seat: Seat; project: string; cards?: Card[] }
export interface BalootEvent extends ItemBase { event: "baloot"; seat: Seat; cards?: Card[] }
export interface PlayEvent extends ItemBase { event: "play"; seat: Seat; card: Card; trick?: number; index?: number }
export interface FoulEvent extends ItemBase { event: "foul"; seat: Seat; target: string; words?: string[] }
export interface SawaEvent extends ItemBase { event: "sawa"; seat: Seat }
export interface KaweshEvent extends ItemBase { event: "kawesh"; seat: Seat }
export type BtnEvent =
  | StartEvent | DealerEvent | CardsEvent | FaceUpEvent | CallEvent | DeclareEvent | BalootEvent
  | PlayEvent | FoulEvent | SawaEvent | KaweshEvent;

export interface ContractClaim extends ItemBase {
  claim: "contract";
  buyer: Seat | null;
  kind?: string;
  trump?: Suit;
  multiplier?: number;
  lock?: string;
}
export interface TrickClaim extends ItemBase { claim: "trick"; trick: number; winner: Seat; points?: number }
export interface LegalClaim extends ItemBase { claim: "legal"; seat: Seat; cards: Card[] }
export type TeamClaimName = "abnat" | "aklat" | "projects" | "cardscore" | "projectscore" | "score" | "total";
export interface TeamClaim extends ItemBase { claim: TeamClaimName; NS?: number; EW?: number }
export interface ResultClaim extends ItemBase { claim: "result"; outcome: string }
export interface KabootClaim extends ItemBase { claim: "kaboot"; team: Team }
export interface WinnerClaim extends ItemBase { claim: "winner"; team: Team }
export interface VerdictClaim extends ItemBase { claim: "sawa" | "foul"; verdict: "right" | "wrong" }
export type BtnClaim =
  | ContractClaim | TrickClaim | LegalClaim | TeamClaim | ResultClaim | KabootClaim | WinnerClaim | VerdictClaim;
export interface CommentItem { comment: string }
export type BtnItem = BtnEvent | BtnClaim | CommentItem;

export interface BtnHand {
  hand: number;
  comment?: string;
  items: BtnItem[];
}
export type HeaderEntry = { tag: string; value: string; comment?: string } | { comment: string };
export interface BtnTranscript {
  btn: string;
  metadata?: Record<string, unknown>;
  metadataText?: string;
  header: HeaderEntry[];
  hands: BtnHand[];
}

// --- reading a transcript ------------------------------------------------------------------

export interface EventAt {
  /** The item's 0-based index in its hand's `items`: what a `replay` refusal names. */
  index: number;
  item: BtnEvent;
  /** For a play: its trick (1-8) and its place in it (1-4). */
  trick?: number;
  place?: number;
}
export interface DealtCards {
  dealer: SeatIndex | null;
  faceup: Card | null;
  /** Indexed by seat index. */
  five: Card[][];
  rest: Card[][];
  receiver: SeatIndex | null;
}
export declare function isEvent(item: unknown): item is BtnEvent;
export declare function isClaim(item: unknown): item is BtnClaim;
export declare function events(hand: BtnHand): Generator<EventAt, void, unknown>;
export declare function claims(hand: BtnHand): BtnClaim[];
export declare function contractClaim(hand: BtnHand): ContractClaim | null;
export declare function lastHand(transcript: BtnTranscript): BtnHand | null;
export declare function startTotals(hand: BtnHand): { NS: number; EW: number } | null;
export declare function callText(item: CallEvent): string;
export declare function dealtCards(hand: BtnHand, options?: { guessReceiver?: boolean }): DealtCards;

// --- errors a handler throws -----------------------------------------------------------------

/** The engine refuses event `event` (an index in the hand's items) of hand number `hand`. */
export declare class Rejected extends Error {
  constructor(hand: number, event: number, reason?: string);
  hand: number;
  event: number;
  reason?: string;
}
/** The engine cannot play this case: answered {skip: reason, issue}. */
export declare class Unsupported extends Error {
  constructor(reason: string, issue?: string);
  reason: string;
  issue?: string;
}

// --- writing BTN -----------------------------------------------------------------------------

export declare class BtnWriteError extends Error {}
export declare const TEAM_CLAIMS: readonly TeamClaimName[];
export declare function textProblem(text: string): string | null;
export declare function formatHeader(transcript: BtnTranscript): string;
export declare function formatHand(hand: BtnHand): string;
export declare function formatTranscript(transcript: BtnTranscript): string;

export declare class HandBuilder {
  constructor(number: number, comment?: string);
  number: number;
  comment?: string;
  items: BtnItem[];
  add(item: BtnItem): this;
  note(text: string): this;
  line(text: string): this;
  start(ns?: number | null, ew?: number | null): this;
  dealer(seat: Seat): this;
  deal(seat: Seat, cards: Iterable<Card>): this;
  faceup(card: Card): this;
  bid(seat: Seat, call: string, ...args: string[]): this;
  raise(seat: Seat, call: string, ...args: string[]): this;
  rest(seat: Seat, cards: Iterable<Card>): this;
  hold(seat: Seat, cards: Iterable<Card>): this;
  declare(seat: Seat, project: string, cards?: Card[]): this;
  baloot(seat: Seat, cards?: Card[]): this;
  play(seat: Seat, card: Card): this;
  foul(seat: Seat, target: string, ...words: string[]): this;
  sawa(seat: Seat): this;
  kawesh(seat: Seat): this;
  contract(buyer: Seat | null, kind?: string, trump?: Suit | null, options?: { multiplier?: number; lock?: string }): this;
  trick(number: number, winner: Seat, points?: number): this;
  legal(seat: Seat, cards: Iterable<Card>): this;
  team(name: TeamClaimName, ns?: number | null, ew?: number | null): this;
  abnat(ns?: number | null, ew?: number | null): this;
  aklat(ns?: number | null, ew?: number | null): this;
  projects(ns?: number | null, ew?: number | null): this;
  cardscore(ns?: number | null, ew?: number | null): this;
  projectscore(ns?: number | null, ew?: number | null): this;
  score(ns?: number | null, ew?: number | null): this;
  total(ns?: number | null, ew?: number | null): this;
  result(outcome: string): this;
  kaboot(team: Team): this;
  winner(team: Team): this;
  verdict(call: "sawa" | "foul", verdict: "right" | "wrong"): this;
  toJSON(): BtnHand;
  toString(): string;
}
export declare class TranscriptBuilder {
  constructor(options?: { ruleset?: string; tags?: Record<string, string | number>; version?: string; metadataText?: string });
  version: string;
  metadataText?: string;
  header: HeaderEntry[];
  hands: HandBuilder[];
  tag(name: string, value: string | number): this;
  headerComment(text: string): this;
  hand(number?: number, comment?: string): HandBuilder;
  toJSON(): BtnTranscript;
  toString(): string;
}

// --- the protocol (docs/protocol.md) --------------------------------------------------------

export interface RulesetRef { id: string; version: string; digest: string }
export interface StartRequest { cmd: "start"; protocol: number; kit: string }
export interface ReplayRequest { cmd: "replay"; seq: number; ruleset: RulesetRef; transcript: BtnTranscript }
export interface LegalRequest { cmd: "legal"; seq: number; ruleset: RulesetRef; seat: Seat; transcript: BtnTranscript }
export interface ClaimsRequest { cmd: "claims"; seq: number; ruleset: RulesetRef; transcript: BtnTranscript }
export interface JudgeRequest {
  cmd: "judge";
  seq: number;
  ruleset: RulesetRef;
  transcript: BtnTranscript;
  event: SawaEvent | FoulEvent;
}
/** Any other request (one a capability adds, e.g. perft): its fields as the kit sends them. */
export interface OtherRequest { cmd: string; seq: number; [field: string]: unknown }

/** The handshake's answer without `protocol`; any other field is passed through. */
export interface Started {
  engine: { name: string; version: string; language?: string; homepage?: string };
  rulesets: string[];
  capabilities?: string[];
  [field: string]: unknown;
}
export type Skip = { skip: string; issue?: string };
export type Errored = { error: string };
type Answer<T> = T | Skip | Errored | Promise<T | Skip | Errored>;
export type ReplayResult = void | true | { accepted: boolean; hand?: number; event?: number; reason?: string };
export type LegalResult = { calls?: Iterable<string>; cards?: Iterable<Card> };
export type JudgeResult = "right" | "wrong" | boolean | { verdict: "right" | "wrong"; reason?: string };

export interface Adapter {
  started: Started | ((request: StartRequest) => Started);
  replay?(request: ReplayRequest): Answer<ReplayResult>;
  legal?(request: LegalRequest): Answer<LegalResult>;
  claims?(request: ClaimsRequest): Answer<BtnClaim[] | { claims: BtnClaim[] }>;
  judge?(request: JudgeRequest): Answer<JudgeResult>;
  commands?: Record<string, (request: OtherRequest) => Answer<Record<string, unknown> | void>>;
  stop?(): void | Promise<void>;
}
export interface ServeOptions {
  input?: AsyncIterable<Uint8Array | string>;
  output?: { write(chunk: string, callback?: () => void): unknown };
  exit?: boolean;
}

export declare const PROTOCOL: 1;
export declare const REQUESTS: readonly ["replay", "legal", "claims", "judge"];
export declare function guardStdout(): (chunk: string, callback?: () => void) => boolean;
export declare function readLines(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<string, void, unknown>;
export declare function startedAnswer(adapter: Adapter, request?: StartRequest): Started & { protocol: 1; capabilities: string[] };
export declare function answerRequest(adapter: Adapter, request: OtherRequest): Promise<Record<string, unknown> & { seq: number }>;
export declare function serve(
  adapter: Adapter | Promise<Adapter> | (() => Adapter | Promise<Adapter>),
  options?: ServeOptions,
): Promise<void>;

// --- TypeScript engines on Node before 22.6 -------------------------------------------------

export declare function bundleTypeScript(
  entry: string,
  options: { resolveDir: string; outfile: string; searchFrom?: string[] },
): string;
export declare function importTypeScript(
  entry: string,
  options?: { resolveDir?: string; searchFrom?: string[] },
): Promise<Record<string, any>>;
