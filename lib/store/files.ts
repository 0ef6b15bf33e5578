// Which files belong to which rollout in a store directory. Both file families (token store and
// model-call capture) may share one directory, so files are classified by suffix (§1, §3, §9.1).
// Listing and stat calls run under the read deadline (./io/file); no file is opened here.
import "server-only";
import path from "node:path";
import type { FileStat } from "./file-version";
import { confine } from "./confine";
import { readdirWithin, statWithin } from "./io";
import { FILE_KINDS, SUFFIXES, type FileKind, type RolloutFiles } from "./file-kinds";
import { ListedRollouts } from "./listed-rollouts";
import { assertRolloutId, isValidRolloutId } from "./rollout-id";

export type { FileStat };

export { FILE_KINDS, SUFFIXES, type FileKind, type RolloutFiles } from "./file-kinds";

/** Known store files that carry nothing to read: atomic-write temp files, lineage logs. */
const IGNORED = [/^\.tokens-state-/, /\.lineage\.jsonl$/];
/** Gym main's per-rollout lock file: empty, never read, but all a deleted rollout leaves behind. */
const LOCK_SUFFIX = ".tokens.lock";

export interface StoreListing {
  dir: string;
  /** Rollout id (sorted) -> the files present (stat values when requested, else null). */
  rollouts: ReadonlyMap<string, RolloutFiles>;
  /** File names that look like store files but whose rollout id is not a valid id. */
  skipped: string[];
  /** Rollouts deleted by Gym main's store (`delete`): only their lock file is left (sorted). */
  deleted: string[];
  /** Rollouts with `-aN` attempts: the base id -> every id of the group (base first, then by N). */
  attempts: Map<string, string[]>;
  /** Some rollout has a Gym main lock file (`R.tokens.lock`): evidence of Gym main's store. */
  locked?: boolean;
}

/** `R-aN` is attempt N of rollout R (docs/gym-v1-store.md §6); null for an id without the suffix. */
export function attemptOf(id: string): { base: string; attempt: number } | null {
  const m = /^(.+)-a(\d+)$/.exec(id);
  return m ? { base: m[1] as string, attempt: Number(m[2]) } : null;
}

