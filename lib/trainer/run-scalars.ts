// Every scalar series of a run: the trainer's own logs (in its log directory, found by ./log-place
// and read by ./read-logs) and the columns of metrics.jsonl. Also the
// helpers a comparison needs to pick and feed one scalar, and the run's training curve (the run
// page's and home page's reward per step). Read-only; never throws for a bad file.
import "server-only";
import path from "node:path";
import { nextTurn } from "@/lib/store";
import { trainerLogsDir } from "./log-place";
import { readTrainerLogs } from "./read-logs";
import { nonFiniteLiteral, seriesFacts } from "./packed-series";
import type { ScalarSeries } from "./scalar-series";
import { readMetrics, type MetricsRow, type RunMetrics, getRun, type RunLayout } from "@/lib/runs";

export type { ScalarPoint, ScalarSeries } from "./scalar-series";

export interface RunScalars {
  run: string;
  /** Series sorted by tag: the trainer's logs' tags, then metrics.jsonl's keys they do not repeat. */
  series: ScalarSeries[];
  /** The trainer log directory read, relative to the run directory; null when there is none. */
  trainer_logs: string | null;
  /** Skipped records, torn tails, unreadable files and refused paths, each naming its file. */
  notes: string[];
}

/** metrics.jsonl's numeric columns as series (its rows carry no wall time: 0). */
function metricsSeries(rows: readonly MetricsRow[], file: string): ScalarSeries[] {
  const byKey = new Map<string, ScalarSeries>();
  for (const row of rows)
    for (const [key, value] of Object.entries(row.scalars)) {
      let s = byKey.get(key);
      if (!s) byKey.set(key, (s = { tag: key, sources: [file], points: [] }));
      s.points.push({ step: row.step, wall_time: 0, value });
    }
  return [...byKey.values()];
}

/** Most series a run's scalars keep: a trainer logging thousands of tags is read in part, said so. */
export const MAX_TAGS = 256;

/** Tags always kept under the cap: the reward, the train/inference mismatch and capture's counters. */
const kept = (tag: string) =>
  (DEFAULT_SCALARS as readonly string[]).includes(tag) ||
  tag === "train/token_mult_prob_error" ||
  tag === "train/gen_kl_error" ||
  tag.startsWith("token_capture/");

/** At most MAX_TAGS of the sorted series, the kept tags first; a note says how many were left. */
function capped(series: ScalarSeries[], notes: string[]): ScalarSeries[] {
  if (series.length <= MAX_TAGS) return series;
  let room = MAX_TAGS - series.filter((s) => kept(s.tag)).length;
  const chosen = series.filter((s) => kept(s.tag) || room-- > 0);
  notes.push(
    `${series.length - chosen.length} of ${series.length} scalar tags not shown (at most ${MAX_TAGS} a run; the reward, mismatch and token_capture/* tags always are)`,
  );
  return chosen;
}

/** Every scalar series of `run` (at most MAX_TAGS of them). */
export async function readRunScalars(run: RunLayout): Promise<RunScalars> {
  const notes: string[] = [];
  const where = await trainerLogsDir(run);
  if (where.error) notes.push(where.error);
  const logs = where.dir ? await readTrainerLogs(where.dir, where) : null;
  if (logs) notes.push(...logs.notes);
  const metrics = await readMetrics(run.metricsFile);
  if (metrics.error) notes.push(metrics.error);
  const fromLogs = logs?.series ?? [];
  const logged = new Set(fromLogs.map((s) => s.tag));
  const series = [
    ...fromLogs,
    ...metricsSeries(metrics.rows, metrics.file).filter((s) => !logged.has(s.tag)),
  ].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  return {
    run: run.id,
    series: capped(series, notes),
    trainer_logs: where.dir ? path.relative(run.dir, where.dir) || "." : null,
    notes,
  };
}

/** Every scalar series of the run `id` (UnknownRunError / InvalidRunIdError as getRun throws). */
export async function runScalars(id: string): Promise<RunScalars> {
  return readRunScalars(await getRun(id));
}

/** The reward tags a comparison prefers, in order: the trainer's, then metrics.jsonl's. */
export const DEFAULT_SCALARS = ["train/reward", "reward"] as const;

/** Tags both runs have with at least one finite value, sorted. */
export function sharedScalars(a: RunScalars, b: RunScalars): string[] {
  const has = (r: RunScalars) =>
    new Set(r.series.filter((s) => seriesFacts(s).hasValue).map((s) => s.tag));
  const inB = has(b);
  return [...has(a)].filter((t) => inB.has(t)).sort();
}

/** `asked` when both runs have it, else the first default both have, else the first shared tag. */
export function chooseScalar(shared: readonly string[], asked: string | null): string | null {
  if (asked !== null && shared.includes(asked)) return asked;
  return DEFAULT_SCALARS.find((t) => shared.includes(t)) ?? shared[0] ?? null;
}

/**
 * metrics.jsonl's rows with `reward` replaced by the series `tag` (null where it has no value):
 * what lib/compare's training comparison reads, so any scalar can be fed where reward is read today.
 * Each row keeps its other scalars (the capture side sums `token_capture/*` from them); a step only
 * the series has becomes a row of its own.
 */
