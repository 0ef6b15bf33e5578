// Alerts for what users miss (rollouts cut short by a failed call, another model than the run's
// policy as main chain, masked fraction over threshold, dangling intents, unreadable files, newer
// schemas, disagreement, skipped store files, NaN gaps in metrics), each with the severity class
// of the rollouts it names. Several alerts may share a kind (one per unreadable file). An alert
// that names rollouts links to a few of them and to the run's table filtered to all of them; an
// alert about a file names the file and links nowhere (there is no page for a file).
import Link from "next/link";
import type { Alert } from "@/lib/schema";
import { noAlertsWords } from "@/lib/health/pure";
import { alertSeverityClass } from "@/lib/severity";
import { alertRolloutHref, alertTableHref, tokenAtHref } from "@/lib/view";
import { SeverityPill } from "./severity-pill";

/** The severity model writes names, codes and locations in backticks: shown as code. */
export function Words({ text }: { text: string }) {
  return text.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}

/**
 * The id of the rollouts table's heading (components/run/run-overview). The table sits far below
 * the alerts, so a link that filters it also scrolls to it: Next's client navigation scrolls to
 * the URL's hash once the new page has rendered.
 */
export const ROLLOUTS_ANCHOR = "rollouts";

/** Rollout ids an alert names one by one; the rest are "N more", a link to the filtered table. */
const SHOWN_IDS = 8;

export function Alerts({
  runId,
  alerts,
  masked,
}: {
  runId: string;
  alerts: Alert[];
  /** The run's masked rollouts, their share, and those trained with warnings: "healthy" only when
   * there are none of either. */
  masked: { count: number; fraction: number; warnings: number };
}) {
  if (alerts.length === 0) {
    const words = noAlertsWords({
      masked: masked.count,
      maskedFraction: masked.fraction,
      warnings: masked.warnings,
    });
    return (
      <p className={words.ok ? "ok-text" : "muted"} data-testid="alerts-none">
        {words.text}
      </p>
    );
  }
  return (
    <ul className="alerts" data-testid="alerts">
      {alerts.map((a, i) => (
        <li
          key={`${a.kind}-${i}`}
          className={`alert ${alertSeverityClass(a)}`}
          data-testid="alert"
          data-kind={a.kind}
          data-verdict={a.verdict ?? undefined}
        >
          <strong>{a.severity === "error" ? "⚠" : "△"}</strong>{" "}
          {a.verdict && <SeverityPill severity={a.verdict} />} <Words text={a.message} />
          {a.rollout_ids.length > 0 && (
            <span className="alert-ids">
              {" "}
              {a.rollout_ids.slice(0, SHOWN_IDS).map((id) => (
                <Link
                  key={id}
                  href={alertRolloutHref(runId, id)}
                  className="mono"
                  data-testid="alert-rollout"
                >
                  {id}
                </Link>
              ))}
              {a.count > SHOWN_IDS && <MoreLink runId={runId} alert={a} />}
            </span>
          )}
          <TableLink runId={runId} alert={a} />
          {a.at && (
            <>
              {" · "}
              <Link href={tokenAtHref(runId, a.at)} data-testid="alert-at">
                open the first at token {a.at.position.toLocaleString("en-US")}
              </Link>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The table's href listing exactly the alert's rollouts, scrolled to the table; null for none. */
function tableHrefOf(runId: string, alert: Pick<Alert, "table_query">): string | null {
  const query = alertTableHref(runId, alert);
  return query === null ? null : `${query}#${ROLLOUTS_ANCHOR}`;
}

/** "… N more": the rollouts the alert does not name one by one, in the filtered table. */
function MoreLink({ runId, alert }: { runId: string; alert: Alert }) {
  const href = tableHrefOf(runId, alert);
  const words = `${alert.count - SHOWN_IDS} more`;
  if (href === null) return <> … {words}</>;
  return (
    <>
      {" … "}
      <Link href={href} data-testid="alert-more">
        {words}
      </Link>
    </>
  );
}

/** "list all N in the table": the run's table filtered to exactly the alert's rollouts. */
export function TableLink({
  runId,
  alert,
}: {
  runId: string;
  alert: Pick<Alert, "table_query" | "count">;
}) {
  const href = tableHrefOf(runId, alert);
  if (href === null) return null;
  const words = alert.count === 1 ? "show it in the table" : `list all ${alert.count} in the table`;
  return (
    <>
      {" · "}
      <Link href={href} data-testid="alert-table-link">
        {words}
      </Link>
    </>
  );
}
