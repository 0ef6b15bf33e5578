import { describe, expect, it } from "vitest";
import { SharedBuilds } from "./shared-builds";

/** A build that resolves when told to, and records whether it saw its abort signal. */
function controllable() {
  const seen = { aborted: false, started: 0 };
  let release: (v: string) => void = () => undefined;
  const build = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      seen.started++;
      release = resolve;
      signal.addEventListener("abort", () => ((seen.aborted = true), reject(new DOMException("aborted", "AbortError"))));
    });
  return { seen, build, release: (v: string) => release(v) };
}

describe("shared builds", () => {
  it("shares one build between concurrent requests and caches the result", async () => {
    const b = new SharedBuilds<string>(100, 2);
    const c = controllable();
    const p1 = b.get("k", c.build, () => 1);
    const p2 = b.get("k", c.build, () => 1);
    await Promise.resolve();
    c.release("done");
    expect(await Promise.all([p1, p2])).toEqual(["done", "done"]);
    expect(await b.get("k", c.build, () => 1)).toBe("done");
    expect(c.seen.started).toBe(1);
  });

  it("aborts the build when its last requester goes away, not before", async () => {
    const b = new SharedBuilds<string>(100, 2);
    const c = controllable();
    const a1 = new AbortController(), a2 = new AbortController();
    const p1 = b.get("k", c.build, () => 1, a1.signal);
    const p2 = b.get("k", c.build, () => 1, a2.signal);
    await new Promise((r) => setTimeout(r, 0));
    a1.abort();
    await expect(p1).rejects.toThrow();
    expect(c.seen.aborted).toBe(false); // p2 still waits
    a2.abort();
    await expect(p2).rejects.toThrow();
    expect(c.seen.aborted).toBe(true);
    expect(b.stats.aborted).toBe(1);
    // A later request builds afresh.
    const c2 = controllable();
    const p3 = b.get("k", c2.build, () => 1);
    await new Promise((r) => setTimeout(r, 0));
    c2.release("again");
    expect(await p3).toBe("again");
  });

  it("runs at most `concurrency` builds at once and evicts by weight", async () => {
    const b = new SharedBuilds<string>(10, 2);
    const builds = Array.from({ length: 5 }, () => controllable());
    const ps = builds.map((c, i) => b.get(`k${i}`, c.build, () => 6));
    await new Promise((r) => setTimeout(r, 0));
    expect(builds.map((c) => c.seen.started)).toEqual([1, 1, 0, 0, 0]);
    expect(b.stats).toMatchObject({ active: 2, queued: 3 });
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, 0));
      builds[i]!.release(`v${i}`);
      await ps[i];
    }
    expect(await Promise.all(ps)).toEqual(["v0", "v1", "v2", "v3", "v4"]);
    expect(b.stats.maxActive).toBe(2);
    // Budget 10 with weight 6 keeps only the most recent result.
    const again = controllable();
    const p = b.get("k0", again.build, () => 6);
    await new Promise((r) => setTimeout(r, 0));
    expect(again.seen.started).toBe(1);
    again.release("rebuilt");
    expect(await p).toBe("rebuilt");
  });
});
