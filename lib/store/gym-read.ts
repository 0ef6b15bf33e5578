// What Gym main's freeze would conclude about one rollout (docs/gym-v1-store.md), computed read-only:
// state, index offset, unindexed tail, entries, intents, in the freeze's order, plus the lifecycle
// facts the views show. Reuses the token store's own read when Gym would read the same entries.
// Not responsible for the verdict (lib/builder gym-v1) or for writing anything, ever.
import "server-only";
import type { GymFrozenView } from "@/lib/builder";
import type { TokenEntry } from "@/lib/schema";
import {
  freezeVersion,
  readGymIntents,
  readGymState,
  pythonInt,
  pythonStr,
  type GymState,
} from "./gym-state";
import { readGymEntries, scanTail, type OutsideId, type TailScan } from "./gym-freeze";
import { storePath, type FileKind } from "./files";
import { bytesIfExists, ioError, readRange, sizeOf } from "./gym-io";

/** The lifecycle of one rollout as Gym main's store records it, for the views. */
export interface GymLifecycle {
  /** `state.json`: absent, a valid index, a legacy one (index restarts at 0), or unreadable. */
  state: "absent" | "indexed" | "legacy" | "unreadable";
  frozen: boolean;
  retired: boolean;
  stateIncomplete: boolean;
  snapshotId: string | null;
  storedVersion: number | null;
  /** The version Gym's freeze would give the snapshot; null when the freeze fails first. */
  snapshotVersion: number | null;
  indexedSize: number | null;
  fileSize: number;
  /** Complete lines after `indexed_size` the freeze would index. */
  unindexedLines: number;
  /** The torn final line the freeze would drop (file offset, bytes to the end). */
  tornTail: { offset: number; bytes: number } | null;
  /** Intents with an entry, and without (dangling: the rollout is incomplete). */
  intents: { satisfied: string[]; dangling: string[] };
  /** Token ids outside 0 … 2^31−1, digits exact. Gym trains on them. */
  outsideIds: OutsideId[];
  /** The freeze's or the entry read's error (the consumer masks with it). */
  error: string | null;
}

/** The token store's own read of the file, reused when Gym would read the same entries. */
export interface SeedTokenRead {
  exists: boolean;
  entries: TokenEntry[];
  lines: number[];
  readError: string | null;
  /** Bytes of the torn final line the token store ignored; null when there was none. */
  tornBytes: number | null;
  /**
   * The file's final line when its bytes made it unreadable (NUL bytes, not UTF-8) and it is the
   * read's only error, at byte `offset`: the token store's damage, Gym main's torn tail (§2).
   */
  unreadableEnd?: { offset: number } | null;
  logProbMismatch: string | null;
  /** The file's size as that read found it (the version read), null when it did not finish. */
  size: number | null;
}

export interface GymRead {
  view: GymFrozenView;
  lifecycle: GymLifecycle;
  /** 1-based line of each entry of `view.entries`. */
  entryLines: number[];
}

type Has = (k: FileKind) => boolean;

/**
 * Token-store errors Gym may judge otherwise: a line that does not parse (Gym drops it when it is
 * the tail's last) or a record the seed schema refuses (Gym takes any integer id). Any other error
 * (I/O, damage such as NUL bytes or absurd nesting) is Gym's error too, and the file is not re-read.
 */
const LINE_ERROR = /^(JSONDecodeError: .*: line \d+: not valid JSON|ValidationError: )/;

