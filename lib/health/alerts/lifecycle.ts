// Run alerts about what the token store's lifecycle and Gym's reading of it leave in the rollouts:
// token ids outside 0 … 2^31−1, which Gym main trains on as recorded although no vocabulary holds
// them (docs/gym-v1-store.md §4). Each alert carries the table query that lists exactly its rollouts.
// Pure over served summaries; lib/health's own alerts are health.ts's, the file alerts file-alerts'.
import type { Alert, RolloutSummary } from "@/lib/schema";
import { plural } from "@/lib/text";

/** Rollout ids an alert names (the rest are counted, and the table lists them all). */
export const SAMPLE = 20;

/** The table query of rollouts whose reasons include token ids outside any vocabulary. */
export const OUTSIDE_IDS_QUERY = "reason=out_of_vocabulary";

/** The alerts, in the order the run page shows them; none when nothing applies. */
export function lifecycleAlerts(summaries: readonly RolloutSummary[]): Alert[] {
  const alert = outsideIdsAlert(summaries);
  return alert ? [alert] : [];
}

/** "N rollouts carry token ids outside 0…2^31−1": a warning, as the verdict stays Gym's. */
function outsideIdsAlert(summaries: readonly RolloutSummary[]): Alert | null {
  const ids: string[] = [];
  let tokens = 0;
  let trained = 0;
  for (const s of summaries) {
    const n = s.oov_tokens ?? 0;
    if (n <= 0) continue;
    ids.push(s.rollout_id);
    tokens += n;
    if (s.severity === "trained_with_warnings") trained++;
  }
  return outsideIdsAlertOf({ count: ids.length, ids: ids.slice(0, SAMPLE), tokens, trained });
}

/** The alert from its facts: rollouts with outside ids (the first few), the ids, those trained on. */
export function outsideIdsAlertOf(f: {
  count: number;
  ids: string[];
  tokens: number;
  trained: number;
}): Alert | null {
  const { count, tokens, trained } = f;
  if (count === 0) return null;
  const carry = count === 1 ? "carries" : "carry";
  const trainedOn =
    trained === count ? `all trained on as recorded` : `${trained} of them trained on as recorded`;
  return {
    kind: "outside_token_ids",
    severity: "warning",
    // The pill names the class only when every rollout it names is in it.
    verdict: trained === count ? "trained_with_warnings" : null,
    count,
    message: `${plural(count, "rollout")} ${carry} token ids outside 0…2^31−1 (${plural(tokens, "id")}, ${trainedOn}): no vocabulary holds them, so the trainer learns from ids no tokenizer can decode.`,
    rollout_ids: f.ids,
    table_query: OUTSIDE_IDS_QUERY,
  };
}
