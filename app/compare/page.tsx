import Link from "next/link";
import { notFound } from "next/navigation";
import { compareRuns } from "@/lib/compare/load";
import { InvalidInputError, InvalidRunIdError, UnknownRunError } from "@/lib/errors";
import type { Comparison } from "@/lib/schema";
import { CaptureSection, EvaluationSection } from "@/components/compare/compare-sections";
import { TrainingSection } from "@/components/compare/training-section";
import { RunPicker } from "@/components/compare/run-picker";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (typeof v === "string" && v !== "" ? v : null);

async function load(
  a: string | null,
  b: string | null,
  baseline: string | null,
): Promise<Comparison | { error: string }> {
  try {
    return await compareRuns(a, b, baseline);
  } catch (err) {
    if (err instanceof UnknownRunError || err instanceof InvalidRunIdError) notFound();
    if (err instanceof InvalidInputError) return { error: err.message };
    throw err;
  }
}

export default async function ComparePage({ searchParams }: { searchParams: Promise<Search> }) {
  const q = await searchParams;
  const [a, b, baseline] = [one(q.a), one(q.b), one(q.baseline)];
  const c = await load(a, b, baseline);
  if ("error" in c) {
    return (
      <>
        <h1>Compare runs</h1>
        <div className="error-box" data-testid="compare-error">
          {c.error}
        </div>
        <p>
          <Link href="/">Pick two runs on the home page.</Link>
        </p>
      </>
    );
  }
  const swap = `/compare?a=${encodeURIComponent(c.b.id)}&b=${encodeURIComponent(c.a.id)}${baseline ? `&baseline=${encodeURIComponent(baseline)}` : ""}`;
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
      <EvaluationSection c={c} />
      <CaptureSection c={c} />
    </>
  );
}
