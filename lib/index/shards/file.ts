// Shard files of a sharded summary index (`rollout-lens index RUN --shard i/n`): which shard a
// rollout belongs to (a stable hash of its id), and the file one shard writes — a self-contained
// SQLite file of the rows the summary index caches (id, key, summary JSON) plus a `meta` table.
// Reading a directory of shards as one index is ./set; whether a row is still fresh,
// ./import (it compares keys with the store).
import "server-only";
import { createHash } from "node:crypto";
import { renameSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { InvalidInputError } from "@/lib/errors";

/** What the `meta` table's `format` says; a file without it is not a shard. */
export const SHARD_FORMAT = "rollout-lens-shard";
/** The file layout's version; bump when the tables change. Newer files are refused, not guessed. */
export const SHARD_FORMAT_VERSION = 1;
/** `PRAGMA application_id` of a shard file ("RLSH"), so `file(1)` and readers can tell it apart. */
const APPLICATION_ID = 0x524c5348;

/** A shard set that cannot be used as one index; the message names the file and what is wrong. */
export class ShardError extends InvalidInputError {}

export interface ShardSpec {
  index: number;
  count: number;
}

/** A row as the summary index caches it. */
export interface ShardRow {
  id: string;
  key: string;
  summary: string;
}

export interface ShardMeta {
  run_dir: string;
  run_id: string;
  shard_index: number;
  shard_count: number;
  summary_version: number;
  /** The start of every row key (`<SUMMARY_VERSION>:<build id>|`): the build that summarised. */
  key_prefix: string;
  /** ISO time the file was finished. */
  created: string;
  rows: number;
}

/**
 * The shard of a rollout: the first 8 bytes of SHA-256 of its id (UTF-8), read as a big-endian
 * unsigned 64-bit integer, modulo `count`. Stable across processes, machines and versions.
 */
export function shardOf(id: string, count: number): number {
  const digest = createHash("sha256").update(id, "utf8").digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(count));
}

/** `shard-0003-of-0064.sqlite`: numbered from 0, padded so a listing sorts in shard order. */
export function shardFileName({ index, count }: ShardSpec): string {
  const width = Math.max(4, String(count).length);
  const pad = (n: number) => String(n).padStart(width, "0");
  return `shard-${pad(index)}-of-${pad(count)}.sqlite`;
}

/**
 * Writes one shard file: rows go in as they come (batches, one transaction each) to a temporary
 * file beside it, renamed into place by `finish`, so a crashed job leaves no `.sqlite` that a
 * reader would take for a whole shard.
 */
export class ShardWriter {
  private readonly tmp: string;
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private count = 0;

  constructor(
    readonly file: string,
    private readonly meta: Omit<ShardMeta, "created" | "rows">,
  ) {
    this.tmp = `${file}.tmp-${process.pid}`;
    rmSync(this.tmp, { force: true });
    this.db = new Database(this.tmp);
    this.db.pragma("journal_mode = OFF");
    this.db.pragma("synchronous = OFF");
    this.db.pragma(`application_id = ${APPLICATION_ID}`);
    this.db.pragma(`user_version = ${SHARD_FORMAT_VERSION}`);
    this.db.exec(
      "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);" +
        "CREATE TABLE rows (id TEXT PRIMARY KEY, key TEXT NOT NULL, summary TEXT NOT NULL);",
    );
    this.insert = this.db.prepare("INSERT INTO rows (id, key, summary) VALUES (?, ?, ?)");
  }

  add(rows: readonly ShardRow[]): void {
    this.db.transaction(() => {
      for (const r of rows) this.insert.run(r.id, r.key, r.summary);
    })();
    this.count += rows.length;
  }

  finish(): ShardMeta {
    const meta: ShardMeta = { ...this.meta, created: new Date().toISOString(), rows: this.count };
    const put = this.db.prepare("INSERT INTO meta (name, value) VALUES (?, ?)");
    this.db.transaction(() => {
      put.run("format", SHARD_FORMAT);
      for (const [name, value] of Object.entries(meta)) put.run(name, String(value));
    })();
    this.db.close();
    renameSync(this.tmp, this.file);
    return meta;
  }

  abort(): void {
    if (this.db.open) this.db.close();
    rmSync(this.tmp, { force: true });
  }
}

/** The meta of a shard file, checked whole: every field, its rows counted, its pages intact. */
export function readShardMeta(file: string): ShardMeta {
  const name = path.basename(file);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new ShardError(`${name}: cannot be opened (${(err as Error).message})`);
  }
  try {
    return checkedMeta(db, name);
  } catch (err) {
    if (err instanceof ShardError) throw err;
    throw new ShardError(`${name}: not a readable shard file (${(err as Error).message})`);
  } finally {
    db.close();
  }
}

function checkedMeta(db: Database.Database, name: string): ShardMeta {
  if (db.pragma("application_id", { simple: true }) !== APPLICATION_ID)
    throw new ShardError(`${name}: not a rollout-lens shard file`);
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version !== SHARD_FORMAT_VERSION)
    throw new ShardError(
      `${name}: shard format ${version}, this rollout-lens reads ${SHARD_FORMAT_VERSION}`,
    );
  const check = db.pragma("quick_check", { simple: true });
  if (check !== "ok") throw new ShardError(`${name}: damaged (${String(check)})`);
  const pairs = db.prepare("SELECT name, value FROM meta").all() as Array<Record<string, string>>;
  const values = new Map(pairs.map((p) => [p.name, p.value]));
  if (values.get("format") !== SHARD_FORMAT)
    throw new ShardError(`${name}: not a rollout-lens shard file (no format in its meta)`);
  const text = (field: string) => {
    const v = values.get(field);
    if (v === undefined || v === "") throw new ShardError(`${name}: its meta has no ${field}`);
    return v;
  };
  const int = (field: string) => {
    const v = Number(values.get(field));
    if (!Number.isInteger(v) || v < 0) throw new ShardError(`${name}: its meta has no ${field}`);
    return v;
  };
  const m: ShardMeta = {
    run_dir: text("run_dir"),
    run_id: text("run_id"),
    shard_index: int("shard_index"),
    shard_count: int("shard_count"),
    summary_version: int("summary_version"),
    key_prefix: text("key_prefix"),
    created: text("created"),
    rows: int("rows"),
  };
  if (m.shard_count < 1 || m.shard_index >= m.shard_count)
    throw new ShardError(`${name}: shard ${m.shard_index}/${m.shard_count} is not a shard`);
  const held = (db.prepare("SELECT count(*) AS n FROM rows").get() as { n: number }).n;
  if (held !== m.rows)
    throw new ShardError(`${name}: holds ${held} rows, its meta says ${m.rows} (a partial file)`);
  return m;
}