export function scalarAsMetricsRows(
  scalars: RunScalars,
  tag: string,
  base: readonly MetricsRow[] = [],
): MetricsRow[] {
  const points = scalars.series.find((x) => x.tag === tag)?.points ?? [];
  const byStep = new Map(points.map((p) => [p.step, p.value]));
  const rows = base.map((r) => ({ ...r, reward: byStep.get(r.step) ?? null }));
  const inBase = new Set(base.map((r) => r.step));
  for (const p of points)
    if (!inBase.has(p.step)) rows.push({ step: p.step, reward: p.value, scalars: {} });
  // Every other finite scalar the trainer logged at a step rides along (the capture's own
  // `token_capture/*` counters among them), as metrics.jsonl's other columns do.
  const others = new Map<number, Record<string, number>>();
  for (const s of scalars.series)
    if (s.tag !== tag)
      for (const p of s.points)
        if (p.value !== null && Number.isFinite(p.value))
          (others.get(p.step) ?? others.set(p.step, {}).get(p.step)!)[s.tag] = p.value;
  for (const r of rows) {
    const extra = others.get(r.step);
    if (extra) r.scalars = { ...extra, ...r.scalars };
  }
  return rows.sort((a, b) => a.step - b.step);
}

/**
 * A trainer log series as metrics rows: `reward` per step, non-finite values kept as gaps. The rows
 * are made when first read (a comparison reads them; the list and the run page, which read only
 * the gaps and notes, never turn 200,000 points into rows on the server's thread).
 */
function curveOf(series: ScalarSeries, file: string, notes: string[], notesSource: string) {
  const gaps: RunMetrics["gaps"] = [];
  const { gapSteps, gapCodes } = seriesFacts(series);
  for (let i = 0; i < gapSteps.length; i++)
    gaps.push({
      line: 0,
      at: `step ${gapSteps[i]}`,
      key: series.tag,
      value: nonFiniteLiteral(gapCodes[i]!),
    });
  let rows: MetricsRow[] | undefined;
  const metrics: RunMetrics = {
    unreadable: 0,
    problems: [],
    gaps,
    error: null,
    file,
    notes,
    notesSource,
    get rows() {
      return (rows ??= series.points.map((p) =>
        p.non_finite
          ? { step: p.step, reward: p.value, scalars: NO_SCALARS, nonFinite: ["reward"] }
          : { step: p.step, reward: p.value, scalars: NO_SCALARS },
      ));
    },
  };
  return metrics;
}

const NO_SCALARS: Record<string, number> = Object.freeze({});

/** The reward series pages and compare read first: the first of DEFAULT_SCALARS with a value. */
export function rewardSeries(series: readonly ScalarSeries[]): ScalarSeries | undefined {
  const usable = (tag: string) => series.find((x) => x.tag === tag && seriesFacts(x).hasValue);
  return DEFAULT_SCALARS.map(usable).find((x) => x !== undefined);
}

/** The run's training curve as read: its reward series (null without one) and the file's facts. */
export interface TrainingCurveRead {
  series: ScalarSeries | null;
  /** What reading it found: rows, unreadable lines, gaps, notes, an error (lib/health alerts). */
  metrics: RunMetrics;
}

/**
 * The run's training curve, reward per step, as a comparison picks it: the trainer logs' reward
 * (`train/reward`, else `reward`, with a finite value) when they have one, else metrics.jsonl's
 * `reward`. `metrics.file` names the source ("train/reward in logs/tensorboard").
 */
export async function readTrainingCurve(run: RunLayout): Promise<TrainingCurveRead> {
  const where = await trainerLogsDir(run);
  const logs = where.dir ? await readTrainerLogs(where.dir, where) : null;
  const found = logs ? rewardSeries(logs.series) : undefined;
  // The log directory's notes name it as their source, not metrics.jsonl.
  const logDir = where.dir ? path.relative(run.dir, where.dir) || "." : null;
  if (!found || !where.dir) {
    const read = await readMetrics(run.metricsFile);
    const notes = logs?.notes ?? [];
    const metrics: RunMetrics =
      run.metricsFile !== null || where.error === null
        ? { ...read, notes, ...(logDir && notes.length > 0 ? { notesSource: logDir } : {}) }
        : { ...read, error: where.error };
    return { series: rewardOf(read), metrics };
  }
  // Name the directories the series came from (its sources are paths inside the log directory).
  const dir = logDir ?? ".";
  const from = new Set(
    found.sources.map((f) => path.join(/*turbopackIgnore: true*/ dir, path.dirname(f))),
  );
  const file = `${found.tag} in ${[...from].join(", ")}`;
  // Derived once per merged logs (cached by their files' versions): a warm page converts no points.
  const memo = curves.get(found);
  if (memo?.file === file && memo.notesSource === dir && memo.notes === logs?.notes)
    return memo.read;
  await nextTurn(); // the merge above and the gaps below are each a stretch of the loop's time
  const metrics = curveOf(found, file, logs?.notes ?? [], dir);
  const read = { series: found, metrics };
  curves.set(found, { file, notesSource: dir, notes: logs?.notes, read });
  return read;
}

const curves = new WeakMap<
  ScalarSeries,
  { file: string; notesSource: string; notes: string[] | undefined; read: TrainingCurveRead }
>();

/** metrics.jsonl's reward series, once per read of the file (its reads are cached by version). */
function rewardOf(read: RunMetrics): ScalarSeries | null {
  let series = rewards.get(read);
  if (series === undefined)
    rewards.set(read, (series = rewardSeries([metricsReward(read)]) ?? null));
  return series;
}

const rewards = new WeakMap<RunMetrics, ScalarSeries | null>();

/** metrics.jsonl's `reward` column as a series (a NaN or ±Infinity reward is null: a gap). */
function metricsReward(m: RunMetrics): ScalarSeries {
  return {
    tag: "reward",
    sources: [path.basename(m.file)],
    points: m.rows.map((r) => ({ step: r.step, wall_time: 0, value: r.reward })),
  };
}
