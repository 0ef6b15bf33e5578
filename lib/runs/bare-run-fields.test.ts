import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";
import { getRun, listRuns } from "./root";

afterEach(() => {
  delete process.env.ROLLOUT_LENS_BARE_RUN;
});

describe("a bare capture directory's run.json fields from serve's flags", () => {
  it("become its manifest's fields, over any run.json it holds", async () => {
    const dir = tempStore({
      "r1.tokens.jsonl": line(tokenRecord("r1", "a", [1], [2])),
      "run.json": JSON.stringify({ name: "bare", builder_profile: "gym-v1" }),
    });
    process.env.ROLLOUT_LENS_BARE_RUN = JSON.stringify({
      tokenizer: "o200k_base",
      side_call_patterns: ["haiku"],
      builder_profile: "seed",
    });
    const run = await getRun(path.basename(dir), dir);
    expect(run.manifest).toEqual({
      name: "bare",
      tokenizer: "o200k_base",
      side_call_patterns: ["haiku"],
      builder_profile: "seed",
    });
    expect((await listRuns(dir))[0]!.manifest).toEqual(run.manifest);
    expect(run.manifestError).toBeNull();
  });

  it("never reach a runs root of runs, and a malformed value is the manifest error", async () => {
    const root = tempStore({});
    mkdirSync(path.join(root, "a"));
    writeFileSync(path.join(root, "a", "r1.tokens.jsonl"), line(tokenRecord("r1", "a", [1], [2])));
    process.env.ROLLOUT_LENS_BARE_RUN = JSON.stringify({ side_call_patterns: ["haiku"] });
    expect((await getRun("a", root)).manifest).toEqual({});
    const bare = tempStore({ "r1.tokens.jsonl": line(tokenRecord("r1", "a", [1], [2])) });
    process.env.ROLLOUT_LENS_BARE_RUN = JSON.stringify({ builder_profile: "v9" });
    const run = await getRun(path.basename(bare), bare);
    expect(run.manifestError).toMatch(/^ROLLOUT_LENS_BARE_RUN: /);
    expect(run.manifest).toEqual({});
  });

  it("reach a run directory given as the root: served as that run, with its records", async () => {
    const dir = tempStore({ "rollouts.jsonl": "", "metrics.jsonl": "" });
    mkdirSync(path.join(dir, "tokens"));
    writeFileSync(
      path.join(dir, "tokens", "r1.tokens.jsonl"),
      line(tokenRecord("r1", "a", [1], [2])),
    );
    process.env.ROLLOUT_LENS_BARE_RUN = JSON.stringify({ tokenizer: "o200k_base" });
    const runs = await listRuns(dir);
    expect(runs.map((r) => r.id)).toEqual([path.basename(dir)]);
    const [run] = runs;
    expect(run!.tokensDir).toBe(path.join(dir, "tokens"));
    expect(run!.rolloutsFile).toBe(path.join(dir, "rollouts.jsonl"));
    expect(run!.manifest).toEqual({ tokenizer: "o200k_base" });
    expect((await getRun(path.basename(dir), dir)).rolloutsFile).toBe(run!.rolloutsFile);
    await expect(getRun("tokens", dir)).rejects.toThrow();
    // So is a directory holding only its run.json, or only its records.
    for (const only of ["run.json", "rollouts.jsonl"]) {
      const one = tempStore({ [only]: only === "run.json" ? "{}" : "" });
      expect((await listRuns(one)).map((r) => r.id)).toEqual([path.basename(one)]);
    }
  });
});

describe("a run's tokens/ served as it is", () => {
  it("is named after the run holding it, not 'tokens', unless its run.json names it", async () => {
    const holder = tempStore({});
    const dir = path.join(holder, "gym-run", "tokens");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "r1.tokens.jsonl"), line(tokenRecord("r1", "a", [1], [2])));
    const [run] = await listRuns(dir);
    expect(run!.id).toBe("tokens");
    expect(run!.manifest.name).toBe("gym-run/tokens");
    expect((await getRun("tokens", dir)).manifest.name).toBe("gym-run/tokens");
    writeFileSync(path.join(dir, "run.json"), JSON.stringify({ name: "mine" }));
    expect((await getRun("tokens", dir)).manifest.name).toBe("mine");
  });
});
