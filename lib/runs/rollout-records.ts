// A run's `rollouts.jsonl`, read once per file version (size + mtime) into id -> record. Unreadable
// lines are counted with their line numbers, never fatal; a record without an id is skipped.
import { readJsonl } from "@/lib/store";
import { cachedByVersion } from "@/lib/store/versioned-cache";
import { rolloutIdOf, rolloutRecordSchema, type RolloutRecord } from "@/lib/schema";
import { describeZodError } from "@/lib/store/zod-message";

export interface RolloutRecords {
  byId: Map<string, RolloutRecord>;
  unreadable: Array<{ line: number; reason: string }>;
  tornTail: boolean;
}

export async function readRolloutRecords(file: string | null): Promise<RolloutRecords> {
  const empty: RolloutRecords = { byId: new Map(), unreadable: [], tornTail: false };
  if (!file) return empty;
  const records = await cachedByVersion("rollouts", file, async () => {
    const out: RolloutRecords = { byId: new Map(), unreadable: [], tornTail: false };
    const res = await readJsonl(file, (l) => {
      if (l.problem) return void out.unreadable.push({ line: l.line, reason: l.problem });
      const parsed = rolloutRecordSchema.safeParse(l.value);
      if (!parsed.success) return void out.unreadable.push({ line: l.line, reason: describeZodError(parsed.error) });
      const id = rolloutIdOf(parsed.data);
      if (id !== null) out.byId.set(id, parsed.data);
    });
    out.tornTail = res.tornTail !== null;
    return out;
  });
  return records ?? empty;
}
