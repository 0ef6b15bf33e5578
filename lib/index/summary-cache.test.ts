// The summary cache heals itself: a database with garbage pages, one that is not SQLite at all, rows
// that are not summaries and a table of another schema are each detected on open, rebuilt from the
// store in one refresh with a notice in the progress, and the store is never written.
import { randomBytes } from "node:crypto";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  writeFileSync,
  closeSync,
  utimesSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { fingerprintTree } from "@/lib/testing/fingerprint";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import type { RolloutSummary } from "@/lib/schema";
import { getRun, type RunLayout } from "@/lib/runs/root";
import { SummaryIndex } from "./run-index";
import { SCHEMA_VERSION } from "./rows";
import { textIndexingIdle } from "./search";

const N = 40;
const IDS = Array.from({ length: N }, (_, i) => `${i}-0`).sort((a, b) =>
  a.localeCompare(b, "en", { numeric: true }),
);

async function builtRun(): Promise<{
  run: RunLayout;
  store: string;
  db: string;
  clean: RolloutSummary[];
}> {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-heal-"));
  const tokens = path.join(root, "run", "tokens");
  mkdirSync(tokens, { recursive: true });
  for (const id of IDS)
    writeFileSync(
      path.join(tokens, `${id}.tokens.jsonl`),
      line(tokenRecord(id, "a", [1, 2, 3], [4, 5])) +
        line(tokenRecord(id, "b", [1, 2, 3, 4, 5, 6], [7], { created_at: 1786032155 })),
    );
  const run = await getRun("run", root);
  const db = path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-heal-cache-")), "i.sqlite");
  const index = new SummaryIndex(run, db);
  const snap = await index.snapshot({ minIntervalMs: 0, waitMs: 30_000 });
  const clean = index.all();
  await closed(index);
  expect(clean.map((s) => s.rollout_id)).toEqual(IDS);
  expect(snap.progress.error).toBeNull();
  return { run, store: path.join(root, "run"), db, clean };
}

/**
 * Closes the index and waits for its search pass: a restart finds no connection of it open. One
 * left open (the trigram worker's, at the lowest priority) kept the WAL, and its close later wrote
 * the WAL's pages back over a test's damage, so the damage was never seen (a CI run, Dec 2026).
 * A worker the pool abandoned (starved past the read deadline) closes its connection only as it
 * exits, after its job failed: the WAL is given until then to go.
 */
async function closed(index: SummaryIndex): Promise<void> {
  index.close();
  await textIndexingIdle(index.rows);
  await expect
    .poll(() => existsSync(`${index.rows.file}-wal`), {
      message: "a connection to the index is still open",
      timeout: 15_000,
    })
    .toBe(false);
}

/** One refresh of a new index over the (damaged) database: what a restarted server shows. */
async function reopened(run: RunLayout, db: string) {
  const index = new SummaryIndex(run, db);
  const snap = await index.snapshot({ minIntervalMs: 0, waitMs: 30_000 });
  const summaries = index.all();
  await closed(index);
  return { ...snap, summaries };
}

function overwritePages(file: string, first: number, count: number): void {
  const fd = openSync(file, "r+");
  try {
    writeSync(fd, randomBytes(4096 * count), 0, 4096 * count, 4096 * first);
  } finally {
    closeSync(fd);
  }
}

