// "Read once per file version": a value derived from a whole file (rollouts.jsonl, metrics.jsonl,
// a tokenizer.json), recomputed only when the file's version (./file-version) changes. Held in the
// process-wide cache registry, bounded by the bytes of the files behind the values (a parsed value
// is roughly proportional to its file), least recently used first. A failed load is forgotten, so
// the next request retries it; `cachedOrError` turns a failure into a message for that file alone.
import "server-only";
import path from "node:path";
import { processCache } from "@/lib/cache";
import { fileState, versionOf, type FileStat } from "./file-version";
import { statWithin } from "./io";

/** Bytes of source files whose parsed values are kept (one file larger than this is still kept alone). */
export const FILE_CACHE_BYTES = 256 << 20;

type Entry = { version: string; value: Promise<unknown> };

const files = () => processCache<Entry>("files-by-version", "bytes", FILE_CACHE_BYTES);

/** `load()`'s value for the current version of `file` (given its stat); null when not a regular file. */
export async function cachedByVersion<T>(
  scope: string,
  file: string,
  load: (st: FileStat) => Promise<T>,
  /** What the value weighs in the cache, where it is far from the file's bytes (a bounded summary). */
  weight: (st: FileStat) => number = (s) => s.size,
): Promise<T | null> {
  const st = await statWithin(file).catch(() => null);
  if (!st?.isFile()) return null;
  const version = versionOf(st);
  const cache = files();
  const id = `${scope}\n${file}`;
  const hit = cache.get(id);
  if (hit?.version === version) return hit.value as Promise<T>;
  const value = load(st);
  cache.set(id, { version, value }, Math.max(1, weight(st)));
  value.catch(() => {
    if (cache.keys().includes(id) && cache.get(id)?.value === value) cache.delete(id);
  });
  return value;
}

/** A cached value, or why the file could not be read (its value then null). */
export interface CachedOrError<T> {
  value: T | null;
  error: string | null;
}

/**
 * `cachedByVersion` that never rejects: a missing file is a null value, a file that is not a regular
 * file (a directory, a FIFO) or whose read fails (EIO, EACCES) is an error message naming it, so one
 * run's broken file shows on that run and never fails a listing of every run.
 */
export async function cachedOrError<T>(
  scope: string,
  file: string,
  load: (st: FileStat) => Promise<T>,
  weight?: (st: FileStat) => number,
): Promise<CachedOrError<T>> {
  const name = path.basename(file);
  try {
    const value = await cachedByVersion(scope, file, load, weight);
    if (value !== null) return { value, error: null };
    return { value: null, error: (await fileState(file)).error };
  } catch (err) {
    return { value: null, error: `${name}: ${(err as Error).message}` };
  }
}
