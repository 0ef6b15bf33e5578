// One rollout's share of the signal ledger (docs/ledger.md): its generated tokens as captured,
// split into where each was lost on the way to a delivered main chain, or delivered. The parts
// always sum to `captured`. Not responsible for the trainer's stages (lib/ledger joins those).
import type { RolloutLedger } from "@/lib/schema";
import type { SideCall } from "./side-calls";
import type { Build } from "./types";

/**
 * `kept`: generated tokens of the calls the build was asked to chain (all captured calls but side
 * calls); `masked`: the rollout is not trained, so its main chain is lost too.
 */
export function rolloutLedger(
  build: Build | null,
  sideCalls: readonly SideCall[],
  kept: number,
  masked: boolean,
): RolloutLedger {
  const side = sideCalls.reduce((a, s) => a + s.generated_tokens, 0);
  const out: RolloutLedger = {
    captured: side + kept,
    side_calls: side,
    retries_dropped: 0,
    quarantined: 0,
    branches: 0,
    masked: 0,
    delivered: 0,
  };
  if (!build) {
    out.masked = kept;
    return out;
  }
  const main = new Set(build.chains[build.mainIndex]?.nodes ?? []);
  // A quarantined call's descendants are lost with it (parents come before children).
  const reason: Array<Build["nodes"][number]["quarantine"]> = [];
  let chained = 0;
  for (const n of build.nodes) {
    const g = n.entry.generation_token_ids.length;
    const q = n.quarantine ?? (n.parent >= 0 ? (reason[n.parent] ?? null) : null);
    reason[n.index] = q;
    chained += g;
    if (q === "retry_dropped") out.retries_dropped += g;
    else if (q !== null) out.quarantined += g;
    else if (!main.has(n.index)) out.branches += g;
    else if (masked) out.masked += g;
    else out.delivered += g;
  }
  // Calls the builder set aside before chaining (gym-v1's empty generations) carry no tokens;
  // anything else kept but not chained counts with the branches, so the parts still sum.
  out.branches += Math.max(0, kept - chained);
  out.captured = side + Math.max(kept, chained);
  return out;
}
