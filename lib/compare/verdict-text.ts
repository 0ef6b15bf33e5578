// The calibrated training verdict in words: what was tested, what it found and how sure it is,
// and, when a side is several seeds, how many each side has and what they were tested against.
// Only formats ./calibrated's and ./seed-groups' numbers; it decides nothing.
import type { CalibratedVerdict, TrainingComparison } from "@/lib/schema";
import { signed } from "@/lib/view";

const f3 = (x: number | null) => (x === null ? "undefined (a constant series)" : x.toFixed(3));
const p = (x: number) => (x < 0.001 ? x.toExponential(1) : x.toFixed(3));

function correlationPart(
  c: CalibratedVerdict,
  r: number | null,
  floor: TrainingComparison["floor"],
): string {
  const t = c.correlation_test;
  if (!t && floor && c.shape_test)
    return (
      `The step-wise correlation ${f3(r)} was not tested against the floor ${f3(floor.correlation)} ` +
      `(a per-step difference is heavy-tailed, where Steiger's z does not hold, or constant).`
    );
  if (!t || !floor) return `The step-wise correlation ${f3(r)} was not tested against the floor.`;
  const below = t.p < c.correlation_level;
  const name =
    t.method === "steiger" ? "Steiger z for correlations sharing " + t.shared : "Fisher z";
  return (
    `The step-wise correlation ${f3(r)} is ${below ? "below" : "not below"} the floor ` +
    `${f3(floor.correlation)} (${name}: z = ${t.z.toFixed(2)}, one-sided p = ${p(t.p)} on ` +
    `${t.effective_steps.toFixed(0)} effective steps).`
  );
}

function shapePart(c: CalibratedVerdict): string {
  const t = c.shape_test;
  if (!t) return "";
  const k = decimals(Math.min(t.distance, t.seed_distance) || t.distance);
  return (
    ` The per-step distributions are ${t.fired ? "" : "not "}further apart than the seed pair's by ` +
    `more than ${t.critical}× (trimmed 1-Wasserstein, 10th–90th percentile: ${t.distance.toFixed(k)} ` +
    `vs ${t.seed_distance.toFixed(k)}, ratio ${t.ratio.toPrecision(3)}, at ${c.shape_level * 100}%; ` +
    `full W1 ${t.w1.toFixed(k)} vs ${t.seed_w1.toFixed(k)}).`
  );
}

/** How a side of several runs is named and counted; absent when both sides are one run. */
export interface SidesWords {
  a: { label: string; seed_group: string | null; runs: string[] };
  b: { label: string; seed_group: string | null; runs: string[] };
}

const count = (n: number) => (n === 1 ? "1 run" : `${n} seeds`);

/** "a is 3 seeds (…), b is 1 run (…)", then what the mean was tested against. */
function sidesPart(s: SidesWords, c: CalibratedVerdict): string {
  const one = (k: "a" | "b") =>
    `${k} is ${count(s[k].runs.length)} (${s[k].seed_group ? `seed_group ${s[k].label}: ${s[k].runs.join(", ")}` : s[k].label})`;
  const is = c.decision === "not_enough_evidence" ? "would be" : "is";
  const against =
    c.yardstick === "seeds"
      ? `the mean ${is} tested against the spread between each side's seeds (Welch's t)`
      : "with one run on a side there is no spread between seeds on both sides, so each side's " +
        `per-step mean ${is} tested against the seed pair` +
        (c.seed_pair ? ` ${c.seed_pair.run} vs ${c.seed_pair.against}` : "") +
        ", as with one run per side";
  return `${one("a")}, ${one("b")}; ${against}. `;
}

