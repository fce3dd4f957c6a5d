// The writer writes the kit's canonical form: the JSON form of corpus transcripts (as
// `baloot-conformance convert --to json` gives it) back to the fixture's text, byte for byte;
// the builder's methods give the same text as the JSON items; what cannot be written is an
// error naming the item.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { BtnWriteError, TranscriptBuilder, formatTranscript, textProblem } from "../index.js";

const data = new URL("./data/", import.meta.url);
const read = (name) => readFileSync(new URL(name, data), "utf8");
const NAMES = ["worked-hand", "play.fouls.pass-1", "bloot352.play.hokum.underruff-1", "sawa"];

for (const name of NAMES) {
  test(`the JSON form of ${name} is written as its canonical text`, () => {
    assert.equal(formatTranscript(JSON.parse(read(`${name}.json`))), read(`${name}.btn`));
  });
}

test("plays with something between them stay play lines; four in a row are one trick line", () => {
  const text = read("play.fouls.pass-1.btn");
  const doc = JSON.parse(read("play.fouls.pass-1.json"));
  const written = formatTranscript(doc);
  assert.match(written, /^play [NWSE] [2-9TJQKA][SHDC]$/m);
  assert.match(written, /^trick \d: [NWSE] \S\S, [NWSE] \S\S, [NWSE] \S\S, [NWSE] \S\S/m);
  assert.equal(written, text);
});

/** The worked hand, built call by call as an engine's loop would. */
function workedHand() {
  const game = new TranscriptBuilder({ ruleset: "saudi@1", tags: { Engine: "example-engine 0.1", Date: "2026-11-29" } });
  const hand = game.hand(1);
  hand.dealer("E").deal("N", ["8S", "TS", "8H", "9H", "7C"]).note(" the first five cards of each seat (dealt 3 then 2)");
  hand.deal("W", ["KS", "JH", "QH", "7D", "QD"]).deal("S", ["7S", "9S", "AS", "7H", "8C"]).deal("E", ["JS", "TH", "AH", "8D", "9D"]);
  hand.faceup("QS").note(" the face-up card that is bought");
  hand.bid("N", "hokum").bid("W", "pass").bid("S", "pass").bid("E", "pass").contract("N", "hokum", "S");
  hand.rest("N", ["KH", "JC"]).rest("W", ["KD", "AD", "TC"]).rest("S", ["9C", "QC", "KC"]).rest("E", ["TD", "JD", "AC"]);
  hand.declare("W", "sira", ["AD", "KD", "QD"]).declare("E", "fifty", ["JD", "TD", "9D", "8D"]);
  const tricks = [
    ["N TS, W KS, S AS, E JS", "E"], ["E 8D, N 8S, W KD, S 8C", "N"], ["N 7C, W TC, S KC, E AC", "E"],
    ["E TD, N QS, W 7D, S 7H", "N"], ["N 8H, W JH, S 7S, E AH", "S"], ["S 9S, E 9D, N JC, W QD", "S"],
    ["S QC, E JD, N KH, W AD", "S"], ["S 9C, E TH, N 9H, W QH", "S"],
  ];
  tricks.forEach(([cards, winner], i) => {
    for (const play of cards.split(", ")) hand.play(...play.split(" "));
    hand.trick(i + 1, winner);
  });
  hand.abnat(92, 70).projects(null, 70).result("failed").score(0, 23).total(0, 23);
  return game;
}

test("the builder writes the worked hand as the fixture has it", () => {
  const fixture = read("worked-hand.btn");
  const body = fixture.slice(fixture.indexOf("[Ruleset"));
  assert.equal(workedHand().toString(), `%btn 1\n${body}`);
  assert.equal(formatTranscript(workedHand().toJSON()), workedHand().toString());
});

