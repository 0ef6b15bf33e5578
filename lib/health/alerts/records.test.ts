// A verdict built from the token store that contradicts the consumer's in the record is a run
// alert naming the rollouts; agreeing verdicts, and records without a capture verdict, are not.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getRun } from "@/lib/runs/root";
import { SummaryIndex } from "@/lib/index/run-index";
import { alertSchema } from "@/lib/schema";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { recordAlerts } from "./records";

const record = (task: number, capture: Record<string, unknown> | null, masked = false) => ({
  _ng_task_index: task,
  _ng_rollout_index: 0,
  reward: 1,
  ...(masked ? { mask_sample: true } : {}),
  ...(capture ? { _ng_token_capture: capture } : {}),
});

describe("record alerts", () => {
  it("names the store rollouts whose built verdict the record's contradicts", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-record-alert-"));
    const tokens = path.join(root, "run", "tokens");
    mkdirSync(tokens, { recursive: true });
    // Three clean, trainable rollouts in the store (the builder trains every one).
    for (const id of ["0-0", "1-0", "2-0"])
      writeFileSync(
        path.join(tokens, `${id}.tokens.jsonl`),
        line(tokenRecord(id, "a", [1, 2, 3], [4, 5])) +
          line(tokenRecord(id, "b", [1, 2, 3, 4, 5, 6], [7], { created_at: 1786032155 })),
      );
    writeFileSync(
      path.join(root, "run", "rollouts.jsonl"),
      [
        record(0, { n_calls: 2, chains: 1 }), // agrees: trained
        record(
          1,
          { n_calls: 2, error: "ValueError: capture produced no safe trainable chain" },
          true,
        ),
        record(2, null), // no consumer verdict to compare
      ]
        .map(line)
        .join(""),
    );
    const index = new SummaryIndex(await getRun("run", root), null);
    await index.snapshot({ minIntervalMs: 0, waitMs: 30_000 });
    expect(index.all().map((s) => [s.rollout_id, s.source, s.mask_sample])).toEqual([
      ["0-0", "store", false],
      ["1-0", "store", false],
      ["2-0", "store", false],
    ]);
    const alerts = recordAlerts(index.rows.handle).map((a) => alertSchema.parse(a));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: "record_disagrees", count: 1, rollout_ids: ["1-0"] });
    expect(alerts[0]?.message).toContain("1-0: the record says masked, the store builds trained");
  });
});
