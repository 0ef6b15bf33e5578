// The SQL path (./groups-sql, ./records-sql over the records table) against the in-memory path
// (./groups runGroups, ./record-fields recordColumns over readRolloutRecords' Map): the same bodies,
// key order included, for every field, baseline, step, signal filter and window, over
// grpo-capture-on, claude-code-capture-on and a synthetic run of mixed-type keys (natural string
// order, booleans, masked and reward-less rollouts, null steps) with a field past the sample.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { parseGroupsQuery } from "@/lib/runs/groups";
import { runGroups } from "@/lib/testing/groups-reference";
import { runGroupsSql } from "./groups-sql";
import { discoverFields, parseRecordColumnsQuery, recordColumns } from "@/lib/runs/record-fields";
import { syncRecords } from "./record-rows";
import { recordColumnsSql, SAMPLE } from "./records-sql";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { SummaryRows } from "./rows";

async function bothPaths(file: string) {
  const rows = new SummaryRows(null);
  await syncRecords(() => rows.handle, file);
  const records = (await readRolloutRecords(file)).byId;
  return { db: rows.handle, records };
}

const outcome = (f: () => unknown) => {
  try {
    return JSON.stringify(f());
  } catch (err) {
    return `throws ${(err as Error).name}: ${(err as Error).message}`;
  }
};

/** Every query worth comparing: each field, both baselines, each step, each filter, windows. */
function groupQueries(fields: string[], steps: Array<number | null>): string[] {
  const qs = ["", "by=nope", "baseline=group_mean&normalize=0", "limit=1&offset=1"];
  for (const by of fields)
    for (const extra of [
      "",
      "&baseline=group_mean",
      "&signal=none",
      "&signal=some",
      "&limit=2&offset=1",
    ])
      qs.push(`by=${encodeURIComponent(by)}${extra}`);
  for (const s of steps) if (s !== null) qs.push(`step=${s}`, `step=${s}&signal=some&limit=1`);
  return qs;
}

async function expectSamePaths(file: string) {
  const { db, records } = await bothPaths(file);
  const fields = discoverFields(records.values()).map((f) => f.path);
  const steps = [...new Set([...records.values()].map((r) => r.step))];
  let compared = 0;
  for (const qs of groupQueries(fields, steps)) {
    const q = parseGroupsQuery(new URLSearchParams(qs));
    expect(
      outcome(() => runGroupsSql(db, q)),
      qs,
    ).toBe(outcome(() => runGroups(records, q)));
    compared++;
  }
  const ids = [...records.keys()];
  for (const qs of [
    `columns=${fields.join(",")}&${[...ids]
      .reverse()
      .map((id) => `id=${id}`)
      .join("&")}&id=none`,
    "columns=",
    "columns=bogus,reward",
  ]) {
    const q = parseRecordColumnsQuery(new URLSearchParams(qs));
    expect(outcome(() => recordColumnsSql(db, q))).toBe(outcome(() => recordColumns(records, q)));
  }
  return { compared, fields };
}

describe("the SQL path answers as the in-memory path", () => {
  for (const run of ["grpo-capture-on", "claude-code-capture-on"])
    it(`over ${run}: every field, baseline, step, filter and window`, async () => {
      const { compared, fields } = await expectSamePaths(
        path.join(RUNS_DIR, run, "rollouts.jsonl"),
      );
      expect(fields).toContain("_ng_task_index");
      expect(compared).toBeGreaterThan(20);
    });

  it("over mixed keys: natural string order, booleans, masks, null steps and rewards", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "groups-sql-"));
    const file = path.join(dir, "rollouts.jsonl");
    const names = ["item10", "item2", "Item2", "item02", "b", "A"];
    const lines = Array.from({ length: 60 }, (_, i) =>
      JSON.stringify({
        _ng_task_index: i % 7,
        _ng_rollout_index: i,
        step: i % 5 === 0 ? null : i % 3,
        reward: i % 13 === 0 ? null : (i * 7) % 4 === 0 ? 1 : (i % 4) / 4,
        mask_sample: i % 11 === 0 ? true : undefined,
        name: names[i % names.length],
        mixed: i % 3 === 0 ? String(i % 4) : i % 3 === 1 ? i % 4 : i % 2 === 0,
        meta: { flag: i % 2 === 0, deep: { x: i % 3 } },
      }),
    );
    // Task 99: equal voting rewards beside a masked and a reward-less one (no signal).
    for (const [i, reward, mask_sample] of [
      [0, 1, false],
      [1, 1, false],
      [2, 0, true],
      [3, null, false],
    ] as const)
      lines.push(
        JSON.stringify({ _ng_task_index: 99, _ng_rollout_index: i, step: 1, reward, mask_sample }),
      );
    // Task 98: no reward recorded at all (whether it carries a signal is not known).
    for (const i of [0, 1])
      lines.push(JSON.stringify({ _ng_task_index: 98, _ng_rollout_index: i, step: 2 }));
    writeFileSync(file, lines.join("\n") + "\n");
    const { fields } = await expectSamePaths(file);
    expect(fields).toEqual(expect.arrayContaining(["name", "mixed", "meta.flag", "meta.deep.x"]));
  });

  it("accepts a field only records past the sample hold, and its values", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "groups-sql-"));
    const file = path.join(dir, "rollouts.jsonl");
    const n = SAMPLE + 3;
    const lines = Array.from({ length: n }, (_, i) =>
      JSON.stringify({
        _ng_task_index: i % 2,
        _ng_rollout_index: i,
        reward: i % 2,
        step: 0,
        ...(i >= SAMPLE ? { late: i % 2 } : {}),
      }),
    );
    writeFileSync(file, lines.join("\n") + "\n");
    const { db } = await bothPaths(file);
    const g = runGroupsSql(db, parseGroupsQuery(new URLSearchParams("by=late")));
    expect(g.fields).not.toContain("late");
    expect(g.groups.map((x) => [x.key, x.n])).toEqual([
      [0, 2],
      [1, 1],
    ]);
    expect(g.ungrouped).toBe(SAMPLE);
    const last = `${(n - 1) % 2}-${n - 1}`;
    const v = recordColumnsSql(
      db,
      parseRecordColumnsQuery(new URLSearchParams(`columns=late&id=${last}`)),
    );
    expect(v.values).toEqual({ [last]: { late: (n - 1) % 2 } });
    expect(() => runGroupsSql(db, parseGroupsQuery(new URLSearchParams("by=later")))).toThrow(
      /later/,
    );
  });
});
