// The JSON body of GET /api/compare: two runs' training statistics, evaluation by task and capture
// health side by side, with their intervals and tests (lib/compare builds it). snake_case on the
// wire; the compare page and route tests use these schemas and the types inferred from them.
import { z } from "zod";
import { countSchema } from "./api-runs";

const int = z.int();
const nullableNumber = z.number().nullable();

export const intervalSchema = z.strictObject({
  estimate: z.number(),
  low: z.number(),
  high: z.number(),
  level: z.number(),
});
export const signTestSchema = z.strictObject({
  positive: int,
  negative: int,
  ties: int,
  /** Exact two-sided p value (ties dropped). */
  p: z.number(),
});
export const permutationTestSchema = z.strictObject({
  p: z.number(),
  exact: z.boolean(),
  iterations: int,
});

/** Moving-block bootstrap of one per-step difference series (lib/compare/dependent). */
export const blockBootstrapSchema = z.strictObject({
  steps: int,
  /** Mean of the per-step difference. */
  mean: z.number(),
  /** Standard deviation of the resampled means: the within-run standard error. */
  sd: z.number(),
  block_length: int,
  /** Lag-1 autocorrelation of the difference series, which chose the block length. */
  lag1: z.number(),
});

/** One side of a seed-group verdict (lib/compare/seed-groups): its runs' means and their spread. */
export const seedSideSchema = z.strictObject({
  /** Each run's mean of the scalar over the steps every run of both sides shares, with the
   * moving-block standard error of that mean (its deviation from the all-run per-step mean). */
  runs: z.array(
    z.strictObject({ id: z.string(), mean: z.number(), se: z.number(), block_length: int }),
  ),
  n: int,
  /** Mean of the run means. */
  mean: z.number(),
  /** Sample standard deviation (n − 1) of the run means: the between-seed spread. */
  sd: z.number(),
  /** The per-run variance the test used: max(sd², mean se²). */
  variance: z.number(),
  /** True when the within-run floor (mean se²) was larger than sd² and was used instead. */
  floored: z.boolean(),
});

/** The calibrated verdict (lib/compare/calibrated): paired, drift-aware, with its tests. */
export const calibratedVerdictSchema = z.strictObject({
  decision: z.enum(["differs", "within_noise", "not_enough_evidence"]),
  /** Family-wise level of "differs": mean_level + correlation_level + shape_level (Bonferroni). */
  level: z.number(),
  mean_level: z.number(),
  correlation_level: z.number(),
  shape_level: z.number(),
  /** Why the decision: which test fired, or what is missing for one. */
  reason: z.string(),
  /** a − b per step, block-bootstrapped. */
  paired: blockBootstrapSchema.nullable(),
  /** The seed-repeat pair's own per-step difference (run − against), the yardstick. */
  seed_pair: blockBootstrapSchema.extend({ run: z.string(), against: z.string() }).nullable(),
  /** Seed pair: t = mean(a − b) / sqrt(sd² + mean(seed pair)²), Satterthwaite df. Seeds: Welch's t
   * on the run means, Welch–Satterthwaite df. Interval of the difference at 1 − mean_level. */
  mean_test: z
    .strictObject({
      t: z.number(),
      df: z.number(),
      p: z.number(),
      se: z.number(),
      low: z.number(),
      high: z.number(),
      level: z.number(),
    })
    .nullable(),
  /** One-sided test that the a–b correlation is below the floor, on effective steps; null when a
   * per-step difference is heavy-tailed (lib/compare/shape heavyTailed), where it is not valid. */
  correlation_test: z
    .strictObject({
      method: z.enum(["steiger", "fisher"]),
      /** The run both correlations share (Steiger), null when they share none (Fisher). */
      shared: z.string().nullable(),
      steps: int,
      effective_steps: z.number(),
      z: z.number(),
      p: z.number(),
    })
    .nullable(),
  /** The per-step values' distributions (lib/compare/shape): trimmed 1-Wasserstein distance of a vs
   * b against the seed pair's; fired when the ratio passes `critical` (calibrated by simulation). */
  shape_test: z
    .strictObject({
      distance: z.number(),
      seed_distance: z.number(),
      ratio: z.number(),
      critical: z.number(),
      w1: z.number(),
      seed_w1: z.number(),
      median_a: z.number(),
      median_b: z.number(),
      seed_median_run: z.number(),
      seed_median_against: z.number(),
      heavy_tailed: z.boolean(),
      fired: z.boolean(),
    })
    .nullable(),
  /** What the mean test's run-to-run variance came from: "seed_pair", the seed-repeat pair's own
   * difference (a side is one run); "seeds", each side's spread over its seeds (Welch). */
  yardstick: z.enum(["seed_pair", "seeds"]),
  /** Both sides' seeds when the yardstick is "seeds"; null otherwise. */
  seeds: z.strictObject({ steps: int, a: seedSideSchema, b: seedSideSchema }).nullable(),
  /** The method in words, for the page. */
  method: z.string(),
});

