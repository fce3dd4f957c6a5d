// The protocol loop, driven through streams as the kit drives it: a scripted session through a
// fake engine (every answer with its request's seq, in order), thrown errors, skips and
// refusals, the handshake's fields passed through, stop and the end of the input, lines split
// anywhere and very long lines; and, in a child process, standard output holding only answers.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { PassThrough, Readable } from "node:stream";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { Rejected, Unsupported, readLines, serve } from "../index.js";

const KIT = fileURLToPath(new URL("../index.js", import.meta.url));
const MINIMAL = fileURLToPath(new URL("../examples/minimal_adapter.mjs", import.meta.url));

/** Run a session: `chunks` (strings or Buffers) are the input; the answers, parsed. */
async function session(adapter, chunks) {
  const output = new PassThrough();
  const written = [];
  output.on("data", (b) => written.push(b));
  await serve(adapter, { input: Readable.from(chunks), output, exit: false });
  const text = Buffer.concat(written).toString("utf8");
  assert.ok(text === "" || text.endsWith("\n"), "every answer ends its line");
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}

const lines = (...requests) => requests.map((r) => `${typeof r === "string" ? r : JSON.stringify(r)}\n`);
const transcript = { btn: "1", header: [{ tag: "Ruleset", value: "saudi@1" }], hands: [{ hand: 2, items: [{ event: "dealer", seat: "N" }] }] };

function fakeEngine(log) {
  return {
    started: {
      engine: { name: "fake", version: "1.0.0", language: "JavaScript" },
      rulesets: ["saudi", "kuwait"],
      features: ["doubling", "sawa"],
      futureField: { any: "thing" },
    },
    replay({ transcript: t }) {
      log.push("replay");
      if (t.hands.length > 1) throw new Rejected(t.hands[1].hand, 3, "W must follow suit");
    },
    async legal({ seat }) {
      await new Promise((resolve) => setTimeout(resolve, seat === "N" ? 20 : 0));
      return { calls: ["pass", "sun", "pass"], cards: seat === "N" ? ["AS", "AS"] : [] };
    },
    claims({ transcript: t }) {
      if (t.hands[0].hand === 9) throw new Unsupported("hands that log no auction", "https://example.org/1");
      if (t.hands[0].hand === 8) return { skip: "not yet" };
      if (t.hands[0].hand === 7) throw new Rejected(7, 0, "refused earlier");
      return [{ claim: "contract", buyer: null }];
    },
    judge({ event }) {
      if (event.event === "foul") throw new TypeError("no fouls here");
      if (event.seat === "N") throw new Rejected(1, 2, "N is not dealt AS");
      return "right";
    },
    commands: { perft: ({ depth }) => ({ count: 4 ** depth }) },
    stop() {
      log.push("stop");
    },
  };
}

test("a scripted session: each request answered once, in order, with its seq", async () => {
  const log = [];
  const answers = await session(
    fakeEngine(log),
    lines(
      { cmd: "start", protocol: 1, kit: "0.1.0" },
      { cmd: "replay", seq: 1, transcript },
      { cmd: "replay", seq: 2, transcript: { ...transcript, hands: [...transcript.hands, { hand: 3, items: [] }] } },
      { cmd: "legal", seq: 3, seat: "N", transcript },
      { cmd: "legal", seq: 4, seat: "W", transcript },
      { cmd: "claims", seq: 5, transcript },
      { cmd: "claims", seq: 6, transcript: { ...transcript, hands: [{ hand: 9, items: [] }] } },
      { cmd: "claims", seq: 7, transcript: { ...transcript, hands: [{ hand: 8, items: [] }] } },
      { cmd: "claims", seq: 8, transcript: { ...transcript, hands: [{ hand: 7, items: [] }] } },
      { cmd: "judge", seq: 9, transcript, event: { event: "sawa", seat: "E" } },
      { cmd: "judge", seq: 10, transcript, event: { event: "foul", seat: "W", target: "t1.p2" } },
      { cmd: "perft", seq: 11, depth: 3 },
      { cmd: "teleport", seq: 12 },
      { cmd: "judge", seq: 13, transcript, event: { event: "sawa", seat: "N" } },
      { cmd: "stop" },
      { cmd: "replay", seq: 14, transcript },
    ),
  );
  assert.deepEqual(answers[0], {
    protocol: 1,
    engine: { name: "fake", version: "1.0.0", language: "JavaScript" },
    rulesets: ["saudi", "kuwait"],
    features: ["doubling", "sawa"],
    futureField: { any: "thing" },
    capabilities: ["replay", "legal", "claims", "judge"],
  });
  assert.deepEqual(answers.slice(1, 10), [
    { seq: 1, accepted: true },
    { seq: 2, accepted: false, hand: 3, event: 3, reason: "W must follow suit" },
    { seq: 3, calls: ["pass", "sun"], cards: ["AS"] },
    { seq: 4, calls: ["pass", "sun"], cards: [] },
    { seq: 5, claims: [{ claim: "contract", buyer: null }] },
    { seq: 6, skip: "hands that log no auction", issue: "https://example.org/1" },
    { seq: 7, skip: "not yet" },
    { seq: 8, claims: [] },
    { seq: 9, verdict: "right" },
  ]);
  assert.equal(answers[10].seq, 10);
  assert.match(answers[10].error, /^TypeError: no fouls here\n\s+at .*judge/);
  assert.deepEqual(answers[11], { seq: 11, count: 64 });
  assert.deepEqual(answers[12], { seq: 12, error: 'this adapter has no handler for "teleport" requests' });
  assert.deepEqual(answers[13], { seq: 13, skip: "the engine refuses the hand before the call: N is not dealt AS" });
  assert.equal(answers.length, 14, "nothing is answered after stop");
  assert.deepEqual(log, ["replay", "replay", "stop"]);
});

