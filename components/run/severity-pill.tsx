// The severity model's pill (lib/severity): one class per severity, its words, and its reasons
// as the tooltip. The same pill on the rollouts table, the home page and the alerts.
import { SEVERITY_CLASS, SEVERITY_LABEL, type SeverityState } from "@/lib/severity";
import type { RolloutSummary } from "@/lib/schema";

export function SeverityPill({
  severity,
  reasons = [],
  source,
}: {
  severity: SeverityState;
  reasons?: RolloutSummary["severity_reasons"];
  /** Where a rollout's verdict comes from; "record" says so in the tooltip. */
  source?: RolloutSummary["source"];
}) {
  // A store rollout's row stands in from its record, pending, until its store is read.
  const from =
    source !== "record"
      ? ""
      : severity === "pending"
        ? "shown from the rollout's record (rollouts.jsonl) while its token store is read"
        : "verdict from the rollout's record (rollouts.jsonl)";
  const title = [...reasons.map((r) => r.title), from].filter(Boolean).join(" · ");
  return (
    <span
      className={`badge ${SEVERITY_CLASS[severity]}`}
      title={title || undefined}
      data-testid="severity-pill"
      data-severity={severity}
      data-source={source}
      style={{ whiteSpace: "nowrap" }}
    >
      {SEVERITY_LABEL[severity]}
    </span>
  );
}
