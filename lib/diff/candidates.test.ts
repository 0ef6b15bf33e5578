// The inspector's "diff with" attempts: the other rollouts `R-aN` of one attempt group in a store
// written here (names only matter: the listing reads no file), base first, never the rollout itself.
import { describe, expect, it } from "vitest";
import type { RunLayout } from "@/lib/runs";
import { tempStore } from "@/lib/testing/temp-store";
import { otherAttempts } from "./candidates";

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
