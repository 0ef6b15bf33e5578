// One computation shared by every caller asking for the same thing at once, and its answer reused
// for a short while after: under load, a hundred clients asking for the list of runs cost one
// listing, not a hundred. A failed computation is not reused. Bounded: one entry per key, at most
// SHARED_KEYS keys (the oldest dropped first).

/** Keys held at once (each a root or a run: few). */
export const SHARED_KEYS = 64;

interface Entry<T> {
  value: Promise<T>;
  /** When the answer stops being reused (Infinity while it is being computed). */
  until: number;
}

const entries = new Map<string, Entry<unknown>>();

/**
 * `compute()`'s answer for `key`: the one being computed if any, else one finished less than
 * `reuseMs` ago, else a new one.
 */
export function shared<T>(key: string, reuseMs: number, compute: () => Promise<T>): Promise<T> {
  const hit = entries.get(key) as Entry<T> | undefined;
  if (hit && performance.now() < hit.until) return hit.value;
  const entry: Entry<T> = { value: compute(), until: Infinity };
  entries.delete(key);
  entries.set(key, entry);
  while (entries.size > SHARED_KEYS) entries.delete(entries.keys().next().value as string);
  entry.value.then(
    () => void (entry.until = performance.now() + reuseMs),
    () => void (entries.get(key) === entry && entries.delete(key)),
  );
  return entry.value;
}
