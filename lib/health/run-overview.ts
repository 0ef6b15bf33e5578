// One run's line on the home page and in GET /api/runs (worst first): manifest facts plus rollout,
// masked and alert counts from the run's health (no token arrays), and the steps of its training curve (the
// trainer's logs or metrics.jsonl, as compare reads it). A run still indexing is listed with what
// is done and its progress after a short wait, so the list answers within a second on a cold machine.
// A run whose files cannot be read is listed with the error; it never fails the list of runs.
import "server-only";
import type { RunOverview } from "@/lib/schema";
import { shared } from "@/lib/cache";
import {
  decideRunProfile,
  listRuns,
  runsRoot,
  type ProfileDecision,
  type RunLayout,
} from "@/lib/runs";
import { fileProblems } from "./alerts";
import { snapshotWithHealth } from "./run-health";
import { byTriage, worstAlert } from "./run-triage";

/**
 * How long the list waits for a run's index (every run at once): long enough for a small run's
 * index to finish, short enough that the list of runs answers well within a second.
 */
export const LIST_WAIT_MS = 500;
/**
 * How old a run's index may be when the list of runs shows it: a listing looks at every run, so
 * it brings each up to date at most every 10 s (a store listing and a database open per run); the
 * run's own pages refresh it every 2 s, and a run being indexed shows its progress as it goes.
 */
export const LIST_REFRESH_MS = 10_000;

const joined = (...parts: Array<string | null>): string | null =>
  parts.filter((p): p is string => p !== null).join("; ") || null;

/** Every run's line, worst first (./run-triage): the home page's and GET /api/runs' order. */
/** How long a list of runs is reused by the next callers (each shares one being made). */
export const LIST_REUSE_MS = 1_000;

/**
 * The runs of `root`, described, worst first: what the home page and GET /api/runs show. Callers
 * at the same moment share one listing, and its answer serves the next second's callers too.
 */
export function describeRoot(root = runsRoot()): Promise<RunOverview[]> {
  return shared(`runs-overview\n${root}`, LIST_REUSE_MS, async () =>
    describeRuns(await listRuns(root)),
  );
}

export async function describeRuns(runs: readonly RunLayout[]): Promise<RunOverview[]> {
  return (await Promise.all(runs.map(describeRun))).sort(byTriage);
}

/** The run's line; what went wrong reading it is in `manifest_error`, never a rejection. */
export async function describeRun(run: RunLayout): Promise<RunOverview> {
  try {
    return await overviewOf(run);
  } catch (err) {
    const decision = await decideRunProfile(run).catch((e: Error): ProfileDecision => ({
      profile: "seed",
      reason: `profile unknown: ${e.message}`,
    }));
    return unreadableOverview(run, decision, `could not read the run: ${(err as Error).message}`);
  }
}

async function overviewOf(run: RunLayout): Promise<RunOverview> {
  const [{ snap, health, metrics, curve }, decision] = await Promise.all([
    snapshotWithHealth(run, LIST_WAIT_MS, false, LIST_REFRESH_MS),
    decideRunProfile(run),
  ]);
  const worst = worstAlert(health.alerts);
  // One mean reward per run, from one named source: the curve where there is one, else the records.
  const reward =
    curve && curve.mean !== null
      ? { mean: curve.mean, source: "training curve" as const }
      : health.reward_mean !== null
        ? { mean: health.reward_mean, source: "records" as const }
        : { mean: null, source: null };
  return {
    id: run.id,
    name: run.manifest.name ?? run.id,
    description: run.manifest.description ?? "",
    capture: run.manifest.capture ?? (run.tokensDir ? "on" : null),
    builder_profile: decision.profile,
    profile_reason: decision.reason,
    manifest_error: joined(run.manifestError, fileProblems(snap, metrics)),
    store_rollouts: health.from_store,
    has_rollout_records: run.rolloutsFile !== null,
    has_store: run.tokensDir !== null || run.modelCallsDir !== null,
    has_metrics: run.metricsFile !== null,
    rollouts: health.rollouts,
    masked: health.masked,
    masked_fraction: health.masked_fraction,
    severity: health.severity,
    reward_mean: health.reward_mean,
    reward,
    alerts: health.alerts.length,
    worst_alert: worst && {
      kind: worst.kind,
      severity: worst.severity,
      verdict: worst.verdict,
      count: worst.count,
      message: worst.message,
      ...(worst.table_query ? { table_query: worst.table_query } : {}),
    },
    indexing: snap.progress,
    steps: curve?.steps ?? 0,
  };
}

function unreadableOverview(run: RunLayout, decision: ProfileDecision, error: string): RunOverview {
  const none = { trained: 0, trained_with_warnings: 0, masked: 0, pending: 0 };
  return {
    id: run.id,
    name: run.manifest.name ?? run.id,
    description: run.manifest.description ?? "",
    capture: run.manifest.capture ?? (run.tokensDir ? "on" : null),
    builder_profile: decision.profile,
    profile_reason: decision.reason,
    manifest_error: joined(run.manifestError, error),
    store_rollouts: 0,
    has_rollout_records: run.rolloutsFile !== null,
    has_store: run.tokensDir !== null || run.modelCallsDir !== null,
    has_metrics: run.metricsFile !== null,
    rollouts: 0,
    masked: 0,
    masked_fraction: 0,
    severity: none,
    reward_mean: null,
    reward: { mean: null, source: null },
    alerts: 1,
    worst_alert: { kind: "unreadable", severity: "error", verdict: null, count: 1, message: error },
    indexing: {
      done: 0,
      total: 0,
      running: false,
      error,
      last_ms: null,
      workers: 0,
      in_workers: 0,
      from_records: 0,
      replacing: 0,
      records_read: null,
    },
    steps: 0,
  };
}
