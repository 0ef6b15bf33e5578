// A shard's listing (./write listRunInputs with a shard): only its rollouts, only their
// records held, and every one keyed exactly as the whole run's listing keys it, attempt groups split
// across shards included.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { line, tempRun, tokenRecord } from "@/lib/testing/temp-store";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { getRun } from "@/lib/runs/root";
import { listRunInputs } from "./write";
import { shardOf } from "./file";

const SHARDS = 3;

describe("a shard's listing", () => {
  it("keys its rollouts as the whole run's listing does and holds only their records", async () => {
    const { root, tokens } = tempRun(12);
    // Attempts of 0-0 … 3-0 in the token store: a group's members hash to different shards.
    for (let i = 0; i < 4; i++)
      writeFileSync(
        path.join(tokens, `${i}-0-a1.tokens.jsonl`),
        line(tokenRecord(`${i}-0-a1`, "a", [1, 2], [3])),
      );
    // Records of every store rollout and of 20 rollouts with a record alone.
    const records = Array.from({ length: 32 }, (_, i) =>
      line({ _ng_task_index: i, _ng_rollout_index: 0, reward: i / 10, mask_sample: i % 5 === 0 }),
    );
    writeFileSync(path.join(root, "run", "rollouts.jsonl"), records.join(""));
    const run = await getRun("run", root);
    const whole = await listRunInputs(run);
    expect(whole.inputs.size).toBe(36);
    expect(whole.rollouts).toBe(36);
    const seen = new Set<string>();
    for (let index = 0; index < SHARDS; index++) {
      const spec = { index, count: SHARDS };
      const shard = await listRunInputs(run, spec);
      expect(shard.rollouts).toBe(36);
      for (const [id, keyed] of shard.inputs) {
        expect(shardOf(id, SHARDS)).toBe(index);
        expect(keyed).toEqual(whole.inputs.get(id));
        seen.add(id);
      }
      const held = await readRolloutRecords(run.rolloutsFile, {
        scope: `shard ${index}/${SHARDS}`,
        keep: (id) => shardOf(id, SHARDS) === index,
      });
      expect([...held.byId.keys()].every((id) => shardOf(id, SHARDS) === index)).toBe(true);
      expect(held.byId.size + held.others.size).toBe(32);
    }
    expect(seen).toEqual(new Set(whole.inputs.keys()));
  });
});
