"use client";
// The runs list's worst alert of a run in words, with the link to the rollouts it names and, when
// the run has more alerts, how many more there are on its page; and whether the run's file
// problem is that alert's own message (told once).
import Link from "next/link";
import type { RunOverview } from "@/lib/schema";
import { alertSeverityClass } from "@/lib/severity";
import { plural } from "@/lib/text";
import { TableLink, Words } from "@/components/run/alerts";

/** The run's files' problem (manifest_error) is the worst alert's own message. */
export const toldByWorstAlert = (r: RunOverview) =>
  r.worst_alert !== null &&
  r.manifest_error !== null &&
  (r.worst_alert.kind === "manifest" || r.worst_alert.kind === "unreadable") &&
  r.manifest_error === r.worst_alert.message.replace(/\.$/, "");

/** The run's worst alert in words, with the link to the rollouts it names where it names some. */
export function WorstAlert({ r }: { r: RunOverview }) {
  const a = r.worst_alert;
  if (!a) return null;
  return (
    <div
      className={`small ${alertSeverityClass(a)}`}
      data-testid="run-worst-alert"
      data-kind={a.kind}
    >
      <Words text={a.message} />
      <TableLink runId={r.id} alert={a} />
      {r.alerts > 1 && (
        <>
          {" "}
          <Link
            className="muted"
            href={`/runs/${encodeURIComponent(r.id)}`}
            data-testid="run-more-alerts"
          >
            {plural(r.alerts - 1, "more alert")} on the run page
          </Link>
        </>
      )}
    </div>
  );
}
