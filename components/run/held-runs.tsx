// The page of a directory of the runs root that holds runs instead of being one (lib/runs/holders):
// a NeMo-RL log directory of experiments, or a directory whose MLflow database holds several runs.
// It names what it is and links each run it holds, as the runs list shows them in its place.
import Link from "next/link";
import { PageArrived } from "@/components/rollout/rollout-shell";
import { plural } from "@/lib/text";

export function HeldRuns({ id, runs }: { id: string; runs: Array<{ id: string; name: string }> }) {
  return (
    <div data-testid="held-runs">
      <PageArrived />
      <p className="crumbs">
        <Link href="/">runs</Link> / <span className="mono">{id}</span>
      </p>
      <div className="card">
        <h1>
          <span className="mono">{id}</span> holds {plural(runs.length, "run")}
        </h1>
        <p>
          This directory is not a run itself: each of its experiments (a NeMo-RL log
          directory&apos;s <code>exp_NNN</code>) or each run of its MLflow database is a run of its
          own, listed on the runs page in its place.
        </p>
        <ul>
          {runs.map((r) => (
            <li key={r.id}>
              <Link
                href={`/runs/${encodeURIComponent(r.id)}`}
                className="mono"
                data-testid="held-run"
              >
                {r.name}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
