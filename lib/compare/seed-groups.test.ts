// The seed-group verdict. Expected values: Wikipedia's worked Welch examples as scipy computes them
// (scipy.stats.ttest_ind(equal_var=False)), simple-statistics' two-sample t, and
// lib/compare/reference.py seeds (numpy/scipy, an independent mulberry32 port) run live.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mean as ssMean, sampleVariance, tTestTwoSample } from "simple-statistics";
import { describe, expect, it } from "vitest";
import { calibratedVerdict, type StepSeries } from "./calibrated";
import { studentTwoSidedP } from "./dependent";
import { seedGroupVerdict, sideBand, sideMean, sidesVerdict, welch } from "./seed-groups";
import { simulateGroups, simulateTriplet } from "./simulate";

const side = (xs: number[]) => ({ mean: ssMean(xs), variance: sampleVariance(xs), n: xs.length });

describe("Welch's t (the seed groups' mean test)", () => {
  it("Wikipedia's worked examples: t, Welch–Satterthwaite df and p as scipy gives them", () => {
    // en.wikipedia.org/wiki/Welch's_t-test, examples 1 and 3: t −2.46, ν 25.0, p 0.021; t −2.22,
    // ν 24.5, p 0.036. Full precision from scipy 1.17.
    const a1 = [
      27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4,
    ];
    const a2 = [
      27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4,
    ];
    const w1 = welch(side(a1), side(a2));
    expect(w1.t).toBeCloseTo(-2.455356398286006, 12);
    expect(w1.df).toBeCloseTo(24.988529290231416, 10);
    expect(studentTwoSidedP(w1.t, w1.df)).toBeCloseTo(0.021378001462866992, 10);
    // Equal sizes: Welch's t is the pooled two-sample t (simple-statistics), only its df differs.
    expect(w1.t).toBeCloseTo(tTestTwoSample(a1, a2, 0)!, 12);
    const b1 = [19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0];
    const b2 = [
      28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7, 23.2, 17.5, 20.6, 18.0, 23.9,
      21.6, 24.3, 20.4, 23.9, 13.3,
    ];
    const w3 = welch(side(b1), side(b2));
    expect(w3.t).toBeCloseTo(-2.225512039969852, 12);
    expect(w3.df).toBeCloseTo(24.524634944257343, 10);
    expect(studentTwoSidedP(w3.t, w3.df)).toBeCloseTo(0.035484530830010394, 10);
    // Three seeds against two (scipy): few seeds, few degrees of freedom.
    const w = welch(side([0.552, 0.561, 0.547]), side([0.546, 0.549]));
    expect(w.t).toBeCloseTo(1.3372812598265014, 10);
    expect(w.df).toBeCloseTo(2.4830792352184745, 10);
    expect(studentTwoSidedP(w.t, w.df)).toBeCloseTo(0.29042929090566905, 8);
  });
});

interface SeedsReference {
  a: { means: number[]; se: number[]; sd: number; variance: number };
  b: { means: number[]; se: number[]; sd: number; variance: number };
  mean_test: { t: number; df: number; p: number; se: number; low: number; high: number };
  scipy_welch: { t: number; p: number; df: number };
}

function runReference(groups: Array<{ a: number[][]; b: number[][] }>): SeedsReference[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-seeds-"));
  const input = path.join(dir, "groups.json");
  writeFileSync(input, JSON.stringify(groups));
  const out = execFileSync("python3", ["lib/compare/reference.py", "seeds", input], {
    encoding: "utf8",
  });
  return JSON.parse(out) as SeedsReference[];
}

const values = (s: StepSeries) => [...s.byStep.values()];

