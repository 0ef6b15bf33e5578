// The per-version file cache: one value per file version, shared by every bundle of the process
// (simulated by re-importing the module), re-read when the file changes, weighed in file bytes.
import { utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { cacheStats } from "@/lib/cache/registry";
import { tempStore } from "@/lib/testing/temp-store";

describe("cachedByVersion", () => {
  it("loads once per file version, across module instances, and reloads a changed file", async () => {
    const file = path.join(tempStore({ "rollouts.jsonl": "{}\n" }), "rollouts.jsonl");
    const first = await import("./versioned-cache");
    let loads = 0;
    const load = async () => ++loads;
    expect(await first.cachedByVersion("t", file, load)).toBe(1);
    vi.resetModules(); // another bundle (a route, a page) has its own copy of the module
    const second = await import("./versioned-cache");
    expect(second).not.toBe(first);
    expect(await second.cachedByVersion("t", file, load)).toBe(1);
    writeFileSync(file, "{}\n{}\n");
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    expect(await second.cachedByVersion("t", file, load)).toBe(2);
    expect(loads).toBe(2);
    const stats = cacheStats().find((c) => c.name === "files-by-version")!;
    expect(stats).toMatchObject({ unit: "bytes", bound: first.FILE_CACHE_BYTES, weight: 6 });
  });

  it("answers null for a missing file and forgets a failed load", async () => {
    const { cachedByVersion } = await import("./versioned-cache");
    const dir = tempStore({ "m.jsonl": "x\n" });
    expect(await cachedByVersion("t", path.join(dir, "none.jsonl"), async () => 1)).toBeNull();
    await expect(
      cachedByVersion("t", path.join(dir, "m.jsonl"), () => Promise.reject(new Error("boom"))),
    ).rejects.toThrow("boom");
    await new Promise((r) => setTimeout(r, 0));
    expect(await cachedByVersion("t", path.join(dir, "m.jsonl"), async () => "ok")).toBe("ok");
  });
});
