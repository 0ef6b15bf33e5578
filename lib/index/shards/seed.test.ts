// The server reads a run's shard set (ROLLOUT_LENS_SHARDS): a fresh index seeded from shards
// summarises nothing the shards hold and serves exactly what a shard-less index computes; a
// rollout whose files changed since the shards were made is summarised again.
import { cpSync, mkdirSync, mkdtempSync, utimesSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { getRun } from "@/lib/runs/root";
import { indexShard } from "./write";
import { SHARDS_ENV } from "./import";
import { SummaryIndex } from "../run-index";

const SOURCE = path.resolve("fixtures/runs/claude-code-capture-on");
const tmp = (p: string) => mkdtempSync(path.join(os.tmpdir(), p));

beforeAll(() => void execFileSync(process.execPath, ["scripts/build-node.mjs"]), 60_000);
afterEach(() => void delete process.env[SHARDS_ENV]);

async function freshIndex(root: string) {
  const run = await getRun("cc", root);
  const index = new SummaryIndex(run, path.join(tmp("rollout-lens-seed-db-"), "index.sqlite"));
  const snap = await index.snapshot({ minIntervalMs: 0, waitMs: 60_000 });
  const all = index.all();
  index.close();
  return { run, snap, all };
}

describe("an index seeded from a shard set", () => {
  it("takes every current row from the shards and summarises only rollouts changed since", async () => {
    const root = tmp("rollout-lens-seed-runs-");
    cpSync(SOURCE, path.join(root, "cc"), { recursive: true });
    const plain = await freshIndex(root);
    expect(plain.snap.progress.total).toBe(plain.all.length); // summarised itself, every one

    const shards = tmp("rollout-lens-seed-shards-");
    mkdirSync(path.join(shards, "cc"));
    for (const index of [0, 1])
      await indexShard(plain.run, { index, count: 2 }, path.join(shards, "cc", `s${index}.sqlite`));
    process.env[SHARDS_ENV] = shards;
    const seeded = await freshIndex(root);
    expect(seeded.snap.progress.total).toBe(0);
    expect(seeded.all).toEqual(plain.all);

    // A token file touched after the shards were made: that rollout alone is summarised again.
    const touched = path.join(root, "cc", "tokens", "1-0.tokens.jsonl");
    utimesSync(touched, new Date(), new Date(Date.now() + 10_000));
    const after = await freshIndex(root);
    expect(after.snap.progress.total).toBe(1);
    expect(after.all.map((s) => s.rollout_id)).toEqual(plain.all.map((s) => s.rollout_id));
  }, 120_000);
});
