// The package as npm sees it: index.d.ts declares every value index.js exports (and nothing
// that it does not), package.json points at both, lists no dependency and a test script, and
// every file it ships exists.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import * as kit from "../index.js";

const root = new URL("../", import.meta.url);
const text = (name) => readFileSync(new URL(name, root), "utf8");

test("index.d.ts declares every export of index.js, and only those", () => {
  const declared = new Set();
  for (const match of text("index.d.ts").matchAll(/^export declare (?:const|function|class) ([A-Za-z_][A-Za-z0-9_]*)/gm)) {
    declared.add(match[1]);
  }
  const exported = Object.keys(kit).sort();
  assert.deepEqual(exported.filter((name) => !declared.has(name)), [], "exported, not declared");
  assert.deepEqual([...declared].filter((name) => !(name in kit)).sort(), [], "declared, not exported");
  assert.ok(exported.length >= 40);
});

test("package.json: an ESM package with its types, no dependencies, node --test", () => {
  const pkg = JSON.parse(text("package.json"));
  assert.equal(pkg.type, "module");
  assert.equal(pkg.exports["."].default, "./index.js");
  assert.equal(pkg.exports["."].types, "./index.d.ts");
  assert.equal(pkg.types, "./index.d.ts");
  assert.equal(pkg.dependencies, undefined);
  assert.equal(pkg.peerDependencies, undefined);
  assert.match(pkg.engines.node, /^>=18/);
  assert.match(pkg.scripts.test, /^node --test/);
  for (const file of pkg.files) assert.ok(existsSync(new URL(file, root)), file);
});

test("the README's minimal adapter is examples/minimal_adapter.mjs, as it runs", () => {
  const readme = text("README.md");
  const block = /## A minimal adapter[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)[1];
  const file = text("examples/minimal_adapter.mjs").replace(/^(#!.*\n)?(\/\/.*\n)*/, "").replace('"../index.js"', '"baloot-adapter-kit"');
  assert.equal(block, file);
});