export async function readGymFreeze(
  dir: string,
  rolloutId: string,
  has: Has,
  seed: SeedTokenRead,
): Promise<GymRead> {
  const file = `${rolloutId}.tokens.jsonl`;
  const tokensPath = storePath(dir, rolloutId, "tokens");
  const lc = emptyLifecycle(seed.exists ? (seed.size ?? (await sizeOf(tokensPath))) : 0);
  const view: GymFrozenView = {
    error: null,
    retired: false,
    entries: [],
    incomplete: false,
    tornTail: false,
  };
  const done = (error: string | null, lines: number[] = []): GymRead => {
    lc.error = error;
    view.error = error;
    return { view, lifecycle: lc, entryLines: lines };
  };
  const side = async (kind: FileKind) =>
    has(kind) ? bytesIfExists(dir, storePath(dir, rolloutId, kind)) : null;
  const stateBytes = await side("state");
  if (typeof stateBytes === "string") return done(stateBytes);
  const read = readGymState(stateBytes, rolloutId);
  if (!read.ok) {
    lc.state = "unreadable";
    return done(read.error);
  }
  const st = read.state;
  describeState(lc, st);
  if (st.retired) {
    view.retired = true;
    return done(`RuntimeError: Token capture for rollout ${rolloutId} is retired`);
  }
  // A token file the token store could not open (out of the store, not a regular file, an I/O
  // error) is not read again: its error is the read's. Line errors are Gym's to judge again.
  // A final line unreadable by its bytes (NUL-filled, not UTF-8) is Gym's torn tail (§2), unless
  // its index covers it: then its entry read fails on it, as the token store's did.
  const end = seed.unreadableEnd ?? null;
  if (seed.readError !== null && !LINE_ERROR.test(seed.readError) && end === null)
    return done(seed.readError);
  if (st.indexedSize < BigInt(0) || st.indexedSize > BigInt(lc.fileSize))
    return done(`ValueError: Invalid token-capture index offset for rollout ${rolloutId}`);
  const indexed = Number(st.indexedSize);
  if (end !== null && end.offset < indexed) return done(seed.readError);
  let tail: TailScan = { recovered: 0, torn: null, error: null };
  if (seed.exists && !(indexed === lc.fileSize && !st.legacy)) {
    try {
      const scan = (to: number) =>
        readRange(tokensPath, indexed, to).then((b) =>
          scanTail(b, indexed, st.digests, rolloutId, file),
        );
      tail =
        wholeFileTail(seed, indexed, st, lc.fileSize) ?? (await scan(end?.offset ?? lc.fileSize));
      // Short of the unreadable final line (never read whole: it may be gigabytes of NUL bytes).
      if (end !== null && tail.error === null)
        tail =
          tail.torn === null
            ? { ...tail, torn: { offset: end.offset, bytes: lc.fileSize - end.offset } }
            : await scan(lc.fileSize); // a bad line before it is corrupt, not torn: Gym's error
    } catch (err) {
      return done(ioError(err));
    }
  }
  lc.unindexedLines = tail.recovered;
  lc.tornTail = tail.torn;
  view.tornTail = tail.torn !== null;
  if (tail.error) return done(tail.error);
  const version = freezeVersion(st, tail.recovered);
  if (!version.ok) return done(version.error);

  const keptEnd = tail.torn?.offset ?? lc.fileSize;
  let entries: EntriesRead;
  try {
    entries = await gymEntries(seed, tail, tokensPath, keptEnd, file);
  } catch (err) {
    return done(ioError(err));
  }
  lc.outsideIds = entries.outsideIds;
  if (entries.error) return done(entries.error);
  view.entries = entries.entries;

  const intentBytes = await side("intents");
  if (typeof intentBytes === "string") return done(intentBytes);
  const intents = readGymIntents(intentBytes);
  const recorded = new Set(view.entries.map((e) => e.model_call_id));
  lc.intents.dangling = intents.ids.filter((id) => !recorded.has(id));
  lc.intents.satisfied = [...new Set(intents.ids.filter((id) => recorded.has(id)))];
  if (intents.error) return done(intents.error);
  view.incomplete = st.incomplete || lc.intents.dangling.length > 0;
  if (st.frozen && st.snapshotId === null) return done("KeyError: 'snapshot_id'");
  lc.snapshotVersion = version.value;
  return done(null, entries.lines);
}

/**
 * The tail scan without reading the file again, when the tail is the whole file (no index yet, as
 * in every store without `state.json`) and the token store read it cleanly: no call id twice means
 * no digest can conflict, and its torn line is the one Gym drops.
 */
function wholeFileTail(
  seed: SeedTokenRead,
  indexed: number,
  st: GymState,
  fileSize: number,
): TailScan | null {
  if (indexed !== 0 || st.digests.size > 0 || seed.readError !== null) return null;
  const ids = new Set(seed.entries.map((e) => e.model_call_id));
  if (ids.size !== seed.entries.length) return null;
  const torn =
    seed.tornBytes === null ? null : { offset: fileSize - seed.tornBytes, bytes: seed.tornBytes };
  return { recovered: seed.entries.length, torn, error: null };
}

export function emptyLifecycle(fileSize: number): GymLifecycle {
  return {
    state: "absent",
    frozen: false,
    retired: false,
    stateIncomplete: false,
    snapshotId: null,
    storedVersion: null,
    snapshotVersion: null,
    indexedSize: null,
    fileSize,
    unindexedLines: 0,
    tornTail: null,
    intents: { satisfied: [], dangling: [] },
    outsideIds: [],
    error: null,
  };
}

function describeState(lc: GymLifecycle, st: GymState): void {
  if (!st.exists) return;
  lc.state = st.legacy ? "legacy" : "indexed";
  lc.frozen = st.frozen;
  lc.retired = st.retired;
  lc.stateIncomplete = st.incomplete;
  lc.snapshotId = st.snapshotId === null ? null : pythonStr(st.snapshotId);
  const v = pythonInt(st.version);
  lc.storedVersion = v.ok ? Number(v.value) : null;
  lc.indexedSize = st.legacy ? null : Number(st.indexedSize);
}

interface EntriesRead {
  entries: TokenEntry[];
  lines: number[];
  error: string | null;
  outsideIds: OutsideId[];
}

/**
 * The token store's read when it saw what Gym sees (no bad line, the same torn tail); otherwise
 * the bytes Gym keeps are read again, as Gym reads them (any integer id, a torn line dropped).
 */
async function gymEntries(
  seed: SeedTokenRead,
  tail: TailScan,
  tokensPath: string,
  keptEnd: number,
  file: string,
): Promise<EntriesRead> {
  if (!seed.exists) return { entries: [], lines: [], error: null, outsideIds: [] };
  if (seed.readError === null && (seed.tornBytes !== null) === (tail.torn !== null))
    return {
      entries: seed.entries,
      lines: seed.lines,
      error: seed.logProbMismatch,
      outsideIds: [],
    };
  return readGymEntries(await readRange(tokensPath, 0, keptEnd), file);
}
