// Side-call classification (docs/builder.md §1): harness calls that are not part of the rollout
// (title generation, quota probes), found by configured model patterns and by self-calibration.
// Runs before chaining in the seed profile; it never looks at token contents beyond counts.
import type { TokenEntry } from "@/lib/schema";
import { compareCodePoints } from "./code-points";

export type SideCallReason =
  | { kind: "pattern"; pattern: string }
  | { kind: "self_calibration"; policy_model: string; policy_generated_tokens: number };

export interface SideCall {
  model_call_id: string;
  requested_model: string;
  generated_tokens: number;
  reason: SideCallReason;
}

export interface SideCallClassification {
  kept: TokenEntry[];
  sideCalls: SideCall[];
  /** Generated tokens per non-empty requested model among entries not matched by a pattern. */
  massByRequestedModel: Record<string, number>;
  /** Set when self-calibration ran (more than one requested model named). */
  policyModel: string | null;
}

export function classifySideCalls(
  entries: readonly TokenEntry[],
  patterns: readonly string[],
): SideCallClassification {
  const needles = patterns.map((p) => p.toLowerCase()).filter((p) => p.length > 0);
  const sideCalls: SideCall[] = [];
  const remaining: TokenEntry[] = [];
  for (const e of entries) {
    const requested = e.requested_model.toLowerCase();
    const hit = requested ? needles.find((n) => requested.includes(n)) : undefined;
    if (hit === undefined) remaining.push(e);
    else sideCalls.push(sideCall(e, { kind: "pattern", pattern: hit }));
  }

  const mass = new Map<string, number>();
  for (const e of remaining) {
    if (!e.requested_model) continue;
    mass.set(e.requested_model, (mass.get(e.requested_model) ?? 0) + e.generation_token_ids.length);
  }
  const massByRequestedModel = Object.fromEntries(mass);
  if (mass.size <= 1)
    return { kept: remaining, sideCalls, massByRequestedModel, policyModel: null };

  let policy = "";
  let policyMass = -1;
  for (const [model, tokens] of mass) {
    if (tokens > policyMass || (tokens === policyMass && compareCodePoints(model, policy) > 0)) {
      policy = model;
      policyMass = tokens;
    }
  }
  const kept: TokenEntry[] = [];
  const reason: SideCallReason = {
    kind: "self_calibration",
    policy_model: policy,
    policy_generated_tokens: policyMass,
  };
  for (const e of remaining) {
    if (e.requested_model && e.requested_model !== policy) sideCalls.push(sideCall(e, reason));
    else kept.push(e);
  }
  return { kept, sideCalls, massByRequestedModel, policyModel: policy };
}

function sideCall(e: TokenEntry, reason: SideCallReason): SideCall {
  return {
    model_call_id: e.model_call_id,
    requested_model: e.requested_model,
    generated_tokens: e.generation_token_ids.length,
    reason,
  };
}