/** Attempt groups among `ids` (listed and deleted rollouts alike); see StoreListing.attempts. */
export function attemptGroups(ids: Iterable<string>): Map<string, string[]> {
  const all = new Set(ids);
  const groups = new Map<string, Array<[number, string]>>();
  for (const id of all) {
    const a = attemptOf(id);
    if (!a) continue;
    const g = groups.get(a.base) ?? (all.has(a.base) ? [[0, a.base]] : []);
    g.push([a.attempt, id]);
    groups.set(a.base, g);
  }
  const out = new Map<string, string[]>();
  for (const [base, g] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    out.set(
      base,
      g.sort((x, y) => x[0] - y[0]).map(([, id]) => id),
    );
  return out;
}

const SUFFIX_ENTRIES = FILE_KINDS.map((k) => [k, SUFFIXES[k]] as const);

export function classifyFileName(name: string): { id: string; kind: FileKind } | null {
  for (const [kind, suffix] of SUFFIX_ENTRIES) {
    if (name.endsWith(suffix) && name.length > suffix.length)
      return { id: name.slice(0, -suffix.length), kind };
  }
  return null;
}

export function storePath(dir: string, rolloutId: string, kind: FileKind): string {
  return path.join(dir, rolloutId + SUFFIXES[kind]);
}

/**
 * The files a build of the rollout reads in full: its token file and its model-call capture (the
 * side files are a few bytes); with `present` (a listing's kinds), only those it found.
 */
export function fullReads(
  tokensDir: string | null,
  modelCallsDir: string | null,
  rolloutId: string,
  present?: ReadonlySet<FileKind>,
): string[] {
  const has = (k: FileKind) => !present || present.has(k);
  const files: string[] = [];
  if (tokensDir && has("tokens")) files.push(storePath(tokensDir, rolloutId, "tokens"));
  if (modelCallsDir && has("capture")) files.push(storePath(modelCallsDir, rolloutId, "capture"));
  return files;
}

/** The bytes of fullReads (a missing file counts 0): what a progress bar measures against. */
export async function rolloutReadBytes(
  tokensDir: string | null,
  modelCallsDir: string | null,
  rolloutId: string,
): Promise<number> {
  assertRolloutId(rolloutId);
  const files = fullReads(tokensDir, modelCallsDir, rolloutId);
  const sizes = await Promise.all(files.map(sizeInside));
  return sizes.reduce((a, b) => a + b, 0);
}

/** A store file's size; 0 when missing or a symlink out of its store (the read refuses it too). */
async function sizeInside(file: string): Promise<number> {
  try {
    await confine(path.dirname(file), file);
    const st = await statWithin(file);
    return st.isFile() ? st.size : 0;
  } catch {
    return 0;
  }
}

/**
 * Lists a directory; a missing directory is an empty store. A store can hold 10^5 and more
 * rollouts, so the listing allocates per file only what it keeps (the names, one entry per
 * rollout, a stat's size and time): what it lets go is garbage a worker's heap holds until it is
 * collected, beside every other worker's (docs/benchmarks.md, what grows with a token run). What
 * it returns keeps its rollouts as flat arrays (./listed-rollouts).
 */
export async function listStore(
  dir: string,
  options: { stat?: boolean } = {},
): Promise<StoreListing> {
  const found = new Map<string, RolloutFiles>();
  const skipped: string[] = [];
  const locks = new Set<string>();
  const names: string[] = [];
  try {
    // Everything but directories: a store file that is a FIFO or device is listed, so its read
    // refuses it by name (./io/file) rather than the rollout looking clean without it.
    for (const d of await readdirWithin(dir)) if (!d.isDirectory()) names.push(d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { dir, rollouts: ListedRollouts.of([]), skipped, deleted: [], attempts: new Map() };
    throw err;
  }
  names.sort();
  for (const name of names) {
    if (IGNORED.some((re) => re.test(name))) continue;
    if (name.endsWith(LOCK_SUFFIX) && name.length > LOCK_SUFFIX.length) {
      const id = name.slice(0, -LOCK_SUFFIX.length);
      if (isValidRolloutId(id)) locks.add(id);
      continue;
    }
    const c = classifyFileName(name);
    if (!c) continue;
    if (!isValidRolloutId(c.id)) {
      skipped.push(name);
      continue;
    }
    const files = found.get(c.id) ?? {};
    files[c.kind] = null;
    found.set(c.id, files);
  }
  names.length = 0;
  if (options.stat) await statAll(dir, found);
  const rollouts = ListedRollouts.of(found);
  found.clear();
  const deleted = [...locks].filter((id) => !rollouts.has(id)).sort();
  const attempts = attemptGroups([...rollouts.keys(), ...deleted]);
  return { dir, rollouts, skipped, deleted, attempts, locked: locks.size > 0 };
}

/** Stats every listed file, STAT_BATCH at a time (no list of every file's job is made first). */
async function statAll(dir: string, rollouts: Map<string, RolloutFiles>): Promise<void> {
  let batch: Array<Promise<void>> = [];
  for (const [id, files] of rollouts)
    for (const kind of Object.keys(files) as FileKind[]) {
      batch.push(statInto(files, kind, storePath(dir, id, kind)));
      if (batch.length >= STAT_BATCH) {
        await Promise.all(batch);
        batch = [];
      }
    }
  await Promise.all(batch);
}

const STAT_BATCH = 256;

async function statInto(files: RolloutFiles, kind: FileKind, file: string): Promise<void> {
  try {
    const s = await statWithin(file);
    files[kind] = { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    delete files[kind]; // removed between readdir and stat
  }
}
