// Alerts for what users miss (rollouts cut short by a failed call while the record looks fine,
// masked fraction over threshold, dangling intents, unreadable files, newer schemas, disagreement).
import Link from "next/link";
import type { Alert } from "@/lib/schema/api-runs";

export function Alerts({ runId, alerts }: { runId: string; alerts: Alert[] }) {
  if (alerts.length === 0) return <p className="ok-text" data-testid="alerts-none">No alerts: capture looks healthy.</p>;
  return (
    <ul className="alerts" data-testid="alerts">
      {alerts.map((a) => (
        <li key={a.kind} className={`alert ${a.severity}`} data-testid="alert" data-kind={a.kind}>
          <strong>{a.severity === "error" ? "⚠" : "△"}</strong> {a.message}
          {a.rollout_ids.length > 0 && (
            <span className="alert-ids">
              {" "}
              {a.rollout_ids.slice(0, 8).map((id) => (
                <Link key={id} href={`/runs/${encodeURIComponent(runId)}/rollouts/${encodeURIComponent(id)}`} className="mono">
                  {id}
                </Link>
              ))}
              {a.count > 8 ? ` … ${a.count - 8} more` : ""}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
