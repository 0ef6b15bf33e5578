// A store listing kept as flat arrays (./listed-rollouts) reads as the Map it replaced: checked
// against a directory whose files, sizes and times the test wrote, and after a structured clone
// (how a listing crosses from the index's worker).
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ListedRollouts, listStore, packListing, unpackListing } from "@/lib/store";

/** id -> kind -> [bytes, mtime in s]: the truth the directory is written from. */
const TRUTH: Record<string, Record<string, [number, number]>> = {
  "b-1": { ".tokens.jsonl": [30, 1_700_000_001], ".tokens.state.json": [7, 1_700_000_002] },
  "a-1": { ".capture.jsonl": [12, 1_700_000_003] },
  "a-1-a2": { ".tokens.jsonl": [0, 1_700_000_004], ".tokens.incomplete": [1, 1_700_000_005] },
  "c-9": {
    ".tokens.jsonl": [5, 1_700_000_006],
    ".tokens.intents": [3, 1_700_000_007],
    ".capture.incomplete": [2, 1_700_000_008],
  },
};
const KIND: Record<string, string> = {
  ".tokens.jsonl": "tokens",
  ".tokens.incomplete": "incomplete",
  ".tokens.intents": "intents",
  ".tokens.state.json": "state",
  ".capture.jsonl": "capture",
  ".capture.incomplete": "captureIncomplete",
};

function writtenStore(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-listed-"));
  for (const [id, files] of Object.entries(TRUTH))
    for (const [suffix, [bytes, mtime]] of Object.entries(files)) {
      const file = path.join(dir, id + suffix);
      writeFileSync(file, "x".repeat(bytes));
      utimesSync(file, mtime, mtime);
    }
  mkdirSync(path.join(dir, "sub.tokens.jsonl")); // a directory is never a store file
  return dir;
}

const expected = (stat: boolean) =>
  Object.keys(TRUTH)
    .sort()
    .map((id) => [
      id,
      Object.fromEntries(
        Object.entries(TRUTH[id]!).map(([suffix, [size, mtime]]) => [
          KIND[suffix],
          stat ? { size, mtimeMs: mtime * 1000 } : null,
        ]),
      ),
    ]);

describe("a store listing's rollouts as flat arrays", () => {
  it("reads as the directory's truth, with and without stats, and after a structured clone", async () => {
    const dir = writtenStore();
    for (const stat of [true, false]) {
      const listing = await listStore(dir, { stat });
      expect(listing.rollouts).toBeInstanceOf(ListedRollouts);
      expect([...listing.rollouts]).toEqual(expected(stat));
      const cloned = unpackListing(structuredClone(packListing(listing)));
      expect([...cloned.rollouts.entries()]).toEqual(expected(stat));
      expect([...cloned.rollouts.values()]).toEqual(expected(stat).map(([, f]) => f));
      expect(cloned.rollouts.size).toBe(4);
      for (const [id, files] of expected(stat)) {
        expect(cloned.rollouts.has(id as string)).toBe(true);
        expect(cloned.rollouts.get(id as string)).toEqual(files);
      }
      for (const absent of ["", "a", "a-1-a", "b-0", "b-10", "c-99", "zzz"]) {
        expect(cloned.rollouts.has(absent)).toBe(false);
        expect(cloned.rollouts.get(absent)).toBeUndefined();
      }
      expect(cloned.attempts).toEqual(new Map([["a-1", ["a-1", "a-1-a2"]]]));
    }
  });

  it("finds every id of a large listing by search, and refuses an id listed twice", () => {
    const ids = Array.from({ length: 5000 }, (_, i) => `r${(i * 7919) % 5000}-${i % 3}`);
    const map = new Map(ids.map((id, i) => [id, { tokens: { size: i, mtimeMs: i + 0.5 } }]));
    const listed = ListedRollouts.of(map);
    expect([...listed.keys()]).toEqual([...map.keys()].sort());
    for (const [id, files] of map) expect(listed.get(id)).toEqual(files);
    const twice = ids[1234] as string;
    expect(() => ListedRollouts.of([...map, [twice, {}]])).toThrow(
      `rollout ${twice} is listed twice`,
    );
  });

  it("keeps 120,000 rollouts as their ids, 4 bytes each and 17 per file: no object per rollout or file", () => {
    const entries = Array.from({ length: 120_000 }, (_, i) => {
      const files = { tokens: { size: 8000 + i, mtimeMs: 1.7e12 + i / 3 } };
      return [`${Math.floor(i / 4)}-${i % 4}`, files] as [string, typeof files];
    });
    const listing = {
      dir: "d",
      rollouts: new Map(entries),
      skipped: [],
      deleted: [],
      attempts: new Map(),
    };
    const packed = structuredClone(packListing(listing)).rollouts;
    const { ids, first, kind, size, mtimeMs, ...rest } = packed;
    expect(rest).toEqual({});
    expect(ids).toEqual(entries.map(([id]) => id).sort());
    const bytes = first.byteLength + kind.byteLength + size!.byteLength + mtimeMs!.byteLength;
    expect(bytes).toBe(120_001 * 4 + 120_000 * 17);
    const unpacked = unpackListing({ ...listing, rollouts: packed }).rollouts;
    expect(unpacked.get("29999-3")).toEqual(entries[119_999]![1]);
  });
});
