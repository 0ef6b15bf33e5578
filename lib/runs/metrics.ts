// A run's metrics.jsonl: one row per training step with `step`, `reward` and any other scalars.
// Read once per file version; unreadable lines are counted, rows without a numeric step skipped.
import { stat } from "node:fs/promises";
import { z } from "zod";
import { readJsonl } from "@/lib/store";

export const metricsRowSchema = z.looseObject({ step: z.int(), reward: z.number().nullish() });

export interface MetricsRow {
  step: number;
  reward: number | null;
  scalars: Record<string, number>;
}

export interface RunMetrics {
  rows: MetricsRow[];
  unreadable: number;
}

const holder = globalThis as typeof globalThis & { __rolloutLensMetrics?: Map<string, { key: string; value: Promise<RunMetrics> }> };
const cache = (holder.__rolloutLensMetrics ??= new Map());

export async function readMetrics(file: string | null): Promise<RunMetrics> {
  if (!file) return { rows: [], unreadable: 0 };
  const st = await stat(file).catch(() => null);
  if (!st?.isFile()) return { rows: [], unreadable: 0 };
  const key = `${st.size}:${st.mtimeMs}`;
  const hit = cache.get(file);
  if (hit?.key === key) return hit.value;
  const value = (async () => {
    const out: RunMetrics = { rows: [], unreadable: 0 };
    await readJsonl(file, (l) => {
      const parsed = l.problem ? null : metricsRowSchema.safeParse(l.value);
      if (!parsed?.success) return void out.unreadable++;
      const scalars: Record<string, number> = {};
      for (const [k, v] of Object.entries(parsed.data)) if (typeof v === "number" && k !== "step") scalars[k] = v;
      out.rows.push({ step: parsed.data.step, reward: parsed.data.reward ?? null, scalars });
    });
    out.rows.sort((a, b) => a.step - b.step);
    return out;
  })();
  cache.set(file, { key, value });
  value.catch(() => cache.delete(file));
  return value;
}
