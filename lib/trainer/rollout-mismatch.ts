// The train/inference mismatch over one rollout's chain positions, for the token view's colouring:
// the trained sample the truth check joined to the rollout (./truth-check), read back from its step
// file, exp(|gen − prev|) per position (./mismatch). Only the main chain, built with the run's own
// profile, lines up with a sample; anything else is unavailable with a one-line reason.
import "server-only";
import { trainerDiffersOf } from "@/lib/index";
import { assertRolloutId } from "@/lib/store";
import { type RunLayout, decideRunProfile } from "@/lib/runs";
import type { RolloutMismatch, RolloutMismatchQuery, TruthSample } from "@/lib/schema";
import { tokenErrors } from "./mismatch";
import { listStepFiles, readStepFile, type StepSample } from "./step-data";
import { trainerLogDir, trainerTruthAll } from "./truth-check";

/** Which joined sample colours the rollout when several do: the closest to the capture first. */
const PREFERENCE = { identical: 0, mask_differs: 1, tokens_differ: 2, no_capture: 3 } as const;

function joinedSample(samples: readonly TruthSample[], rolloutId: string): TruthSample | null {
  let best: TruthSample | null = null;
  for (const s of samples) {
    if (s.rollout_id !== rolloutId || s.class === "no_capture") continue;
    if (!best || PREFERENCE[s.class] < PREFERENCE[best.class]) best = s;
  }
  return best;
}

async function stepSampleOf(logDir: string, row: TruthSample): Promise<StepSample | null> {
  const f = (await listStepFiles(logDir)).find((x) => x.kind === "train" && x.step === row.step);
  if (!f) return null;
  return (await readStepFile(f)).samples.find((s) => s.line === row.line) ?? null;
}

/** Why the chain cannot be coloured, or null when it can be looked up. */
async function unavailable(run: RunLayout, q: RolloutMismatchQuery): Promise<string | null> {
  if (q.chain !== "main")
    return "The truth check joins trained samples to the main chain only; switch to main.";
  const own = (await decideRunProfile(run)).profile;
  if (q.profile !== undefined && q.profile !== own)
    return `The truth check joins chains built with the run's own profile (${own}), not ${q.profile}.`;
  return null;
}

/** The mismatch window `q` asks for, or why the rollout's chain has none. */
export async function rolloutMismatch(
  run: RunLayout,
  rolloutId: string,
  q: RolloutMismatchQuery,
): Promise<RolloutMismatch> {
  assertRolloutId(rolloutId);
  const logDir = await trainerLogDir(run);
  const samples = logDir ? (await trainerTruthAll(run)).samples : [];
  const base = {
    run_id: run.id,
    rollout_id: rolloutId,
    chain: q.chain,
    offset: q.offset,
    step_logs: logDir !== null,
    // The truth check above handed its differing rollouts to the index's run-level facts.
    differs: trainerDiffersOf(run)[rolloutId] ?? null,
  };
  const none = (reason: string): RolloutMismatch => ({
    ...base,
    available: false,
    reason,
    sample: null,
    total: 0,
    errors: [],
  });
  if (!logDir) return none("This run has no NeMo-RL step logs (train_data_step{N}.jsonl).");
  const why = await unavailable(run, q);
  if (why) return none(why);
  const row = joinedSample(samples, rolloutId);
  if (!row) return none("No trained sample in the step logs joins this rollout's main chain.");
  const sample = await stepSampleOf(logDir, row);
  if (!sample) return none(`train_data_step${row.step}.jsonl changed since the check; reload.`);
  const errors = tokenErrors(sample);
  // After the first differing token the sample's positions are not the chain's.
  const total = Math.min(
    errors.length,
    row.class === "tokens_differ" ? (row.first_diff ?? 0) : errors.length,
  );
  const end = Math.min(total, q.offset + q.limit);
  const out: Array<number | null> = [];
  for (let t = Math.min(q.offset, end); t < end; t++) {
    const e = errors[t] as number;
    out.push(e > 0 && Number.isFinite(e) ? e : null);
  }
  return {
    ...base,
    available: true,
    reason: null,
    sample: {
      file: sample.file,
      line: row.line,
      step: row.step,
      idx: row.idx,
      class: row.class,
      input_length: row.input_length,
      masked_tokens: row.masked_tokens,
      mult_prob_error: row.mult_prob_error,
      max_token_error: row.max_token_error,
      max_token_pos: row.max_token_pos,
    },
    total,
    errors: out,
  };
}
