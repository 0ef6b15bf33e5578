"use client";
// What the compare charts share: theme colours and axes, thinning to about one point per pixel,
// each line smoothed with the URL's `smooth` weight (bands too), and the per-step hover card.
import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import type { TrainingComparison } from "@/lib/schema";
import { smoothEma } from "@/lib/trainer/pure";
import { smoothingOf } from "./scalar-picker";

// app/globals.css properties, so the charts follow the theme.
export const TITLE = { fill: "var(--muted)", fontSize: 12, textAnchor: "middle" } as const;
export const TIP = { background: "var(--panel)", border: "1px solid var(--border)" };
export const GRID = "var(--border)";
export const MARGIN = { top: 10, right: 16, left: 8, bottom: 8 };
export const A = "var(--run-a)",
  B = "var(--run-b)",
  DIFF = "var(--run-diff)";

/** At most ~`max` points (every k-th step) so long runs draw fast. */
function thin<T>(xs: T[], max = 800): T[] {
  const k = Math.max(1, Math.ceil(xs.length / max));
  return k === 1 ? xs : xs.filter((_, i) => i % k === 0);
}

type Range = [number, number] | null;

export interface Point {
  step: number;
  a: number;
  b: number;
  diff: number;
  a_smooth: number | null;
  b_smooth: number | null;
  diff_smooth: number | null;
  /** A side of several seeds: its mean ± one sd across them, smoothed like its line. */
  a_band: Range;
  b_band: Range;
}
type Smoothed = { w: number; points: Point[]; byStep: Map<number, Point> };

/** A band's low and high edges smoothed apart, as pairs per step (null without a band). */
function smoothBand(band: { low: number; high: number }[] | null | undefined, w: number): Range[] {
  if (!band) return [];
  const [lo, hi] = [
    smoothEma(
      band.map((x) => x.low),
      w,
    ),
    smoothEma(
      band.map((x) => x.high),
      w,
    ),
  ];
  return band.map((_, i) => {
    const [l, h] = [lo[i], hi[i]];
    return l == null || h == null ? null : [l, h];
  });
}

/** Each line smoothed over every step (before thinning, so thinning cannot shift the average). */
export function useSmoothed(t: TrainingComparison): Smoothed {
  const w = smoothingOf(useSearchParams());
  return useMemo(() => {
    const [sa, sb, sd] = (["a", "b", "diff"] as const).map((k) =>
      smoothEma(
        t.series.map((p) => p[k]),
        w,
      ),
    );
    const [ba, bb] = [smoothBand(t.band?.a, w), smoothBand(t.band?.b, w)];
    const all = t.series.map((p, i) => ({
      ...p,
      a_smooth: sa?.[i] ?? null,
      b_smooth: sb?.[i] ?? null,
      diff_smooth: sd?.[i] ?? null,
      a_band: ba[i] ?? null,
      b_band: bb[i] ?? null,
    }));
    return { w, points: thin(all), byStep: new Map(all.map((p) => [p.step, p])) };
  }, [t, w]);
}

const value = (x: number | null) => (x === null ? "–" : x.toFixed(4));
export type TipRow = {
  name: string;
  color: string;
  raw: "a" | "b" | "diff";
  smooth: "a_smooth" | "b_smooth" | "diff_smooth";
  band?: "a_band" | "b_band";
};

/** Hover card: each line's raw and smoothed value at the step, and its band when it has one. */
export function StepTip({ point, rows }: { point: Point | undefined; rows: TipRow[] }) {
  if (!point) return null;
  const banded = rows.some((r) => r.band && point[r.band]);
  return (
    <div style={{ ...TIP, padding: "6px 8px", fontSize: 12 }} data-testid="chart-tip">
      <div>step {point.step}</div>
      <table>
        <thead>
          <tr className="muted">
            <th />
            <th>raw</th>
            <th>smoothed</th>
            {banded && <th>± 1 sd across seeds</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const band = r.band ? point[r.band] : null;
            return (
              <tr key={r.name} style={{ color: r.color }}>
                <td>{r.name}</td>
                <td className="mono">{value(point[r.raw])}</td>
                <td className="mono">{value(point[r.smooth])}</td>
                {banded && (
                  <td className="mono">{band ? `${value(band[0])} – ${value(band[1])}` : "–"}</td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export const caption = (w: number) =>
  w > 0 ? `faint: per step; bold: smoothed (EMA ${w.toFixed(2)})` : "per step; smoothing off";
