// baloot-adapter-kit: write an adapter for a JavaScript or TypeScript Baloot engine, so that
// `baloot-conformance suite --engine "node my_adapter.mjs"` tests it. The protocol loop
// (serve), the transcript's JSON form read (events, dealtCards, ...) and BTN written
// (TranscriptBuilder, formatTranscript). Types: index.d.ts. No runtime dependency.
export {
  SEATS, TEAMS, RANKS, SUITS, isSeat, isCard, seatIndex, nextSeat, partnerOf, teamOf, rankOf, suitOf, card, allCards, stackedRandom,
} from "./src/cards.js";
export { Rejected, Unsupported } from "./src/errors.js";
export {
  isEvent, isClaim, events, claims, contractClaim, lastHand, startTotals, callText, dealtCards,
} from "./src/transcript.js";
export { BtnWriteError, TEAM_CLAIMS, textProblem, formatHeader, formatHand, formatTranscript } from "./src/writer.js";
export { HandBuilder, TranscriptBuilder } from "./src/builder.js";
export { PROTOCOL, REQUESTS, guardStdout, readLines, startedAnswer, answerRequest, serve } from "./src/protocol.js";
export { bundleTypeScript, importTypeScript } from "./src/typescript.js";
