// The inspector's previous / next (neighborsOf) against orders computed here from the fixture run's
// files (token file sizes, the records' step and reward), and against hand-made summaries for nulls.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { rolloutSummarySchema, type RolloutSummary } from "@/lib/schema";
import { rolloutNeighborsSchema } from "@/lib/schema/api-progress";
import { indexedSummaries, sqlNeighbours } from "@/lib/testing/sql-engine";
import { getRun } from "@/lib/runs/root";
import { indexFor } from "./run-index";
import { inspectorHref, TABLE_QUERY_KEYS } from "@/lib/view/rollout-nav";
import { parseRolloutQuery, rolloutQuerySchema, type RolloutQuery } from "./query";
import { neighborsOf as inMemory, selectRollouts } from "@/lib/testing/rollout-query-reference";

const RUN = "grpo-capture-on";

/** The in-memory reference's neighbours, checked against the summary index's SQL. */
function neighborsOf(all: RolloutSummary[], id: string, q: RolloutQuery) {
  const n = inMemory(all, id, q);
  expect(sqlNeighbours(all, id, q)).toEqual(n);
  return n;
}
const natural = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });
const query = (qs: string) => parseRolloutQuery(new URLSearchParams(qs));

/** Each rollout's step, reward and token file size, read from the run's files directly. */
function onDisk(): Array<{ id: string; step: number; reward: number; bytes: number }> {
  const dir = path.join(RUNS_DIR, RUN);
  return readFileSync(path.join(dir, "rollouts.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const r = JSON.parse(l) as {
        _ng_task_index: number;
        _ng_rollout_index: number;
        step: number;
        reward: number;
      };
      const id = `${r._ng_task_index}-${r._ng_rollout_index}`;
      return {
        id,
        step: r.step,
        reward: r.reward,
        bytes: statSync(path.join(dir, "tokens", `${id}.tokens.jsonl`)).size,
      };
    });
}

/** Walks `order` and checks every rollout's neighbours, place and the filtered count. */
function expectWalk(all: RolloutSummary[], order: string[], qs: string) {
  const q = query(qs);
  order.forEach((id, i) => {
    const n = rolloutNeighborsSchema.parse(neighborsOf(all, id, q));
    expect(n).toEqual({
      prev: order[i - 1] ?? null,
      next: order[i + 1] ?? null,
      index: i,
      total: order.length,
    });
  });
}

let summaries: RolloutSummary[] = [];
beforeAll(async () => {
  process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-neighbors-"));
  summaries = await indexedSummaries(indexFor(await getRun(RUN, RUNS_DIR), RUNS_DIR), {
    waitMs: 60_000,
  });
});

describe("neighbours in the table's order", () => {
  it("follows size descending within one step, ties by id", () => {
    const disk = onDisk();
    expect(summaries).toHaveLength(disk.length);
    const order = disk
      .filter((r) => r.step === 1)
      .sort((a, b) => b.bytes - a.bytes || natural(a.id, b.id))
      .map((r) => r.id);
    expect(order.length).toBeGreaterThan(2);
    expectWalk(summaries, order, "sort=bytes&dir=desc&step=1");
  });

  it("follows reward ascending with ties by id, over the whole run", () => {
    const order = onDisk()
      .sort((a, b) => a.reward - b.reward || natural(a.id, b.id))
      .map((r) => r.id);
    expectWalk(summaries, order, "sort=reward");
  });

  it("a rollout outside the filters sits between its would-be neighbours, with no place", () => {
    const disk = onDisk();
    const outside = disk.find((r) => r.step === 0);
    if (!outside) throw new Error("fixture has no step-0 rollout");
    const inStep = disk.filter((r) => r.step === 1);
    const bigger = inStep.filter(
      (r) =>
        r.bytes > outside.bytes || (r.bytes === outside.bytes && natural(r.id, outside.id) < 0),
    );
    const order = inStep.sort((a, b) => b.bytes - a.bytes || natural(a.id, b.id)).map((r) => r.id);
    const n = neighborsOf(summaries, outside.id, query("sort=bytes&dir=desc&step=1"));
    expect(n).toEqual({
      prev: order[bigger.length - 1] ?? null,
      next: order[bigger.length] ?? null,
      index: null,
      total: inStep.length,
    });
  });

  it("an unknown rollout has no neighbours but the count", () => {
    expect(neighborsOf(summaries, "99-9", query("step=1"))).toEqual({
      prev: null,
      next: null,
      index: null,
      total: onDisk().filter((r) => r.step === 1).length,
    });
  });
});

describe("neighbours with missing values", () => {
  const make = (id: string, reward: number | null): RolloutSummary => {
    const s = summaries[0];
    if (!s) throw new Error("no summaries");
    return rolloutSummarySchema.parse({ ...s, rollout_id: id, reward });
  };

  it("puts rollouts without a reward last in either direction, as the table does", () => {
    const rows = [
      make("10-0", 0.5),
      make("2-0", null),
      make("3-0", 1),
      make("1-0", null),
      make("4-0", 0.5),
    ];
    // by hand: desc by reward, ties by natural id, nulls last (ties by id)
    const desc = ["3-0", "4-0", "10-0", "1-0", "2-0"];
    expectWalk(rows, desc, "sort=reward&dir=desc");
    expect(selectRollouts(rows, query("sort=reward&dir=desc")).map((s) => s.rollout_id)).toEqual(
      desc,
    );
    expectWalk(rows, ["4-0", "10-0", "3-0", "1-0", "2-0"], "sort=reward&dir=asc");
  });
});

describe("the inspector's URL carries the table query", () => {
  it("its keys are the table query's keys without the window", () => {
    const keys = Object.keys(rolloutQuerySchema.shape).filter(
      (k) => k !== "offset" && k !== "limit",
    );
    expect([...TABLE_QUERY_KEYS].sort()).toEqual(keys.sort());
  });

  it("the table's parser reads a row link's query back as the table's", () => {
    const page = new URLSearchParams(
      "sort=reward&dir=desc&verdict=masked&severity=masked&reason=unresolved_retry&status=422&step=3&cut_short=1&q=a b&hide=bytes&offset=400",
    );
    const href = new URL(inspectorHref("r", "0-0", page), "http://x");
    const q = parseRolloutQuery(href.searchParams);
    expect(q).toEqual({ ...parseRolloutQuery(page), offset: 0 });
  });
});
