// What a run page may claim while its summary index is still being built: whether the rollouts
// have been counted, how many of them are indexed, and so whether a count, a chart or "capture
// looks healthy" would be final. Pure: the index's progress and counts in, words and states out;
// polling and rendering are components/run's job.
import type { IndexProgress } from "@/lib/schema";
import { plural } from "@/lib/text";
import { MASKED_ALERT_THRESHOLD } from "./health";

export type IndexState =
  /** The index is listing the run's files: how many rollouts there are is not known yet. */
  | { kind: "counting" }
  /**
   * `indexed` of `total` rollouts summarised; every count over them is partial. `fromRecords` more
   * rows stand in from their records for store rollouts not read yet (records first), and
   * `replacing` more are the rows of rollouts being summarised again (a live run's new calls),
   * shown until replaced. While a first index reads rollouts.jsonl, `total` is the file's lines
   * (counted before the read) and `recordsRead` the fraction of them read, below 1 until the index
   * ends; otherwise null.
   */
  | {
      kind: "indexing";
      indexed: number;
      total: number;
      fromRecords: number;
      replacing: number;
      recordsRead: number | null;
    }
  /** Every rollout the run has is summarised: counts are final (until the run grows). */
  | { kind: "complete"; indexed: number };

/** How often a run page asks again: short polls while indexing, so the progress moves each second. */
export const POLL_INDEXING_MS = 500;
export const POLL_SETTLED_MS = 10_000;

/**
 * The index's state from its progress and the rollouts it serves (`indexed`: rows held now).
 * Rollouts still to summarise are progress.total − progress.done; the ones held already (from the
 * cache) are in `indexed`, and so are the rows standing in from records for store rollouts still to
 * summarise (progress.from_records) and the old rows of rollouts summarised again
 * (progress.replacing), each counted once, as still to do. Before its first listing finishes an index reports nothing running and
 * no rollouts, which a run with nothing to list (`hasSources` false: no token store, no records)
 * also does: only the first is "counting".
 */
export function indexState(
  progress: IndexProgress,
  indexed: number,
  hasSources: boolean,
): IndexState {
  // Running, with nothing counted or held yet: the listing has not told how many there are.
  if (progress.running && progress.total === 0 && indexed === 0 && hasSources)
    return { kind: "counting" };
  if (progress.running) {
    const pending = Math.max(0, progress.total - progress.done);
    const fromRecords = Math.min(indexed, Math.max(0, progress.from_records));
    const replacing = Math.min(indexed - fromRecords, Math.max(0, progress.replacing));
    const built = indexed - fromRecords - replacing;
    // A followed read counts lines (lib/index/records-follow): one count, only moving forward.
    if (progress.records_read !== null && progress.total > 0) {
      const recordsRead = Math.min(progress.done / progress.total, 1);
      return {
        kind: "indexing",
        indexed,
        total: progress.total,
        fromRecords: 0,
        replacing: 0,
        recordsRead,
      };
    }
    return {
      kind: "indexing",
      indexed: built,
      total: built + pending,
      fromRecords,
      replacing,
      recordsRead: null,
    };
  }
  const neverListed = progress.last_ms === null && progress.total === 0 && indexed === 0;
  if (neverListed && hasSources && progress.error === null) return { kind: "counting" };
  return { kind: "complete", indexed };
}

export const isSettled = (s: IndexState): boolean => s.kind === "complete";

export const pollDelayMs = (s: IndexState): number =>
  isSettled(s) ? POLL_SETTLED_MS : POLL_INDEXING_MS;

const n = (x: number) => x.toLocaleString("en-US");
/** A fraction read as a whole percentage, never 100% before the end (floor). */
const percent = (f: number) => `${Math.floor(f * 100)}%`;

