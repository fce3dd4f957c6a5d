// Loading an engine written in TypeScript on a Node that does not run TypeScript itself
// (before 22.6): bundle the engine's modules into one ES module with esbuild and import it.
// esbuild is not a dependency of the kit: it is looked up where the engine is (the checkout's
// node_modules), then in the current folder's, then as an `esbuild` command on the PATH.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

function findEsbuild(places) {
  for (const place of places) {
    try {
      return createRequire(join(place, "package.json"))("esbuild");
    } catch {
      // try the next place
    }
  }
  return null;
}

/** Bundle `entry` (the TypeScript source of a module, e.g. `export * from "/x/engine.ts";`,
 * its imports resolved from `resolveDir`) into one ES module at `outfile`, with the esbuild
 * package found from `searchFrom` (folders) or an esbuild command on the PATH. */
export function bundleTypeScript(entry, { resolveDir, outfile, searchFrom = [resolveDir, process.cwd()] }) {
  const esbuild = findEsbuild(searchFrom);
  if (esbuild !== null) {
    esbuild.buildSync({
      stdin: { contents: entry, loader: "ts", resolveDir, sourcefile: "entry.ts" },
      bundle: true,
      format: "esm",
      platform: "node",
      outfile,
      logLevel: "error",
    });
    return outfile;
  }
  const run = spawnSync(
    "esbuild",
    ["--bundle", "--format=esm", "--platform=node", "--loader=ts", "--sourcefile=entry.ts", `--outfile=${outfile}`, "--log-level=error"],
    { input: entry, cwd: resolveDir, stdio: ["pipe", "ignore", "inherit"] },
  );
  if (run.status !== 0) {
    throw new Error(
      "esbuild is needed to load a TypeScript engine: install it where the engine is " +
        "(npm install --no-save esbuild) or put an esbuild command on the PATH",
    );
  }
  return outfile;
}

/** Bundle `entry` as bundleTypeScript does, in a temporary folder, import it and remove the
 * folder: the module's namespace. */
export async function importTypeScript(entry, { resolveDir, searchFrom } = {}) {
  const folder = mkdtempSync(join(tmpdir(), "baloot-adapter-"));
  try {
    const outfile = bundleTypeScript(entry, { resolveDir, outfile: join(folder, "engine.mjs"), searchFrom });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
