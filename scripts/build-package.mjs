// `npm pack`'s prepack: makes the package run with no clone, no build, no compiler and no network.
// Everything the installed `rollout-lens` runs lives in .next/standalone, so plain Node resolution
// finds every module from there: Next's server.js with the traced node_modules it needs (next,
// react, better-sqlite3 with the native binding this clone compiled or downloaded), the browser
// assets (.next/static, public/), the worker and CLI bundles (dist/, from build-node.mjs) and the
// sample runs (fixtures/runs). The package has no dependencies, so installing it runs no script.
// The tracer also copies project files the server never reads, and with them the clone's
// .gitignore, under which `npm pack` silently dropped node_modules/ and .next/ from the tarball:
// those go, and the pack list is checked against the directory before npm packs it.
// Usage: node scripts/build-package.mjs [--no-next-build]   (ROLLOUT_LENS_PACK_REUSE_BUILD=1: same)
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildNode } from "./build-node.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STANDALONE = path.join(ROOT, ".next", "standalone");
/** What the standalone server needs of what `next build` wrote there; the rest is project files. */
const KEEP = new Set(["server.js", "package.json", ".next", "node_modules"]);
/** Image optimisation (unused here, platform-specific). */
const UNUSED = ["sharp", "@img"];
/** Files that tell `npm pack` to leave things out of the directory they sit in. */
const IGNORE_FILES = new Set([".gitignore", ".npmignore"]);

/** `.next/node_modules/<name>-<hash>` symlinks (npm packs no symlink) become modules requiring it. */
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

/** Every file under dir, relative to it; throws on a symlink (npm would leave it out). */
function filesUnder(dir, rel = "") {
  const out = [];
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = path.posix.join(rel, entry.name);
    if (entry.isSymbolicLink()) throw new Error(`${name}: a symlink, which npm pack leaves out`);
    if (entry.isDirectory()) out.push(...filesUnder(dir, name));
    else out.push(name);
  }
  return out;
}

function dropIgnoreFiles() {
  for (const file of filesUnder(STANDALONE))
    if (IGNORE_FILES.has(path.posix.basename(file))) rmSync(path.join(STANDALONE, file));
}

/**
 * The package.json server.js runs under (it is an ES module: "type"), naming the platform and
 * Node ABI the native binding was built for, so the CLI can say why it does not load elsewhere.
 */
function writeServerManifest() {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const builtFor = {
    platform: process.platform,
    arch: process.arch,
    node: process.versions.node,
    modules: process.versions.modules,
  };
  const manifest = {
    name: "rollout-lens-server",
    version,
    private: true,
    type: "module",
    builtFor,
  };
  writeFileSync(path.join(STANDALONE, "package.json"), JSON.stringify(manifest, null, 2) + "\n");
}

export function prepareStandalone() {
  if (!existsSync(path.join(STANDALONE, "server.js")))
    throw new Error(`${STANDALONE}/server.js is missing: build with ROLLOUT_LENS_STANDALONE=1`);
  for (const name of readdirSync(STANDALONE))
    if (!KEEP.has(name)) rmSync(path.join(STANDALONE, name), { recursive: true, force: true });
  for (const name of UNUSED)
    rmSync(path.join(STANDALONE, "node_modules", name), { recursive: true, force: true });
  if (!existsSync(path.join(STANDALONE, "node_modules", "better-sqlite3", "package.json")))
    throw new Error("the standalone output has no better-sqlite3: the server would not start");
  const copy = (from, to) =>
    cpSync(path.join(ROOT, from), path.join(STANDALONE, to ?? from), { recursive: true });
  copy(path.join(".next", "static"));
  if (existsSync(path.join(ROOT, "public"))) copy("public");
  for (const bundle of ["cli.mjs", "store-worker.mjs", "trigram-worker.mjs"])
    copy(path.join("dist", bundle));
  copy(path.join("fixtures", "runs"));
  replaceExternalLinks();
  dropIgnoreFiles();
  writeServerManifest();
}

/** npm's own pack list (what the tarball will hold) must hold every file of the standalone app. */
export function checkPackList() {
  const npm = process.env.npm_execpath;
  const args = ["pack", "--dry-run", "--json", "--ignore-scripts"];
  const out = npm
    ? execFileSync(process.execPath, [npm, ...args], { cwd: ROOT, encoding: "utf8" })
    : execFileSync("npm", args, { cwd: ROOT, encoding: "utf8" });
  const listed = new Set(JSON.parse(out)[0].files.map((f) => f.path));
  const missing = filesUnder(STANDALONE)
    .map((f) => `.next/standalone/${f}`)
    .filter((f) => !listed.has(f));
  if (missing.length > 0)
    throw new Error(
      `npm pack would leave out ${missing.length} files of .next/standalone, e.g. ${missing.slice(0, 3).join(", ")}`,
    );
  return listed.size;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const reuse =
    process.argv.includes("--no-next-build") || process.env.ROLLOUT_LENS_PACK_REUSE_BUILD === "1";
  if (!reuse) {
    const next = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
    execFileSync(process.execPath, [next, "build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, ROLLOUT_LENS_STANDALONE: "1" },
    });
  }
  const bundles = await buildNode();
  prepareStandalone();
  const files = checkPackList();
  // stderr: npm pack --json prints the tarball's description on stdout.
  process.stderr.write(`packaged .next/standalone (${bundles.join(", ")}): ${files} files\n`);
}