/** The seed groups' mean test in words (yardstick "seeds"). */
function seedsMeanPart(a: string, b: string, c: CalibratedVerdict): string {
  const g = c.seeds,
    m = c.mean_test;
  if (!g || !m) return "";
  const sd = (x: NonNullable<CalibratedVerdict["seeds"]>["a"], side: string) =>
    `${x.sd.toFixed(3)} (sd on ${side}` +
    (x.floored ? `, raised to its runs' own error ${Math.sqrt(x.variance).toFixed(3)})` : ")");
  return (
    `mean of the run means ${a} − ${b} = ${signed(g.a.mean - g.b.mean)} over ${g.steps} shared ` +
    `steps, while a run's mean varies between seeds by ${sd(g.a, a)} and ${sd(g.b, b)}; the ` +
    `${(m.level * 100).toFixed(1)}% interval is ${signed(m.low)} to ${signed(m.high)} ` +
    `(Welch t = ${m.t.toFixed(2)}, ${m.df.toFixed(1)} df, p = ${p(m.p)})`
  );
}

/** One paragraph: the decision first, then the mean test, the correlation test and the method. */
export function verdictInWords(
  a: string,
  b: string,
  c: CalibratedVerdict,
  r: number | null,
  floor: TrainingComparison["floor"],
  sides?: SidesWords,
): string {
  const text = verdictBody(a, b, c, r, floor);
  return sides ? sidesPart(sides, c) + text : text;
}

function verdictBody(
  a: string,
  b: string,
  c: CalibratedVerdict,
  r: number | null,
  floor: TrainingComparison["floor"],
): string {
  const d = c.paired;
  const diffPart = d ? `${a} − ${b} = ${signed(d.mean)} per step` : `${a} − ${b}: no shared steps`;
  if (c.decision === "not_enough_evidence" || !c.mean_test || !c.seed_pair) {
    const se = d ? ` (block-bootstrap standard error ${d.sd.toFixed(3)}, drift not counted)` : "";
    return `Not enough evidence: ${c.reason}. ${diffPart}${se}; step-wise correlation ${f3(r)}.`;
  }
  const m = c.mean_test;
  const s = c.seed_pair;
  if (c.yardstick === "seeds") {
    const lead = `On each side's first run (seed pair ${s.run} vs ${s.against}): `;
    const head =
      c.decision === "differs"
        ? `Differs beyond seed-to-seed noise (${levelWords(c)}; ${c.reason}): ${seedsMeanPart(a, b, c)}.`
        : `Within seed-to-seed noise (${levelWords(c)}): ${seedsMeanPart(a, b, c)}; a shift smaller than ` +
          `about ±${((m.high - m.low) / 2).toFixed(3)} would not be told apart from seed noise.`;
    return `${head} ${lead}${lowerFirst(correlationPart(c, r, floor))}${shapePart(c)}`;
  }
  const level = `${(m.level * 100).toFixed(1)}%`;
  const meanPart =
    `${diffPart}, while two seeds of one configuration differ by ${signed(s.mean)} ` +
    `(${s.run} vs ${s.against}); counting that run-to-run shift, the ${level} interval is ` +
    `${signed(m.low)} to ${signed(m.high)} (t = ${m.t.toFixed(2)}, ${m.df.toFixed(1)} df, ` +
    `p = ${p(m.p)})`;
  const head =
    c.decision === "differs"
      ? `Differs beyond run-to-run noise (${levelWords(c)}; ${c.reason}): ${meanPart}.`
      : `Within run-to-run noise (${levelWords(c)}): ${meanPart}; a shift smaller than about ` +
        `±${((m.high - m.low) / 2).toFixed(3)} would not be told apart from seed noise.`;
  return `${head} ${correlationPart(c, r, floor)}${shapePart(c)}`;
}

const pct = (x: number) => `${+(x * 100).toFixed(2)}%`;

/**
 * The decision's level and how it is split between the three tests (Bonferroni): a test that did
 * not run keeps its share, set aside, and is said not to have run.
 */
function levelWords(c: CalibratedVerdict): string {
  const unrun = (ran: boolean) => (ran ? "" : ", not run here");
  return (
    `${pct(c.level)} level in all: the mean's t test at ${pct(c.mean_level)}, the ` +
    `distributions' at ${pct(c.shape_level)}${unrun(c.shape_test !== null)}; the correlation's ` +
    `at ${pct(c.correlation_level)}${unrun(c.correlation_test !== null)}`
  );
}

/** Decimals that show a difference of `size` to its first significant digit (at least 3). */
function decimals(size: number): number {
  if (!(size > 0) || !Number.isFinite(size)) return 3;
  return Math.min(8, Math.max(3, -Math.floor(Math.log10(size))));
}

