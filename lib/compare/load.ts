// Loads what a comparison needs for each side (./sides: one run, a list, or a seed group): the
// leads' metrics, summaries and health, every run's scalar series, and picks the repeatability
// baseline: the `baseline` asked for, else a run marked in run.json as a seed repeat of b (or of a,
// or the run b repeats, or one side when it repeats the other), else two seeds of a side. The
// training comparison runs on one scalar every run logs (`train/reward` by default). A run's
// unreadable metrics.jsonl or rollouts.jsonl empties its side and adds a note, never a 500.
import "server-only";
import { InvalidInputError } from "@/lib/errors";
import { snapshotWithHealth } from "@/lib/health";
import {
  chooseScalar,
  readRunScalars,
  scalarAsMetricsRows,
  seriesFacts,
  sharedScalars,
  type RunScalars,
} from "@/lib/trainer";
import { getRun, listRuns, runsRoot, type RunLayout } from "@/lib/runs";
import { shared } from "@/lib/cache";
import { indexFor, recordAgents } from "@/lib/index";
import type { Comparison, RunRef } from "@/lib/schema";
import type { StepSeries } from "./calibrated";
import {
  captureSide,
  compareEvaluation,
  unpairedTasks,
  compareTraining,
  stepSeries,
  type RunInput,
} from "./comparison";
import { resolveSide, sideRef, type Side } from "./sides";

const ref = (r: RunLayout): RunRef => ({
  id: r.id,
  name: r.manifest.name ?? r.id,
  capture: r.manifest.capture ?? (r.tokensDir ? "on" : null),
  seed_group: r.manifest.seed_group ?? null,
});

/**
 * What a side of the comparison is built from, with `chosen` (a tag of `scalars`) standing in for
 * metrics.jsonl's reward, and notes on the files of the run it could not read.
 */