const bandSchema = z.array(z.strictObject({ low: z.number(), high: z.number() }));

export const trainingComparisonSchema = z.strictObject({
  steps: int,
  /** Per step, a and b: each side's mean over its runs (a side of one run: the run), at the steps
   * every run of both sides has. */
  series: z.array(
    z.strictObject({
      step: int,
      a: z.number(),
      b: z.number(),
      a_rolling: z.number(),
      b_rolling: z.number(),
      diff: z.number(),
    }),
  ),
  /** For a side of several runs, aligned with `series`: its mean ± one sample standard deviation
   * across its seeds at that step (null for a side of one run; null when both are). */
  band: z.strictObject({ a: bandSchema.nullable(), b: bandSchema.nullable() }).nullable(),
  mean_a: intervalSchema,
  mean_b: intervalSchema,
  /** mean(a) - mean(b) over the shared steps, each run's steps resampled independently (ignores
   * the pairing and drift; the verdict uses `calibrated.mean_test`). */
  diff: intervalSchema,
  /** The same difference between the seed-repeat baseline and the run it repeats, for scale. */
  baseline_diff: nullableNumber,
  /** Pearson's r of the series (the side means when a side has several runs); null when either is
   * constant (no correlation is defined). */
  correlation: nullableNumber,
  floor: z
    .strictObject({ run: z.string(), against: z.string(), correlation: z.number(), steps: int })
    .nullable(),
  /** Fisher z test that the a-b correlation is below the floor, as if the two were independent
   * and serially independent (kept for reference; the verdict uses `calibrated.correlation_test`);
   * null when a side has several runs (a correlation of means is not a single pair's). */
  floor_test: z.strictObject({ z: z.number(), p: z.number() }).nullable(),
  /** calibrated.decision as a boolean: true within noise, false differs, null not enough evidence.
   * (Before the calibrated verdict it was "diff covers 0 and Fisher p ≥ 0.05".) */
  within_noise: z.boolean().nullable(),
  calibrated: calibratedVerdictSchema,
  /** The decision in plain words (lib/compare/verdict-text headline): levels and the seed gap. */
  headline: z.string(),
  /** The calibrated verdict in words: what was tested and how sure it is. */
  verdict: z.string(),
});

const taskRowSchema = z.strictObject({
  task: int,
  a: z.number(),
  b: z.number(),
  diff: z.number(),
  a_rollouts: z.array(z.string()),
  b_rollouts: z.array(z.string()),
});
const callsCountSchema = z.strictObject({ calls: z.number(), count: int });

