// `npm pack`'s prepack: makes the package run with no clone and no build. `next build` writes the
// standalone server (.next/standalone: server.js, the traced server files and the node_modules they
// need); Next leaves the browser assets out of it, so .next/static (and public/, if any) are copied
// in. better-sqlite3 is dropped from the standalone copy: its native binary was built for this
// machine, and the package's own dependency (a prebuilt binary for the user's platform, installed
// by npm) is found one directory further up. Turbopack names externals by hashed symlinks in
// .next/node_modules, which `npm pack` drops: each becomes a one-line module that requires its
// target. sharp (image optimisation, unused here, platform-specific) is dropped too. Then the
// worker and CLI bundles (build-node.mjs).
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildNode } from "./build-node.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STANDALONE = path.join(ROOT, ".next", "standalone");
/** Native modules the package installs for the user's platform instead of shipping this one's. */
const NATIVE = ["better-sqlite3", "bindings", "file-uri-to-path"];
const UNUSED = ["sharp", "@img"];

/** `.next/node_modules/<name>-<hash>` symlinks become packages that require `<name>`. */
function replaceExternalLinks() {
  const dir = path.join(STANDALONE, ".next", "node_modules");
  if (!existsSync(dir)) return;
  for (const link of readdirSync(dir)) {
    const at = path.join(dir, link);
    if (!lstatSync(at).isSymbolicLink()) continue;
    const target = readlinkSync(at)
      .split(/[\\/]node_modules[\\/]/)
      .pop();
    rmSync(at);
    mkdirSync(at);
    writeFileSync(path.join(at, "package.json"), JSON.stringify({ name: link, main: "index.js" }));
    writeFileSync(
      path.join(at, "index.js"),
      `module.exports = require(${JSON.stringify(target)});\n`,
    );
  }
}

export function prepareStandalone() {
  if (!existsSync(path.join(STANDALONE, "server.js")))
    throw new Error(
      `${STANDALONE}/server.js is missing: next.config.ts needs output: "standalone"`,
    );
  cpSync(path.join(ROOT, ".next", "static"), path.join(STANDALONE, ".next", "static"), {
    recursive: true,
  });
  if (existsSync(path.join(ROOT, "public")))
    cpSync(path.join(ROOT, "public"), path.join(STANDALONE, "public"), { recursive: true });
  replaceExternalLinks();
  for (const name of [...NATIVE, ...UNUSED])
    rmSync(path.join(STANDALONE, "node_modules", name), { recursive: true, force: true });
  // The clone's own run data and caches are not the package's (fixtures/runs ships separately).
  for (const name of [".rollout-lens-cache", "fixtures", "reports", "test-results"])
    rmSync(path.join(STANDALONE, name), { recursive: true, force: true });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const next = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
  if (!process.argv.includes("--no-next-build"))
    execFileSync(process.execPath, [next, "build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, ROLLOUT_LENS_STANDALONE: "1" },
    });
  prepareStandalone();
  const files = await buildNode();
  process.stdout.write(`packaged .next/standalone; built ${files.join(", ")}\n`);
}