export interface HeadlineInput {
  a: string;
  b: string;
  /** Means of a and b over their shared steps (of each side's per-step mean over its seeds). */
  mean_a: number;
  mean_b: number;
  /** Runs on each side, said when a side has several; absent with one run per side. */
  n_a?: number;
  n_b?: number;
  /** The scalar compared: the headline says which, so it is not read as about every measure. */
  scalar?: string;
}

/** The spread of one run's mean between seeds, pooled over both sides (n − 1 weights). */
function pooledSeedSd(g: NonNullable<CalibratedVerdict["seeds"]>): number {
  const dof = g.a.n + g.b.n - 2;
  return Math.sqrt(((g.a.n - 1) * g.a.sd ** 2 + (g.b.n - 1) * g.b.sd ** 2) / dof);
}

/**
 * The headline in plain words: the decision, the two runs' levels and how far two seeds of the same
 * setup are apart. On a heavy-tailed scalar the levels are medians (and say so), since one spike
 * moves a mean. The statistics behind it are verdictInWords'.
 */
export function headline(h: HeadlineInput, c: CalibratedVerdict): string {
  if (c.decision === "not_enough_evidence" || !c.seed_pair)
    return `Not enough evidence to tell: ${c.reason}.`;
  const sh = c.shape_test;
  const robust = sh?.heavy_tailed === true;
  const g = robust ? null : c.seeds;
  const [va, vb, seedGap] = robust
    ? [sh.median_a, sh.median_b, Math.abs(sh.seed_median_run - sh.seed_median_against)]
    : [h.mean_a, h.mean_b, g ? pooledSeedSd(g) : Math.abs(c.seed_pair.mean)];
  const k = decimals(seedGap);
  const stat = robust ? "median " : "";
  const [na, nb] = [h.n_a, h.n_b].map((n) => (n === undefined ? "" : ` (${count(n)})`));
  const levels = `${h.a}${na} ${stat}${va.toFixed(k)} vs ${h.b}${nb} ${stat}${vb.toFixed(k)}`;
  const seeds =
    (g
      ? `a run's mean varies between seeds of one setup by about ${seedGap.toFixed(k)} (sd)`
      : `two seeds of the same setup differ by about ${seedGap.toFixed(k)}`) +
    (robust
      ? ` (medians${h.n_a === undefined ? "" : " of each side's first run"}: the values are heavy-tailed, so means would follow a few spikes)`
      : "");
  const inWhat = h.scalar === undefined ? "" : ` in ${h.scalar}`;
  if (c.decision === "within_noise")
    return `No difference we can detect${inWhat}: ${levels}; ${seeds}${reach(c, robust, k)}.`;
  const why: string[] = [];
  if (sh?.fired)
    why.push(
      `the per-step values' distributions are ${sh.ratio >= 100 ? sh.ratio.toFixed(0) : sh.ratio.toPrecision(2)} times further apart than the two seeds'`,
    );
  if (c.mean_test && c.mean_test.p < c.mean_level)
    why.push(
      c.yardstick === "seeds"
        ? "the mean difference is larger than the spread between seeds explains"
        : "the mean difference is larger than seed-to-seed drift explains",
    );
  if (c.correlation_test && c.correlation_test.p < c.correlation_level)
    why.push("the runs follow each other step by step less closely than two seeds do");
  return `Differs${inWhat}: ${levels}; ${seeds}. ${why.length ? capital(why.join("; ")) + "." : ""}`.trim();
}

/**
 * What "no difference" can mean: the smallest shift of the mean the test would have told apart
 * from seed noise (its interval's half-width), so a headline on 1.7 df does not read as "equal".
 * None on heavy tails, where the headline speaks of medians and the mean test does not decide.
 */
function reach(c: CalibratedVerdict, robust: boolean, k: number): string {
  const m = c.mean_test;
  if (robust || !m) return "";
  const half = (m.high - m.low) / 2;
  return `; with this evidence (${m.df.toFixed(1)} df) a shift smaller than about ±${half.toFixed(k)} would not be told apart`;
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
