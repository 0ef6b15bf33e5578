// The run-level part of the severity model: the run's policy model (the main-chain model most of
// its rollouts train on) and the warnings only a run can give (another model than its policy as a
// rollout's main chain, no token capture in a run that captures, a trained sample in the trainer's
// step files that differs from the capture: ./trainer-facts), added to summaries as they are
// served. Pure: a summary's own severity is lib/runs' (summarize), the classes are lib/severity's.
import type { RolloutSummary, RunManifest } from "@/lib/schema";
import {
  noCaptureReason,
  otherModelReason,
  trainerDiffersReason,
  type Reason,
  type WarningCode,
} from "@/lib/severity";
import type { RunFacts } from "./sql";

/** The order lib/severity's classifySeverity gives warnings in; mask reasons come before all. */
const WARNING_ORDER: readonly WarningCode[] = [
  "cut_short",
  "other_model_main",
  "branches_dropped",
  "out_of_vocabulary",
  "torn_tail",
  "no_capture",
  "trainer_differs",
];

const rank = (code: string): number => WARNING_ORDER.indexOf(code as WarningCode);

type WireReason = RolloutSummary["severity_reasons"][number];

const wireOf = (r: Reason): WireReason => ({ code: r.code, title: r.title });

/** Inserts `r` where classifySeverity would have put it: before the first later warning. */
function insertReason(reasons: readonly WireReason[], r: Reason): WireReason[] {
  const own = rank(r.code);
  const at = reasons.findIndex((x) => rank(x.code) > own);
  const wire = wireOf(r);
  return at < 0 ? [...reasons, wire] : [...reasons.slice(0, at), wire, ...reasons.slice(at)];
}

/** The manifest's capture setting as the severity model takes it. */
export function captureExpected(manifest: Pick<RunManifest, "capture">): boolean | null {
  return manifest.capture === undefined ? null : manifest.capture === "on";
}

/** The run's warnings for one rollout; a pending rollout stays pending (nothing is known yet). */
export function runWarnings(s: RolloutSummary, facts: RunFacts): Reason[] {
  if (s.severity === "pending") return [];
  const out: Reason[] = [];
  const policy = facts.policy_model;
  if (s.main_model !== null && policy !== null && s.main_model !== policy) {
    out.push(otherModelReason(s.main_model, policy));
  }
  if (!s.has_capture && facts.capture_expected !== false) {
    out.push(noCaptureReason(facts.capture_expected));
  }
  const trainer = facts.trainer_differs?.[s.rollout_id];
  if (trainer) out.push(trainerDiffersReason(trainer));
  return out;
}

/**
 * The summary with the run's warnings: a trained rollout with any becomes trained with warnings,
 * and one whose sample the trainer left out of the loss masked (that reason first).
 */
export function applyRunFacts(s: RolloutSummary, facts: RunFacts): RolloutSummary {
  const added = runWarnings(s, facts);
  if (added.length === 0) return s;
  let reasons = s.severity_reasons;
  const trained = s.severity === "trained" || s.severity === "trained_with_warnings";
  const left = trained ? added.find((r) => r.severity === "masked") : undefined;
  for (const r of added) if (r !== left) reasons = insertReason(reasons, r);
  if (left) return { ...s, severity: "masked", severity_reasons: [wireOf(left), ...reasons] };
  const severity = s.severity === "trained" ? "trained_with_warnings" : s.severity;
  return { ...s, severity, severity_reasons: reasons };
}
