// A run's distribution of per-sample train/inference mismatch over its train_data_step{N}.jsonl
// files, for the compare page: quantiles and a histogram on fixed bins (the same for every run, so
// two runs sit side by side). No join to the capture: a capture-off run has its distribution too.
// Reads through ./step-data; the per-sample value is ./mismatch's.
import "server-only";
import path from "node:path";
import type { RunLayout } from "@/lib/runs";
import { MISMATCH_BIN_EDGES, type MismatchDistribution } from "@/lib/schema";
import { sampleMismatch } from "./mismatch";
import { listStepFiles, readStepFile } from "./step-data";
import { trainerLogDir } from "./truth-check";

/** The p-quantile of ascending `xs` by linear interpolation between order statistics (R's type 7). */
export function quantile(xs: readonly number[], p: number): number | null {
  if (xs.length === 0) return null;
  const h = (xs.length - 1) * p;
  const lo = Math.floor(h);
  const a = xs[lo] as number;
  const b = xs[Math.min(lo + 1, xs.length - 1)] as number;
  return a + (h - lo) * (b - a);
}

/** Counts per bin of MISMATCH_BIN_EDGES; a value below the first edge counts in the first bin. */
export function binCounts(values: readonly number[]): MismatchDistribution["bins"] {
  const edges = MISMATCH_BIN_EDGES;
  const counts = edges.map(() => 0);
  for (const v of values) {
    let k = 0;
    while (k + 1 < edges.length && v >= (edges[k + 1] as number)) k++;
    counts[k] = (counts[k] as number) + 1;
  }
  return edges.map((from, k) => ({ from, to: edges[k + 1] ?? null, count: counts[k] as number }));
}

export async function mismatchDistribution(run: RunLayout): Promise<MismatchDistribution> {
  const logDir = await trainerLogDir(run);
  const files = logDir ? (await listStepFiles(logDir)).filter((f) => f.kind === "train") : [];
  const values: number[] = [];
  const issues: string[] = [];
  let [sum, masked, without] = [0, 0, 0];
  for (const f of files) {
    const read = await readStepFile(f);
    issues.push(...read.issues.map((i) => i.message));
    for (const s of read.samples) {
      const m = sampleMismatch(s);
      if (!m || m.mean === null || !Number.isFinite(m.mean)) {
        without++;
        continue;
      }
      values.push(m.mean);
      [sum, masked] = [sum + m.sum, masked + m.maskedTokens];
    }
  }
  values.sort((a, b) => a - b);
  return {
    run_id: run.id,
    capture: run.manifest.capture ?? null,
    log_dir: logDir === null ? null : path.relative(run.dir, logDir) || ".",
    step_files: files.length,
    samples: values.length,
    samples_without_masked_tokens: without,
    token_mult_prob_error: masked > 0 ? sum / masked : null,
    quantiles: {
      p10: quantile(values, 0.1),
      p50: quantile(values, 0.5),
      p90: quantile(values, 0.9),
      p99: quantile(values, 0.99),
      max: values.at(-1) ?? null,
    },
    bins: binCounts(values),
    issues,
  };
}
