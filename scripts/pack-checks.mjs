// What scripts/pack-test.mjs asks of the installed package's server: each answer exercises a part
// of the package that resolves on its own (Next and React from the standalone node_modules,
// better-sqlite3's native binding, the store worker bundle, the bundled tokenizer, the browser
// assets). Expected values come from the fixture's files, not from the server.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

async function json(url) {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return res.json();
}

/** The rollouts the fixture's records hold, and its token store's rollout ids. */
function fixtureTruth(runDir) {
  const records = readFileSync(path.join(runDir, "rollouts.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "").length;
  const ids = readdirSync(path.join(runDir, "tokens"))
    .filter((f) => f.endsWith(".tokens.jsonl"))
    .map((f) => f.slice(0, -".tokens.jsonl".length))
    .sort();
  return { records, ids };
}

/**
 * /api/runs lists exactly the served run with its rollouts counted by the summary index (SQLite),
 * summarised on store workers (without the worker bundle the index runs inline and says 0 on
 * workers); polls while the index builds.
 */
async function checkIndex(base, run, want) {
  let inWorkers = 0;
  for (let i = 0; i < 120; i++) {
    const { runs } = await json(`${base}/api/runs`);
    const ids = runs.map((r) => r.id);
    if (ids.length !== 1 || ids[0] !== run)
      throw new Error(`/api/runs lists ${JSON.stringify(ids)}, not [${run}]`);
    const [got] = runs;
    if (got.indexing.error) throw new Error(`the summary index failed: ${got.indexing.error}`);
    inWorkers = Math.max(inWorkers, got.indexing.in_workers);
    if (!got.indexing.running && got.rollouts === want) {
      if (inWorkers === 0) throw new Error("no rollout was summarised on a store worker");
      return inWorkers;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`/api/runs did not count ${want} rollouts within 60 s`);
}

/** A rollout's tokens decode to text (the run names the bundled o200k_base encoding). */
async function checkTokens(base, run, rollout) {
  const url = `${base}/api/runs/${run}/rollouts/${rollout}/tokens?chain=main&limit=50`;
  const body = await json(url);
  const texts = body.tokens?.text ?? [];
  const decoded = texts.filter((t) => typeof t === "string" && t !== "").length;
  if (decoded === 0) throw new Error(`${url}: no token decoded to text`);
  return decoded;
}

/** The run page and one of the assets it names (the standalone server's static files). */
async function checkPage(base, run) {
  const page = await fetch(`${base}/runs/${run}`);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`/runs/${run} answered ${page.status}`);
  const asset = html.match(/\/_next\/static\/[^"]+\.(?:js|css)/)?.[0];
  if (!asset) throw new Error(`/runs/${run} names no /_next/static asset`);
  const got = await fetch(`${base}${asset}`);
  if (got.status !== 200) throw new Error(`${asset} answered ${got.status}`);
  return asset;
}

export async function checkServed(base, runsRoot, run) {
  const { records, ids } = fixtureTruth(path.join(runsRoot, run));
  const inWorkers = await checkIndex(base, run, records);
  const decoded = await checkTokens(base, run, ids[0]);
  const asset = await checkPage(base, run);
  return (
    `${run}: ${records} rollouts indexed (${inWorkers} on workers), ` +
    `${decoded} tokens of ${ids[0]} decoded, /runs/${run} and ${asset} 200`
  );
}