test("the end of the input ends the session as stop does; blank lines and CRLF are fine", async () => {
  const log = [];
  const answers = await session(fakeEngine(log), [
    "\n",
    '{"cmd": "start", "protocol": 1, "kit": "0"}\r\n',
    "   \n",
    JSON.stringify({ cmd: "replay", seq: 1, transcript }),
  ]);
  assert.deepEqual(answers.map((a) => a.seq ?? "start"), ["start", 1]);
  assert.deepEqual(log, ["replay", "stop"]);
});

test("capabilities given are kept as given; a line that is not JSON is an error answer", async () => {
  const answers = await session(
    { started: { engine: { name: "x", version: "1" }, rulesets: ["saudi"], capabilities: ["replay", "partial"] }, replay: () => true },
    lines({ cmd: "start", protocol: 1, kit: "0" }, '{"cmd": "replay", "seq": 5, oops}', { cmd: "replay", seq: 6, transcript }),
  );
  assert.deepEqual(answers[0].capabilities, ["replay", "partial"]);
  assert.equal(answers[1].seq, 5);
  assert.match(answers[1].error, /^a request that is not JSON/);
  assert.deepEqual(answers[2], { seq: 6, accepted: true });
});

test("a line split anywhere, even inside a UTF-8 character, and a very long line read back whole", async () => {
  const comment = "ب".repeat(3_000_000); // 6 MB of two-byte characters
  const long = JSON.stringify({ cmd: "replay", seq: 1, transcript: { ...transcript, header: [{ comment }] } });
  const bytes = Buffer.from(`${long}\n{"cmd":"replay","seq":2,"transcript":{"hands":[]}}\n`, "utf8");
  const chunks = [];
  for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 3) % 65_537 || 1) {
    chunks.push(bytes.subarray(at, at + size));
  }
  let seen = null;
  const answers = await session(
    { started: { engine: { name: "x", version: "1" }, rulesets: ["saudi"] }, replay: ({ transcript: t }) => { seen ??= t.header[0].comment; } },
    chunks,
  );
  assert.deepEqual(answers, [{ seq: 1, accepted: true }, { seq: 2, accepted: true }]);
  assert.equal(seen, comment);
  const split = [];
  for await (const line of readLines(Readable.from([Buffer.from([0xd8]), Buffer.from([0xa8, 0x0a, 0x61])]))) split.push(line);
  assert.deepEqual(split, ["ب", "a"]);
});

test("an adapter made by an async function is made once, before the first answer", async () => {
  let made = 0;
  const answers = await session(async () => {
    made += 1;
    return { started: { engine: { name: "x", version: "1" }, rulesets: ["saudi"] }, legal: () => ({ cards: ["7S"] }) };
  }, lines({ cmd: "start", protocol: 1, kit: "0" }, { cmd: "legal", seq: 1, seat: "N", transcript }));
  assert.equal(made, 1);
  assert.deepEqual(answers[0].capabilities, ["legal"]);
  assert.deepEqual(answers[1], { seq: 1, calls: [], cards: ["7S"] });
});

test("on standard output only answers: console.log and direct writes go to standard error", () => {
  const script = `
    import { guardStdout, serve } from ${JSON.stringify(KIT)};
    guardStdout();
    console.log("loading the engine");
    serve(() => {
      process.stdout.write("a stray write\\n");
      console.info("ready");
      return { started: { engine: { name: "x", version: "1" }, rulesets: ["saudi"] },
               replay() { console.log("replaying"); console.table([1]); } };
    });`;
  const input = lines({ cmd: "start", protocol: 1, kit: "0" }, { cmd: "replay", seq: 1, transcript }, { cmd: "stop" }).join("");
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { input, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const out = run.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  assert.deepEqual(out.map((a) => a.seq ?? a.protocol), [1, 1]);
  for (const noise of ["loading the engine", "a stray write", "ready", "replaying"]) assert.ok(run.stderr.includes(noise), noise);
});

test("the minimal adapter answers the handshake and a legal request, then exits at the end of its input", () => {
  const hand = {
    hand: 1,
    items: [
      { event: "dealer", seat: "E" },
      { event: "deal", seat: "N", cards: ["8S", "TS", "8H", "9H", "7C"] },
      { event: "deal", seat: "W", cards: ["KS", "JH", "QH", "7D", "QD"] },
      { event: "deal", seat: "S", cards: ["7S", "9S", "AS", "7H", "8C"] },
      { event: "deal", seat: "E", cards: ["JS", "TH", "AH", "8D", "9D"] },
      { event: "faceup", card: "QS" },
      { event: "bid", seat: "N", call: "hokum" },
      { event: "rest", seat: "N", cards: ["KH", "JC"] },
      { event: "rest", seat: "W", cards: ["KD", "AD", "TC"] },
      { event: "rest", seat: "S", cards: ["9C", "QC", "KC"] },
      { event: "rest", seat: "E", cards: ["TD", "JD", "AC"] },
      { event: "play", seat: "N", card: "TS" },
    ],
  };
  const input = lines({ cmd: "start", protocol: 1, kit: "0" }, { cmd: "legal", seq: 1, seat: "N", transcript: { ...transcript, hands: [hand] } }).join("");
  const run = spawnSync(process.execPath, [MINIMAL], { input, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const [started, legal] = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(started.capabilities, ["replay", "legal"]);
  assert.deepEqual(legal, { seq: 1, calls: [], cards: ["8S", "8H", "9H", "7C", "KH", "JC"] });
});
