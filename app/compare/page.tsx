import Link from "next/link";
import { compareRuns } from "@/lib/compare";
import { pageAnswer } from "@/lib/http";
import type { Comparison } from "@/lib/schema";
import { CaptureSection, EvaluationSection } from "@/components/compare/compare-sections";
import { TrainingSection } from "@/components/compare/training-section";
import { MismatchSection } from "@/components/compare/mismatch-section";
import { RunPicker } from "@/components/compare/run-picker";
import { ScalarPicker } from "@/components/compare/scalar-picker";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : null);
/** A /compare link with the parameters that have a value. */
const href = (p: Record<string, string | null>) =>
  `/compare?${new URLSearchParams(Object.entries(p).filter((e): e is [string, string] => !!e[1]))}`;

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
  const [a, b, baseline, scalar] = [one(q.a), one(q.b), one(q.baseline), one(q.scalar)];
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
            <Link href={href({ a, b, baseline })} data-testid="compare-without-scalar">
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
  const swap = href({ a: c.b.id, b: c.a.id, baseline, scalar, smooth: one(q.smooth) });
  return (
    <>
      <p className="crumbs">
        <Link href="/">runs</Link> / compare
      </p>
      <h1 data-testid="compare-title">
        <Link href={`/runs/${encodeURIComponent(c.a.id)}`}>{c.a.name}</Link>{" "}
        <span className="muted">vs</span>{" "}
        <Link href={`/runs/${encodeURIComponent(c.b.id)}`}>{c.b.name}</Link>
      </h1>
      <div className="toolbar">
        <RunPicker
          key={`${c.a.id}|${c.b.id}|${baseline ?? ""}`}
          runs={c.runs}
          a={c.a.id}
          b={c.b.id}
          baseline={baseline}
        />
        <Link href={swap} className="button" data-testid="swap">
          ⇄ swap sides
        </Link>
        <ScalarPicker
          key={`${c.a.id}|${c.b.id}|${c.scalar ?? ""}`}
          scalars={c.scalars}
          chosen={c.scalar}
          a={c.a.id}
          b={c.b.id}
          baseline={baseline}
        />
        {c.baseline && (
          <span className="muted" data-testid="baseline">
            floor from {c.baseline.run.id} vs {c.baseline.against.id} (
            {c.baseline.chosen === "asked" ? "chosen" : "marked as a seed repeat in run.json"})
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
