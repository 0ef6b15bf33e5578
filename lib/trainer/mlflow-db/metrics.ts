// One run's metric history from an MLflow tracking database's `metrics` table into a PointSink:
// every row a point (step, timestamp in seconds, value), rows iterated one at a time so a table of
// millions never sits in memory. Not responsible for which run (./runs) nor for keeping one point
// per step: the sink keeps the latest wall time per step, the last added on a tie.
import type Database from "better-sqlite3";
import { pointOf, type PointSink } from "../scalar-series";

export interface MetricRowsRead {
  /** Metric rows read for the run. */
  rows: number;
  notes: string[];
}

// MLflow's SQL store cannot hold ±Infinity: it writes ±DBL_MAX instead (sqlalchemy_store.py,
// `_get_metric_value_details`), and NaN as value 0 with is_nan = 1. Both come back as the gaps
// the trainer logged.
const DBL_MAX = Number.MAX_VALUE;

function valueOf(value: number, isNan: number): number {
  if (isNan) return NaN;
  if (value === DBL_MAX) return Infinity;
  if (value === -DBL_MAX) return -Infinity;
  return value;
}

/**
 * Adds every metric row of run `runUuid` to `into` (tag = metric key, source = `rel`). Rows come
 * ordered by key, step, timestamp and value, so several values at one (key, step) resolve as
 * MLflow's latest_metrics does (the greatest step, then timestamp, then value): the sink keeps the
 * latest timestamp and, on a tie, the last added, which the order makes the greatest value.
 */
export function readMlflowDbMetrics(
  db: Database.Database,
  runUuid: string,
  rel: string,
  into: PointSink,
): MetricRowsRead {
  const out: MetricRowsRead = { rows: 0, notes: [] };
  const rows = db
    .prepare(
      `SELECT key, step, timestamp, value, is_nan FROM metrics WHERE run_uuid = ?
       ORDER BY key, step, timestamp, value, is_nan`,
    )
    .raw()
    .iterate(runUuid) as IterableIterator<[string, number, number, number | null, number]>;
  let unreadable = 0;
  for (const [key, step, timestamp, value, isNan] of rows) {
    // Columns are NOT NULL in MLflow's schema; a hand-made table may still hold anything.
    if (typeof value !== "number" || !Number.isSafeInteger(step) || typeof timestamp !== "number") {
      unreadable++;
      continue;
    }
    into.add(key, rel, pointOf(step, timestamp / 1000, valueOf(value, isNan)));
    out.rows++;
  }
  if (unreadable > 0)
    out.notes.push(
      `${rel}: ${unreadable} metric row${unreadable === 1 ? "" : "s"} without a number value, step or timestamp; skipped`,
    );
  if (out.rows === 0 && unreadable === 0)
    out.notes.push(`${rel}: run ${runUuid} logged no metrics`);
  return out;
}