describe("a damaged summary cache", () => {
  it("with garbage pages: every rollout is shown after one refresh, with a notice, and the cache is rebuilt", async () => {
    const { run, store, db, clean } = await builtRun();
    const sql = new Database(db);
    expect(sql.pragma("page_count", { simple: true })).toBeGreaterThan(10);
    sql.close();
    const before = fingerprintTree(store);
    overwritePages(db, 1, 8);
    const snap = await reopened(run, db);
    expect(snap.summaries).toEqual(clean);
    expect(snap.progress.total).toBe(N); // everything re-summarised from the store
    expect(snap.progress.error).toMatch(
      /^the summary cache was damaged \(.+\) and (is being|was) rebuilt from the store$/,
    );
    expect(existsSync(`${db}.damaged`)).toBe(true);
    const warm = await reopened(run, db); // the rebuilt database serves a restart again
    expect(warm.progress).toMatchObject({ total: 0, error: null });
    expect(warm.summaries).toEqual(clean);
    expect(fingerprintTree(store)).toEqual(before);
  }, 60_000);

  it("damaged while the index is open: found by the next refresh, rebuilt from the store", async () => {
    const { run, store, db, clean } = await builtRun();
    const index = new SummaryIndex(run, db);
    await index.snapshot({ minIntervalMs: 0, waitMs: 30_000 }); // re-opened warm: its check passed
    await closed(index); // idle between refreshes: its handle is closed, as the refresh leaves it
    overwritePages(db, 1, 8); // the table's root pages
    const grown = path.join(store, "tokens", `${"0-0"}.tokens.jsonl`);
    appendFileSync(grown, line(tokenRecord("0-0", "c", [1, 2, 3, 4, 5, 6, 7, 9], [10])));
    utimesSync(grown, new Date(), new Date(Date.now() + 5000));
    const snap = await index.snapshot({ minIntervalMs: 0, waitMs: 30_000 });
    const all = index.all();
    await closed(index);
    expect(all.map((s) => s.rollout_id)).toEqual(IDS);
    expect(all.find((s) => s.rollout_id === "0-0")!.n_calls).toBe(3);
    expect(all.slice(1)).toEqual(clean.slice(1));
    expect(snap.progress.error).toMatch(/^the summary cache was damaged \(SQLITE_CORRUPT/);
    const warm = await reopened(run, db); // the rebuilt database serves a restart
    expect(warm.progress).toMatchObject({ total: 0, error: null });
    expect(warm.summaries).toEqual(all);
  }, 60_000);

  it("that is not SQLite at all is rebuilt and says so", async () => {
    const { run, store, db, clean } = await builtRun();
    const before = fingerprintTree(store);
    writeFileSync(db, randomBytes(64 * 1024));
    const snap = await reopened(run, db);
    expect(snap.summaries).toEqual(clean);
    expect(snap.progress.error).toMatch(/damaged \(not a SQLite database\)/);
    expect(fingerprintTree(store)).toEqual(before);
  }, 60_000);

  it("with rows that are not summaries: only those rollouts are re-summarised, the others are served", async () => {
    const { run, store, db, clean } = await builtRun();
    const before = fingerprintTree(store);
    const sql = new Database(db);
    sql.prepare("UPDATE summaries SET mask_reasons = '{' WHERE id = ?").run("1-0"); // not JSON
    sql.prepare("UPDATE summaries SET metrics = 'nul' WHERE id = ?").run("2-0");
    sql.prepare("UPDATE summaries SET n_calls = 'two' WHERE id = ?").run(IDS[3]); // a wrong type
    sql.prepare("UPDATE summaries SET severity = 'fine' WHERE id = ?").run(IDS[4]); // not a class
    sql.close();
    const snap = await reopened(run, db);
    expect(snap.progress.total).toBe(4);
    expect(snap.summaries).toEqual(clean);
    expect(snap.progress.error).toMatch(/damaged \(4 rows were not valid summaries\)/);
    const warm = await reopened(run, db);
    expect(warm.progress).toMatchObject({ total: 0, error: null });
    expect(fingerprintTree(store)).toEqual(before);
  }, 60_000);

  it("with a table of another schema, or another schema version, is rebuilt", async () => {
    const { run, db, clean } = await builtRun();
    for (const [setup, reason] of [
      [
        "DROP TABLE summaries; CREATE TABLE summaries (a INTEGER, b BLOB); INSERT INTO summaries VALUES (1, x'00')",
        /table summaries has other columns than this version's/,
      ],
      ["CREATE TABLE rollouts (id TEXT, key TEXT, summary TEXT)", /unexpected tables rollouts/],
      ["PRAGMA user_version = 99", new RegExp(`schema version 99, expected ${SCHEMA_VERSION}`)],
    ] as const) {
      const sql = new Database(db);
      sql.exec(setup);
      sql.close();
      const snap = await reopened(run, db);
      expect(snap.summaries).toEqual(clean);
      expect(snap.progress.error).toMatch(reason);
    }
  }, 60_000);
});