/** The progress line: "indexing 270 of 10,000 rollouts", or that they are being counted. */
export function progressWords(s: IndexState): string {
  if (s.kind === "counting") return "indexing: counting the run's rollouts…";
  if (s.kind === "indexing" && s.recordsRead !== null)
    return `indexing ${plural(s.indexed, "rollout", "rollouts", n(s.indexed))} of rollouts.jsonl's ${plural(s.total, "line", "lines", n(s.total))}: ${percent(s.recordsRead)} read`;
  if (s.kind === "indexing") {
    const of = `indexing ${n(s.indexed)} of ${plural(s.total, "rollout", "rollouts", n(s.total))}`;
    if (s.fromRecords === 0) return of;
    return `${of}; ${n(s.fromRecords)} shown from their records until their token stores are read`;
  }
  return `indexed ${plural(s.indexed, "rollout", "rollouts", n(s.indexed))}`;
}

/**
 * The table's count: `matching` rows of the `indexed` rollouts, saying "so far" (and of how many)
 * until the index is complete, so it never reads as "270 of 270 rollouts" for a run of 10,000.
 */
export function tableCountWords(matching: number, s: IndexState): string {
  if (s.kind === "counting") return "counting rollouts…";
  if (s.kind === "indexing" && s.recordsRead !== null)
    return `${n(matching)} of ${n(s.indexed)} indexed so far (rollouts.jsonl ${percent(s.recordsRead)} read)`;
  if (s.kind === "indexing") {
    const held = s.indexed + s.fromRecords + s.replacing;
    const run = `(${plural(s.total, "rollout", "rollouts", n(s.total))} in the run)`;
    // Rows from records are shown, not indexed: the count says which is which.
    if (s.fromRecords > 0)
      return `${n(matching)} of ${n(held)} shown so far: ${n(s.indexed)} indexed, ${n(s.fromRecords)} from records ${run}`;
    return `${n(matching)} of ${n(held)} indexed so far ${run}`;
  }
  return `${n(matching)} of ${plural(s.indexed, "rollout", "rollouts", n(s.indexed))}`;
}

/** What the alerts section may say when the run has no alert (yet). */
export type NoAlertsClaim =
  /** Every rollout checked and none alerted: the alerts' all-clear. */
  | "healthy"
  /** Not every rollout is checked yet: no verdict on the run's health. */
  | "not_yet"
  /** Token capture is off: there is no capture to call healthy. */
  | "no_capture";

export function noAlertsClaim(s: IndexState, captureOff: boolean): NoAlertsClaim {
  if (captureOff) return "no_capture";
  return isSettled(s) ? "healthy" : "not_yet";
}

/**
 * What a settled run with no alert says: the all-clear (in green) only when no rollout is masked
 * or trained with warnings either; it speaks of the capture's checks, not of the training signal
 * (the ledger's). Rollouts masked under the alert's threshold are counted instead: 3% of a million
 * is 30,000 rollouts the trainer never sees, which "healthy" beside them would hide; so are those
 * trained with warnings (a torn tail, a lifecycle left open), each with its reason in the table.
 */
export function noAlertsWords(c: { masked: number; maskedFraction: number; warnings: number }): {
  text: string;
  ok: boolean;
} {
  const warned =
    c.warnings > 0
      ? `${plural(c.warnings, "rollout is", "rollouts are", n(c.warnings))} trained with warnings (their reasons are in the table)`
      : null;
  if (c.masked === 0 && warned === null)
    return {
      text: "No alerts: nothing masked, and no capture check went past its threshold.",
      ok: true,
    };
  if (c.masked === 0)
    return {
      text: `No alerts: nothing masked, but ${warned}; no capture check went past its threshold.`,
      ok: false,
    };
  const share = `${(c.maskedFraction * 100).toFixed(1)}%`;
  const rollouts = plural(c.masked, "rollout is", "rollouts are", n(c.masked));
  return {
    text: `No alerts: ${rollouts} masked (${share}), under the ${MASKED_ALERT_THRESHOLD * 100}% that raises one${warned ? `; ${warned}` : ""}; no other measure went past its threshold.`,
    ok: false,
  };
}
