// A run's metrics.jsonl: one row per training step with `step`, `reward` and any other scalars.
// Read once per file version (the process-wide file cache); unreadable lines are counted, rows
// without a numeric step skipped. Not responsible for downsampling (lib/health/run-health).
import "server-only";
import { z } from "zod";
import { readJsonl } from "@/lib/store";
import { cachedByVersion } from "@/lib/store/versioned-cache";

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

export async function readMetrics(file: string | null): Promise<RunMetrics> {
  const empty: RunMetrics = { rows: [], unreadable: 0 };
  if (!file) return empty;
  const metrics = await cachedByVersion("metrics", file, async () => {
    const out: RunMetrics = { rows: [], unreadable: 0 };
    await readJsonl(file, (l) => {
      const parsed = l.problem ? null : metricsRowSchema.safeParse(l.value);
      if (!parsed?.success) return void out.unreadable++;
      const scalars: Record<string, number> = {};
      for (const [k, v] of Object.entries(parsed.data))
        if (typeof v === "number" && k !== "step") scalars[k] = v;
      out.rows.push({ step: parsed.data.step, reward: parsed.data.reward ?? null, scalars });
    });
    out.rows.sort((a, b) => a.step - b.step);
    return out;
  });
  return metrics ?? empty;
}
