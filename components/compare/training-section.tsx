// The compare page's training section: the calibrated verdict in words with its decision, the
// tests behind it (paired block bootstrap, the seed pair's yardstick or each side's seeds, the t
// test, Steiger's z), the descriptive statistics, and the charts of the scalar and the difference.
import type { CalibratedVerdict, Comparison, Interval } from "@/lib/schema";
import { DiffChart } from "./compare-charts";
import { RewardChart } from "./reward-chart";
import { SeedRows } from "./seed-rows";
import { signed } from "@/lib/view";

const f = (x: number, d = 3) => x.toFixed(d);
const ci = (i: Interval) => `${f(i.estimate)} [${f(i.low)}, ${f(i.high)}]`;
const pValue = (p: number) => (p < 0.001 ? p.toExponential(1) : f(p));

/** Scalars the train/inference mismatch section shows per sample (linked from the headline). */
const MISMATCH_SCALAR = /token_mult_prob_error|gen_kl_error|mismatch/;

const DECISION: Record<CalibratedVerdict["decision"], [string, string]> = {
  differs: ["differs", "bad-text"],
  // Not green: a test on a few seeds may miss a real difference (its power at one between-run sd
  // is some 6%), so "none detected" is no all-clear.
  within_noise: ["no difference we can detect", ""],
  not_enough_evidence: ["not enough evidence", "muted"],
};

/** The rows of the calibrated verdict: what was tested, with its numbers. */
function CalibratedRows({ v, sides }: { v: CalibratedVerdict; sides: Comparison["sides"] }) {
  const m = v.mean_test,
    c = v.correlation_test;
  const seeds = v.yardstick === "seeds";
  return (
    <>
      {v.seeds && <SeedRows seeds={v.seeds} sides={sides} />}
      {v.paired && (
        <tr>
          <th>
            paired difference a − b per step
            {sides.a.runs.length > 1 || sides.b.runs.length > 1 ? " of the side means" : ""}{" "}
            (moving-block bootstrap)
          </th>
          <td data-testid="paired-diff">
            {signed(v.paired.mean)} ± {f(v.paired.sd)} (block {v.paired.block_length}, lag-1
            autocorrelation {f(v.paired.lag1, 2)}, {v.paired.steps} steps)
          </td>
        </tr>
      )}
      {v.seed_pair && (
        <tr>
          <th>
            seed-to-seed difference per step (
            {seeds
              ? "the first runs' correlation and distribution tests' yardstick"
              : "the yardstick"}
            )
          </th>
          <td data-testid="seed-diff">
            {signed(v.seed_pair.mean)} ± {f(v.seed_pair.sd)} ({v.seed_pair.run} −{" "}
            {v.seed_pair.against})
          </td>
        </tr>
      )}
      {m && (
        <tr>
          <th>
            a − b beyond seed noise? ({seeds ? "Welch t on the run means" : "t test"}, at{" "}
            {v.mean_level * 100}%)
          </th>
          <td data-testid="mean-test">
            {(m.level * 100).toFixed(0)}% interval [{signed(m.low)}, {signed(m.high)}]; t ={" "}
            {f(m.t, 2)}, {f(m.df, 1)} df, p = {pValue(m.p)}
          </td>
        </tr>
      )}
      {v.shape_test && (
        <tr>
          <th>
            distributions further apart than the seed pair&apos;s? (trimmed 1-Wasserstein, 10th–90th
            percentile, at {v.shape_level * 100}%)
          </th>
          <td data-testid="shape-test">
            {v.shape_test.distance.toPrecision(3)} vs {v.shape_test.seed_distance.toPrecision(3)}:{" "}
            {v.shape_test.ratio.toPrecision(3)}× (fires above {v.shape_test.critical}×); medians{" "}
            {v.shape_test.median_a.toPrecision(5)} vs {v.shape_test.median_b.toPrecision(5)}
            {v.shape_test.heavy_tailed ? "; heavy-tailed, so the correlation test is not run" : ""}
          </td>
        </tr>
      )}
      {c && (
        <tr>
          <th>
            correlation below the floor? ({c.method === "steiger" ? "Steiger" : "Fisher"} z,
            one-sided, at {v.correlation_level * 100}%)
          </th>
          <td data-testid="correlation-test">
            z = {f(c.z, 2)}, p = {pValue(c.p)} ({f(c.effective_steps, 0)} effective of {c.steps}{" "}
            steps{c.shared ? `; both share ${c.shared}` : ""})
          </td>
        </tr>
      )}
    </>
  );
}

