// The health pass in ranges (./scan) gives the report of one range over the whole table
// (which ./sql.test checks against the in-memory reference) however the rows are cut: sums,
// distributions and per-step series merged across ranges, the first rollouts of each flagged kind
// in natural order. And the paced pass (./pass) over a file reads one moment's rows while
// the index keeps writing, on a connection with a small page cache.
import { mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { getRun } from "@/lib/runs/root";
import { SummaryIndex } from "@/lib/index/run-index";
import { SummaryRows } from "@/lib/index/rows";
import { policyModelOf, type RunFacts } from "@/lib/index/sql";
import type { RolloutSummary } from "@/lib/schema";
import { indexedSummaries } from "@/lib/testing/sql-engine";
import { drain, paced } from "./pass";
import { healthParts } from "./sql";

const RUNS = readdirSync(RUNS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .filter((n) =>
    readdirSync(path.join(RUNS_DIR, n)).some((f) => f === "tokens" || f === "rollouts.jsonl"),
  );

/** Means summed in another order differ in the last bits: compared to 12 significant digits. */
const rounded = <T>(x: T): T =>
  JSON.parse(
    JSON.stringify(x, (_, v: unknown) =>
      typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v,
    ),
  ) as T;

async function rowsOf(name: string, file: string | null) {
  const run = await getRun(name, RUNS_DIR);
  const summaries = await indexedSummaries(new SummaryIndex(run, null), {
    minIntervalMs: 0,
    waitMs: 60_000,
  });
  const rows = new SummaryRows(file);
  await rows.open(async () => null);
  rows.write(summaries.map((summary) => ({ summary, key: "k" })));
  const facts: RunFacts = { policy_model: policyModelOf(rows), capture_expected: true };
  return { rows, facts, summaries };
}

describe.each(RUNS)("the health pass in ranges on %s", (name) => {
  it("gives the one-range report for ranges of 1, 2 and 3 rows", async () => {
    const { rows, facts } = await rowsOf(name, null);
    const whole = drain(healthParts(rows.handle, facts, { pending: 1 }, 1e9));
    for (const chunk of [1, 2, 3])
      expect(rounded(drain(healthParts(rows.handle, facts, { pending: 1 }, chunk)))).toEqual(
        rounded(whole),
      );
  }, 60_000);
});

describe("the paced pass", () => {
  it("counts the rows of the moment it starts, while the index writes more", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-health-run-"));
    const { rows, facts, summaries } = await rowsOf(RUNS[0] as string, path.join(dir, "i.sqlite"));
    const before = summaries.length;
    let turns = 0;
    const done = paced(rows.handle, function* (db) {
      const parts = yield* healthParts(db, facts, {}, 1);
      turns++;
      return parts;
    });
    // Written after the pass started: a copy of every rollout under another id.
    const more: RolloutSummary[] = summaries.map((s) => ({
      ...s,
      rollout_id: `${s.rollout_id}-x`,
    }));
    rows.write(more.map((summary) => ({ summary, key: "k" })));
    const parts = await done;
    expect(turns).toBe(1);
    expect(parts.health.rollouts).toBe(before);
    expect(drain(healthParts(rows.handle, facts)).health.rollouts).toBe(2 * before);
    rows.close();
  }, 60_000);

  it("reads on a connection whose page cache is 2 MB at most, not SQLite's build default", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-health-run-"));
    const { rows } = await rowsOf(RUNS[0] as string, path.join(dir, "i.sqlite"));
    // A negative cache_size is in kB; SQLite's build here defaults to -16000 (16 MB).
    const size = await paced(rows.handle, function* (db) {
      yield;
      return db.pragma("cache_size", { simple: true }) as number;
    });
    expect(size).toBeLessThan(0);
    expect(-size).toBeLessThanOrEqual(2048);
    rows.close();
  }, 60_000);
});
