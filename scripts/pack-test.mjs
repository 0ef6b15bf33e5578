// `npm test`'s package check: packs the app (reusing the standalone build `npm test` just made),
// installs the tarball into an empty temporary prefix, serves one sample run with the installed
// `rollout-lens serve` from a directory outside the clone, and checks the API, a page and one of
// its assets. Writes reports/pack.json ({passed, failed, seconds}) for scripts/summary.mjs.
// Usage: node scripts/pack-test.mjs [--report FILE]
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUN = "opencode-after-fix";
const reportAt = process.argv.includes("--report")
  ? process.argv[process.argv.indexOf("--report") + 1]
  : path.join(ROOT, "reports", "pack.json");

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    ...opts,
  });
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

/** The number of rollouts in the fixture's records: the count /api/runs must report. */
const expectedRollouts = () =>
  readFileSync(path.join(ROOT, "fixtures", "runs", RUN, "rollouts.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "").length;

/**
 * /api/runs lists exactly the served run with its rollouts counted by the summary index (SQLite:
 * better-sqlite3 as npm installed it), summarised on store workers (dist/store-worker.mjs found
 * from the package, not the cwd: without it the index runs inline and says 0 on workers); the run
 * page and one of its assets answer (the standalone server's static files were packed).
 */
async function check(base) {
  const want = expectedRollouts();
  let inWorkers = 0;
  let run;
  for (let i = 0; i < 120; i++) {
    const res = await fetch(`${base}/api/runs`);
    if (res.status !== 200) throw new Error(`/api/runs answered ${res.status}`);
    const { runs } = await res.json();
    const ids = runs.map((r) => r.id);
    if (ids.length !== 1 || ids[0] !== RUN)
      throw new Error(`/api/runs lists ${JSON.stringify(ids)}, not [${RUN}]`);
    run = runs[0];
    if (run.indexing.error) throw new Error(`the summary index failed: ${run.indexing.error}`);
    inWorkers = Math.max(inWorkers, run.indexing.in_workers);
    if (!run.indexing.running && run.rollouts === want) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  if (run.rollouts !== want)
    throw new Error(`/api/runs counts ${run.rollouts} rollouts, not ${want}`);
  if (inWorkers === 0) throw new Error("no rollout was summarised on a store worker");
  const page = await fetch(`${base}/runs/${RUN}`);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`/runs/${RUN} answered ${page.status}`);
  const asset = html.match(/\/_next\/static\/[^"]+\.(?:js|css)/)?.[0];
  if (!asset) throw new Error(`/runs/${RUN} names no /_next/static asset`);
  const got = await fetch(`${base}${asset}`);
  if (got.status !== 200) throw new Error(`${asset} answered ${got.status}`);
  return `${RUN}: ${want} rollouts indexed (${inWorkers} on workers), ${asset} 200`;
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

async function main() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-pack-"));
  let child = null;
  try {
    sh(process.execPath, [path.join(ROOT, "scripts", "build-package.mjs"), "--no-next-build"], {
      cwd: ROOT,
    });
    const packed = JSON.parse(
      sh("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], { cwd: ROOT }),
    )[0];
    console.log(
      `packed ${packed.filename}: ${(packed.size / 1e6).toFixed(1)} MB, ${packed.entryCount} files`,
    );
    const prefix = path.join(tmp, "prefix");
    const t = Date.now();
    sh(
      "npm",
      [
        "install",
        "-g",
        "--prefix",
        prefix,
        "--prefer-offline",
        "--allow-scripts=better-sqlite3",
        "--no-audit",
        "--no-fund",
        path.join(tmp, packed.filename),
      ],
      { cwd: tmp },
    );
    console.log(`installed into an empty prefix in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    const runs = path.join(tmp, "runs");
    cpSync(path.join(ROOT, "fixtures", "runs", RUN), path.join(runs, RUN), { recursive: true });
    const port = await freePort();
    child = spawn(
      path.join(prefix, "bin", "rollout-lens"),
      ["serve", runs, "--port", String(port)],
      {
        cwd: tmp, // nothing of the clone is found from here
        env: { ...process.env, ROLLOUT_LENS_CACHE: path.join(tmp, "cache") },
        stdio: ["ignore", "inherit", "inherit"],
        detached: true, // its own process group, so stop() can tell whether anything outlived it
      },
    );
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/runs`, child, 60_000);
    return await check(base);
  } finally {
    if (child) await stop(child);
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
const seconds = Math.round((Date.now() - t0) / 100) / 10;
console.log(`pack test time: ${seconds}s`);
writeFileSync(reportAt, JSON.stringify({ passed: 1 - failed, failed, seconds }) + "\n");
process.exit(failed);
