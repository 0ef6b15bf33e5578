// A file cut into stretches of whole lines (./line-ranges): together they are the file, each
// starts where a line starts, carries that line's number, and the line count is readJsonl's. The
// expected offsets and numbers come from splitting the test's own text, not from the code.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempStore } from "@/lib/testing/temp-store";
import { lineRanges } from "./line-ranges";

/** Every line start of `text` (byte offset, 1-based line number), and its line count. */
function truth(text: string): { starts: Map<number, number>; lines: number } {
  const starts = new Map<number, number>([[0, 1]]);
  const bytes = Buffer.from(text);
  let line = 1;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.set(i + 1, ++line);
  // An unterminated last line counts; nothing after the last newline is no line.
  const lines = text === "" || text.endsWith("\n") ? line - 1 : line;
  return { starts, lines };
}

/** Lines of many lengths: blank lines, CRLF, multi-byte text, one far longer than a stretch. */
function shapes(n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 17 === 0) out.push("");
    else if (i % 23 === 0) out.push(`{"a":"${"é".repeat(i * 7)}"}\r`);
    else if (i === 40) out.push(`{"long":"${"x".repeat(9000)}"}`);
    else out.push(`{"i":${i},"pad":"${"y".repeat((i * 37) % 300)}"}`);
  }
  return out.join("\n");
}

describe("lineRanges", () => {
  for (const [name, text] of [
    ["a file ending in a newline", shapes(400) + "\n"],
    ["an unterminated last line", shapes(400)],
    ["one line", '{"a":1}\n'],
    ["an empty file", ""],
  ] as const)
    it(`covers ${name} with stretches that start at lines`, async () => {
      const dir = tempStore({});
      const file = path.join(dir, "rollouts.jsonl");
      writeFileSync(file, text);
      const { starts, lines } = truth(text);
      const got = await lineRanges(file, 2048, 512);
      expect(got.lines).toBe(lines);
      const size = Buffer.byteLength(text);
      expect(got.ranges[0]).toMatchObject({ from: 0, firstLine: 1 });
      expect(got.ranges.at(-1)?.to).toBeNull();
      for (const [i, r] of got.ranges.entries()) {
        expect(starts.get(r.from)).toBe(r.firstLine);
        const next = got.ranges[i + 1];
        if (next) expect(r.to).toBe(next.from);
        // A stretch passes its size by one line at most; none is empty but a file's only one.
        const end = r.to ?? size;
        if (got.ranges.length > 1) expect(end).toBeGreaterThan(r.from);
        if (i > 0 && r.to !== null) expect(end - r.from).toBeLessThanOrEqual(2048 + 9100);
      }
      if (size > 4096) expect(got.ranges.length).toBeGreaterThan(size / (2048 + 9100));
    });
});
