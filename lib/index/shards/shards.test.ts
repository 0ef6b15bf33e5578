import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { summaryOf } from "@/lib/testing/summary";
import { keysIn, mapSink, seedFromShards, shardDirFor } from "./import";
import { mergeShards, readShardDir, shardSetRows } from "./set";
import { ShardError, shardFileName, shardOf, ShardWriter, type ShardSpec } from "./file";

const RUN = "/runs/alpha";
const PREFIX = "7:build-a|";

function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "rollout-lens-shards-"));
}

/** The ids r0..r59 that hash to `spec`'s shard, found by the test's own filter of the hash. */
function idsOf(spec: ShardSpec): string[] {
  return Array.from({ length: 60 }, (_, i) => `r${i}`).filter(
    (id) => shardOf(id, spec.count) === spec.index,
  );
}

function writeShard(
  dir: string,
  spec: ShardSpec,
  o: { runDir?: string; prefix?: string; name?: string; ids?: string[] } = {},
): string {
  const file = path.join(dir, o.name ?? shardFileName(spec));
  const writer = new ShardWriter(file, {
    run_dir: o.runDir ?? RUN,
    run_id: "alpha",
    shard_index: spec.index,
    shard_count: spec.count,
    summary_version: 7,
    key_prefix: o.prefix ?? PREFIX,
  });
  const ids = o.ids ?? idsOf(spec);
  writer.add(ids.map((id) => ({ id, key: `${o.prefix ?? PREFIX}k-${id}`, summary: "{}" })));
  writer.finish();
  return file;
}

function writeSet(count: number): string {
  const dir = tempDir();
  for (let index = 0; index < count; index++) writeShard(dir, { index, count });
  return dir;
}

const errorOf = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ShardError);
    return (err as Error).message;
  }
  throw new Error("expected a ShardError");
};

describe("shardOf", () => {
  it("is the first 8 bytes of SHA-256 of the id, big-endian, modulo n (values from Python hashlib)", () => {
    expect(shardOf("0-0", 64)).toBe(54);
    expect(shardOf("1-0", 64)).toBe(42);
    expect(shardOf("task-7-a1", 64)).toBe(8);
    expect(shardOf("é-1", 64)).toBe(35);
    expect(shardOf("0-0", 3)).toBe(2);
    expect(shardOf("task-7-a1", 3)).toBe(1);
    expect(shardOf("anything", 1)).toBe(0);
  });

  it("names shard files so a listing sorts in shard order", () => {
    expect(shardFileName({ index: 3, count: 64 })).toBe("shard-0003-of-0064.sqlite");
    expect(shardFileName({ index: 7, count: 100000 })).toBe("shard-000007-of-100000.sqlite");
  });
});

