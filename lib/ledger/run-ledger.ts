// Reads a run's signal ledger (docs/ledger.md): the summary index brought up to date, each step's
// sums and each rollout's group signal from it, and the trainer's samples as the truth check joined
// them (lib/trainer, cached per version of the files it read). Assembly is ./assemble's.
import "server-only";
import {
  equalRewardSums,
  groupSignalOf,
  ledgerStepSums,
  rerenderedRollouts,
  servedSnapshot,
  withSyncedRecords,
} from "@/lib/index";
import type { RunLayout } from "@/lib/runs";
import { spliceFactsSchema, type RerenderedAt, type RunLedger } from "@/lib/schema";
import { trainerTruthAll } from "@/lib/trainer";
import { assembleLedger } from "./assemble";

/** Rollouts with a re-rendered prompt listed (the alert's and the chart's links). */
const RERENDERED_SAMPLE = 20;

export interface RerenderFacts {
  calls: number;
  rerendered: number;
  rollouts: number;
  sample: RerenderedAt[];
}

/** Each row's first re-rendered call (rows of `id` and `splice` JSON), as the alert links it. */
export function rerenderedAt(rows: Array<{ id: string; splice: string }>): RerenderedAt[] {
  return rows.flatMap((r) => {
    const parsed = spliceFactsSchema.safeParse(JSON.parse(r.splice));
    const first = parsed.success ? parsed.data.first : null;
    return first ? [{ rollout_id: r.id, ...first }] : [];
  });
}

export async function runLedger(run: RunLayout): Promise<RunLedger> {
  await servedSnapshot(run);
  const fromIndex = await withSyncedRecords(run, (db) => ({
    sums: ledgerStepSums(db),
    signal: groupSignalOf(db),
    equal: equalRewardSums(db),
    rerendered: rerenderedAt(rerenderedRollouts(db, RERENDERED_SAMPLE)),
  }));
  const truth = await trainerTruthAll(run, { refreshMs: Infinity });
  return assembleLedger({
    runId: run.id,
    ...fromIndex,
    stepFiles: new Map(truth.steps.map((s) => [s.step - 1, s.file])),
    samples: truth.samples,
    issues: truth.issues.map((i) => i.message),
  });
}
