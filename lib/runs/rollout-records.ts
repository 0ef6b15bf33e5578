// A run's `rollouts.jsonl`, read once per file version (size + mtime) into id -> record. Unreadable
// lines are counted with their line numbers, never fatal; a record without an id is skipped.
import { stat } from "node:fs/promises";
import { readJsonl } from "@/lib/store";
import { rolloutIdOf, rolloutRecordSchema, type RolloutRecord } from "@/lib/schema";
import { describeZodError } from "@/lib/store/zod-message";

export interface RolloutRecords {
  byId: Map<string, RolloutRecord>;
  unreadable: Array<{ line: number; reason: string }>;
  tornTail: boolean;
}

const cache = new Map<string, { key: string; value: Promise<RolloutRecords> }>();

export async function readRolloutRecords(file: string | null): Promise<RolloutRecords> {
  const empty: RolloutRecords = { byId: new Map(), unreadable: [], tornTail: false };
  if (!file) return empty;
  const st = await stat(file).catch(() => null);
  if (!st?.isFile()) return empty;
  const key = `${st.size}:${st.mtimeMs}`;
  const hit = cache.get(file);
  if (hit?.key === key) return hit.value;
  const value = (async () => {
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
  })();
  cache.set(file, { key, value });
  value.catch(() => cache.delete(file));
  return value;
}
