// "Read once per file version": a value derived from a whole file (rollouts.jsonl, metrics.jsonl,
// a tokenizer.json), recomputed only when the file's version (./file-version) changes. Held in the
// process-wide cache registry, bounded by the bytes of the files behind the values (a parsed value
// is roughly proportional to its file), least recently used first. A failed load is forgotten.
import "server-only";
import { stat } from "node:fs/promises";
import { processCache } from "@/lib/cache/registry";
import { versionOf } from "./file-version";

/** Bytes of source files whose parsed values are kept (one file larger than this is still kept alone). */
export const FILE_CACHE_BYTES = 256 << 20;

type Entry = { version: string; value: Promise<unknown> };

const files = () => processCache<Entry>("files-by-version", "bytes", FILE_CACHE_BYTES);

/** `load()`'s value for the current version of `file`; null when it is not a regular file. */
export async function cachedByVersion<T>(
  scope: string,
  file: string,
  load: () => Promise<T>,
): Promise<T | null> {
  const st = await stat(file).catch(() => null);
  if (!st?.isFile()) return null;
  const version = versionOf(st);
  const cache = files();
  const id = `${scope}\n${file}`;
  const hit = cache.get(id);
  if (hit?.version === version) return hit.value as Promise<T>;
  const value = load();
  cache.set(id, { version, value }, Math.max(1, st.size));
  value.catch(() => {
    if (cache.keys().includes(id) && cache.get(id)?.value === value) cache.delete(id);
  });
  return value;
}
