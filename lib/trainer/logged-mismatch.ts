// Checks the trainer's logged `train/token_mult_prob_error` (TensorBoard or MLflow) against the
// value recomputed from train_data_step{N}.jsonl, step by step: NeMo-RL logs both at total_steps + 1,
// so file N pairs with logged step N. Equal within a relative 1e-6 (a logged scalar is float32).
// Pure: the series comes from ./read-logs, the recomputed values from ./truth-check.
import type { ScalarSeries } from "./scalar-series";

export const LOGGED_TAG = "train/token_mult_prob_error";
export const LOGGED_RELATIVE_TOLERANCE = 1e-6;

/** equal / differs when both sides have the step; otherwise which side is missing. */
export type LoggedCheck = "equal" | "differs" | "not_logged" | "not_computed";

export interface LoggedStep {
  logged: number | null;
  check: LoggedCheck;
}

export interface LoggedComparison {
  /** Per step file N, in the order given. */
  steps: LoggedStep[];
  equal: number;
  differs: number;
  not_logged: number;
  not_computed: number;
  /** Logged steps no step file covers (NeMo-RL may log step files for some steps only). */
  only_logged: number;
}

export function sameWithin(a: number, b: number, rel = LOGGED_RELATIVE_TOLERANCE): boolean {
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b));
}

function checkOne(computed: number | null, logged: ScalarSeries["points"][number] | undefined) {
  if (!logged) return { logged: null, check: "not_logged" as const };
  // A NaN or Infinity the trainer logged is a value too: it differs from any finite recomputation.
  if (computed === null) return { logged: logged.value, check: "not_computed" as const };
  const same = logged.value !== null && sameWithin(computed, logged.value);
  return { logged: logged.value, check: same ? ("equal" as const) : ("differs" as const) };
}

/** Compares each step file's recomputed value with the series' point at the same step. */
export function compareLogged(
  computed: ReadonlyArray<{ step: number; token_mult_prob_error: number | null }>,
  series: ScalarSeries | undefined,
): LoggedComparison {
  const byStep = new Map((series?.points ?? []).map((p) => [p.step, p]));
  const out: LoggedComparison = {
    steps: [],
    equal: 0,
    differs: 0,
    not_logged: 0,
    not_computed: 0,
    only_logged: 0,
  };
  for (const s of computed) {
    const one = checkOne(s.token_mult_prob_error, byStep.get(s.step));
    out.steps.push(one);
    out[one.check]++;
  }
  const files = new Set(computed.map((s) => s.step));
  for (const step of byStep.keys()) if (!files.has(step)) out.only_logged++;
  return out;
}