export function TrainingSection({ c }: { c: Comparison }) {
  const t = c.training;
  if (!t) return null;
  const [label, tone] = DECISION[t.calibrated.decision];
  // A training comparison exists only on a scalar both runs log; "reward" is metrics.jsonl's own.
  const scalar = c.scalar ?? "reward";
  const side = (k: "a" | "b") => ({ label: c.sides[k].label, n: c.sides[k].runs.length });
  const [sa, sb] = [side("a"), side("b")];
  const over = (n: number) => (n > 1 ? ` (per-step mean of ${n} seeds)` : "");
  return (
    <section data-testid="training">
      <h2 data-testid="training-title">
        Training: <span className="mono">{scalar}</span> per step ({t.steps} shared steps)
      </h2>
      <p
        className={`verdict-text ${tone}`}
        data-testid="compare-headline"
        data-decision={t.calibrated.decision}
        title={`decision: ${label}`}
      >
        {t.headline}
        {MISMATCH_SCALAR.test(scalar) && (
          <>
            {" "}
            <a href="#compare-mismatch" data-testid="compare-mismatch-link">
              Per-sample mismatch of both runs below.
            </a>
          </>
        )}
      </p>
      <details data-testid="compare-statistics">
        <summary>How the verdict is reached, in words (the numbers are in the table below)</summary>
        <p className="verdict-text" data-testid="compare-verdict">
          {t.verdict}
        </p>
        <p className="muted" data-testid="compare-method">
          {t.calibrated.method}
        </p>
      </details>
      <table className="grid stats" data-testid="training-stats">
        <tbody>
          <CalibratedRows v={t.calibrated} sides={c.sides} />
          <tr>
            <th>
              mean {scalar}, {sa.label}
              {over(sa.n)} (95% bootstrap CI)
            </th>
            <td data-testid="mean-a">{ci(t.mean_a)}</td>
          </tr>
          <tr>
            <th>
              mean {scalar}, {sb.label}
              {over(sb.n)}
            </th>
            <td data-testid="mean-b">{ci(t.mean_b)}</td>
          </tr>
          <tr>
            <th>difference of means a − b (runs resampled independently; not the verdict)</th>
            <td data-testid="mean-diff">
              {signed(t.diff.estimate)} [{signed(t.diff.low)}, {signed(t.diff.high)}]
            </td>
          </tr>
          <tr>
            <th>
              step-wise correlation{sa.n > 1 || sb.n > 1 ? " of the side means" : ""} (Pearson)
            </th>
            <td data-testid="correlation">
              {t.correlation === null ? "undefined (a constant series)" : f(t.correlation)}
            </td>
          </tr>
          <tr>
            <th>repeatability floor</th>
            <td data-testid="floor">
              {t.floor
                ? `${f(t.floor.correlation)} (${t.floor.run} vs ${t.floor.against}, ${t.floor.steps} steps)`
                : "none: no seed repeat"}
            </td>
          </tr>
          {t.floor_test && (
            <tr>
              <th>Fisher z as if independent (one-sided; not the verdict)</th>
              <td data-testid="floor-test">
                z = {f(t.floor_test.z, 2)}, p = {f(t.floor_test.p)}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <RewardChart t={t} a={sa} b={sb} scalar={scalar} />
      <DiffChart t={t} scalar={scalar} />
    </section>
  );
}
