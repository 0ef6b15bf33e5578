// The store reads' progress reports: increments of bytes read, at most every few MB while a large
// file streams, summing to the file's size; a small file in one report; the same lines either way.
import { statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readJsonl, type JsonlLine } from "./jsonl";
import { readRolloutCapture } from "./token-store";
import { readCaptureStore } from "./capture-store";
import { rolloutReadBytes } from "./files";
import { line, tempStore, tokenRecord } from "@/lib/testing/temp-store";

const MB = 1 << 20;

/** A token store whose one rollout's file is about `mb` MB: calls with long prompts. */
function bigStore(mb: number): { dir: string; file: string; calls: number } {
  const prompt = Array.from({ length: 60_000 }, (_, i) => (i * 7919) % 200_000);
  const one = line(tokenRecord("0-0", "c0", prompt, [1, 2, 3]));
  const calls = Math.ceil((mb * MB) / one.length);
  const text = Array.from({ length: calls }, (_, i) =>
    line(tokenRecord("0-0", `c${i}`, prompt, [1, 2, 3])),
  ).join("");
  const dir = tempStore({
    "0-0.tokens.jsonl": text,
    "0-0.capture.jsonl": line({ not: "an exchange" }),
  });
  return { dir, file: path.join(dir, "0-0.tokens.jsonl"), calls };
}

describe("read progress", () => {
  const big = bigStore(20);
  const size = statSync(big.file).size;

  it("a streamed file reports increments of at least 4 MB, then the rest, summing to its size", async () => {
    const reports: number[] = [];
    const lines: JsonlLine[] = [];
    await readJsonl(
      big.file,
      (l) => lines.push(l),
      undefined,
      (n) => reports.push(n),
    );
    expect(reports.reduce((a, b) => a + b, 0)).toBe(size);
    expect(reports.length).toBeGreaterThanOrEqual(Math.floor(size / (4 * MB)));
    expect(reports.length).toBeLessThanOrEqual(Math.ceil(size / (4 * MB)) + 1);
    for (const r of reports.slice(0, -1)) expect(r).toBeGreaterThanOrEqual(4 * MB);
    expect(lines).toHaveLength(big.calls);
  });

  it("reads the same lines with and without a progress sink", async () => {
    const a: number[] = [],
      b: number[] = [];
    await readJsonl(big.file, (l) => a.push(l.bytes));
    await readJsonl(
      big.file,
      (l) => b.push(l.bytes),
      undefined,
      () => undefined,
    );
    expect(b).toEqual(a);
  });

  it("a small file reports once, its whole size", async () => {
    const dir = tempStore({ "a.jsonl": line({ a: 1 }) + line({ a: 2 }) });
    const file = path.join(dir, "a.jsonl");
    const reports: number[] = [];
    await readJsonl(
      file,
      () => undefined,
      undefined,
      (n) => reports.push(n),
    );
    expect(reports).toEqual([statSync(file).size]);
  });

  it("the token and capture reads report their files' bytes; rolloutReadBytes is their sum", async () => {
    let read = 0;
    const capture = await readRolloutCapture(
      big.dir,
      "0-0",
      undefined,
      undefined,
      (n) => (read += n),
    );
    expect(capture.snapshot.entries).toHaveLength(big.calls);
    expect(read).toBe(size);
    const store = await readCaptureStore(big.dir, "0-0", undefined, undefined, (n) => (read += n));
    expect(store.unreadable).toHaveLength(1);
    const captureSize = statSync(path.join(big.dir, "0-0.capture.jsonl")).size;
    expect(read).toBe(size + captureSize);
    expect(await rolloutReadBytes(big.dir, big.dir, "0-0")).toBe(size + captureSize);
    expect(await rolloutReadBytes(big.dir, null, "0-0")).toBe(size);
    expect(await rolloutReadBytes(big.dir, big.dir, "9-9")).toBe(0);
  });
});
