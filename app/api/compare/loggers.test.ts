// The GRPO A/B logged three ways (fixtures/generator/logger-runs): TensorBoard event files, W&B
// offline runs in a NeMo-RL log directory and one MLflow tracking database. GET /api/compare on
// each pair gives the same training figures (means, difference, correlation, the calibrated
// verdict and its tests) for every scalar the TensorBoard runs log, so a user's logger never
// changes the answer to "did capture change training?".
import { describe, expect, it } from "vitest";
import { comparisonSchema, type Comparison } from "@/lib/schema";
import { serveFixtureRuns } from "@/lib/testing/fixture-runs";
import { GET } from "./route";

serveFixtureRuns();

const PAIRS = {
  tensorboard: ["grpo-capture-on", "grpo-capture-off", "grpo-capture-off-seed2"],
  wandb: ["nemo-rl-wandb.exp_002", "nemo-rl-wandb.exp_001", "nemo-rl-wandb.exp_003"],
  mlflow: ["grpo-mlflow-capture-on", "grpo-mlflow-capture-off", "grpo-mlflow-capture-off-seed2"],
} as const;

async function compare(pair: readonly string[], scalar: string): Promise<Comparison> {
  const q = new URLSearchParams({ a: pair[0]!, b: pair[1]!, scalar });
  const res = await GET(new Request(`http://localhost/api/compare?${q}`));
  expect(res.status).toBe(200);
  return comparisonSchema.parse(await res.json());
}

/** The figures a reader takes from the training comparison, without the runs' names and ids. */
function figures(c: Comparison) {
  const t = c.training!;
  const cal = t.calibrated;
  return {
    steps: t.steps,
    means: [t.mean_a, t.mean_b, t.diff],
    correlation: t.correlation,
    decision: cal?.decision,
    mean_test: cal?.mean_test,
    correlation_test: cal && { ...cal.correlation_test, shared: undefined },
    series: t.series,
  };
}

describe("the same A/B through TensorBoard, W&B and an MLflow database", () => {
  for (const scalar of ["train/reward", "train/gen_kl_error", "train/token_mult_prob_error"])
    it(`${scalar}: the same figures from each logger`, async () => {
      const tb = await compare(PAIRS.tensorboard, scalar);
      expect(tb.baseline?.run.id).toBe(PAIRS.tensorboard[2]);
      expect(tb.training?.steps).toBe(100);
      expect(tb.training?.calibrated?.mean_test).toBeTruthy();
      for (const logger of ["wandb", "mlflow"] as const) {
        const other = await compare(PAIRS[logger], scalar);
        expect(other.scalar).toBe(scalar);
        expect(other.baseline?.run.id).toBe(PAIRS[logger][2]);
        expect(figures(other), logger).toEqual(figures(tb));
      }
    }, 60_000);
});
