// The canonical BTN writer: the text `baloot-conformance fmt` prints, from the JSON form of a
// transcript (docs/btn.md, "Canonical form"; the kit's own writer is
// baloot_conformance/btn/writer.py, and this one writes the same bytes).
//
// Canonical form: the version line, the metadata block verbatim, the header lines in order;
// then for each hand a blank line, `hand N` and its statements in order, one space between
// tokens, end-of-line comments after two spaces, and the four cards of a trick on one
// `trick N: ...` line whenever nothing sits between them and no comment but the last is on
// them (the trick's winner claim joins the line when it comes right after).
//
// What cannot be written as the notation reads it back (a line break, a NUL or a lone
// surrogate in a comment, tag value or word; a seat, card or word the notation does not
// have; a number outside 0-999,999,999) throws a BtnWriteError naming the item, never a line
// that would read as another statement.
import { isCard, isSeat } from "./cards.js";

/** The error of an item that cannot be written as a BTN line. */
export class BtnWriteError extends Error {
  constructor(message) {
    super(message);
    this.name = "BtnWriteError";
  }
}

const UNWRITABLE = /[\r\n\0]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const NAMES = { "\r": "a carriage return", "\n": "a line break", "\0": "a NUL" };
const WORD = /^(?!x[0-9])[a-z][a-z0-9_]*$/;
const TAG = /^[A-Za-z][A-Za-z0-9_]*$/;
const TARGET = /^(t[1-9][0-9]*\.p[1-4]|-)$/;
const MAX_NUMBER = 999_999_999;
/** The per-team claims, each written `= NAME NS x EW y`. */
export const TEAM_CLAIMS = Object.freeze([
  "abnat", "aklat", "projects", "cardscore", "projectscore", "score", "total",
]);

/** What keeps `text` from being written on one BTN line, or null. */
export function textProblem(text) {
  const found = UNWRITABLE.exec(text);
  if (found === null) return null;
  const char = found[0];
  const at = `at character ${found.index + 1}`;
  if (NAMES[char]) return `${NAMES[char]} ${at}`;
  const hex = char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
  return `a lone surrogate (U+${hex}) ${at}, which UTF-8 cannot encode`;
}

function line(text, where) {
  const problem = textProblem(text);
  if (problem !== null) {
    throw new BtnWriteError(`${where}: cannot be written as one BTN line: ${problem}`);
  }
  return text;
}

function number(value, where) {
  if (!Number.isInteger(value) || value < 0 || value > MAX_NUMBER) {
    throw new BtnWriteError(
      `${where}: the number ${JSON.stringify(value)} cannot be written: BTN writes 0 to 999,999,999`,
    );
  }
  return value;
}

function seat(value, where) {
  if (!isSeat(value)) throw new BtnWriteError(`${where}: expected a seat N W S E, found ${JSON.stringify(value)}`);
  return value;
}

function cards(values, where, { min = 1 } = {}) {
  if (!Array.isArray(values) || values.length < min) {
    throw new BtnWriteError(`${where}: expected a list of cards, found ${JSON.stringify(values)}`);
  }
  for (const c of values) {
    if (!isCard(c)) {
      throw new BtnWriteError(`${where}: expected a card like 'TS' or 'AH', found ${JSON.stringify(c)}`);
    }
  }
  return values.join(" ");
}

