import Link from "next/link";
import { redirect } from "next/navigation";
import { compareRuns } from "@/lib/compare";
import { pageAnswer } from "@/lib/http";
import type { Comparison } from "@/lib/schema";
import { CaptureSection, EvaluationSection } from "@/components/compare/compare-sections";
import { TrainingSection } from "@/components/compare/training-section";
import { MismatchSection } from "@/components/compare/mismatch-section";
import { RunPicker } from "@/components/compare/run-picker";
import { ScalarPicker } from "@/components/compare/scalar-picker";
import { compareHref, sideParam } from "@/components/compare/compare-url";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : null);
/** A side: `a=r1,r2`, or the run picker's repeated `a=r1&a=r2` joined the same way. */
const side = (v: string | string[] | undefined) =>
  Array.isArray(v) ? v.filter((x) => x !== "").join(",") || null : one(v);
const count = (n: number) => (n > 1 ? ` (${n} seeds)` : "");

const CHOSEN: Record<NonNullable<Comparison["baseline"]>["chosen"], string> = {
  asked: "chosen",
  seed_repeat_of: "marked as a seed repeat in run.json",
  seed_group: "two seeds of one side",
};

async function load(
  a: string | null,
  b: string | null,
  baseline: string | null,
  scalar: string | null,
): Promise<Comparison | { error: string }> {
  return pageAnswer(compareRuns(a, b, baseline, scalar));
}

export default async function ComparePage({ searchParams }: { searchParams: Promise<Search> }) {
  const q = await searchParams;
  const [a, b, baseline, scalar] = [side(q.a), side(q.b), one(q.baseline), one(q.scalar)];
  // The picker's form repeats a= and b= for several runs; the address says a=r1,r2 instead.
  if (Array.isArray(q.a) || Array.isArray(q.b))
    redirect(compareHref({ a, b, baseline, scalar, smooth: one(q.smooth) }));
  const c = await load(a, b, baseline, scalar);
  if ("error" in c) {
    return (
      <>
        <h1>Compare runs</h1>
        <div className="error-box" data-testid="compare-error">
          {c.error}
        </div>
        <p>
          {a && b && scalar ? (
            <Link href={compareHref({ a, b, baseline })} data-testid="compare-without-scalar">
              Compare the runs on their default scalar.
            </Link>
          ) : (
            <Link href="/">Pick two runs on the home page.</Link>
          )}
        </p>
      </>
    );
  }
  // Swapping keeps the scalar and smoothing: the pair (and so what it shares) is the same.
  const [pa, pb] = [sideParam(c.sides.a), sideParam(c.sides.b)];
  const swap = compareHref({ a: pb, b: pa, baseline, scalar, smooth: one(q.smooth) });
  const title = (k: "a" | "b") => {
    const s = c.sides[k];
    const lead = c[k];
    return s.runs.length > 1 ? (
      <span data-testid={`compare-side-${k}`}>
        {s.label}
        <span className="muted">{count(s.runs.length)}</span>
      </span>
    ) : (
      <Link href={`/runs/${encodeURIComponent(lead.id)}`}>{lead.name}</Link>
    );
  };
  return (
    <>
      <p className="crumbs">
        <Link href="/">runs</Link> / compare
      </p>
      <h1 data-testid="compare-title">
        {title("a")} <span className="muted">vs</span> {title("b")}
      </h1>
      <div className="toolbar">
        <RunPicker
          key={`${pa}|${pb}|${baseline ?? ""}`}
          runs={c.runs}
          sides={c.sides}
          baseline={baseline}
        />
        <Link href={swap} className="button" data-testid="swap">
          ⇄ swap sides
        </Link>
        <ScalarPicker
          key={`${pa}|${pb}|${c.scalar ?? ""}`}
          scalars={c.scalars}
          chosen={c.scalar}
          a={pa}
          b={pb}
          baseline={baseline}
        />
        {c.baseline && (
          <span className="muted" data-testid="baseline">
            floor from {c.baseline.run.id} vs {c.baseline.against.id} ({CHOSEN[c.baseline.chosen]})
          </span>
        )}
      </div>
      {c.notes.length > 0 && (
        <ul className="muted" data-testid="compare-notes">
          {c.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <TrainingSection c={c} />
      <MismatchSection a={c.a.id} b={c.b.id} />
      <EvaluationSection c={c} />
      <CaptureSection c={c} />
    </>
  );
}
