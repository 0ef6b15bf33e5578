import { describe, expect, it } from "vitest";
import { processCache } from "@/lib/cache/registry";
import { SharedBuilds, sharedBuilds } from "./shared-builds";

let made = 0;
/** Shared builds over a fresh registry cache of `bound` (weight units), at most `concurrency` at once. */
const fresh = (bound: number, concurrency: number) =>
  new SharedBuilds<string>(
    processCache(`test.shared-builds.${made++}`, "tokens", bound),
    concurrency,
  );
const tick = () => new Promise((r) => setTimeout(r, 0));

/** A build that resolves when told to, and records whether it saw its abort signal. */
function controllable() {
  const seen = { aborted: false, started: 0 };
  let release: (v: string) => void = () => undefined;
  const build = (signal: AbortSignal) =>
    new Promise<string>((resolve, reject) => {
      seen.started++;
      release = resolve;
      signal.addEventListener(
        "abort",
        () => ((seen.aborted = true), reject(new DOMException("aborted", "AbortError"))),
      );
    });
  return { seen, build, release: (v: string) => release(v) };
}

describe("shared builds", () => {
  it("shares one build between concurrent requests and caches the result", async () => {
    const b = fresh(100, 2);
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
    const b = fresh(100, 2);
    const c = controllable();
    const a1 = new AbortController(),
      a2 = new AbortController();
    const p1 = b.get("k", c.build, () => 1, a1.signal);
    const p2 = b.get("k", c.build, () => 1, a2.signal);
    await tick();
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
    await tick();
    c2.release("again");
    expect(await p3).toBe("again");
  });

  it("runs at most `concurrency` builds at once and evicts by weight", async () => {
    const b = fresh(10, 2);
    const builds = Array.from({ length: 5 }, () => controllable());
    const ps = builds.map((c, i) => b.get(`k${i}`, c.build, () => 6));
    await tick();
    expect(builds.map((c) => c.seen.started)).toEqual([1, 1, 0, 0, 0]);
    expect(b.stats).toMatchObject({ active: 2, queued: 3 });
    for (let i = 0; i < 5; i++) {
      await tick();
      builds[i]!.release(`v${i}`);
      await ps[i];
    }
    expect(await Promise.all(ps)).toEqual(["v0", "v1", "v2", "v3", "v4"]);
    expect(b.stats.maxActive).toBe(2);
    // Budget 10 with weight 6 keeps only the most recent result.
    const again = controllable();
    const p = b.get("k0", again.build, () => 6);
    await tick();
    expect(again.seen.started).toBe(1);
    again.release("rebuilt");
    expect(await p).toBe("rebuilt");
  });

  it("evicts the least recently used result past the bound, not the one just used", async () => {
    const cache = processCache<string>(`test.shared-builds.${made++}`, "tokens", 10);
    const b = new SharedBuilds<string>(cache, 2);
    const started: string[] = [];
    const build = (v: string) => async () => (started.push(v), v);
    await b.get("a", build("a"), () => 4);
    await b.get("b", build("b"), () => 4);
    await b.get("a", build("a"), () => 4); // a is now the most recently used
    await b.get("c", build("c"), () => 4); // 12 > 10: b goes
    expect(cache.keys()).toEqual(["a", "c"]);
    expect(cache.stats).toMatchObject({ weight: 8, evictions: 1 });
    await b.get("a", build("a"), () => 4);
    await b.get("b", build("b"), () => 4);
    expect(started).toEqual(["a", "b", "c", "b"]);
  });

  it("is one instance per name in the process, its values in the registry's cache", async () => {
    const name = `test.shared-builds.${made++}`;
    const one = sharedBuilds<string>(name, "tokens", 5, 1);
    expect(sharedBuilds<string>(name, "tokens", 5, 1)).toBe(one);
    await one.get(
      "k",
      async () => "v",
      () => 3,
    );
    expect(processCache<string>(name, "tokens", 5).get("k")).toBe("v");
  });
});
