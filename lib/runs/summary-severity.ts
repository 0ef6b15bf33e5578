// The facts of one rollout that its severity needs beyond the consumer's verdict (lib/severity):
// the failed call that ended its timeline, numbered as the inspector numbers calls, the main
// chain's model, token ids outside every vocabulary, the store's tombstone and incompleteness, and
// the classification itself. Run-level facts (the policy model) are lib/health's; reading is lib/store's.
import type { Verdict } from "@/lib/builder";
import type { RolloutRecord, RolloutSummary, TokenEntry } from "@/lib/schema";
import {
  classifySeverity,
  failedCallFromExchange,
  isFailedExchange,
  mainChainModel,
  type FailedCallFact,
  type SeverityInput,
} from "@/lib/severity";
import type { ExchangeRecord, RolloutCapture } from "@/lib/store";
import { timelinePositions } from "@/lib/view/timeline-positions";
import { incompleteOf, tombstoneOf } from "./summary-lifecycle";

/** The run-level facts (policy model, capture expected) are left out: lib/health adds them. */
export function severityOf(
  input: SeverityInput,
): Pick<RolloutSummary, "severity" | "severity_reasons"> {
  const result = classifySeverity(input);
  return {
    severity: result.severity,
    severity_reasons: result.reasons.map((r) => ({ code: r.code, title: r.title })),
  };
}

/**
 * Calls numbered as the inspector's timeline numbers them (lib/view/timeline-positions): captured
 * calls by created_at then line, each exchange without a token entry after the call created last
 * before it started. `cut` is the timeline's last call when it failed: the agent stopped after it.
 */
export function timelineFacts(
  entries: readonly TokenEntry[],
  lines: readonly number[],
  withoutEntry: readonly ExchangeRecord[],
) {
  const order = entries.map((e, k) => ({
    model_call_id: e.model_call_id,
    created_at: e.created_at,
    line: lines[k] ?? k + 1,
  }));
  order.sort((a, b) => a.created_at - b.created_at || a.line - b.line);
  const placed = withoutEntry.map(({ exchange: x }) => {
    // Binary search: the last call with created_at <= started_at.
    let [lo, hi, after] = [0, order.length - 1, null as string | null];
    while (x.started_at !== null && lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = order[mid] as (typeof order)[number];
      if (c.created_at <= x.started_at) [after, lo] = [c.model_call_id, mid + 1];
      else hi = mid - 1;
    }
    return { x, model_call_id: x.model_call_id, after_call: after };
  });
  placed.sort((a, b) => (a.x.started_at ?? 0) - (b.x.started_at ?? 0));
  const positions = timelinePositions(order, placed);
  const total = positions.size;
  let cut: { x: ExchangeRecord["exchange"]; fact: FailedCallFact } | null = null;
  for (const { x } of placed) {
    const position = positions.get(x.model_call_id) ?? 0;
    if (position === total && isFailedExchange(x))
      cut = { x, fact: failedCallFromExchange(x, position) };
  }
  return { total, cut };
}

/** The main chain's model, by generated tokens (quarantined calls are not on a chain). */
export function mainModelOf(v: Verdict): string | null {
  const build = v.build;
  const main = build?.chains.find((c) => c.chain_id === "main");
  if (!build || !main) return null;
  const calls = main.nodes.flatMap((i) => {
    const n = build.nodes[i];
    if (!n || n.quarantine) return [];
    return [
      {
        requested_model: n.entry.requested_model || null,
        model: n.entry.model,
        generated: n.entry.generation_token_ids.length,
      },
    ];
  });
  return mainChainModel(calls);
}

export function hasCapture(capture: RolloutCapture, record: RolloutRecord | null): boolean {
  // An empty token file holds no capture: the consumer builds nothing from it (docs/builder.md §5, rule 1).
  const file =
    capture.hasTokenFile &&
    (capture.snapshot.entries.length > 0 || capture.issues.length > 0 || capture.snapshot.tornTail);
  const store = file || capture.state !== null || capture.intents !== null;
  return (
    store ||
    capture.snapshot.incompleteMarker !== null ||
    (record?._ng_token_capture ?? null) !== null
  );
}

/**
 * What the store recorded beyond the verdict, as the profile's consumer read it (./summary-lifecycle):
 * a retired tombstone, incompleteness, token counts.
 */
export function storeFacts(capture: RolloutCapture, v: Verdict): Partial<SeverityInput> {
  const notes = v.build?.notes;
  return {
    tombstone: tombstoneOf(capture, v),
    incomplete: incompleteOf(capture, v),
    generated_tokens: notes
      ? { captured: notes.generated_tokens_captured, delivered: notes.generated_tokens_delivered }
      : null,
  };
}
