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
