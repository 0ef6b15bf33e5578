// A seeded simulator of A/B triplets for calibrating the compare verdict: run a (maybe shifted), run
// b and a seed repeat of b, sharing a learning curve and per-step prompt difficulty, each with its
// own slow drift and short-memory AR(1) noise (on/off correlation about 0.94, like seed 000's GRPO
// runs). The drift is one of three families: stationary AR(1) (the default), a random walk (not
// stationary: the runs wander apart ever more), or a level shift at a random step (a run that
// changes regime once). Also seed groups: n runs of each of two configurations (./seed-groups).
// It only makes series; ./calibration.test.ts, ./seed-calibration.test.ts and
// bench/compare.bench.ts count verdicts.
import type { StepSeries } from "./calibrated";
import { SeededRandom } from "./prng";

export interface SimulationParams {
  steps: number;
  /** Standard deviation of the per-step prompt difficulty all three runs share. */
  difficulty: number;
  /**
   * Per-run slow drift. "ar1" (the default): stationary AR(1) with coefficient driftPhi and
   * standard deviation driftSd. "random-walk": from 0, each step adds N(0, walkSd²).
   * "level-shift": 0 until a uniformly drawn step, then a jump of N(0, (2 driftSd)²) that stays.
   */
  drift?: "ar1" | "random-walk" | "level-shift";
  driftPhi: number;
  driftSd: number;
  /** The random walk's per-step standard deviation. */
  walkSd?: number;
  /** Per-run short-memory noise: stationary AR(1). */
  noisePhi: number;
  noiseSd: number;
  /**
   * Heavy tails on top of the Gaussian parts, independent per step and run: "student2" adds
   * noiseSd × Student t (df = 2, infinite variance); "spikes" adds, at 4% of steps, a lognormal
   * spike exp(N(−1, 1.5²)) (median 0.37, some 40 noise sds), like token_mult_prob_error's.
   */
  tails?: "gaussian" | "student2" | "spikes";
}

export const DEFAULT_SIMULATION: SimulationParams = {
  steps: 100,
  difficulty: 0.03,
  driftPhi: 0.97,
  driftSd: 0.006,
  noisePhi: 0.4,
  noiseSd: 0.009,
};

/** The shared learning curve: 0.48 rising towards 0.59, like the GRPO fixtures' reward. */
const curve = (t: number) => 0.48 + 0.11 * (1 - Math.exp(-t / 30));

