// "Read once per file version": a value derived from a file, recomputed only when the file's size or
// mtime changes. On globalThis, because Next bundles pages and route handlers separately and they
// must not each parse the same rollouts.jsonl. A failed load is forgotten, so the next call retries.
import { stat } from "node:fs/promises";

type Entry = { key: string; value: Promise<unknown> };

export async function cachedByVersion<T>(scope: string, file: string, load: () => Promise<T>): Promise<T | null> {
  const st = await stat(file).catch(() => null);
  if (!st?.isFile()) return null;
  const holder = globalThis as typeof globalThis & { __rolloutLensFileCache?: Map<string, Entry> };
  const cache = (holder.__rolloutLensFileCache ??= new Map());
  const id = `${scope}\n${file}`;
  const key = `${st.size}:${st.mtimeMs}`;
  const hit = cache.get(id);
  if (hit?.key === key) return hit.value as Promise<T>;
  const value = load();
  cache.set(id, { key, value });
  value.catch(() => cache.get(id)?.value === value && cache.delete(id));
  return value;
}
