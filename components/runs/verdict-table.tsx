import Link from "next/link";
import type { VerdictRow } from "@/lib/builder";
import { verdictLabel } from "@/lib/view/verdict-label";

type Row = VerdictRow;

function num(v: unknown): string {
  return typeof v === "number" ? String(v) : "—";
}

export function VerdictTable({ rows, runId }: { rows: Row[]; runId: string }) {
  if (rows.length === 0) return <div className="card empty">This run has no token store.</div>;
  return (
    <table className="grid" data-testid="verdict-table">
      <thead>
        <tr>
          <th>Rollout</th>
          <th>Profile</th>
          <th>Verdict</th>
          <th>Calls</th>
          <th>Chains</th>
          <th>Delivered</th>
          <th>Reasons / error</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.rollout_id} data-testid="verdict-row">
            <td className="mono">
              <Link href={`/runs/${encodeURIComponent(runId)}/rollouts/${encodeURIComponent(r.rollout_id)}`}>{r.rollout_id}</Link>
            </td>
            <td className="mono">{r.profile}</td>
            <td>
              <span className={`badge ${r.mask_sample ? "bad" : "ok"}`}>{verdictLabel(r)}</span>
            </td>
            <td>{num(r.metrics.n_calls)}</td>
            <td>{num(r.metrics.chains)}</td>
            <td>{num(r.metrics.delivered_fraction)}</td>
            <td>
              {r.mask_reasons.join(", ")}
              {r.error && <div className="mono muted">{r.error}</div>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