/** Standard normal draws from the seeded uniform stream (Box–Muller). */
export class NormalStream {
  private spare: number | null = null;
  constructor(private readonly rng: SeededRandom) {}
  next(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const u = 1 - this.rng.next(),
      v = this.rng.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
}

/** Per-step heavy-tailed additions (zeros for "gaussian"). */
function tailTerms(n: number, p: SimulationParams, z: NormalStream, rng: SeededRandom): number[] {
  const kind = p.tails ?? "gaussian";
  if (kind === "gaussian") return new Array<number>(n).fill(0);
  return Array.from({ length: n }, () => {
    if (kind === "student2") return (p.noiseSd * z.next()) / Math.sqrt(-Math.log(1 - rng.next()));
    const spike = rng.next() < 0.04;
    const size = Math.exp(-1 + 1.5 * z.next());
    return spike ? size : 0;
  });
}

/** The run's drift path, of the family p.drift names. */
function driftPath(p: SimulationParams, z: NormalStream, rng: SeededRandom): number[] {
  const kind = p.drift ?? "ar1";
  if (kind === "ar1") return ar1(p.steps, p.driftPhi, p.driftSd, z);
  if (kind === "random-walk") {
    const out: number[] = [];
    let level = 0;
    for (let t = 0; t < p.steps; t++) out.push((level += (p.walkSd ?? 0.0015) * z.next()));
    return out;
  }
  const at = Math.floor(rng.next() * p.steps);
  const jump = 2 * p.driftSd * z.next();
  return Array.from({ length: p.steps }, (_, t) => (t >= at ? jump : 0));
}

/** A stationary AR(1) path of n values with the given coefficient and marginal sd. */
function ar1(n: number, phi: number, sd: number, z: NormalStream): number[] {
  const innovation = sd * Math.sqrt(1 - phi * phi);
  const out = [sd * z.next()];
  for (let t = 1; t < n; t++) out.push(phi * (out[t - 1] as number) + innovation * z.next());
  return out;
}

/** Variance of the mean of n values of a stationary AR(1) with coefficient phi and sd 1. */
function ar1MeanVariance(n: number, phi: number): number {
  let s = n;
  for (let k = 1; k < n; k++) s += 2 * (n - k) * phi ** k;
  return s / (n * n);
}

/**
 * Standard deviation of mean(a) − mean(b) between two runs of one configuration: the unit the
 * effect shifts are measured in. Closed form from the AR(1) parts (the shared parts cancel); the
 * AR(1) drift family's, used as the unit for the other families too.
 */
export function betweenRunSd(p: SimulationParams = DEFAULT_SIMULATION): number {
  const perRun =
    p.driftSd ** 2 * ar1MeanVariance(p.steps, p.driftPhi) +
    p.noiseSd ** 2 * ar1MeanVariance(p.steps, p.noisePhi);
  return Math.sqrt(2 * perRun);
}

export interface Triplet {
  a: StepSeries;
  b: StepSeries;
  /** A seed repeat of b: the yardstick pair is (seed, b). */
  seed: StepSeries;
}

/** The curve and prompt difficulty every run of one simulation shares, per step. */
const sharedPart = (p: SimulationParams, z: NormalStream) =>
  Array.from({ length: p.steps }, (_, t) => curve(t) + p.difficulty * z.next());

/** One run: the shared part plus its own drift, noise and tails, plus `offset` on every step. */
function simulateRun(
  id: string,
  offset: number,
  shared: readonly number[],
  p: SimulationParams,
  z: NormalStream,
  rng: SeededRandom,
): StepSeries {
  const drift = driftPath(p, z, rng);
  const noise = ar1(p.steps, p.noisePhi, p.noiseSd, z);
  const tails = tailTerms(p.steps, p, z, rng);
  return {
    id,
    byStep: new Map(
      shared.map((c, t) => [
        t,
        c + (drift[t] as number) + (noise[t] as number) + (tails[t] as number) + offset,
      ]),
    ),
  };
}

/**
 * One triplet. `shift` is added to every step of a, in units of betweenRunSd. The same seed gives
 * the same triplet.
 */
export function simulateTriplet(
  seed: number,
  shift = 0,
  p: SimulationParams = DEFAULT_SIMULATION,
): Triplet {
  const rng = new SeededRandom(seed);
  const z = new NormalStream(rng);
  const shared = sharedPart(p, z);
  const delta = shift * betweenRunSd(p);
  return {
    a: simulateRun("sim-a", delta, shared, p, z, rng),
    b: simulateRun("sim-b", 0, shared, p, z, rng),
    seed: simulateRun("sim-b-seed2", 0, shared, p, z, rng),
  };
}

/**
 * Standard deviation of one run's mean across seeds of one configuration: the unit of the seed
 * groups' shifts (betweenRunSd / √2, since that is the sd of a difference of two such means).
 */
export const seedSd = (p: SimulationParams = DEFAULT_SIMULATION): number =>
  betweenRunSd(p) / Math.SQRT2;

/** Seeds of two configurations: `a` is `b`'s configuration shifted by `shift` seed sds. */
export interface SeedGroups {
  a: StepSeries[];
  b: StepSeries[];
}

/**
 * nA seeds of a and nB seeds of b sharing the curve and the prompt difficulty, each with its own
 * drift and noise (as a triplet's runs). `shift` is in units of seedSd. The same seed gives the
 * same groups.
 */
export function simulateGroups(
  seed: number,
  nA: number,
  nB: number,
  shift = 0,
  p: SimulationParams = DEFAULT_SIMULATION,
): SeedGroups {
  const rng = new SeededRandom(seed);
  const z = new NormalStream(rng);
  const shared = sharedPart(p, z);
  const delta = shift * seedSd(p);
  const side = (name: string, n: number, offset: number) =>
    Array.from({ length: n }, (_, i) =>
      simulateRun(`sim-${name}${i + 1}`, offset, shared, p, z, rng),
    );
  const a = side("a", nA, delta);
  return { a, b: side("b", nB, 0) };
}
