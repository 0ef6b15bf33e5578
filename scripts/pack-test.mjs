// `npm test`'s package check: `npm pack` (its prepack reuses the standalone build `npm test` just
// made), installs the tarball into an empty temporary prefix with no network (--offline: the
// package has no dependencies), serves one sample run with the installed `rollout-lens serve` from a
// directory outside the clone, and checks the API, the index on store workers, decoded tokens, a
// page and one of its assets, that the index went to the user's cache directory and that nothing
// was written into the installed package. Writes {passed, failed, seconds} for scripts/summary.mjs.
// Usage: node scripts/pack-test.mjs [--rebuild] [--report FILE]
import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkServed } from "./pack-checks.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUN = "opencode-after-fix";
const arg = (name) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const reportAt = arg("--report") ?? path.join(ROOT, "reports", "pack.json");
/** The files whose absence broke the first version of this route (see build-package.mjs). */
const MUST_SHIP = [
  ".next/standalone/server.js",
  ".next/standalone/.next/BUILD_ID",
  ".next/standalone/node_modules/next/package.json",
  ".next/standalone/node_modules/better-sqlite3/build/Release/better_sqlite3.node",
  ".next/standalone/dist/store-worker.mjs",
  ".next/standalone/dist/trigram-worker.mjs",
  ".next/standalone/dist/cli.mjs",
  "cli/bin.mjs",
];

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });

const sh = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], ...opts });

const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

/** `npm pack` as a user runs it (prepack included), into dir; the tarball's path. */
function pack(dir) {
  const reuse =
    !process.argv.includes("--rebuild") &&
    existsSync(path.join(ROOT, ".next", "standalone", "server.js"));
  const t = Date.now();
  sh("npm", ["pack", "--loglevel=warn", "--pack-destination", dir], {
    cwd: ROOT,
    env: { ...process.env, ROLLOUT_LENS_PACK_REUSE_BUILD: reuse ? "1" : "0" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const name = readdirSync(dir).find((f) => /^rollout-lens-.*\.tgz$/.test(f));
  if (!name) throw new Error("npm pack wrote no rollout-lens-*.tgz");
  const tarball = path.join(dir, name);
  const entries = new Set(sh("tar", ["-tzf", tarball]).split("\n"));
  const missing = MUST_SHIP.filter((f) => !entries.has(`package/${f}`));
  if (missing.length > 0) throw new Error(`the tarball lacks ${missing.join(", ")}`);
  const mb = (statSync(tarball).size / 1e6).toFixed(1);
  console.log(`packed ${name} in ${seconds(t)} s: ${mb} MB, ${entries.size - 1} entries`);
  return tarball;
}

/** Every file under dir with its size and mtime, to tell whether serving wrote anything there. */
function snapshot(dir, rel = "", out = new Map()) {
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = path.join(rel, entry.name);
    if (entry.isDirectory()) snapshot(dir, name, out);
    else {
      const st = statSync(path.join(dir, name));
      out.set(name, `${st.size}:${st.mtimeMs}`);
    }
  }
  return out;
}

function changedFiles(before, after) {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n));
}

async function waitFor(url, child, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      return await fetch(url);
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

/**
 * SIGTERM to the CLI alone must stop the server it started (a supervisor stops only its child);
 * whatever is left of the process group after 10 s is killed, and the test fails.
 */
async function stop(child) {
  const exited = new Promise((r) => child.once("exit", r));
  if (child.exitCode === null) child.kill("SIGTERM");
  const inTime = await Promise.race([
    exited.then(() => true),
    new Promise((r) => setTimeout(() => r(false), 10_000)),
  ]);
  let leftOver = false;
  try {
    process.kill(-child.pid, 0); // throws once the group is empty
    leftOver = true;
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // the CLI and its server are gone
  }
  if (!inTime || leftOver)
    throw new Error("`rollout-lens serve` did not stop its server on SIGTERM");
}

/** The environment of a user with nothing of the clone: no runs root, cache or module path set. */
function userEnv(tmp) {
  const env = {
    ...process.env,
    HOME: path.join(tmp, "home"),
    XDG_CACHE_HOME: path.join(tmp, "cache"),
  };
  for (const key of Object.keys(env))
    if (key.startsWith("ROLLOUT_LENS_") || key.startsWith("npm_") || key === "NODE_PATH")
      delete env[key];
  return env;
}

async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-pack-"));
  let child = null;
  try {
    const tarball = pack(tmp);
    const prefix = path.join(tmp, "prefix");
    const t = Date.now();
    const install = [
      "install",
      "-g",
      "--prefix",
      prefix,
      "--offline",
      "--no-audit",
      "--no-fund",
      "--no-update-notifier",
    ];
    sh("npm", [...install, tarball], { cwd: tmp, env: userEnv(tmp) });
    console.log(`installed into an empty prefix in ${seconds(t)} s (offline)`);
    const installed = path.join(prefix, "lib", "node_modules", "rollout-lens");
    const before = snapshot(installed);
    const runs = path.join(tmp, "runs");
    cpSync(path.join(ROOT, "fixtures", "runs", RUN), path.join(runs, RUN), { recursive: true });
    const port = await freePort();
    child = spawn(path.join(prefix, "bin", "rollout-lens"), ["serve", runs, "--port", `${port}`], {
      cwd: tmp, // nothing of the clone is found from here
      env: userEnv(tmp),
      stdio: ["ignore", "inherit", "inherit"],
      detached: true, // its own process group, so stop() can tell whether anything outlived it
    });
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/runs`, child, 60_000);
    const served = await checkServed(base, path.join(ROOT, "fixtures", "runs"), RUN);
    const cache = path.join(tmp, "cache", "rollout-lens");
    if (!existsSync(cache) || readdirSync(cache).length === 0)
      throw new Error(`the summary index is not in the user's cache directory (${cache})`);
    await stop(child);
    child = null;
    const written = changedFiles(before, snapshot(installed));
    if (written.length > 0)
      throw new Error(
        `serving wrote into the installed package: ${written.slice(0, 3).join(", ")}`,
      );
    return `${served}; index in $XDG_CACHE_HOME/rollout-lens, nothing written to the package`;
  } finally {
    if (child) await stop(child).catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  }
}

const t0 = Date.now();
let failed = 0;
try {
  console.log(`pack-install-serve: ${await main()}`);
} catch (err) {
  failed = 1;
  console.log(`pack-install-serve FAILED: ${err instanceof Error ? err.message : err}`);
}
console.log(`pack test time: ${seconds(t0)}s`);
mkdirSync(path.dirname(reportAt), { recursive: true });
writeFileSync(
  reportAt,
  JSON.stringify({ passed: 1 - failed, failed, seconds: +seconds(t0) }) + "\n",
);
process.exit(failed);
