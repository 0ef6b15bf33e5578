// Loads what a comparison needs for each run (metrics, summaries, health) and picks the
// repeatability baseline: the `baseline` asked for, else a run marked in run.json as a seed repeat
// of b (or of a, or the run b repeats, or one side when it repeats the other). Assembles the
// comparison that the route and page share.
// A run's unreadable metrics.jsonl or rollouts.jsonl empties its side and adds a note, never a 500.
import "server-only";
import { InvalidInputError } from "@/lib/errors";
import { snapshotWithHealth } from "@/lib/health/run-health";
import { getRun, listRuns, type RunLayout } from "@/lib/runs/runs-root";
import type { Comparison, RunRef } from "@/lib/schema";
import { captureSide, compareEvaluation, compareTraining, type RunInput } from "./compare-runs";

const ref = (r: RunLayout): RunRef => ({
  id: r.id,
  name: r.manifest.name ?? r.id,
  capture: r.manifest.capture ?? (r.tokensDir ? "on" : null),
});

/** What a side of the comparison is built from, and notes on the files of the run it could not read. */
async function load(run: RunLayout, notes: string[]): Promise<RunInput> {
  const { snap, health, metrics } = await snapshotWithHealth(run, 60_000);
  for (const error of [metrics.error, snap.records_error])
    if (error) notes.push(`Run ${run.id}: could not read ${error}.`);
  return {
    id: run.id,
    metrics: metrics.rows,
    summaries: snap.summaries,
    health,
    unreadableRecords: snap.unreadable_records.length,
  };
}

function pickBaseline(
  all: RunLayout[],
  a: RunLayout,
  b: RunLayout,
): { run: RunLayout; against: RunLayout } | null {
  const repeatOf = (target: RunLayout) =>
    all.find((r) => r.manifest.seed_repeat_of === target.id && r.id !== a.id && r.id !== b.id);
  const forB = repeatOf(b);
  if (forB) return { run: forB, against: b };
  const forA = repeatOf(a);
  if (forA) return { run: forA, against: a };
  const bRepeats = b.manifest.seed_repeat_of
    ? all.find((r) => r.id === b.manifest.seed_repeat_of && r.id !== a.id)
    : undefined;
  if (bRepeats) return { run: b, against: bRepeats };
  // The two sides are themselves a seed-repeat pair: their own agreement is the floor.
  if (b.manifest.seed_repeat_of === a.id && a.id !== b.id) return { run: b, against: a };
  if (a.manifest.seed_repeat_of === b.id && a.id !== b.id) return { run: a, against: b };
  return null;
}

export async function compareRuns(
  aId: string | null,
  bId: string | null,
  baselineId: string | null,
): Promise<Comparison> {
  if (!aId || !bId) throw new InvalidInputError("compare needs two runs: ?a=<run>&b=<run>");
  const [a, b, all] = await Promise.all([getRun(aId), getRun(bId), listRuns()]);
  let base: { run: RunLayout; against: RunLayout; chosen: "asked" | "seed_repeat_of" } | null =
    null;
  if (baselineId) {
    const run = await getRun(baselineId);
    const against =
      run.manifest.seed_repeat_of && run.manifest.seed_repeat_of !== run.id
        ? await getRun(run.manifest.seed_repeat_of).catch(() => b)
        : b;
    base = { run, against: against.id === run.id ? b : against, chosen: "asked" };
  } else {
    const picked = pickBaseline(all, a, b);
    if (picked) base = { ...picked, chosen: "seed_repeat_of" };
  }
  const notes: string[] = [];
  const [ia, ib] = await Promise.all([load(a, notes), load(b, notes)]);
  const [ibase, iagainst] = base
    ? await Promise.all([load(base.run, notes), load(base.against, notes)])
    : [null, null];
  if (a.id === b.id) notes.push("Both sides are the same run.");
  const training = compareTraining(ia, ib, ibase, iagainst);
  if (!training)
    notes.push(
      "No training comparison: the runs do not share at least 3 steps of metrics.jsonl with a reward.",
    );
  const evaluation = compareEvaluation(ia, ib);
  if (!evaluation)
    notes.push(
      "No evaluation comparison: the runs share no task index with a reward in their rollout records.",
    );
  return {
    a: ref(a),
    b: ref(b),
    baseline: base ? { run: ref(base.run), against: ref(base.against), chosen: base.chosen } : null,
    runs: all.map(ref),
    training,
    evaluation,
    capture: { a: captureSide(ia), b: captureSide(ib) },
    notes: [...new Set(notes)],
  };
}
