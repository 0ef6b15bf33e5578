// The run alert for token ids outside 0…2^31−1, over the summaries of every gym-v1 case store
// (fixtures/gym-v1-cases) in one run. Which rollouts it must name comes from Gym main's own answer
// (expected.jsonl: the main chain it trains on), never from the code under test.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { RolloutSummary } from "@/lib/schema";
import { listStore } from "@/lib/store";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { getRun } from "@/lib/runs/root";
import { summarizeRollout } from "@/lib/rollout/summarize";
import { keyedInputs } from "@/lib/index/keys";
import { summaryOf } from "@/lib/testing/summary";
import { lifecycleAlerts } from "./lifecycle";

const CASES = path.resolve("fixtures/gym-v1-cases");
const cases = readdirSync(CASES).sort();
const MAX_ID = 2 ** 31 - 1;

// Builds run on this thread: a built worker (dist/) may be older than the source under test.
beforeAll(() => void vi.stubEnv("ROLLOUT_LENS_IO_WORKERS", "0"));

/** One run whose token store holds every case's rollout, renamed `<case>` (ids must be unique). */
async function caseSummaries(): Promise<RolloutSummary[]> {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-gym-alerts-"));
  const tokens = path.join(root, "run", "tokens");
  mkdirSync(tokens, { recursive: true });
  for (const name of cases)
    for (const f of readdirSync(path.join(CASES, name)))
      if (f.startsWith("r0."))
        cpSync(path.join(CASES, name, f), path.join(tokens, name + f.slice(2)));
  writeFileSync(path.join(root, "run", "run.json"), JSON.stringify({ builder_profile: "gym-v1" }));
  const run = await getRun("run", root);
  const listing = await listStore(tokens, { stat: true });
  const inputs = keyedInputs(run, listing, null, await readRolloutRecords(null));
  return Promise.all([...inputs.values()].map(({ input }) => summarizeRollout(input)));
}

/** Cases whose main chain, as Gym main's consumer flattened it, holds an id outside the range. */
function casesWithOutsideIds(): string[] {
  return cases.filter((name) =>
    readFileSync(path.join(CASES, name, "expected.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .some((l) => {
        const e = JSON.parse(l) as { main: null | { token_ids: number[] } };
        return e.main?.token_ids.some((t) => t < 0 || t > MAX_ID) ?? false;
      }),
  );
}

describe("lifecycleAlerts", () => {
  it("names the rollouts that carry ids outside 0…2^31−1 and links the table to them", async () => {
    const summaries = await caseSummaries();
    expect(summaries).toHaveLength(cases.length);
    const named = casesWithOutsideIds();
    expect(named).toEqual(["negative-token-id", "token-id-2-pow-60"]);
    const alerts = lifecycleAlerts(summaries);
    expect(alerts).toHaveLength(1);
    const a = alerts[0];
    expect(a?.kind).toBe("outside_token_ids");
    expect(a?.severity).toBe("warning");
    expect(a?.count).toBe(2);
    expect([...(a?.rollout_ids ?? [])].sort()).toEqual(named);
    expect(a?.message).toMatch(/^2 rollouts carry token ids outside 0…2\^31−1 \(2 ids,/);
    expect(a?.table_query).toBe("reason=out_of_vocabulary");
    // Gym trains on both, with the warning: the pill says so.
    expect(a?.verdict).toBe("trained_with_warnings");
  });

  it("says nothing when no rollout carries such ids", () => {
    expect(
      lifecycleAlerts([summaryOf({ oov_tokens: 0 }), summaryOf({ oov_tokens: null })]),
    ).toEqual([]);
  });

  it("uses the singular for one rollout and names no class when not all are trained", () => {
    const alerts = lifecycleAlerts([
      summaryOf({ rollout_id: "a", oov_tokens: 3, severity: "masked" }),
    ]);
    expect(alerts[0]?.message).toMatch(/^1 rollout carries token ids outside 0…2\^31−1 \(3 ids,/);
    expect(alerts[0]?.verdict).toBeNull();
  });
});
