// Seed groups in compare: how often the verdict says "differs" on simulated seed groups
// (lib/compare/simulate simulateGroups). Figures: with no effect, 1,000 simulations each of 2, 3
// and 5 seeds per side (and 1 run vs 3 seeds, the seed-pair fallback) on every drift family
// (stationary AR(1), random walk, level shift), target ≤ 0.07 at the stated 5% level; the mean
// test's own share beside each. Then power: the share
// called "differs" at true shifts of 0.5, 1, 2 and 3 seed sds (the sd of one run's mean across
// seeds) with 1, 2, 3 and 5 seeds per side (400 each; one seed per side is the seed-pair verdict
// on a triplet), printed as the markdown table docs/pages.md carries. Seeds differ from the unit
// test's. Alone: `node --conditions=react-server --import tsx bench/compare-seeds.bench.ts`.
import { DEFAULT_SIMULATION, measureSeedCalibration } from "@/lib/compare";
import { figure, runAlone } from "./util";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const SHIFTS = [0.5, 1, 2, 3];

export async function benchCompareSeeds(): Promise<void> {
  const t0 = performance.now();
  const drifts = ["ar1", "random-walk", "level-shift"] as const;
  console.log(`| no effect: seeds per side | ${drifts.join(" | ")} |`);
  console.log(`| --- | ${drifts.map(() => "---").join(" | ")} |`);
  for (const n of [2, 3, 5, [1, 3] as const]) {
    const name = typeof n === "number" ? String(n) : `${n[0]} vs ${n[1]}`;
    const cells: string[] = [];
    for (const drift of drifts) {
      const first = 9_000_000 + (typeof n === "number" ? n : 9) * 100_000;
      const r = measureSeedCalibration(n, 0, 1000, first, { ...DEFAULT_SIMULATION, drift });
      cells.push(`${pct(r.rate)} (mean test ${pct(r.meanRate)})`);
      figure(
        `compare seeds: "differs" with no effect, ${name} seeds, ${drift}, 1,000 simulations, 5% level`,
        r.rate,
        0.07,
      );
    }
    console.log(`| ${name} | ${cells.join(" | ")} |`);
  }
  console.log(`\n| seeds per side | ${SHIFTS.map((s) => `${s} sd`).join(" | ")} |`);
  console.log(`| --- | ${SHIFTS.map(() => "---").join(" | ")} |`);
  for (const n of [1, 2, 3, 5]) {
    const rates = SHIFTS.map(
      (shift) => measureSeedCalibration(n, shift, 400, 9_600_000 + n * 10_000 + shift * 1000).rate,
    );
    console.log(`| ${n} | ${rates.map(pct).join(" | ")} |`);
  }
  console.log(
    `(power: share called "differs" of 400 simulations per cell; ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
}

runAlone("compare-seeds.bench.ts", "compare seeds bench", benchCompareSeeds);
