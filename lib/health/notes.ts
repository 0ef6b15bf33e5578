// The run page's notes: lines under its health that are worth knowing and need no fixing, so are
// never alerts (lib/health/health.ts): the other builder profile's disagreement, and side calls
// self-calibration found in a run with no side-call patterns, with a pattern to set. Pure: summaries
// and the run's patterns in; not responsible for how the page shows them.
import type { RolloutSummary } from "@/lib/schema";
import { plural } from "@/lib/text";
/** A line under the run's health: worth knowing, nothing to fix, so never an alert. */
export interface HealthNote {
  kind: "profile_disagreement" | "self_calibrated_side_calls";
  count: number;
  message: string;
  /** The rollouts table's query listing the rollouts the note counts, where a filter does. */
  table_query: string | null;
}

type NoteSource = Pick<
  RolloutSummary,
  "profile" | "other_profile_disagrees" | "side_call_reasons" | "self_calibrated_models"
>;

const OTHER_PROFILE = { seed: "gym-v1", "gym-v1": "seed" } as const;

/** What the notes are made of: counted over summaries here, or by the summary index's queries. */
export interface NoteFacts {
  rollouts: number;
  /** Rollouts the other profile would mask differently, and the profiles they were built under. */
  differ: number;
  profiles: Set<RolloutSummary["profile"]>;
  /** Side calls self-calibration set aside, the rollouts holding them, and calls per model. */
  calls: number;
  found: number;
  models: Map<string, number>;
}

/** The run page's notes: the other profile's disagreement; self-calibrated side calls, unpatterned. */
export function healthNotes(
  summaries: readonly NoteSource[],
  patterns: readonly string[],
): HealthNote[] {
  const differ = summaries.filter((s) => s.other_profile_disagrees);
  const found = summaries.filter((s) => s.side_call_reasons.self_calibration > 0);
  const models = new Map<string, number>();
  for (const s of found)
    for (const [m, k] of Object.entries(s.self_calibrated_models))
      models.set(m, (models.get(m) ?? 0) + k);
  return notesFrom(
    {
      rollouts: summaries.length,
      differ: differ.length,
      profiles: new Set(differ.map((s) => s.profile)),
      calls: found.reduce((a, s) => a + s.side_call_reasons.self_calibration, 0),
      found: found.length,
      models,
    },
    patterns,
  );
}

/** The notes from their facts. */
export function notesFrom(f: NoteFacts, patterns: readonly string[]): HealthNote[] {
  const notes: HealthNote[] = [];
  const only = f.profiles.size === 1 ? [...f.profiles][0] : null;
  const other = only
    ? `${OTHER_PROFILE[only]}, the other builder profile`
    : "the other builder profile";
  if (f.differ > 0)
    notes.push({
      kind: "profile_disagreement",
      count: f.differ,
      message: `${f.differ} of ${plural(f.rollouts, "rollout")} would be masked differently under ${other} (each rollout's inspector says how); only the profile your trainer's consumer runs decides.`,
      table_query: "alert=profile_disagreement", // lib/index/query ALERT_FILTERS
    });
  const calls = f.calls;
  if (patterns.length > 0 || calls === 0) return notes;
  // The most named model; ties go to the first name in order, so the suggestion is stable.
  const top = [...f.models]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))[0];
  const suggest = top
    ? `Most name \`${top.key}\` (${top.count}): add it to run.json's side_call_patterns (serve: --side-call-pattern ${top.key}) to mark them by pattern.`
    : "Name their model in run.json's side_call_patterns (serve: --side-call-pattern) to mark them by pattern.";
  notes.push({
    kind: "self_calibrated_side_calls",
    count: calls,
    message: `Self-calibration found ${plural(calls, "side call")} in ${plural(f.found, "rollout")}: no side-call patterns are set. ${suggest}`,
    table_query: null,
  });
  return notes;
}
