// rollouts.jsonl rewritten between the pass that cuts it into stretches and the stretches' reads
// (./record-rows, lib/store lineRanges): a stretch that now ends inside a line says the file changed
// while it was read, never passes for a clean read, and the next sync reads the new file whole.
import { mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { line } from "@/lib/testing/temp-store";

/** Called once the file's stretches are cut, before any is read (set by the test). */
let afterCut: (() => void) | null = null;
vi.mock("@/lib/store", async (importOriginal) => {
  const mod = await importOriginal<typeof import("@/lib/store")>();
  return {
    ...mod,
    lineRanges: async (...args: Parameters<typeof mod.lineRanges>) => {
      const cut = await mod.lineRanges(...args);
      afterCut?.();
      afterCut = null;
      return cut;
    },
  };
});

const { syncRecords } = await import("./record-rows");
const { SummaryRows } = await import("./rows");

const N = 4000;
const record = (i: number, note: string) =>
  line({ _ng_task_index: i, _ng_rollout_index: 0, reward: i, note });

describe("rollouts.jsonl changed between its count and its read", () => {
  it("says so by line, and the next sync reads the new file whole", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-change-")), "r.jsonl");
    const write = (longer: number) => {
      // Record 100 grows by `longer` bytes: every later line starts that much further on.
      const lines = Array.from({ length: N }, (_, i) =>
        record(i, "n".repeat(200 + (i === 100 ? longer : 0))),
      );
      writeFileSync(file, lines.join(""));
    };
    write(0);
    afterCut = () => {
      write(37);
      const later = new Date(Date.now() + 5000);
      utimesSync(file, later, later);
    };
    const rows = new SummaryRows(null);
    const changed = await syncRecords(() => rows.handle, file, undefined, {
      rows: null,
      workers: false,
    });
    expect(afterCut).toBeNull(); // the file was rewritten after the cut
    const cutShort = changed.unreadable.filter((u) =>
      /file changed while it was read/.test(u.reason),
    );
    expect(cutShort.length).toBeGreaterThan(0);
    expect(changed.unreadableCount).toBeGreaterThanOrEqual(cutShort.length);
    expect(changed.tornTail).toBe(false);

    const again = await syncRecords(() => rows.handle, file, undefined, {
      rows: null,
      workers: false,
    });
    expect(again).toMatchObject({ readError: null, unreadableCount: 0, tornTail: false });
    const stored = rows.handle
      .prepare("SELECT id, record FROM records ORDER BY rowid")
      .all() as Array<{ id: string; record: string }>;
    expect(stored.map((r) => r.id)).toEqual(Array.from({ length: N }, (_, i) => `${i}-0`));
    expect(JSON.parse(stored[100]!.record).note).toHaveLength(237);
    rows.close();
  });
});