export const evaluationComparisonSchema = z.strictObject({
  tasks: int,
  per_task: z.array(taskRowSchema),
  mean_a: z.number(),
  mean_b: z.number(),
  diff: intervalSchema,
  sign_test: signTestSchema,
  permutation: permutationTestSchema,
  changed_most: z.array(taskRowSchema),
  calls_a: z.array(callsCountSchema),
  calls_b: z.array(callsCountSchema),
  mean_calls_a: z.number(),
  mean_calls_b: z.number(),
});

export const captureSideSchema = z.strictObject({
  rollouts: int,
  masked: int,
  masked_fraction: z.number(),
  mask_reasons: z.array(countSchema),
  /** Capture failures: lost calls and dangling intents (capture incomplete), unreadable stores. */
  capture_failures: int,
  invalid_rows: int,
  status_codes: z.array(countSchema),
  failed_calls: int,
  /** Rollouts a failed model call cut short while their records look successful (seed 000's 422). */
  cut_short: int,
  /** Sums of capture scalars the trainer logged in metrics.jsonl (token_capture/*). */
  logged: z.record(z.string(), z.number()),
  /** The run page's alerts (the trainer's truth check's among them), in its words. */
  alerts: z.array(z.strictObject({ severity: z.enum(["error", "warning"]), message: z.string() })),
});

export const runRefSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  capture: z.enum(["on", "off"]).nullable(),
  /** run.json's seed_group: naming the run alone on a side compares every run sharing it. */
  seed_group: z.string().nullable(),
});

/** The runs one side of a comparison stands for (lib/compare/sides). */
export const comparisonSideSchema = z.strictObject({
  /** The side's runs, its first (the run named first) leading: evaluation and capture health
   * compare the two leads. */
  runs: z.array(runRefSchema),
  /** "run": one run named; "list": several named (`a=r1,r2`); "seed_group": one run named whose
   * run.json seed_group brought in every run of the root sharing it. */
  from: z.enum(["run", "list", "seed_group"]),
  seed_group: z.string().nullable(),
  /** How the page and the verdict name the side: the seed group, else the runs' ids. */
  label: z.string(),
});

/** GET /api/compare: everything the compare page shows. */
export const comparisonSchema = z.strictObject({
  /** Each side's leading run (its only run unless the side is several seeds). */
  a: runRefSchema,
  b: runRefSchema,
  sides: z.strictObject({ a: comparisonSideSchema, b: comparisonSideSchema }),
  baseline: z
    .strictObject({
      run: runRefSchema,
      against: runRefSchema,
      /** "seed_group": two seeds of a side (b's, else a's) when run.json marks no seed repeat. */
      chosen: z.enum(["asked", "seed_repeat_of", "seed_group"]),
    })
    .nullable(),
  runs: z.array(runRefSchema),
  /** Scalar tags both runs log (trainer logs, metrics.jsonl columns), sorted: the picker's choices. */
  scalars: z.array(z.string()),
  /** The scalar the training comparison is on (`train/reward`, else `reward`, by default); null
   * when the runs share none. */
  scalar: z.string().nullable(),
  training: trainingComparisonSchema.nullable(),
  evaluation: evaluationComparisonSchema.nullable(),
  capture: z.strictObject({ a: captureSideSchema, b: captureSideSchema }),
  notes: z.array(z.string()),
});

export type Interval = z.infer<typeof intervalSchema>;
export type SignTest = z.infer<typeof signTestSchema>;
export type PermutationTest = z.infer<typeof permutationTestSchema>;
export type TrainingComparison = z.infer<typeof trainingComparisonSchema>;
export type CalibratedVerdict = z.infer<typeof calibratedVerdictSchema>;
export type BlockBootstrapSummary = z.infer<typeof blockBootstrapSchema>;
export type EvaluationComparison = z.infer<typeof evaluationComparisonSchema>;
export type CaptureSide = z.infer<typeof captureSideSchema>;
export type RunRef = z.infer<typeof runRefSchema>;
export type ComparisonSide = z.infer<typeof comparisonSideSchema>;
export type Comparison = z.infer<typeof comparisonSchema>;
