// A file of a million bad lines is judged in one pass: the first issues listed in full, the rest
// counted by one closing issue, and the whole read well under the seconds describing each took.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { tokenEntrySchema } from "@/lib/schema";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { MAX_ISSUES, mayBeEntry } from "./line-issues";
import { readRolloutCapture } from "./token-store";

const store = () => mkdtempSync(path.join(os.tmpdir(), "rollout-lens-line-issues-"));
const LINES = 1_000_000;

describe("issues past the cap are counted, not described", () => {
  it("reads 1,000,000 lines of {} in under 5 s, listing 200 and counting the rest", async () => {
    const dir = store();
    writeFileSync(path.join(dir, "m-0.tokens.jsonl"), "{}\n".repeat(LINES));
    const t0 = performance.now();
    const capture = await readRolloutCapture(dir, "m-0");
    const ms = performance.now() - t0;
    console.log(`1,000,000 lines of {}: read in ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(5000);
    const { issues, snapshot } = capture;
    expect(snapshot.entries).toEqual([]);
    expect(snapshot.readError).toMatch(/^ValidationError: m-0\.tokens\.jsonl: line 1: rollout_id/);
    expect(issues.filter((i) => i.line !== null).map((i) => i.line)).toEqual(
      Array.from({ length: MAX_ISSUES }, (_, i) => i + 1),
    );
    expect(issues.at(-1)).toEqual({
      file: "m-0.tokens.jsonl",
      line: null,
      severity: "error",
      message: `${LINES - MAX_ISSUES} more problems in this file not listed (the first ${MAX_ISSUES} are)`,
    });
  }, 60_000);

  it("still reads every good entry after the cap, and sets the error of a file of warnings", async () => {
    const dir = store();
    const good = (call: string) => line(tokenRecord("r-0", call, [1, 2], [3]));
    // 250 identical repeats (warnings past the cap), then a bad line, then a fresh call.
    const text = good("a") + good("a").repeat(250) + "[1]\n" + good("b");
    writeFileSync(path.join(dir, "r-0.tokens.jsonl"), text);
    const { issues, snapshot } = await readRolloutCapture(dir, "r-0");
    expect(snapshot.entries.map((e) => e.model_call_id)).toEqual([
      "a",
      ...Array(250).fill("a"),
      "b",
    ]);
    expect(snapshot.readError).toMatch(/^ValidationError: r-0\.tokens\.jsonl: line 252: /);
    expect(issues).toHaveLength(MAX_ISSUES + 1);
    // 250 warnings, 1 error: 200 listed, 51 counted, the error among them.
    expect(issues.at(-1)?.message).toBe(
      `51 more problems in this file not listed (the first ${MAX_ISSUES} are)`,
    );
    expect(issues.at(-1)?.severity).toBe("error");
  });

  it("refuses only what the schema refuses", () => {
    const ok = {
      rollout_id: "r",
      model_call_id: "c",
      prompt_token_ids: [],
      generation_token_ids: [],
      generation_log_probs: [],
    };
    const values: unknown[] = [
      {},
      [],
      null,
      1,
      "x",
      ok,
      { ...ok, model_call_id: "" },
      { ...ok, rollout_id: 1 },
      { ...ok, prompt_token_ids: null },
      { ...ok, generation_log_probs: undefined },
      { ...ok, created_at: "late" },
    ];
    for (const v of values)
      if (!mayBeEntry(v))
        expect(tokenEntrySchema.safeParse(v).success, JSON.stringify(v)).toBe(false);
    expect(mayBeEntry(ok)).toBe(true);
  });
});
