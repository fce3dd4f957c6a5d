// The adapter protocol loop (docs/protocol.md; spec/schema/protocol.schema.json): read the
// kit's requests, one JSON object per line, call the author's handlers, write one answer per
// request with the request's `seq`, in order, flushed line by line.
//
// An adapter is an object (or a function, possibly async, that makes it: the place to load the
// engine once standard output is guarded):
//
//   serve({
//     started: { engine: { name: "my-engine", version: "1.2.0" }, rulesets: ["saudi"] },
//     replay(request) { ... },          // return (or true): accepted; throw Rejected: refused
//     legal(request) { return { calls: [...], cards: [...] }; },
//     claims(request) { return [ {claim: "contract", ...}, ... ]; },
//     judge(request) { return "right"; },  // or {verdict, reason}
//     commands: { perft(request) { return { count: 42 }; } },  // any other cmd
//   });
//
// `started` is the handshake's answer without `protocol`: every field given is passed through
// as it is (`features`, a capability the kit adds later), so the loop needs no change when the
// protocol grows. Without `capabilities`, they are the standard requests the adapter has a
// handler for (replay, legal, claims, judge); a command a capability opts into (`perft`) is
// sent only when `capabilities` lists it, as a kit that does not know a capability refuses
// the handshake that declares it.
//
// What the loop does for every handler: a thrown Unsupported is a {skip} answer; a thrown
// Rejected is the `replay` refusal (an empty answer from `legal` or `claims`, a skip from
// `judge`: the engine refused something before the point asked about); any other
// thrown error is an {error} answer with its stack, also written to standard error; an
// answer {skip: reason} or {error: text} is passed as it is. Lines may come split across
// chunks, and be of any length; blank lines are ignored; `stop` and the end of standard input
// end the session (the adapter's `stop()` is called, if it has one) and the process exits.
// Standard output carries answers and nothing else: console.log and every other console
// method, and any direct write to process.stdout, go to standard error.
import { Console } from "node:console";
import { Rejected, Unsupported } from "./errors.js";

/** The protocol version this loop speaks. */
export const PROTOCOL = 1;
/** The requests of the protocol's version 1 that an adapter handles by a method of its own. */
export const REQUESTS = Object.freeze(["replay", "legal", "claims", "judge"]);
/** Capabilities that name no request (they say what an engine can play). */
const NOT_REQUESTS = new Set(["partial"]);

const ERROR_LIMIT = 20000;
const TEXT_LIMIT = 10000;

let guarded = null;

/** Send everything but the answers to standard error: every console method, and direct
 * writes to process.stdout. Returns the function that writes to the real standard output.
 * Called by serve(); call it yourself before loading an engine that prints as it loads. */
export function guardStdout() {
  if (guarded !== null) return guarded;
  const stdout = process.stdout;
  const realWrite = stdout.write.bind(stdout);
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  for (const name of Object.keys(console)) {
    if (typeof console[name] === "function" && typeof toStderr[name] === "function") {
      console[name] = toStderr[name].bind(toStderr);
    }
  }
  stdout.write = (...args) => process.stderr.write(...args);
  guarded = realWrite;
  return guarded;
}

/** The lines of a byte stream, decoded as UTF-8, without their line ends (`\n` or `\r\n`):
 * a line split over several chunks is put back together, and a line may be of any length. */
export async function* readLines(input) {
  const decoder = new TextDecoder("utf-8");
  let parts = [];
  for await (const chunk of input) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    let end = bytes.indexOf(10, start);
    while (end >= 0) {
      parts.push(bytes.subarray(start, end));
      yield finish(decoder, parts);
      parts = [];
      start = end + 1;
      end = bytes.indexOf(10, start);
    }
    if (start < bytes.length) parts.push(Buffer.from(bytes.subarray(start)));
  }
  if (parts.length) yield finish(decoder, parts);
}

function finish(decoder, parts) {
  const text = decoder.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  return text.endsWith("\r") ? text.slice(0, -1) : text;
}

function tail(text, limit) {
  return text.length > limit ? text.slice(-limit) : text;
}

function unique(values) {
  return [...new Set(values ?? [])];
}

/** The handshake's answer: the author's fields after `protocol`, capabilities (when not
 * given) the standard requests the adapter has a handler for. */
export function startedAnswer(adapter, request) {
  const given = typeof adapter.started === "function" ? adapter.started(request) : adapter.started;
  if (given === null || typeof given !== "object") {
    throw new TypeError("the adapter needs `started`: {engine: {name, version}, rulesets: [...]}");
  }
  const answer = { protocol: PROTOCOL, ...given };
  if (answer.capabilities === undefined) {
    answer.capabilities = REQUESTS.filter((name) => typeof adapter[name] === "function");
  }
  for (const capability of answer.capabilities) {
    if (NOT_REQUESTS.has(capability) || handlerFor(adapter, capability)) continue;
    console.error(`baloot adapter: capability ${JSON.stringify(capability)} is declared, but the adapter has no handler for it`);
  }
  return answer;
}