describe("the seed-group verdict", () => {
  it("matches reference.py seeds (numpy/scipy) on simulated groups of 2, 3 and 5 seeds", () => {
    const cases = [
      [2, 2, 0],
      [3, 3, 1],
      [5, 5, 0],
      [3, 2, 2],
      [2, 5, 4],
      [5, 3, 0],
    ] as const;
    const groups = cases.map(([na, nb, shift], i) => simulateGroups(600 + i, na, nb, shift));
    const reference = runReference(groups.map((g) => ({ a: g.a.map(values), b: g.b.map(values) })));
    let unfloored = 0;
    groups.forEach((g, i) => {
      const ref = reference[i]!;
      const v = seedGroupVerdict(g.a, g.b);
      expect(v.yardstick).toBe("seeds");
      const s = v.seeds!;
      for (const k of ["a", "b"] as const) {
        s[k].runs.forEach((r, j) => {
          expect(r.mean, `group ${i} ${k}${j} mean`).toBeCloseTo(ref[k].means[j]!, 12);
          expect(r.se, `group ${i} ${k}${j} se`).toBeCloseTo(ref[k].se[j]!, 12);
        });
        expect(s[k].sd).toBeCloseTo(ref[k].sd, 12);
        expect(s[k].variance).toBeCloseTo(ref[k].variance, 14);
      }
      for (const k of ["t", "df", "p", "se", "low", "high"] as const)
        expect(v.mean_test![k], `group ${i} ${k}`).toBeCloseTo(ref.mean_test[k], 8);
      // With no floor in play the test is scipy's own Welch on the run means.
      if (!s.a.floored && !s.b.floored) {
        unfloored++;
        expect(v.mean_test!.t).toBeCloseTo(ref.scipy_welch.t, 10);
        expect(v.mean_test!.df).toBeCloseTo(ref.scipy_welch.df, 10);
        expect(v.mean_test!.p).toBeCloseTo(ref.scipy_welch.p, 8);
      }
    });
    expect(unfloored).toBeGreaterThan(2);
  }, 60_000);

  it("one run per side is exactly the seed-pair verdict", () => {
    for (const [seed, shift] of [
      [9, 0],
      [10, 1],
      [11, 3],
    ] as const) {
      const t = simulateTriplet(seed, shift);
      expect(sidesVerdict([t.a], [t.b], { run: t.seed, against: t.b })).toEqual(
        calibratedVerdict(t.a, t.b, t.seed, t.b),
      );
    }
  });

  it("a large shift differs on the mean; the words' yardstick is the seeds", () => {
    const g = simulateGroups(42, 3, 3, 8);
    const v = seedGroupVerdict(g.a, g.b);
    expect(v.decision).toBe("differs");
    expect(v.reason).toMatch(/^fired: the mean difference/);
    expect(v.seed_pair).toMatchObject({ run: "sim-b2", against: "sim-b1" });
  });

  it("declines when a run is on both sides, when too few steps are shared, or with no spread", () => {
    const g = simulateGroups(43, 2, 2, 0);
    expect(seedGroupVerdict(g.a, [g.a[0]!, g.b[0]!]).reason).toMatch(/^sim-a1 is on both sides/);
    // With one run on a side too (the seed-pair fallback would otherwise pair a run with itself).
    expect(sidesVerdict([g.a[0]!], g.a, { run: g.a[1]!, against: g.a[0]! })).toMatchObject({
      decision: "not_enough_evidence",
      reason: "sim-a1 is on both sides, so the sides are not separate seeds",
    });
    const cut = (s: StepSeries): StepSeries => ({
      id: s.id,
      byStep: new Map([...s.byStep].filter(([t]) => t < 10)),
    });
    expect(seedGroupVerdict(g.a.map(cut), g.b.map(cut)).reason).toMatch(
      /^only 10 steps shared by all 4 runs \(at least 20 needed\)/,
    );
    const flat = (id: string): StepSeries => ({
      id,
      byStep: new Map(Array.from({ length: 30 }, (_, t) => [t, 0.5])),
    });
    const v = seedGroupVerdict([flat("p"), flat("q")], [flat("r"), flat("s")]);
    expect(v.decision).toBe("not_enough_evidence");
    expect(v.mean_test).toBeNull();
  });

  it("side means and bands per step: mean ± one sample sd across the seeds", () => {
    const run = (id: string, xs: number[]): StepSeries => ({
      id,
      byStep: new Map(xs.map((x, t) => [t, x])),
    });
    const runs = [run("x", [1, 2, 3]), run("y", [3, 2]), run("z", [2, 5, 9])];
    expect([...sideMean(runs, "m").byStep]).toEqual([
      [0, 2],
      [1, 3],
    ]);
    // Step 0: 1, 3, 2 (sd 1); step 1: 2, 2, 5 (sd √3).
    const band = sideBand(runs, [0, 1]);
    expect(band[0]).toEqual({ low: 1, high: 3 });
    expect(band[1]!.low).toBeCloseTo(3 - Math.sqrt(3), 12);
    expect(band[1]!.high).toBeCloseTo(3 + Math.sqrt(3), 12);
  });
});
