// readJsonl closes its file handle on every path, including when stat or the read throws. Open
// descriptors are counted through /proc/self/fd (Linux), so a leak shows as a descriptor still
// pointing at the file after the promise settles.
import { existsSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readJsonl } from "./jsonl";
import { line, tempStore } from "@/lib/testing/temp-store";

const PROC_FD = "/proc/self/fd";

function descriptorsOn(file: string): number {
  const real = realpathSync(file);
  let n = 0;
  for (const fd of readdirSync(PROC_FD)) {
    try {
      if (readlinkSync(path.join(PROC_FD, fd)) === real) n++;
    } catch {
      // the descriptor readdir itself used is gone by now
    }
  }
  return n;
}

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!existsSync(PROC_FD))(
  "readJsonl file handles (skipped when /proc/self/fd is absent)",
  () => {
    const file = () =>
      path.join(
        tempStore({ "0-0.tokens.jsonl": line({ a: 1 }) + line({ a: 2 }) }),
        "0-0.tokens.jsonl",
      );

    it("leaves no descriptor open after a normal read", async () => {
      const f = file();
      const seen: unknown[] = [];
      await readJsonl(f, (l) => seen.push(l.value));
      expect(seen).toEqual([{ a: 1 }, { a: 2 }]);
      expect(descriptorsOn(f)).toBe(0);
    });

    it("closes the handle when the read is aborted", async () => {
      const f = file();
      await expect(readJsonl(f, () => undefined, AbortSignal.abort())).rejects.toThrow(/abort/i);
      expect(descriptorsOn(f)).toBe(0);
    });

    it("closes the handle when stat fails", async () => {
      const f = file();
      const probe = await open(f, "r");
      const proto = Object.getPrototypeOf(probe) as { stat: () => Promise<unknown> };
      await probe.close();
      vi.spyOn(proto, "stat").mockRejectedValueOnce(
        Object.assign(new Error("EIO: i/o error, fstat"), { code: "EIO" }),
      );
      await expect(readJsonl(f, () => undefined)).rejects.toThrow(/EIO/);
      // The reader does not wait for that close (a handle whose call stalled may never close):
      // the descriptor goes as soon as the close it started is done.
      await expect.poll(() => descriptorsOn(f), { timeout: 5_000 }).toBe(0);
    });
  },
);

describe("readJsonl in small chunks", () => {
  it("gives the same lines, numbers and torn tail whatever the chunk size", async () => {
    const body =
      Array.from({ length: 300 }, (_, i) => line({ i, text: "é".repeat(i % 17) })).join("") +
      '{"torn": tr';
    const file = path.join(tempStore({ "a.jsonl": body }), "a.jsonl");
    const read = async (chunk?: number) => {
      const lines: Array<[number, unknown]> = [];
      const res = await readJsonl(
        file,
        (l) => void lines.push([l.line, l.value]),
        undefined,
        undefined,
        undefined,
        chunk,
      );
      return { lines, torn: res.tornTail?.line ?? null };
    };
    const whole = await read();
    expect(whole.lines).toHaveLength(300);
    expect(whole.lines[299]).toEqual([300, { i: 299, text: "é".repeat(299 % 17) }]);
    expect(whole.torn).toBe(301);
    for (const chunk of [1, 7, 64, 4096]) expect(await read(chunk)).toEqual(whole);
  });
});
