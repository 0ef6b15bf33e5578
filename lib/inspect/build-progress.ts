// Progress of the inspector's builds while they run, per build key: bytes read of the rollout's
// token and capture files, then the deciding and decoding phases, for the loading page's bar. Held
// in the process-wide cache registry (bounded); an entry lives only while its build runs.
// Not responsible for starting, sharing or caching builds (shared-builds, rollout-model).
import { processCache } from "@/lib/cache";
import type { BuildProgress } from "@/lib/schema";

/** Builds tracked at once. Only running builds are (a few, BUILD_CONCURRENCY); the bound guards leaks. */
const TRACKED_BOUND = 64;

interface Tracked {
  total: number;
  read: number;
  decoding: boolean;
  started: number;
}

const tracked = () => processCache<Tracked>("inspect.build-progress", "entries", TRACKED_BOUND);

/** What a build reports into while it runs. */
export interface BuildProgressSink {
  /** Bytes read since the previous call (lib/store ReadProgress): pass it to the store reads. */
  read: (bytes: number) => void;
  /** The files are read and the verdict decided; the view (text, calls, chains) is being built. */
  decoding: () => void;
}

/**
 * Runs `build` with a sink whose reports the progress route can see under `key`, until it settles.
 * `totalBytes`: what the build will read (lib/store rolloutReadBytes).
 */
export async function trackBuild<T>(
  key: string,
  totalBytes: number,
  build: (sink: BuildProgressSink) => Promise<T>,
): Promise<T> {
  const entry: Tracked = { total: totalBytes, read: 0, decoding: false, started: Date.now() };
  const cache = tracked();
  cache.set(key, entry);
  const sink: BuildProgressSink = {
    read: (bytes) => void (entry.read += bytes),
    decoding: () => void (entry.decoding = true),
  };
  try {
    return await build(sink);
  } finally {
    // Only this build's entry: the key's next build (after a change) brings its own.
    if (cache.get(key) === entry) cache.delete(key);
  }
}

/** The build of `key` as it stands, or null when none runs (not started, queued, or done). */
export function trackedProgress(key: string): Extract<BuildProgress, { state: "building" }> | null {
  const t = tracked().get(key);
  if (!t) return null;
  // A file can grow while it is read: the bar never passes its end.
  const read = Math.min(t.read, t.total);
  const phase = t.decoding ? "decoding" : read < t.total ? "reading" : "deciding";
  return {
    state: "building",
    phase,
    bytes_read: read,
    total_bytes: t.total,
    elapsed_ms: Math.max(0, Date.now() - t.started),
  };
}
