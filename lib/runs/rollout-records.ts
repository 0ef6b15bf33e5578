// A run's `rollouts.jsonl`, read once per file version into id -> record (held in the process-wide
// file cache, lib/store/versioned-cache). Unreadable lines are counted with their line numbers,
// never fatal; a record without an id is skipped. Record hashes (the summary index's row keys)
// are computed on first use and kept with that version of the file.
import "server-only";
import { createHash } from "node:crypto";
import { readJsonl } from "@/lib/store";
import { cachedByVersion } from "@/lib/store/versioned-cache";
import { describeZodError } from "@/lib/store/zod-message";
import { rolloutIdOf, rolloutRecordSchema, type RolloutRecord } from "@/lib/schema";

export interface RolloutRecords {
  byId: Map<string, RolloutRecord>;
  unreadable: Array<{ line: number; reason: string }>;
  tornTail: boolean;
  /** id -> hash of its record, filled by recordHash. */
  hashes: Map<string, string>;
}

export async function readRolloutRecords(file: string | null): Promise<RolloutRecords> {
  const empty: RolloutRecords = {
    byId: new Map(),
    unreadable: [],
    tornTail: false,
    hashes: new Map(),
  };
  if (!file) return empty;
  const records = await cachedByVersion("rollouts", file, async () => {
    const out: RolloutRecords = {
      byId: new Map(),
      unreadable: [],
      tornTail: false,
      hashes: new Map(),
    };
    const res = await readJsonl(file, (l) => {
      if (l.problem) return void out.unreadable.push({ line: l.line, reason: l.problem });
      const parsed = rolloutRecordSchema.safeParse(l.value);
      if (!parsed.success)
        return void out.unreadable.push({ line: l.line, reason: describeZodError(parsed.error) });
      const id = rolloutIdOf(parsed.data);
      if (id !== null) out.byId.set(id, parsed.data);
    });
    out.tornTail = res.tornTail !== null;
    return out;
  });
  return records ?? empty;
}

/** A hash of the rollout's record ("-" without one), computed once per version of rollouts.jsonl. */
export function recordHash(records: RolloutRecords, id: string): string {
  let h = records.hashes.get(id);
  if (h !== undefined) return h;
  const record = records.byId.get(id);
  h = record ? createHash("sha1").update(JSON.stringify(record)).digest("hex") : "-";
  records.hashes.set(id, h);
  return h;
}
