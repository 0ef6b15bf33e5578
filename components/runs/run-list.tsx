import Link from "next/link";
import type { RunOverview } from "@/lib/runs/run-overview";

export function RunList({ runs, root }: { runs: RunOverview[]; root: string }) {
  if (runs.length === 0) {
    return (
      <div className="card empty" data-testid="runs-empty">
        No runs under <span className="mono">{root}</span>. Point <span className="mono">ROLLOUT_LENS_RUNS</span> at a directory of runs
        or at a capture directory.
      </div>
    );
  }
  return (
    <table className="grid" data-testid="runs-table">
      <thead>
        <tr>
          <th>Run</th>
          <th>Capture</th>
          <th>Profile</th>
          <th>Rollouts in store</th>
          <th>Description</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id} data-testid="runs-row">
            <td>
              <Link href={`/runs/${encodeURIComponent(r.id)}`}>{r.name}</Link>
              <div className="muted mono">{r.id}</div>
            </td>
            <td>{r.capture ? <span className={`badge ${r.capture === "on" ? "ok" : ""}`}>{r.capture}</span> : <span className="muted">—</span>}</td>
            <td className="mono">{r.builderProfile}</td>
            <td>{r.storeRollouts}</td>
            <td>
              {r.description}
              {r.manifestError && <div className="badge bad">{r.manifestError}</div>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
