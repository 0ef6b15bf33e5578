// The training comparison when a side is several seeds: each side's per-step mean over its runs with
// a band of ± one sd across them, descriptive statistics on those means, and the verdict of
// ./seed-groups in words that say how many seeds each side has. One run per side is ./comparison's.
// Only assembles; the numbers come from ./seed-groups and ./stats.
import type { TrainingComparison } from "@/lib/schema";
import { alignSteps, sharedSteps, type StepSeries } from "./calibrated";
import { sideBand, sideMean, sidesVerdict } from "./seed-groups";
import {
  bootstrapMean,
  bootstrapMeanDifference,
  finite,
  mean,
  pearson,
  rollingMean,
} from "./stats";
import { headline, verdictInWords } from "./verdict-text";

/** Each side's runs as series (its lead first) and the name the words give it. */
export interface SeedSides {
  a: { label: string; seed_group: string | null; runs: StepSeries[] };
  b: { label: string; seed_group: string | null; runs: StepSeries[] };
}

/** The seed pair's correlation and mean difference over the steps it shares (≥ 3), else null. */
function floorOf(pair: { run: StepSeries; against: StepSeries } | null) {
  if (!pair) return { floor: null, diff: null };
  const [x, y] = alignSteps(pair.run, pair.against) as [number[], number[]];
  if (x.length < 3) return { floor: null, diff: null };
  const r = finite(pearson(x, y));
  const floor =
    r === null
      ? null
      : { run: pair.run.id, against: pair.against.id, steps: x.length, correlation: r };
  return { floor, diff: mean(x) - mean(y) };
}

export function compareSeedTraining(
  sides: SeedSides,
  pair: { run: StepSeries; against: StepSeries } | null,
  window: number,
  scalar?: string,
): TrainingComparison | null {
  const [sa, sb] = [sides.a.runs, sides.b.runs];
  const [ma, mb] = [sideMean(sa, sides.a.label), sideMean(sb, sides.b.label)];
  const steps = sharedSteps(ma, mb);
  if (steps.length < 3) return null;
  const [ra, rb] = alignSteps(ma, mb) as [number[], number[]];
  const [rollA, rollB] = [rollingMean(ra, window), rollingMean(rb, window)];
  const { floor, diff: baseline_diff } = floorOf(pair);
  const calibrated = sidesVerdict(sa, sb, pair);
  const [a0, b0] = [sa[0] as StepSeries, sb[0] as StepSeries];
  const [la, lb] = alignSteps(a0, b0) as [number[], number[]];
  // The words' correlation is the first runs', the pair the correlation test compares to the floor.
  const leadR = la.length >= 3 ? finite(pearson(la, lb)) : null;
  const word = (s: SeedSides["a"]) => ({ ...s, runs: s.runs.map((r) => r.id) });
  const words = { a: word(sides.a), b: word(sides.b) };
  return {
    steps: steps.length,
    series: steps.map((step, i) => ({
      step,
      a: ra[i] as number,
      b: rb[i] as number,
      a_rolling: rollA[i] as number,
      b_rolling: rollB[i] as number,
      diff: (ra[i] as number) - (rb[i] as number),
    })),
    band: {
      a: sa.length > 1 ? sideBand(sa, steps) : null,
      b: sb.length > 1 ? sideBand(sb, steps) : null,
    },
    mean_a: bootstrapMean(ra),
    mean_b: bootstrapMean(rb),
    diff: bootstrapMeanDifference(ra, rb),
    baseline_diff,
    correlation: finite(pearson(ra, rb)),
    floor,
    // A correlation of side means is not one pair's, so not comparable with the floor's.
    floor_test: null,
    within_noise: { differs: false, within_noise: true, not_enough_evidence: null }[
      calibrated.decision
    ],
    calibrated,
    headline: headline(
      {
        a: sides.a.label,
        b: sides.b.label,
        mean_a: mean(ra),
        mean_b: mean(rb),
        n_a: sa.length,
        n_b: sb.length,
        scalar,
      },
      calibrated,
    ),
    verdict: verdictInWords(sides.a.label, sides.b.label, calibrated, leadR, floor, words),
  };
}