function word(value, where) {
  if (typeof value !== "string" || !WORD.test(value)) {
    throw new BtnWriteError(
      `${where}: expected a lowercase word (a letter, then letters, digits or _), found ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function argument(value, where) {
  return ["S", "H", "D", "C"].includes(value) ? value : word(value, where);
}

function teams(item, where) {
  const parts = [];
  if (item.NS !== undefined && item.NS !== null) parts.push(`NS ${number(item.NS, where)}`);
  if (item.EW !== undefined && item.EW !== null) parts.push(`EW ${number(item.EW, where)}`);
  return parts.join(" ");
}

function withComment(text, comment) {
  return comment === undefined || comment === null ? text : `${text}  #${comment}`;
}

function escape(value) {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}

/** The version line, the metadata block and the header lines of a transcript. */
export function formatHeader(transcript) {
  const out = [line(`%btn ${transcript.btn ?? "1"}`, "the version") + "\n"];
  const metadata = transcript.metadataText;
  if (metadata === undefined && transcript.metadata !== undefined) {
    throw new BtnWriteError("the metadata block: give its YAML text as metadataText");
  }
  if (metadata !== undefined && metadata !== null) {
    for (const text of metadata.split("\n")) line(text.replace(/\r$/, ""), "the metadata block");
    if ((metadata && !metadata.endsWith("\n")) || /^---[ \t]*$/m.test(metadata)) {
      throw new BtnWriteError("the metadata block: its text must end with a line end and hold no '---' line");
    }
    out.push("---\n", metadata, "---\n");
  }
  for (const entry of transcript.header ?? []) {
    if (entry.tag !== undefined) {
      const where = `the header tag ${entry.tag}`;
      if (!TAG.test(entry.tag)) throw new BtnWriteError(`${where}: not a tag name (a letter, then letters, digits or _)`);
      out.push(line(withComment(`[${entry.tag} "${escape(String(entry.value))}"]`, entry.comment), where));
    } else {
      out.push(line(`#${entry.comment}`, "a header comment"));
    }
    out.push("\n");
  }
  return out.join("");
}

/** One item of a hand as its line (a play as a `play` line). */
function statement(item, where) {
  if (item.event === undefined && item.claim === undefined) return `#${item.comment}`;
  let text;
  switch (item.event ?? `=${item.claim}`) {
    case "start":
      text = `start ${teams(item, where)}`;
      break;
    case "dealer":
      text = `dealer ${seat(item.seat, where)}`;
      break;
    case "deal":
    case "hold":
    case "rest":
      text = `${item.event} ${seat(item.seat, where)} ${cards(item.cards, where)}`;
      break;
    case "faceup":
      text = `faceup ${cards([item.card], where)}`;
      break;
    case "bid":
    case "raise":
      text = [item.event, seat(item.seat, where), word(item.call, where), ...(item.args ?? []).map((a) => argument(a, where))].join(" ");
      break;
    case "declare":
      text = `declare ${seat(item.seat, where)} ${word(item.project, where)}`;
      if (item.cards?.length) text += ` ${cards(item.cards, where)}`;
      break;
    case "baloot":
      text = `baloot ${seat(item.seat, where)}`;
      if (item.cards?.length) text += ` ${cards(item.cards, where)}`;
      break;
    case "play":
      text = `play ${seat(item.seat, where)} ${cards([item.card], where)}`;
      break;
    case "foul":
      if (!TARGET.test(item.target ?? "")) {
        throw new BtnWriteError(`${where}: expected the play called, like 't3.p2' (or '-'), found ${JSON.stringify(item.target)}`);
      }
      text = ["foul", seat(item.seat, where), item.target, ...(item.words ?? []).map((w) => word(w, where))].join(" ");
      break;
    case "sawa":
    case "kawesh":
      text = `${item.event} ${seat(item.seat, where)}`;
      break;
    case "=contract":
      if (item.buyer === null || item.buyer === undefined) {
        text = "= contract none";
      } else {
        const parts = ["= contract", seat(item.buyer, where), item.kind === undefined ? "" : word(item.kind, where)];
        if (item.trump !== undefined && item.trump !== null) parts.push(argument(item.trump, where));
        if (item.multiplier !== undefined && item.multiplier !== null) parts.push(`x${number(item.multiplier, where)}`);
        if (item.lock !== undefined && item.lock !== null) parts.push(word(item.lock, where));
        text = parts.join(" ");
      }
      break;
    case "=trick":
      text = `= trick ${number(item.trick, where)} ${seat(item.winner, where)}`;
      if (item.points !== undefined && item.points !== null) text += ` ${number(item.points, where)}`;
      break;
    case "=legal":
      text = `= legal ${seat(item.seat, where)} ${cards(item.cards, where)}`;
      break;
    case "=result":
      text = `= result ${word(item.outcome, where)}`;
      break;
    case "=kaboot":
    case "=winner":
      if (item.team !== "NS" && item.team !== "EW") {
        throw new BtnWriteError(`${where}: expected a team NS or EW, found ${JSON.stringify(item.team)}`);
      }
      text = `= ${item.claim} ${item.team}`;
      break;
    case "=sawa":
    case "=foul":
      if (item.verdict !== "right" && item.verdict !== "wrong") {
        throw new BtnWriteError(`${where}: expected the verdict 'right' or 'wrong', found ${JSON.stringify(item.verdict)}`);
      }
      text = `= ${item.claim} ${item.verdict}`;
      break;
    default:
      if (item.claim !== undefined && TEAM_CLAIMS.includes(item.claim)) {
        text = `= ${item.claim} ${teams(item, where)}`;
        break;
      }
      throw new BtnWriteError(
        `${where}: not a BTN ${item.event !== undefined ? "event" : "claim"}: ${JSON.stringify(item.event ?? item.claim)}`,
      );
  }
  return withComment(text, item.comment);
}

const isPlay = (item) => item?.event === "play";

/** One hand in canonical form, starting with its blank line and `hand N` line. */
export function formatHand(hand) {
  const name = `hand ${hand?.hand}`;
  const out = ["\n", line(withComment(`hand ${number(hand?.hand, name)}`, hand.comment), name), "\n"];
  const items = hand.items ?? [];
  // each play's place in its trick (1-4) and its trick, counted as the notation groups them
  const place = [];
  const trickOf = [];
  let plays = 0;
  items.forEach((item, i) => {
    if (isPlay(item)) {
      trickOf[i] = Math.floor(plays / 4) + 1;
      place[i] = (plays % 4) + 1;
      plays += 1;
    }
  });
  let i = 0;
  while (i < items.length) {
    const item = items[i];
    const where = `hand ${hand.hand}, item ${i} (${item?.event ?? (item?.claim !== undefined ? `= ${item.claim}` : "comment")})`;
    if (item === null || typeof item !== "object") throw new BtnWriteError(`${where}: not an item: ${JSON.stringify(item)}`);
    if (isPlay(item) && place[i] === 1 && i + 4 <= items.length) {
      const four = items.slice(i, i + 4);
      const together = four.every((p, k) => isPlay(p) && place[i + k] === k + 1 && (k === 3 || p.comment === undefined || p.comment === null));
      if (together) {
        const trick = trickOf[i];
        let text = `trick ${trick}: ${four.map((p, k) => `${seat(p.seat, `hand ${hand.hand}, item ${i + k} (play)`)} ${cards([p.card], `hand ${hand.hand}, item ${i + k} (play)`)}`).join(", ")}`;
        const last = four[3];
        const claim = items[i + 4];
        const lastBare = last.comment === undefined || last.comment === null;
        if (lastBare && claim?.claim === "trick" && claim.trick === trick) {
          const at = `hand ${hand.hand}, item ${i + 4} (= trick)`;
          text += ` = ${seat(claim.winner, at)}`;
          if (claim.points !== undefined && claim.points !== null) text += ` ${number(claim.points, at)}`;
          out.push(line(withComment(text, claim.comment), at), "\n");
          i += 5;
        } else {
          out.push(line(withComment(text, last.comment), where), "\n");
          i += 4;
        }
        continue;
      }
    }
    out.push(line(statement(item, where), where), "\n");
    i += 1;
  }
  return out.join("");
}

/** A whole transcript (its JSON form) in canonical BTN text. */
export function formatTranscript(transcript) {
  return formatHeader(transcript) + (transcript.hands ?? []).map(formatHand).join("");
}
