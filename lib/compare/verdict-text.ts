// The calibrated training verdict in words: what was tested, what it found and how sure it is.
// Only formats ./calibrated's numbers; it decides nothing.
import type { CalibratedVerdict, TrainingComparison } from "@/lib/schema";

const f3 = (x: number | null) => (x === null ? "undefined (a constant series)" : x.toFixed(3));
const signed = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)}`;
const p = (x: number) => (x < 0.001 ? x.toExponential(1) : x.toFixed(3));

function correlationPart(
  c: CalibratedVerdict,
  r: number | null,
  floor: TrainingComparison["floor"],
): string {
  const t = c.correlation_test;
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

/** One paragraph: the decision first, then the mean test, the correlation test and the method. */
export function verdictInWords(
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
  const level = `${(m.level * 100).toFixed(1)}%`;
  const meanPart =
    `${diffPart}, while two seeds of one configuration differ by ${signed(s.mean)} ` +
    `(${s.run} vs ${s.against}); counting that run-to-run shift, the ${level} interval is ` +
    `${signed(m.low)} to ${signed(m.high)} (t = ${m.t.toFixed(2)}, ${m.df.toFixed(1)} df, ` +
    `p = ${p(m.p)})`;
  const head =
    c.decision === "differs"
      ? `Differs beyond run-to-run noise (5% level; ${c.reason}): ${meanPart}.`
      : `Within run-to-run noise (5% level): ${meanPart}; a shift smaller than about ` +
        `±${((m.high - m.low) / 2).toFixed(3)} would not be told apart from seed noise.`;
  return `${head} ${correlationPart(c, r, floor)}`;
}
