// Bundles the code that runs on Node outside Next into plain JavaScript under dist/: the store
// worker thread of the inspector's and the summary index's pools (dist/store-worker.mjs), search's
// trigram writer (dist/trigram-worker.mjs, its own small bundle) and the command line
// (dist/cli.mjs). `npm run build` runs it after `next build`. Bundled with the "react-server" condition, so `server-only`
// resolves to its empty module as it does in Next's server bundles; "@/" comes from tsconfig
// paths; better-sqlite3 (native) stays external. Files are written whole and renamed into place,
// so a concurrent reader (another test file, a running server) never loads half a bundle.
import { build } from "esbuild";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "dist");
const ENTRIES = {
  "store-worker": "lib/inspect/store-worker.ts",
  "trigram-worker": "lib/index/search/trigram-worker.ts",
  cli: "cli/main.ts",
};

export async function buildNode() {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, file]) => [name, path.join(ROOT, file)]),
    ),
    outdir: OUT,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["react-server"],
    tsconfig: path.join(ROOT, "tsconfig.json"),
    external: ["better-sqlite3"],
    // Bundled CommonJS dependencies call require(); ESM output has none unless it is made.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
    legalComments: "none",
    logLevel: "warning",
    write: false,
  });
  await mkdir(OUT, { recursive: true });
  for (const file of result.outputFiles) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    await writeFile(tmp, file.contents);
    await rename(tmp, file.path);
  }
  return result.outputFiles.map((f) => path.relative(ROOT, f.path));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await buildNode();
  process.stdout.write(`built ${files.join(", ")}\n`);
}
