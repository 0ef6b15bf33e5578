// Compare-verdict calibration: simulated A/B triplets (lib/compare/simulate: shared prompt
// difficulty, per-run slow drift, AR(1) noise, on/off correlation about 0.94). Figure: the share of
// 1,000 no-effect triplets called "differs" at the stated 5% level, target ≤ 0.07. Power
// at shifts of 1, 2 and 3 between-run sds (400 triplets each) is printed beside it, with the
// previous verdict's rates on the same triplets. Seeds differ from the unit test's. The same null
// share on 1,000 heavy-tailed triplets each (Student t df = 2 noise; lognormal spikes like
// token_mult_prob_error's), with each test's own share (mean 4%, correlation 0.5%, distribution 0.5%),
// and on 1,000 triplets each of the other drift families (a random walk; a level shift at a random
// step), target ≤ 0.07 on every family.
import { measureCalibration, betweenRunSd, DEFAULT_SIMULATION } from "@/lib/compare";
import { figure } from "./util";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function benchCompare(): Promise<void> {
  const t0 = performance.now();
  const nul = measureCalibration(0, 1000, 7_000_000);
  console.log(
    `between-run sd of the mean difference: ${betweenRunSd().toFixed(4)}; ` +
      `on/off correlation ${nul.correlation.toFixed(3)}`,
  );
  for (const shift of [1, 2, 3]) {
    const p = measureCalibration(shift, 400, 7_000_000 + shift * 100_000);
    console.log(
      `power at ${shift} sd: ${pct(p.rate)} of ${p.triplets} (previous verdict ${pct(p.previousRate)})`,
    );
  }
  console.log(
    `null: previous verdict ${pct(nul.previousRate)}, paired bootstrap without the seed pair ` +
      `${pct(nul.pairedOnlyRate)} (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  figure(`compare: "differs" with no effect, ${nul.triplets} triplets, 5% level`, nul.rate, 0.07);
  console.log(
    `gaussian null by test: mean ${pct(nul.meanRate)}, correlation ${pct(nul.correlationRate)}, ` +
      `distribution ${pct(nul.shapeRate)}`,
  );
  for (const tails of ["student2", "spikes"] as const) {
    const r = measureCalibration(0, 1000, 8_000_000, { ...DEFAULT_SIMULATION, tails });
    console.log(
      `${tails} null by test: mean ${pct(r.meanRate)}, correlation ${pct(r.correlationRate)}, ` +
        `distribution ${pct(r.shapeRate)}`,
    );
    const p = measureCalibration(3, 400, 8_300_000, { ...DEFAULT_SIMULATION, tails });
    console.log(`${tails} power at 3 sd: ${pct(p.rate)} of ${p.triplets}`);
    figure(
      `compare: "differs" with no effect, ${r.triplets} ${tails} triplets, 5% level`,
      r.rate,
      0.07,
    );
  }
  for (const drift of ["random-walk", "level-shift"] as const) {
    const r = measureCalibration(0, 1000, 8_600_000, { ...DEFAULT_SIMULATION, drift });
    console.log(
      `${drift} null by test: mean ${pct(r.meanRate)}, correlation ${pct(r.correlationRate)}, ` +
        `distribution ${pct(r.shapeRate)}`,
    );
    figure(
      `compare: "differs" with no effect, ${r.triplets} ${drift} triplets, 5% level`,
      r.rate,
      0.07,
    );
  }
}
