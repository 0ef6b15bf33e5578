// Without a store worker (none built, or ROLLOUT_LENS_IO_WORKERS=0), the trigrams are written on the
// server's thread in slices. A slice opens the index's database when the index is idle; the pass
// must leave it closed again, as an idle index holds no handle: one left open keeps the WAL beside
// the file, where a restart's check of the file does not see it.
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { summaryOf } from "@/lib/testing/summary";
import { SummaryRows } from "../rows";
import { indexTextSoon, textIndexingIdle } from "./indexer";
import { pendingTextCount } from "./store";

// Read when the file's first pool is asked for: this process has none for its trigrams.
process.env.ROLLOUT_LENS_IO_WORKERS = "0";

describe("the trigram pass on the server's thread", () => {
  it("writes every pending text's trigrams and leaves an idle index closed", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "lens-on-thread-")), "i.sqlite");
    const rows = new SummaryRows(file);
    await rows.open(async () => null);
    rows.write(
      Array.from({ length: 40 }, (_, i) => {
        const bytes = Buffer.from(`worker ${i} `.repeat(400), "utf8");
        const text = { body: deflateRawSync(bytes), deflated: true, bytes: bytes.length };
        const segs = JSON.stringify([["g", "c0", 0, 1, 0]]);
        return {
          summary: {
            ...summaryOf({ rollout_id: `r${i}` }),
            search_text: { ...text, segs, trigrams: true },
          },
          key: "k",
        };
      }),
    );
    expect(pendingTextCount(rows.handle)).toBe(40);
    rows.close(); // the refresh ended: an idle index holds no handle
    indexTextSoon(rows);
    await textIndexingIdle(rows);
    expect(rows.isOpen).toBe(false);
    expect(existsSync(`${file}-wal`), "the WAL is checkpointed and gone").toBe(false);
    expect(pendingTextCount(rows.handle)).toBe(0);
    rows.close();
  }, 30_000);
});