async function load(
  run: RunLayout,
  scalars: RunScalars,
  chosen: string | null,
  notes: string[],
): Promise<RunInput> {
  const [{ snap, health, metrics }, agents] = await Promise.all([
    snapshotWithHealth(run, 60_000),
    recordAgents(run),
  ]);
  for (const error of [metrics.error, snap.records_error])
    if (error) notes.push(`Run ${run.id}: could not read ${error}.`);
  return {
    id: run.id,
    metrics: chosen ? scalarAsMetricsRows(scalars, chosen, metrics.rows) : metrics.rows,
    // Comparisons are over runs of thousands of rollouts: their summaries as stored.
    summaries: indexFor(run).all(),
    health,
    unreadableRecords: snap.unreadable_count,
    agents,
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

type Baseline = {
  run: RunLayout;
  against: RunLayout;
  chosen: "asked" | "seed_repeat_of" | "seed_group";
};

/** The baseline pair: the run asked for (against the run it repeats, else b), else pickBaseline's. */
async function findBaseline(
  baselineId: string | null,
  all: RunLayout[],
  a: RunLayout,
  b: RunLayout,
): Promise<Baseline | null> {
  if (!baselineId) {
    const picked = pickBaseline(all, a, b);
    return picked ? { ...picked, chosen: "seed_repeat_of" } : null;
  }
  const run = await getRun(baselineId);
  const against =
    run.manifest.seed_repeat_of && run.manifest.seed_repeat_of !== run.id
      ? await getRun(run.manifest.seed_repeat_of).catch(() => b)
      : b;
  return { run, against: against.id === run.id ? b : against, chosen: "asked" };
}

/** The scalar asked for, which must be one both runs log; a list of the allowed tags otherwise. */
function checkScalar(asked: string | null, both: readonly string[]): void {
  if (asked === null || asked === "" || both.includes(asked)) return;
  const allowed = both.length ? both.map((t) => JSON.stringify(t)).join(", ") : "none";
  throw new InvalidInputError(
    `scalar ${JSON.stringify(asked.slice(0, 120))} is not logged by both runs; they share: ${allowed}`,
  );
}

const logsScalar = (s: RunScalars, tag: string) =>
  s.series.some((x) => x.tag === tag && seriesFacts(x).hasValue);

/** The baseline pair's sides on the chosen scalar, with a note for a side that does not log it. */
async function loadBaseline(
  base: Baseline | null,
  chosen: string | null,
  notes: string[],
): Promise<[RunInput, RunInput] | [null, null]> {
  if (!base) return [null, null];
  const [sr, sa] = await Promise.all([readRunScalars(base.run), readRunScalars(base.against)]);
  if (chosen)
    for (const s of [sr, sa])
      if (!logsScalar(s, chosen))
        notes.push(`No floor: the baseline run ${s.run} does not log ${chosen}.`);
  return Promise.all([load(base.run, sr, chosen, notes), load(base.against, sa, chosen, notes)]);
}

/** How long a comparison is reused by the next callers asking the same (each shares one in work). */
export const COMPARE_REUSE_MS = 1_000;

/**
 * The comparison of runs a and b: the page and the route asking the same at the same moment share
 * one, and its answer serves the next second's callers too (a comparison reads both runs whole).
 */
export function compareRuns(
  aId: string | null,
  bId: string | null,
  baselineId: string | null,
  scalar: string | null = null,
): Promise<Comparison> {
  const key = JSON.stringify(["compare", runsRoot(), aId, bId, baselineId, scalar]);
  return shared(key, COMPARE_REUSE_MS, () => compareNow(aId, bId, baselineId, scalar));
}

/** Every tag all the runs log with a value, sorted. */
function sharedByAll(scalars: readonly RunScalars[]): string[] {
  const [first, ...rest] = scalars as [RunScalars, ...RunScalars[]];
  return rest.reduce(
    (tags, s) => tags.filter((t) => sharedScalars(first, s).includes(t)),
    sharedScalars(first, first),
  );
}

/** A run's chosen scalar by step, from its scalars alone (a side's runs after its lead). */
function seriesOf(s: RunScalars, chosen: string): StepSeries {
  const rows = scalarAsMetricsRows(s, chosen).filter((r) => r.reward !== null);
  return { id: s.run, byStep: new Map(rows.map((r) => [r.step, r.reward as number])) };
}

/**
 * The seed pair when a side is several seeds: two of b's (else a's) when both sides are, or when
 * run.json marks no seed repeat and no baseline is asked; otherwise findBaseline's.
 */
async function seedBaseline(
  baselineId: string | null,
  all: RunLayout[],
  sa: Side,
  sb: Side,
  notes: string[],
): Promise<Baseline | null> {
  const [a, b] = [sa.runs[0] as RunLayout, sb.runs[0] as RunLayout];
  const grouped = sa.runs.length > 1 || sb.runs.length > 1;
  const [x, y] = sb.runs.length > 1 ? sb.runs : sa.runs;
  const own = grouped && x && y ? { run: y, against: x, chosen: "seed_group" as const } : null;
  if (sa.runs.length > 1 && sb.runs.length > 1) {
    if (baselineId)
      notes.push(`Baseline ${baselineId} not used: each side's own seeds are the yardstick.`);
    return own;
  }
  const members = new Set([...sa.runs, ...sb.runs].map((r) => r.id));
  const others = all.filter((r) => !members.has(r.id) || r.id === a.id || r.id === b.id);
  return (await findBaseline(baselineId, others, a, b)) ?? own;
}

async function compareNow(
  aId: string | null,
  bId: string | null,
  baselineId: string | null,
  scalar: string | null,
): Promise<Comparison> {
  if (!aId || !bId) throw new InvalidInputError("compare needs two runs: ?a=<run>&b=<run>");
  const all = await listRuns();
  const [sa, sb] = await Promise.all([resolveSide(aId, all), resolveSide(bId, all)]);
  const [a, b] = [sa.runs[0] as RunLayout, sb.runs[0] as RunLayout];
  const notes: string[] = [];
  const [base, scalarsA, scalarsB] = await Promise.all([
    seedBaseline(baselineId, all, sa, sb, notes),
    Promise.all(sa.runs.map(readRunScalars)),
    Promise.all(sb.runs.map(readRunScalars)),
  ]);
  const both = sharedByAll([...scalarsA, ...scalarsB]);
  checkScalar(scalar, both);
  const chosen = chooseScalar(both, scalar || null);
  const [la, lb] = [scalarsA[0] as RunScalars, scalarsB[0] as RunScalars];
  const [ia, ib] = await Promise.all([load(a, la, chosen, notes), load(b, lb, chosen, notes)]);
  const [ibase, iagainst] = await loadBaseline(base, chosen, notes);
  if (a.id === b.id) notes.push("Both sides are the same run.");
  const grouped = sa.runs.length > 1 || sb.runs.length > 1;
  const side = (x: Side, lead: RunInput, scalars: RunScalars[]) => ({
    label: sideRef(x, ref).label,
    seed_group: x.seed_group,
    runs: [stepSeries(lead), ...scalars.slice(1).map((s) => seriesOf(s, chosen as string))],
  });
  const seeds =
    grouped && chosen ? { a: side(sa, ia, scalarsA), b: side(sb, ib, scalarsB) } : undefined;
  // metrics.jsonl's own reward when no trainer scalar is chosen (lib/compare/comparison).
  const training = compareTraining(ia, ib, ibase, iagainst, seeds, chosen ?? "reward");
  if (!training)
    notes.push(
      chosen
        ? `No training comparison: the runs do not share at least 3 steps with a value of ${chosen}.`
        : "No training comparison: the runs do not share at least 3 steps of any scalar (trainer logs or metrics.jsonl).",
    );
  if (grouped)
    notes.push(
      `Evaluation and capture health compare each side's first run (${a.id} vs ${b.id}); the training verdict uses every seed.`,
    );
  const evaluation = compareEvaluation(ia, ib);
  if (!evaluation)
    notes.push(
      unpairedTasks(ia, ib) ??
        "No evaluation comparison: the runs share no task index with a reward in their rollout records.",
    );
  return {
    a: ref(a),
    b: ref(b),
    sides: { a: sideRef(sa, ref), b: sideRef(sb, ref) },
    baseline: base ? { run: ref(base.run), against: ref(base.against), chosen: base.chosen } : null,
    runs: all.map(ref),
    scalars: both,
    scalar: chosen,
    training,
    evaluation,
    capture: { a: captureSide(ia), b: captureSide(ib) },
    notes: [...new Set(notes)],
  };
}
