// Which profile decides a run and the one line saying why: a page's ask, the serve flag, run.json,
// or auto from the token store's evidence (Gym main's state or lock files, schema_version, else seed).
import { describe, expect, it } from "vitest";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { decideRunProfile } from "./profile";
import type { RunLayout } from "./root";

const seedLine = line(tokenRecord("a", "c1", [1, 2], [3]));
const runOf = (tokensDir: string | null, over: Partial<RunLayout> = {}): RunLayout => ({
  id: "r",
  dir: "/nowhere",
  root: "/nowhere",
  manifest: {},
  manifestError: null,
  tokensDir,
  modelCallsDir: null,
  rolloutsFile: null,
  metricsFile: null,
  ...over,
});

describe("decideRunProfile", () => {
  it("auto (no builder_profile) takes gym-v1 on Gym main's state or lock files", async () => {
    for (const side of ["a.tokens.state.json", "a.tokens.lock", "a.tokens.intents"]) {
      const dir = tempStore({
        "a.tokens.jsonl": seedLine,
        [side]: side.endsWith("json") ? "{}" : "",
      });
      expect(await decideRunProfile(runOf(dir))).toEqual({
        profile: "gym-v1",
        reason: "Gym main store: state files found → gym-v1",
      });
    }
  });
  it("auto takes gym-v1 on schema_version records, seed on records without it", async () => {
    const v1 = line(tokenRecord("a", "c1", [1, 2], [3], { schema_version: 1 }));
    expect((await decideRunProfile(runOf(tempStore({ "a.tokens.jsonl": v1 })))).profile).toBe(
      "gym-v1",
    );
    expect(await decideRunProfile(runOf(tempStore({ "a.tokens.jsonl": seedLine })))).toEqual({
      profile: "seed",
      reason: "No Gym main state files or schema_version → seed (closed PR #2179's builder)",
    });
  });
  it("run.json, the serve flag and the page's ask override auto, and say so", async () => {
    const gym = tempStore({ "a.tokens.jsonl": seedLine, "a.tokens.lock": "" });
    const manifest = { builder_profile: "seed" as const };
    expect(await decideRunProfile(runOf(gym, { manifest }))).toEqual({
      profile: "seed",
      reason: "builder_profile: seed in run.json",
    });
    expect((await decideRunProfile(runOf(gym, { manifest, profileFromFlag: true }))).reason).toBe(
      "--profile seed",
    );
    expect(await decideRunProfile(runOf(gym, { manifest }), "gym-v1")).toEqual({
      profile: "gym-v1",
      reason: "profile=gym-v1 asked for on this page",
    });
  });
});