function handlerFor(adapter, cmd) {
  const handler = REQUESTS.includes(cmd) ? adapter[cmd] : adapter.commands?.[cmd];
  return typeof handler === "function" ? handler : null;
}

function passedThrough(seq, result) {
  if (result !== null && typeof result === "object" && !Array.isArray(result)) {
    if (typeof result.skip === "string") {
      const out = { seq, skip: tail(result.skip, TEXT_LIMIT) };
      if (result.issue !== undefined) out.issue = result.issue;
      return out;
    }
    if (typeof result.error === "string") return { seq, error: tail(result.error, ERROR_LIMIT) };
  }
  return null;
}

function shaped(cmd, seq, result) {
  const passed = passedThrough(seq, result);
  if (passed !== null) return passed;
  if (cmd === "replay") {
    if (result === undefined || result === true) return { seq, accepted: true };
    if (result === false) {
      return { seq, error: "the replay handler answered false: throw Rejected(hand, event, reason) to refuse an event" };
    }
    return { seq, ...result };
  }
  if (cmd === "legal") return { seq, calls: unique(result?.calls), cards: unique(result?.cards) };
  if (cmd === "claims") return { seq, claims: Array.isArray(result) ? result : (result?.claims ?? []) };
  if (cmd === "judge") {
    if (result === "right" || result === "wrong") return { seq, verdict: result };
    if (typeof result === "boolean") return { seq, verdict: result ? "right" : "wrong" };
    return { seq, ...result };
  }
  return { seq, ...(result ?? {}) };
}

/** The answer to one request (not `start` nor `stop`). */
export async function answerRequest(adapter, request) {
  const { cmd, seq } = request;
  const handler = handlerFor(adapter, cmd);
  if (handler === null) return { seq, error: `this adapter has no handler for ${JSON.stringify(cmd)} requests` };
  try {
    return shaped(cmd, seq, await handler.call(adapter, request));
  } catch (error) {
    if (error instanceof Unsupported) {
      const out = { seq, skip: tail(String(error.reason ?? error.message), TEXT_LIMIT) };
      if (error.issue !== undefined) out.issue = error.issue;
      return out;
    }
    if (error instanceof Rejected) {
      if (cmd === "replay") {
        const out = { seq, accepted: false, hand: error.hand, event: error.event };
        if (error.reason !== undefined) out.reason = tail(String(error.reason), TEXT_LIMIT);
        return out;
      }
      if (cmd === "legal") return { seq, calls: [], cards: [] };
      if (cmd === "claims") return { seq, claims: [] };
      if (cmd === "judge") {
        return { seq, skip: tail(`the engine refuses the hand before the call: ${error.reason}`, TEXT_LIMIT) };
      }
    }
    const text = error?.stack ?? String(error);
    console.error(text);
    return { seq, error: tail(text, ERROR_LIMIT) };
  }
}

/** Run the protocol session: read requests from `input` (standard input), write answers to
 * `output` (standard output), until `stop` or the end of the input; then call the adapter's
 * `stop()` and, when `exit` (the default on standard output), end the process with 0.
 * `adapter` is the adapter, or a function (possibly async) that returns it. */
export async function serve(adapter, { input = process.stdin, output, exit } = {}) {
  const onStdout = output === undefined || output === process.stdout;
  const write = onStdout ? guardStdout() : output.write.bind(output);
  const shouldExit = exit ?? onStdout;
  let made;
  try {
    made = typeof adapter === "function" ? await adapter() : await adapter;
  } catch (error) {
    console.error(`baloot adapter: the engine could not be loaded: ${error?.stack ?? error}`);
    if (shouldExit) process.exit(2);
    throw error;
  }
  const send = (answer) => write(`${JSON.stringify(answer)}\n`);
  for await (const line of readLines(input)) {
    if (!line.trim()) continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (error) {
      const seq = Number(/"seq"\s*:\s*(\d+)/.exec(line)?.[1] ?? 0);
      console.error(`baloot adapter: a request that is not JSON (${error.message}): ${line.slice(0, 200)}`);
      send({ seq, error: `a request that is not JSON: ${error.message}` });
      continue;
    }
    if (request?.cmd === "stop") break;
    if (request?.cmd === "start") {
      let answer;
      try {
        answer = startedAnswer(made, request);
      } catch (error) {
        console.error(error?.stack ?? String(error));
        answer = { error: tail(error?.stack ?? String(error), ERROR_LIMIT) };
      }
      send(answer);
      continue;
    }
    send(await answerRequest(made, request));
  }
  if (typeof made.stop === "function") await made.stop();
  await new Promise((resolve) => write("", resolve));
  if (shouldExit) process.exit(0);
}
