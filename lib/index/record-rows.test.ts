// syncRecords' read state when rollouts.jsonl fails while its lines are counted (lineRanges) (a stalled mount,
// a file removed after its version was read): the same "rollouts.jsonl: …" state as a failed read,
// no records kept, and nothing thrown at the index.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";

vi.mock("@/lib/store", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/store")>()),
  lineRanges: vi.fn(async () => {
    throw Object.assign(new Error("ENOENT: no such file or directory, open 'rollouts.jsonl'"), {
      code: "ENOENT",
    });
  }),
}));

const { syncRecords } = await import("./record-rows");
const { SummaryRows } = await import("./rows");

describe("syncRecords when the count fails", () => {
  it("gives the file's read error as its state, and keeps no records", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lens-records-")), "rollouts.jsonl");
    writeFileSync(file, '{"_ng_task_index":0,"_ng_rollout_index":0,"reward":1}\n');
    const rows = new SummaryRows(null);
    const batches: number[] = [];
    const state = await syncRecords(
      () => rows.handle,
      file,
      (r) => void batches.push(r.records),
    );
    expect(state.readError).toMatch(/^rollouts\.jsonl: ENOENT/);
    expect(batches).toEqual([]);
    expect(rows.handle.prepare("SELECT COUNT(*) FROM records").pluck().get()).toBe(0);
  });
});
