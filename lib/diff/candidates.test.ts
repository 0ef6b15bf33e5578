// The inspector's "diff with" attempts: the other rollouts `R-aN` of one attempt group in a store
// written here (names only matter: the listing reads no file), base first, never the rollout itself.
import { describe, expect, it } from "vitest";
import type { RunLayout } from "@/lib/runs";
import { tempStore } from "@/lib/testing/temp-store";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getRun } from "@/lib/runs";
import { OTHER_RUNS_SHOWN, otherAttempts, sameRolloutElsewhere } from "./candidates";

const runOf = (tokensDir: string | null) => ({ id: "r", tokensDir }) as unknown as RunLayout;

describe("otherAttempts", () => {
  const dir = tempStore({
    "7-0.tokens.jsonl": "",
    "7-0-a1.tokens.jsonl": "",
    "7-0-a2.tokens.jsonl": "",
    "8-0.tokens.jsonl": "",
  });
  it("offers the group's other attempts, base first", async () => {
    expect(await otherAttempts(runOf(dir), "7-0-a1")).toEqual(["7-0", "7-0-a2"]);
    expect(await otherAttempts(runOf(dir), "7-0")).toEqual(["7-0-a1", "7-0-a2"]);
  });
  it("offers nothing for a rollout without attempts or a run without a store", async () => {
    expect(await otherAttempts(runOf(dir), "8-0")).toEqual([]);
    expect(await otherAttempts(runOf(null), "7-0")).toEqual([]);
  });
});

describe("sameRolloutElsewhere", () => {
  // A root of runs written here: which hold 3-1 is the test's own truth.
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-elsewhere-"));
  const holding = Array.from({ length: OTHER_RUNS_SHOWN + 2 }, (_, i) => `run-${i}`);
  for (const [run, ids] of [
    ["self", ["3-1"]],
    ["other", ["3-0"]],
    ...holding.map((r) => [r, ["3-1", "4-0"]] as const),
  ] as const) {
    mkdirSync(path.join(root, run, "tokens"), { recursive: true });
    for (const id of ids) writeFileSync(path.join(root, run, "tokens", `${id}.tokens.jsonl`), "");
  }
  it("names the other runs holding the rollout id, never itself, at most OTHER_RUNS_SHOWN", async () => {
    const found = await sameRolloutElsewhere(await getRun("self", root), "3-1");
    expect(found.total).toBe(holding.length);
    expect(found.runs).toEqual(holding.slice(0, OTHER_RUNS_SHOWN));
    expect(await sameRolloutElsewhere(await getRun("self", root), "9-9")).toEqual({
      runs: [],
      total: 0,
    });
  });
});
