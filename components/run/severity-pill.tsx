// The severity model's pill (lib/severity): one class per severity, its words, and its reasons
// as the tooltip. The same pill on the rollouts table, the home page and the alerts.
import { SEVERITY_CLASS, SEVERITY_LABEL } from "@/lib/severity/palette";
import type { SeverityState } from "@/lib/severity/reasons";
import type { RolloutSummary } from "@/lib/schema/api-runs";

export function SeverityPill({
  severity,
  reasons = [],
}: {
  severity: SeverityState;
  reasons?: RolloutSummary["severity_reasons"];
}) {
  const title = reasons.map((r) => r.title).join(" · ");
  return (
    <span
      className={`badge ${SEVERITY_CLASS[severity]}`}
      title={title || undefined}
      data-testid="severity-pill"
      data-severity={severity}
      style={{ whiteSpace: "nowrap" }}
    >
      {SEVERITY_LABEL[severity]}
    </span>
  );
}
