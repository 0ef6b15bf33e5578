import { describe, expect, it } from "vitest";
import { shared, SHARED_KEYS } from "./shared";

const counter = () => {
  let n = 0;
  return { calls: () => n, compute: async () => ++n };
};

describe("shared", () => {
  it("gives callers at the same moment one computation", async () => {
    const c = counter();
    const answers = await Promise.all(Array.from({ length: 50 }, () => shared("a", 0, c.compute)));
    expect(c.calls()).toBe(1);
    expect(new Set(answers)).toEqual(new Set([1]));
  });

  it("reuses a finished answer within the window and computes anew after it", async () => {
    const c = counter();
    expect(await shared("b", 60_000, c.compute)).toBe(1);
    expect(await shared("b", 60_000, c.compute)).toBe(1);
    const d = counter();
    expect(await shared("c", 0, d.compute)).toBe(1);
    expect(await shared("c", 0, d.compute)).toBe(2);
  });

  it("never reuses a failure", async () => {
    let n = 0;
    const failing = () => Promise.reject(new Error(`failed ${++n}`));
    await expect(shared("d", 60_000, failing)).rejects.toThrow("failed 1");
    await expect(shared("d", 60_000, failing)).rejects.toThrow("failed 2");
  });

  it("holds at most SHARED_KEYS keys, dropping the oldest", async () => {
    const first = counter();
    await shared("oldest", 60_000, first.compute);
    for (let k = 0; k < SHARED_KEYS; k++) await shared(`k${k}`, 60_000, async () => k);
    await shared("oldest", 60_000, first.compute);
    expect(first.calls()).toBe(2);
  });
});
