// Which writer generation a token store directory comes from, for `--profile auto`: decided per
// directory from its evidence (docs/gym-v1-store.md), not per file, so an empty token file in a Gym
// main store is judged as Gym main judges it. Read-only: the listing, then the first line of at
// most EVIDENCE_FILES token files spread over the sorted ids (a run of a million rollouts is
// decided as fast as one of ten; the reason line says how many were read).
// Not responsible for the verdicts (lib/builder) or for the listing itself (./files).
import "server-only";
import path from "node:path";
import type { Profile } from "@/lib/builder";
import { confine } from "./confine";
import { listStore } from "./files";
import { openRegular, statWithin } from "./io";

export interface StoreEvidence {
  /** A `.tokens.state.json`, `.tokens.intents` or `.tokens.lock` (only Gym main's store writes these). */
  gymFiles: boolean;
  /** A record with `schema_version` (Gym main's entries). */
  schemaVersion: boolean;
  /** A record without it (the seed and July writers). */
  seedRecords: boolean;
  /** Token files whose first line was read, of the store's token files. */
  read?: number;
  tokenFiles?: number;
}

/** The most token files whose first record is read to decide a directory. */
export const EVIDENCE_FILES = 64;

/** gym-v1 on any Gym main evidence; seed only when records say seed; gym-v1 (the current writer) on none. */
export function profileFromEvidence(e: StoreEvidence): Profile {
  return explainEvidence(e).profile;
}

/** What `auto` decides from a store's evidence, with the one line a page shows for why. */
export function explainEvidence(e: StoreEvidence): { profile: Profile; reason: string } {
  if (e.gymFiles)
    return { profile: "gym-v1", reason: "Gym main store: state files found → gym-v1" };
  if (e.schemaVersion)
    return { profile: "gym-v1", reason: "Gym main store: records carry schema_version → gym-v1" };
  if (e.seedRecords) {
    const of =
      e.read !== undefined && e.tokenFiles !== undefined && e.read < e.tokenFiles
        ? ` (first records of ${e.read} of ${e.tokenFiles} token files read)`
        : "";
    return {
      profile: "seed",
      reason: `No Gym main state files or schema_version${of} → seed (closed PR #2179's builder)`,
    };
  }
  return {
    profile: "gym-v1",
    reason: "No records to judge by → gym-v1 (Gym main, the current writer)",
  };
}

const SCHEMA_KEY = /"schema_version"\s*:/;
const CHUNK = 64 << 10;
/** A first line longer than this (or holding NUL bytes) is not evidence: it is not read on. */
const MAX_FIRST_LINE = 16 << 20;
const cache = new Map<string, { key: string; at: number; evidence: StoreEvidence }>();
/** A directory's evidence being read: callers at the same moment share one read. */
const reading = new Map<string, Promise<StoreEvidence>>();
/** A directory's evidence is read again after this long even when its listing did not change. */
const TTL_MS = 5_000;

/** The profile `auto` means for every rollout of the store directory `dir`. */
export async function storeProfile(dir: string): Promise<Profile> {
  return profileFromEvidence(await cachedEvidence(dir));
}

/** storeProfile with the line saying why (lib/runs/profile shows it on every page). */
export async function explainStoreProfile(
  dir: string,
): Promise<{ profile: Profile; reason: string }> {
  return explainEvidence(await cachedEvidence(dir));
}

async function cachedEvidence(dir: string): Promise<StoreEvidence> {
  const key = String((await statWithin(dir).catch(() => null))?.mtimeMs ?? "missing");
  const hit = cache.get(dir);
  if (hit && hit.key === key && Date.now() - hit.at < TTL_MS) return hit.evidence;
  const running = reading.get(dir);
  if (running) return running;
  const read = storeEvidence(dir)
    .then((evidence) => {
      cache.set(dir, { key, at: Date.now(), evidence });
      return evidence;
    })
    .finally(() => reading.delete(dir));
  reading.set(dir, read);
  return read;
}

/** At most `n` of `ids`, spread evenly from the first to the last. */
function spread<T>(ids: readonly T[], n: number): T[] {
  if (ids.length <= n) return [...ids];
  return Array.from({ length: n }, (_, i) => ids[Math.round((i * (ids.length - 1)) / (n - 1))]!);
}

export async function storeEvidence(dir: string): Promise<StoreEvidence> {
  const listing = await listStore(dir);
  const out: StoreEvidence = { gymFiles: false, schemaVersion: false, seedRecords: false };
  if (listing.locked) out.gymFiles = true;
  for (const files of listing.rollouts.values())
    if ("state" in files || "intents" in files) out.gymFiles = true;
  if (out.gymFiles) return out;
  const tokenIds = [...listing.rollouts].filter(([, f]) => "tokens" in f).map(([id]) => id);
  out.tokenFiles = tokenIds.length;
  out.read = 0;
  for (const id of spread(tokenIds, EVIDENCE_FILES)) {
    out.read++;
    const first = await firstLine(
      dir,
      path.join(/*turbopackIgnore: true*/ dir, `${id}.tokens.jsonl`),
    );
    if (first === null) continue;
    if (SCHEMA_KEY.test(first)) {
      out.schemaVersion = true;
      return out;
    }
    out.seedRecords = true;
  }
  return out;
}

/** The file's first non-blank line, null when it has none or cannot be read (or is no regular file). */
async function firstLine(dir: string, p: string): Promise<string | null> {
  try {
    await confine(dir, p);
    const fh = await openRegular(p);
    try {
      const parts: Buffer[] = [];
      for (let pos = 0; ; pos += CHUNK) {
        const buf = Buffer.alloc(CHUNK);
        const bytesRead = await fh.read(buf, pos);
        const chunk = buf.subarray(0, bytesRead);
        let nl = chunk.indexOf(0x0a);
        while (nl >= 0 && parts.length === 0 && chunk.subarray(0, nl).toString().trim() === "") {
          // a blank leading line: keep looking in the same chunk
          const rest = chunk.indexOf(0x0a, nl + 1);
          if (rest < 0) break;
          nl = rest;
        }
        parts.push(nl >= 0 ? chunk.subarray(0, nl) : chunk);
        if (nl >= 0 || bytesRead < CHUNK) break;
        if (pos + CHUNK >= MAX_FIRST_LINE || chunk.indexOf(0) >= 0) return null;
      }
      const text = Buffer.concat(parts).toString("utf8").trim();
      return text === "" ? null : text;
    } finally {
      await fh.close();
    }
  } catch {
    return null;
  }
}
