// A directory of shard files (./file) read as one index: checks the set is whole and consistent
// (every shard once, one run, one shard count, one build), yields its rows, and merges it into one
// shard file (`rollout-lens index --merge`). Does not decide whether a row is still fresh
// (./import compares keys with the store).
import "server-only";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import {
  readShardMeta,
  ShardError,
  shardOf,
  ShardWriter,
  type ShardMeta,
  type ShardRow,
} from "./file";

/** A whole, consistent set of shards: every shard 0..count-1 once, of one run and one build. */
export interface ShardSet {
  /** The shard files, in shard order. */
  files: string[];
  metas: ShardMeta[];
  runDir: string;
  runId: string;
  count: number;
  summaryVersion: number;
  keyPrefix: string;
  rows: number;
}

/**
 * Reads a directory of shard files (`*.sqlite`; other files are ignored), or one shard file, as one
 * index. Throws ShardError naming the file when one is not a whole shard, or saying which shards
 * are missing, doubled, of another run, another shard count or another build.
 */
export function readShardDir(where: string): ShardSet {
  if (!existsSync(where)) throw new ShardError(`${where}: no such file or directory`);
  const isDir = statSync(where).isDirectory();
  const names = isDir
    ? readdirSync(where)
        .filter((n) => n.endsWith(".sqlite"))
        .sort()
    : [path.basename(where)];
  const dir = isDir ? where : path.dirname(where);
  if (names.length === 0) throw new ShardError(`${where}: no shard files (*.sqlite)`);
  const found = names.map((n) => ({
    file: path.join(dir, n),
    meta: readShardMeta(path.join(dir, n)),
  }));
  const first = found[0] as { file: string; meta: ShardMeta };
  const same = (field: keyof ShardMeta, what: string) => {
    const other = found.find((f) => f.meta[field] !== first.meta[field]);
    if (other)
      throw new ShardError(
        `${what}: ${path.basename(first.file)} has ${first.meta[field]}, ` +
          `${path.basename(other.file)} has ${other.meta[field]}`,
      );
  };
  same("run_dir", "shards of different runs");
  same("shard_count", "shards of different shard counts");
  same("key_prefix", "shards made by different builds");
  const count = first.meta.shard_count;
  const byIndex = new Map<number, string>();
  for (const { file, meta } of found) {
    const twin = byIndex.get(meta.shard_index);
    if (twin !== undefined)
      throw new ShardError(
        `shard ${meta.shard_index}/${count} twice: ${path.basename(twin)} and ${path.basename(file)}`,
      );
    byIndex.set(meta.shard_index, file);
  }
  if (byIndex.size < count) throw new ShardError(missingMessage(where, byIndex, count, dir));
  const ordered = found.sort((a, b) => a.meta.shard_index - b.meta.shard_index);
  const metas = ordered.map((f) => f.meta);
  return {
    files: ordered.map((f) => f.file),
    metas,
    runDir: first.meta.run_dir,
    runId: first.meta.run_id,
    count,
    summaryVersion: first.meta.summary_version,
    keyPrefix: first.meta.key_prefix,
    rows: metas.reduce((n, m) => n + m.rows, 0),
  };
}

function missingMessage(
  where: string,
  present: ReadonlyMap<number, string>,
  count: number,
  dir: string,
): string {
  const missing: number[] = [];
  for (let i = 0; i < count; i++) if (!present.has(i)) missing.push(i);
  const listed = missing.slice(0, 12).join(", ") + (missing.length > 12 ? ", …" : "");
  const unfinished = readdirSync(dir).filter((n) => /\.sqlite\.tmp-\d+$/.test(n));
  const hint =
    unfinished.length > 0
      ? ` (unfinished: ${unfinished.slice(0, 4).join(", ")}: their jobs did not finish)`
      : "";
  return `${where}: missing shard${missing.length > 1 ? "s" : ""} ${listed} of ${count} (${present.size} of ${count} present)${hint}`;
}

/**
 * Every row of a shard set, shard by shard, each file opened read-only while it is read. A row whose
 * id does not hash to its file's shard means the file is not what its meta says: ShardError.
 */
export function* shardSetRows(set: ShardSet): Generator<ShardRow> {
  for (const [i, file] of set.files.entries()) {
    const meta = set.metas[i] as ShardMeta;
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const rows = db.prepare("SELECT id, key, summary FROM rows ORDER BY id").iterate();
      for (const row of rows as Iterable<ShardRow>) {
        if (meta.shard_count > 1 && shardOf(row.id, meta.shard_count) !== meta.shard_index)
          throw new ShardError(
            `${path.basename(file)}: rollout ${row.id} is not of shard ${meta.shard_index}/${meta.shard_count}`,
          );
        yield row;
      }
    } finally {
      db.close();
    }
  }
}

/** Writes a shard set as one shard file (shard 0 of 1) at `outFile`. */
export function mergeShards(set: ShardSet, outFile: string): ShardMeta {
  const writer = new ShardWriter(outFile, {
    run_dir: set.runDir,
    run_id: set.runId,
    shard_index: 0,
    shard_count: 1,
    summary_version: set.summaryVersion,
    key_prefix: set.keyPrefix,
  });
  try {
    const batch: ShardRow[] = [];
    for (const row of shardSetRows(set)) {
      batch.push(row);
      if (batch.length >= 1000) writer.add(batch.splice(0));
    }
    writer.add(batch);
    return writer.finish();
  } catch (err) {
    writer.abort();
    throw err;
  }
}
