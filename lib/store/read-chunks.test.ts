import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { readChunks } from "./io/file";

function tempFile(bytes: Buffer): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "rl-chunks-")), "f.bin");
  writeFileSync(file, bytes);
  return file;
}

describe("readChunks with its read-ahead", () => {
  it("hands out every byte once, in order, in 1 MB chunks", async () => {
    const bytes = randomBytes((5 << 20) / 2 + 17); // 2.5 MB and a bit: three chunks
    const chunks: Buffer[] = [];
    for await (const c of readChunks(tempFile(bytes))) chunks.push(Buffer.from(c));
    expect(chunks.map((c) => c.length)).toEqual([1 << 20, 1 << 20, bytes.length - (2 << 20)]);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it("reads in the chunk size it is given, every byte once", async () => {
    const bytes = randomBytes(300_001);
    const chunks: Buffer[] = [];
    for await (const c of readChunks(tempFile(bytes), undefined, 65_536))
      chunks.push(Buffer.from(c));
    expect(chunks.map((c) => c.length)).toEqual([
      65_536,
      65_536,
      65_536,
      65_536,
      300_001 - 4 * 65_536,
    ]);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it("reads an empty file as no chunks, and a small one in one", async () => {
    const none: Buffer[] = [];
    for await (const c of readChunks(tempFile(Buffer.alloc(0)))) none.push(c);
    expect(none).toEqual([]);
    const small: Buffer[] = [];
    for await (const c of readChunks(tempFile(Buffer.from("abc")))) small.push(c);
    expect(small.map(String)).toEqual(["abc"]);
  });

  it("finds a small file's end without a chunk-sized buffer, and reads on if the file is longer", async () => {
    // Each small file's read of its end took a 1 MB buffer (V8 external memory): a store worker
    // collected its young generation every 30 or so rollouts for it.
    const alloc = vi.spyOn(Buffer, "allocUnsafe");
    try {
      const bytes = randomBytes(20_000);
      const chunks: Buffer[] = [];
      for await (const c of readChunks(tempFile(bytes))) chunks.push(c);
      expect(alloc.mock.calls.map(([n]) => n)).toEqual([20_001, 4096]);
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      // /proc files say 0 bytes: read in chunks until a read gives none, every byte kept.
      alloc.mockClear();
      const status: Buffer[] = [];
      for await (const c of readChunks("/proc/self/status")) status.push(c);
      expect(alloc.mock.calls.map(([n]) => n)).toEqual([1 << 20, 4096]);
      expect(Buffer.concat(status).toString()).toMatch(/^Name:.*\n[\s\S]*VmRSS:/);
    } finally {
      alloc.mockRestore();
    }
  });

  it("stops cleanly when the caller stops with a read in flight, and on an aborted signal", async () => {
    const file = tempFile(randomBytes(3 << 20));
    for await (const c of readChunks(file)) {
      expect(c.length).toBe(1 << 20);
      break; // the next chunk's read is in flight: it ends before the handle closes
    }
    const ac = new AbortController();
    const seen: number[] = [];
    await expect(async () => {
      for await (const c of readChunks(file, ac.signal)) {
        seen.push(c.length);
        ac.abort(new Error("stop"));
      }
    }).rejects.toThrow("stop");
    expect(seen).toEqual([1 << 20]);
  });
});
