// tests/test_js_client.py: write each transcript of a JSON list (standard input) with the JS
// kit's formatTranscript; one it refuses is written as "ERROR: " and the message.
import { readFileSync } from "node:fs";
import { formatTranscript } from "../../../clients/js/index.js";

const docs = JSON.parse(readFileSync(0, "utf8"));
const write = (doc) => {
  try {
    return formatTranscript(doc);
  } catch (error) {
    return `ERROR: ${error.message}`;
  }
};
process.stdout.write(JSON.stringify(docs.map(write)));