describe("readShardDir", () => {
  it("reads a whole set in shard order and yields every row once", () => {
    const dir = writeSet(4);
    const set = readShardDir(dir);
    expect(set.count).toBe(4);
    expect(set.files.map((f) => path.basename(f))).toEqual(
      [0, 1, 2, 3].map((index) => shardFileName({ index, count: 4 })),
    );
    const ids = [...shardSetRows(set)].map((r) => r.id).sort();
    expect(ids).toEqual(Array.from({ length: 60 }, (_, i) => `r${i}`).sort());
    expect(set.rows).toBe(60);
  });

  it("merges a set into one file that reads back as shard 0 of 1 with the same rows", () => {
    const dir = writeSet(3);
    const out = path.join(tempDir(), "index.sqlite");
    const meta = mergeShards(readShardDir(dir), out);
    expect(meta).toMatchObject({ shard_index: 0, shard_count: 1, rows: 60, run_dir: RUN });
    const merged = readShardDir(out);
    expect([...shardSetRows(merged)]).toEqual(
      [...shardSetRows(readShardDir(dir))].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
  });

  it("says which shards are missing, and names an unfinished one", () => {
    const dir = writeSet(4);
    rmSync(path.join(dir, shardFileName({ index: 2, count: 4 })));
    expect(errorOf(() => readShardDir(dir))).toMatch(/missing shard 2 of 4 \(3 of 4 present\)$/);
    writeFileSync(path.join(dir, `${shardFileName({ index: 2, count: 4 })}.tmp-4242`), "");
    expect(errorOf(() => readShardDir(dir))).toMatch(
      /unfinished: shard-0002-of-0004\.sqlite\.tmp-4242/,
    );
    expect(errorOf(() => readShardDir(tempDir()))).toMatch(/no shard files/);
  });

  it("refuses mixed shard counts, two runs, two builds and a shard given twice", () => {
    const mixed = writeSet(2);
    writeShard(mixed, { index: 0, count: 4 });
    expect(errorOf(() => readShardDir(mixed))).toMatch(
      /different shard counts: .* has 2, .* has 4/,
    );
    const runs = writeSet(2);
    writeShard(runs, { index: 1, count: 2 }, { runDir: "/runs/beta", name: "other.sqlite" });
    expect(errorOf(() => readShardDir(runs))).toMatch(
      /shards of different runs: other\.sqlite has \/runs\/beta, shard-0000-of-0002\.sqlite has \/runs\/alpha/,
    );
    const builds = writeSet(2);
    writeShard(builds, { index: 0, count: 2 }, { prefix: "7:build-b|", name: "z.sqlite" });
    expect(errorOf(() => readShardDir(builds))).toMatch(/different builds/);
    const twice = writeSet(2);
    writeShard(twice, { index: 1, count: 2 }, { name: "z.sqlite" });
    expect(errorOf(() => readShardDir(twice))).toMatch(
      /shard 1\/2 twice: shard-0001-of-0002\.sqlite and z\.sqlite/,
    );
  });

  it("names a corrupt file, a file that is not a shard, and a partial one", () => {
    const corrupt = writeSet(2);
    writeFileSync(path.join(corrupt, shardFileName({ index: 1, count: 2 })), "not sqlite at all");
    expect(errorOf(() => readShardDir(corrupt))).toMatch(/^shard-0001-of-0002\.sqlite: /);
    const foreign = writeSet(2);
    new Database(path.join(foreign, "notes.sqlite")).exec("CREATE TABLE t (x)");
    expect(errorOf(() => readShardDir(foreign))).toMatch(
      /^notes\.sqlite: not a rollout-lens shard/,
    );
    const partial = writeSet(2);
    const file = path.join(partial, shardFileName({ index: 0, count: 2 }));
    const db = new Database(file);
    db.exec("DELETE FROM rows WHERE rowid IN (SELECT rowid FROM rows LIMIT 1)");
    db.close();
    expect(errorOf(() => readShardDir(partial))).toMatch(
      /shard-0000-of-0002\.sqlite: holds \d+ rows, its meta says \d+ \(a partial file\)/,
    );
  });

  it("refuses a file whose rows are not of its shard", () => {
    const dir = tempDir();
    writeShard(dir, { index: 0, count: 2 }, { ids: idsOf({ index: 1, count: 2 }).slice(0, 1) });
    writeShard(dir, { index: 1, count: 2 });
    expect(errorOf(() => [...shardSetRows(readShardDir(dir))])).toMatch(/is not of shard 0\/2/);
  });

  it("leaves no file when writing is abandoned", () => {
    const dir = tempDir();
    const writer = new ShardWriter(path.join(dir, "x.sqlite"), {
      run_dir: RUN,
      run_id: "alpha",
      shard_index: 0,
      shard_count: 1,
      summary_version: 7,
      key_prefix: PREFIX,
    });
    writer.add([{ id: "a", key: "k", summary: "{}" }]);
    writer.abort();
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("shardDirFor", () => {
  it("is $ROLLOUT_LENS_SHARDS/<run id> when that directory exists", () => {
    const root = tempDir();
    const run = { id: "alpha" };
    expect(shardDirFor(run, {})).toBeNull();
    expect(shardDirFor(run, { ROLLOUT_LENS_SHARDS: root })).toBeNull();
    mkdirSync(path.join(root, "alpha"));
    expect(shardDirFor(run, { ROLLOUT_LENS_SHARDS: root })).toBe(path.join(root, "alpha"));
  });
});

describe("seedFromShards", () => {
  it("counts rows whose key no longer matches as stale and invalid summaries as invalid", async () => {
    const dir = writeSet(2);
    const inputs = new Map<string, { key: string }>(
      Array.from({ length: 60 }, (_, i) => [`r${i}`, { key: `${PREFIX}k-r${i}` }]),
    );
    inputs.set("r1", { key: `${PREFIX}changed` });
    inputs.delete("r2");
    const sink = mapSink();
    const seeded = { ...(await seedFromShards(dir, keysIn(inputs), sink, PREFIX)), ...sink };
    // "{}" is no summary: every row whose key matches is refused as invalid, never imported.
    expect(seeded).toMatchObject({ stale: 2, invalid: 58, notice: null });
    expect(seeded.rows.size).toBe(0);
  });

  it("takes rows a slice at a time and takes every one back when the set turns out bad halfway", async () => {
    const dir = tempDir();
    const spec0 = { index: 0, count: 2 };
    const ids0 = Array.from({ length: 3000 }, (_, i) => `q${i}`).filter(
      (id) => shardOf(id, 2) === 0,
    );
    const file = writeShard(dir, spec0, { ids: ids0 });
    // Real summaries, so the rows are taken; written over the writer's "{}".
    const db = new Database(file);
    const set = db.prepare("UPDATE rows SET summary = ? WHERE id = ?");
    for (const id of ids0) set.run(JSON.stringify(summaryOf({ rollout_id: id })), id);
    db.close();
    // Shard 1 holds a rollout of shard 0: the set is found bad only when that row is read.
    writeShard(dir, { index: 1, count: 2 }, { ids: ["r1", ids0[0] as string] });
    const keys = new Map(ids0.map((id) => [id, { key: `${PREFIX}k-${id}` }]));
    const slices: number[] = [];
    const sink = mapSink();
    const seeded = await seedFromShards(
      dir,
      keysIn(keys),
      { take: (rows) => (slices.push(rows.length), sink.take(rows)), drop: sink.drop },
      PREFIX,
    );
    expect(ids0.length).toBeGreaterThan(1000);
    expect(Math.max(...slices)).toBeLessThanOrEqual(500);
    expect(slices.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(500); // rows were taken…
    expect(sink.rows.size).toBe(0); // …and taken back
    expect(seeded).toMatchObject({ taken: 0, notice: expect.stringMatching(/not of shard 1\/2/) });
  });

  it("uses nothing from another build's shards or a bad set, and says why", async () => {
    const dir = writeSet(2);
    const none = keysIn(new Map());
    const other = await seedFromShards(dir, none, mapSink(), "7:build-b|");
    expect(other).toMatchObject({ stale: 60, invalid: 0 });
    expect(other.notice).toMatch(/summarised by build 7:build-a, this is 7:build-b: not used/);
    rmSync(path.join(dir, shardFileName({ index: 0, count: 2 })));
    const sink = mapSink();
    const bad = { ...(await seedFromShards(dir, none, sink, PREFIX)), ...sink };
    expect(bad.notice).toMatch(/^index shards not used: .*missing shard 0 of 2/);
    expect(bad.rows.size).toBe(0);
  });
});
