// The bench's SQLite floor (./write-floor) writes every record of the run it is given, through the
// index's own tables, and leaves nothing behind: not in the run, not in the temporary directory.
import { readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recordsWriteFloor } from "./write-floor";

const ROOT = path.resolve("fixtures/runs");
const RUN = "grpo-capture-on";

const floorDirs = () => readdirSync(os.tmpdir()).filter((f) => f.startsWith("rollout-lens-floor-"));

describe("recordsWriteFloor", () => {
  it("writes each line's record once, times every part, and removes its database", async () => {
    const file = path.join(ROOT, RUN, "rollouts.jsonl");
    const lines = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "").length;
    const runBefore = readdirSync(path.join(ROOT, RUN)).map((f) => [
      f,
      statSync(path.join(ROOT, RUN, f)).mtimeMs,
    ]);
    const before = floorDirs();
    const floor = await recordsWriteFloor(ROOT, RUN);
    expect(lines).toBeGreaterThan(10);
    expect(floor.records).toBe(lines);
    // The summaries' five sort indexes and the tags' two (lib/index/columns, rows' health index).
    expect(floor.indexes).toBe(7);
    for (const ms of [floor.parseMs, floor.summariseMs, floor.recordsSqlMs, floor.indexesSqlMs])
      expect(ms).toBeGreaterThan(0);
    expect(floorDirs()).toEqual(before);
    expect(
      readdirSync(path.join(ROOT, RUN)).map((f) => [f, statSync(path.join(ROOT, RUN, f)).mtimeMs]),
    ).toEqual(runBefore);
  });
});
