// A cold build of a big generated store watched through inspectProgress, as the loading page polls
// it: bytes read increase to the files' total (token file plus capture file), then the phases
// follow, then the model is ready. Asking for progress never starts a build.
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { syntheticRolloutLines } from "@/fixtures/generator/synthetic-rollout";
import { writeLines } from "@/fixtures/generator/write";
import { cacheStats, processCache } from "@/lib/cache/registry";
import { getRun, type RunLayout } from "@/lib/runs/root";
import { buildProgressSchema, type BuildProgress } from "@/lib/schema/api-progress";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { trackBuild, trackedProgress } from "./build-progress";
import { inspectProgress, inspectRollout } from "./rollout-model";

let run: RunLayout;
/** Bytes of each rollout's token and capture files, from the disk. */
const bytesOf: Record<string, number> = {};

beforeAll(async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-progress-"));
  const dir = path.join(root, "big");
  const tokens = path.join(dir, "tokens"),
    calls = path.join(dir, "model-calls");
  await writeLines(
    path.join(tokens, "0-0.tokens.jsonl"),
    syntheticRolloutLines({
      rolloutId: "0-0",
      calls: 160,
      lastPromptTokens: 50_000,
      recordedParents: true,
      seed: 3,
    }),
  );
  writeFileSync(
    path.join(tokens, "1-0.tokens.jsonl"),
    line(tokenRecord("1-0", "a", [1, 2, 3], [4, 5])),
  );
  mkdirSync(calls);
  writeFileSync(path.join(calls, "0-0.capture.jsonl"), line({ not: "an exchange" }).repeat(50));
  run = await getRun("big", root);
  const size = (f: string) => statSync(f).size;
  bytesOf["0-0"] =
    size(path.join(tokens, "0-0.tokens.jsonl")) + size(path.join(calls, "0-0.capture.jsonl"));
  bytesOf["1-0"] = size(path.join(tokens, "1-0.tokens.jsonl"));
});

const PHASES = ["reading", "deciding", "decoding"] as const;
const trackedNow = () =>
  cacheStats().find((c) => c.name === "inspect.build-progress")?.entries ?? 0;
const cachedRollouts = () => cacheStats().find((c) => c.name === "inspect.rollouts")?.entries ?? 0;

describe("build progress", () => {
  it("a cold build of a big store reports increasing bytes read, ending at the files' total", async () => {
    const total = bytesOf["0-0"] as number;
    expect(total).toBeGreaterThan(20 << 20); // streamed in chunks, several reports
    // What the build reports into, kept to check its end (a poll may miss the last short phases).
    const registered = vi.spyOn(processCache("inspect.build-progress", "entries", 64), "set");
    let done = false;
    const built = inspectRollout(run, "0-0").finally(() => (done = true));
    const seen: BuildProgress[] = [];
    while (!done) {
      seen.push(buildProgressSchema.parse(await inspectProgress(run, "0-0")));
      await new Promise((r) => setImmediate(r));
    }
    await built;
    expect(registered).toHaveBeenCalledTimes(1);
    expect(registered.mock.calls[0]?.[1]).toMatchObject({ total, read: total, decoding: true });
    registered.mockRestore();

    const building = seen.flatMap((p) => (p.state === "building" ? [p] : []));
    for (const p of building) expect(p.total_bytes).toBe(total);
    const read = building.map((p) => p.bytes_read);
    expect(read).toEqual([...read].sort((a, b) => a - b));
    const partial = new Set(read.filter((b) => b > 0 && b < total));
    expect(partial.size).toBeGreaterThanOrEqual(2);
    const phases = building.map((p) => PHASES.indexOf(p.phase));
    expect(phases).toEqual([...phases].sort((a, b) => a - b));
    expect(building.filter((p) => p.phase === "reading").every((p) => p.bytes_read < total)).toBe(
      true,
    );
    // Before the build: queued with what it will read; after: ready, and nothing tracked any more.
    for (const p of seen.slice(
      0,
      seen.findIndex((q) => q.state !== "queued"),
    ))
      expect(p).toEqual({ state: "queued", total_bytes: total });
    expect(await inspectProgress(run, "0-0")).toEqual({ state: "ready" });
    expect(trackedNow()).toBe(0);
  });

  it("asking for progress never starts a build", async () => {
    const before = cachedRollouts();
    expect(await inspectProgress(run, "1-0")).toEqual({
      state: "queued",
      total_bytes: bytesOf["1-0"],
    });
    // No build was started or tracked by the question, and none starts once pending callbacks run.
    expect(trackedNow()).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(await inspectProgress(run, "1-0")).toEqual({
      state: "queued",
      total_bytes: bytesOf["1-0"],
    });
    expect(await inspectProgress(run, "1-0", { profile: "gym-v1" })).toEqual({
      state: "queued",
      total_bytes: bytesOf["1-0"],
    });
    expect(cachedRollouts()).toBe(before);
    expect(trackedNow()).toBe(0);
    await inspectRollout(run, "1-0");
    expect(await inspectProgress(run, "1-0")).toEqual({ state: "ready" });
    // another profile is another build, not started by the first
    expect((await inspectProgress(run, "1-0", { profile: "gym-v1" })).state).toBe("queued");
  });

  it("a build that fails stops being tracked; the sink's reports show while it runs", async () => {
    let during: ReturnType<typeof trackedProgress> = null;
    const failing = trackBuild("test-key", 100, async (sink) => {
      sink.read(40);
      during = trackedProgress("test-key");
      throw new Error("boom");
    });
    await expect(failing).rejects.toThrow("boom");
    expect(during).toMatchObject({
      state: "building",
      phase: "reading",
      bytes_read: 40,
      total_bytes: 100,
    });
    expect(trackedProgress("test-key")).toBeNull();
  });

  it("bytes past the total (a growing file) never pass the bar's end; decoding is its own phase", async () => {
    await trackBuild("grow-key", 10, async (sink) => {
      sink.read(25);
      expect(trackedProgress("grow-key")).toMatchObject({
        phase: "deciding",
        bytes_read: 10,
        total_bytes: 10,
      });
      sink.decoding();
      expect(trackedProgress("grow-key")?.phase).toBe("decoding");
    });
  });
});
