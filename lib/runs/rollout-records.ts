// A run's `rollouts.jsonl`, read once per file version into id -> record (held in the process-wide
// file cache, lib/store/versioned-cache). Unreadable lines are counted with their line numbers,
// never fatal; a record without an id is skipped; a file that cannot be read at all (an I/O
// error, a directory) gives no records and a `readError`, so its run's rollouts are still served
// from the token store. Record hashes (the summary index's row keys) are computed on first use.
import "server-only";
import { hash } from "node:crypto";
import { readJsonl, cachedOrError, describeZodError } from "@/lib/store";
import { rolloutIdOf, rolloutRecordSchema, type RolloutRecord } from "@/lib/schema";

export interface RolloutRecords {
  byId: Map<string, RolloutRecord>;
  unreadable: Array<{ line: number; reason: string }>;
  tornTail: boolean;
  /** id -> hash of its record, filled by recordHash. */
  hashes: Map<string, string>;
  /** Why the whole file could not be read ("rollouts.jsonl: EIO: i/o error, read"); null when read. */
  readError: string | null;
  /** Ids of the records a `keep` set aside (their rollouts exist; their records are not held). */
  others: Set<string>;
}

/** Which records to hold (a shard's process holds its own, not the run's): the rest are only ids. */
export interface RecordFilter {
  /** Names the filter in the file cache (`shard 3/64`). */
  scope: string;
  keep: (id: string) => boolean;
}

const noRecords = (readError: string | null = null): RolloutRecords => ({
  byId: new Map(),
  unreadable: [],
  tornTail: false,
  hashes: new Map(),
  readError,
  others: new Set(),
});

export async function readRolloutRecords(
  file: string | null,
  filter?: RecordFilter,
): Promise<RolloutRecords> {
  if (!file) return noRecords();
  const scope = filter ? `rollouts ${filter.scope}` : "rollouts";
  const records = await cachedOrError(scope, file, async () => {
    const out = noRecords();
    const res = await readJsonl(file, (l) => {
      if (l.problem) return void out.unreadable.push({ line: l.line, reason: l.problem });
      const parsed = rolloutRecordSchema.safeParse(l.value);
      if (!parsed.success)
        return void out.unreadable.push({ line: l.line, reason: describeZodError(parsed.error) });
      const id = rolloutIdOf(parsed.data);
      if (id === null) return;
      if (filter && !filter.keep(id)) out.others.add(id);
      else out.byId.set(id, parsed.data);
    });
    out.tornTail = res.tornTail !== null;
    return out;
  });
  return records.value ?? noRecords(records.error);
}

/** A hash of the rollout's record ("-" without one), computed once per version of rollouts.jsonl. */
/**
 * The hash a record is known by (the summary index's row keys hold it): of its JSON as
 * JSON.stringify writes the parsed record, so the same record hashes the same whichever reader
 * serialised it.
 */
export const recordTextHash = (text: string): string => hash("sha1", text);

export function recordHash(records: RolloutRecords, id: string): string {
  let h = records.hashes.get(id);
  if (h !== undefined) return h;
  const record = records.byId.get(id);
  h = record ? recordTextHash(JSON.stringify(record)) : "-";
  records.hashes.set(id, h);
  return h;
}
