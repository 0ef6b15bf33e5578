// GET /api/runs/{run}/trainer/hotspots over the committed grpo-hotspots run. The expected tables are
// the generator's own account of what it wrote (regenerated into a temp root; the fixtures test
// keeps the committed files byte-equal to it), ranked here by the documented rule: mean (or tail
// share) descending, then count descending, then key; rows seen fewer than min_count times left out.
import { appendFileSync, cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { writeGrpoRuns } from "@/fixtures/generator/grpo";
import { MOE_RUN, MOE_TRUTH, writeMoeRoutes } from "@/fixtures/generator/moe-routes";
import { HOT_ROUTE, moeKey } from "@/fixtures/generator/moe-planted";
import type { MoeStat } from "@/fixtures/generator/moe-steps";
import {
  HOT_TOKENS,
  HOTSPOTS_RUN,
  writeNemoRlHotspots,
  type HotspotsTruth,
  type TruthStat,
} from "@/fixtures/generator/nemo-rl-hotspots";
import { trainerHotspotsSchema, type HotspotRow } from "@/lib/schema";
import { req, runCtx, serveRunsRoot } from "@/lib/testing/fixture-runs";
import { GET } from "./route";

// A copy of the sample runs, so a test may damage a step file without touching the committed ones.
let root = "";
let truth: HotspotsTruth;
beforeAll(async () => {
  const gen = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-hotspots-"));
  await writeGrpoRuns(gen);
  truth = await writeNemoRlHotspots(gen);
  await writeMoeRoutes(gen);
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-hotspots-root-"));
  for (const run of [HOTSPOTS_RUN, "gym-main-example", MOE_RUN])
    cpSync(path.join(RUNS_DIR, run), path.join(root, run), { recursive: true });
  cpSync(path.join(RUNS_DIR, HOTSPOTS_RUN), path.join(root, "damaged"), { recursive: true });
  appendFileSync(path.join(root, "damaged", "logs", "train_data_step2.jsonl"), "{not json\n");
  // Many bad lines, and a sample whose trained ids no tokenizer has (past 2^40, negative).
  cpSync(path.join(RUNS_DIR, HOTSPOTS_RUN), path.join(root, "hostile"), { recursive: true });
  const odd = {
    input_lengths: [3],
    token_ids: [[1, 2 ** 40, -4]],
    token_loss_mask: [[0, 1, 1]],
    sample_loss_mask: [1],
    generation_logprobs: [[0, -1, -1]],
    prev_logprobs: [[0, -2, -2]],
    idx: 99,
  };
  appendFileSync(
    path.join(root, "hostile", "logs", "train_data_step1.jsonl"),
    "[1,\n".repeat(60) + JSON.stringify(odd) + "\n",
  );
  // A step file that links out of its directory, to a file holding a secret line.
  cpSync(path.join(RUNS_DIR, HOTSPOTS_RUN), path.join(root, "linked"), { recursive: true });
  const outside = path.join(gen, "outside.jsonl");
  writeFileSync(outside, "SECRET-OUTSIDE\n");
  const linked = path.join(root, "linked", "logs", "train_data_step3.jsonl");
  rmSync(linked);
  symlinkSync(outside, linked);
}, 60_000);
serveRunsRoot(() => root);

async function hotspots(run: string, query = "") {
  const res = await GET(req(`/x${query}`), runCtx(run));
  expect(res.status).toBe(200);
  return trainerHotspotsSchema.parse(await res.json());
}

function expected(m: Map<number, TruthStat | MoeStat>, by: "mean" | "tail", minCount: number) {
  const value = (s: TruthStat | MoeStat) => (by === "mean" ? s.mean : s.tailShare);
  return [...m]
    .filter(([, s]) => s.count >= minCount)
    .sort(([ka, a], [kb, b]) => value(b) - value(a) || b.count - a.count || ka - kb);
}

function expectTable(
  rows: HotspotRow[],
  want: Array<[number, TruthStat | MoeStat]>,
  keyOf = (r: HotspotRow) => r.key,
) {
  expect(rows.map(keyOf)).toEqual(want.map(([k]) => k));
  rows.forEach((r, i) => {
    const s = (want[i] as [number, TruthStat | MoeStat])[1];
    expect(r.count).toBe(s.count);
    expect(r.mean).toBeCloseTo(s.mean, 9);
    expect(r.tail_share).toBeCloseTo(s.tailShare, 12);
    expect(r.max).toBeCloseTo(s.max, 9);
  });
}

describe("GET /api/runs/{run}/trainer/hotspots", () => {
  it("ranks tokens, position buckets and turns as the generator wrote them", async () => {
    const h = await hotspots(HOTSPOTS_RUN, "?limit=200");
    expect(h.log_dir).toBe("logs");
    expect(h.step_files).toBe(3);
    expect(h.masked_tokens).toBe(truth.maskedTokens);
    expect(h.issues).toEqual([]);
    expectTable(h.tokens, expected(truth.tokens, "mean", h.min_count.tokens));
    expectTable(h.positions, expected(truth.positions, "mean", 1), (r) => r.from ?? -1);
    expectTable(h.turns, expected(truth.turns, "mean", 1));
    expect(h.distinct.tokens).toBe(truth.tokens.size);
    expect(h.turn_unknown).toBe(0);
  });

  it("puts each planted token in the turn of the call that generated it", async () => {
    const h = await hotspots(HOTSPOTS_RUN, "?limit=200");
    // The generator names the call of each planted occurrence; each call's row holds them.
    const byCall = new Map<number, number>();
    for (const p of truth.planted) byCall.set(p.call, (byCall.get(p.call) ?? 0) + 1);
    expect(byCall.size).toBeGreaterThan(0);
    // The planted errors dwarf the rest: their call leads the turns.
    expect([h.turns[0]?.key]).toEqual([...byCall.keys()].slice(0, 1));
    for (const [call, n] of byCall) {
      const row = h.turns.find((r) => r.key === call);
      expect(row?.count).toBe(truth.turns.get(call)?.count);
      expect(row!.count).toBeGreaterThanOrEqual(n);
    }
  });

  it("puts the planted tokens first, decoded, each linked to a joined rollout at that token", async () => {
    const h = await hotspots(HOTSPOTS_RUN, "?limit=3");
    expect(h.tokens.map((r) => [r.key, r.text])).toEqual(HOT_TOKENS.map((t) => [t.id, t.text]));
    for (const r of h.tokens) {
      expect(r.tail_share).toBe(1);
      expect(r.worst.rollout_id).not.toBeNull();
      expect(r.worst.file).toMatch(/^train_data_step\d+\.jsonl$/);
    }
    expect(h.moe_layers).toBeNull();
  });

  it("ranks MoE layer × expert as moe-routes' step files planted them", async () => {
    const h = await hotspots(MOE_RUN, "?limit=200");
    const want = MOE_TRUTH.hotspots!;
    const moe = h.moe_layers!;
    expect([moe.layers, moe.topk]).toEqual([4, 2]);
    expectTable(moe.rows, expected(want.rows, "mean", moe.min_count));
    expect(moe.rows[0]).toMatchObject({ layer: HOT_ROUTE.layer, expert: HOT_ROUTE.expert });
    expect(moe.rows[0]!.key).toBe(moeKey(HOT_ROUTE.layer, HOT_ROUTE.expert));
    expect(moe.rows[0]!.worst.rollout_id).not.toBeNull();
    for (const k of ["replayed", "fallback"] as const) {
      expect(moe[k]!.count).toBe(want[k].count);
      expect(moe[k]!.mean).toBeCloseTo(want[k].mean, 9);
      expect(moe[k]!.tail_share).toBeCloseTo(want[k].tailShare, 12);
    }
    expect(moe.no_route).toBe(want.noRoute);
    expect(h.turn_unknown).toBe(0);
    const tail = await hotspots(MOE_RUN, "?by=tail&limit=200");
    expectTable(tail.moe_layers!.rows, expected(want.rows, "tail", moe.min_count));
  });

  it("ranks by tail share on ?by=tail", async () => {
    const h = await hotspots(HOTSPOTS_RUN, "?by=tail&limit=200");
    expect(h.by).toBe("tail");
    expectTable(h.tokens, expected(truth.tokens, "tail", h.min_count.tokens));
    expectTable(h.turns, expected(truth.turns, "tail", 1));
  });

  it("says there are no step files (no log directory), not zero", async () => {
    const h = await hotspots("gym-main-example");
    expect(h.log_dir).toBeNull();
    expect([h.step_files, h.tokens.length, h.positions.length, h.turns.length]).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it("names the file and line of a line it cannot read, and counts the rest", async () => {
    const h = await hotspots("damaged", "?limit=200");
    expect(h.issues).toHaveLength(1);
    expect(h.issues[0]).toMatch(/^train_data_step2\.jsonl line 9: /);
    expect(h.masked_tokens).toBe(truth.maskedTokens);
  });

  it("lists 50 bad lines and counts the rest; keeps ids no tokenizer has", async () => {
    const h = await hotspots("hostile", "?limit=200");
    expect(h.issues).toHaveLength(51);
    expect(h.issues[0]).toMatch(/^train_data_step1\.jsonl line 9: /);
    expect(h.issues[50]).toBe("… and 10 more lines not read");
    expect(h.distinct.tokens).toBe(truth.tokens.size + 2);
    expect(h.masked_tokens).toBe(truth.maskedTokens + 2);
  });

  it("refuses a step file that links out of its directory, by name, unread", async () => {
    const h = await hotspots("linked", "?limit=200");
    expect(h.step_files).toBe(3);
    expect(h.issues).toHaveLength(1);
    expect(h.issues[0]).toContain("train_data_step3.jsonl");
    expect(JSON.stringify(h)).not.toContain("SECRET-OUTSIDE");
    expect(h.samples).toBe(16);
  });

  it("refuses a misspelt or out-of-range parameter", async () => {
    expect((await GET(req("/x?by=median"), runCtx(HOTSPOTS_RUN))).status).toBe(400);
    expect((await GET(req("/x?limit=0"), runCtx(HOTSPOTS_RUN))).status).toBe(400);
  });
});