test("table talk, hold lines, raises and claims come out as the notation writes them", () => {
  const game = new TranscriptBuilder({ ruleset: "talk" });
  game.headerComment(" written by the builder");
  const hand = game.hand(3, " a hand");
  hand.start(46, 32).dealer("S").hold("N", ["7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]);
  hand.bid("W", "hokum", "H").raise("N", "double", "closed").raise("E", "pass").contract("W", "hokum", "H", { multiplier: 2, lock: "closed" });
  hand.legal("N", ["7S", "8S"]).play("N", "7S").baloot("W", ["KH", "QH"]).play("W", "KH").foul("S", "t1.p2", "revoke");
  hand.verdict("foul", "wrong").sawa("E").verdict("sawa", "right").kawesh("N").line(" a whole line");
  hand.start(undefined, 5).kaboot("EW").winner("NS").cardscore(1, 2).aklat(3, null).projectscore(0, 0).contract(null);
  assert.equal(
    game.toString(),
    [
      "%btn 1", '[Ruleset "talk"]', "# written by the builder", "", "hand 3  # a hand", "start NS 46 EW 32", "dealer S",
      "hold N 7S 8S 9S TS JS QS KS AS", "bid W hokum H", "raise N double closed", "raise E pass",
      "= contract W hokum H x2 closed", "= legal N 7S 8S", "play N 7S", "baloot W KH QH", "play W KH",
      "foul S t1.p2 revoke", "= foul wrong", "sawa E", "= sawa right", "kawesh N", "# a whole line", "start EW 5",
      "= kaboot EW", "= winner NS", "= cardscore NS 1 EW 2", "= aklat NS 3", "= projectscore NS 0 EW 0",
      "= contract none", "",
    ].join("\n"),
  );
});

test("a trick's winner claim joins its line only right after it, and only without a comment on the last card", () => {
  const game = new TranscriptBuilder();
  const hand = game.hand();
  hand.play("N", "7S").play("W", "8S").play("S", "9S").play("E", "TS").note(" last").trick(1, "E", 10);
  hand.play("E", "AS").play("N", "KS").note(" second").play("W", "QS").play("S", "JS").trick(2, "E", 20).note(" claim");
  hand.play("E", "AH").play("N", "KH").play("W", "QH").play("S", "JH").trick(3, "E", 9).note(" joined");
  assert.equal(
    game.toString(),
    [
      "%btn 1", '[Ruleset "saudi@1"]', "", "hand 1",
      "trick 1: N 7S, W 8S, S 9S, E TS  # last", "= trick 1 E 10",
      "play E AS", "play N KS  # second", "play W QS", "play S JS", "= trick 2 E 20  # claim",
      "trick 3: E AH, N KH, W QH, S JH = E 9  # joined", "",
    ].join("\n"),
  );
});

test("what the notation cannot hold is an error naming the item, never a line", () => {
  const cases = [
    [(h) => h.play("N", "10S"), /hand 1, item 0 \(play\): expected a card like 'TS'/],
    [(h) => h.dealer("X"), /item 0 \(dealer\): expected a seat N W S E/],
    [(h) => h.bid("N", "Hokum"), /expected a lowercase word/],
    [(h) => h.score(1_000_000_000, 0), /= score\): the number 1000000000 cannot be written/],
    [(h) => h.dealer("N").note(" two\nlines"), /item 0 \(dealer\): cannot be written as one BTN line: a line break at character 16/],
    [(h) => h.line("\ud800"), /a lone surrogate \(U\+D800\)/],
    [(h) => h.foul("N", "t9"), /expected the play called/],
    [(h) => h.add({ claim: "nonsense" }), /not a BTN claim: "nonsense"/],
  ];
  for (const [build, message] of cases) {
    const game = new TranscriptBuilder();
    build(game.hand(1));
    assert.throws(() => game.toString(), (error) => error instanceof BtnWriteError && message.test(error.message));
  }
  assert.equal(textProblem("fine 😀 text"), null);
  assert.equal(textProblem("a\u0000b"), "a NUL at character 2");
});
