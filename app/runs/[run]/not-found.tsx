"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { PageArrived } from "@/components/rollout/rollout-shell";

/** The path's segments after "runs", decoded: the run and, on a rollout's address, the rollout. */
function idsOf(pathname: string): { run: string; rollout: string | null } {
  const decode = (raw: string) => {
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };
  const [, run = "", what, rollout] = pathname.split("/").filter(Boolean).map(decode);
  return { run, rollout: what === "rollouts" && rollout !== undefined ? rollout : null };
}

// Below the run's layout, which answers an unknown run (app/runs/not-found): what is missing here
// is a rollout of a run that exists. The run page's own notFound (the run went away between the
// layout and the page) still reads as a missing run.
export default function RolloutNotFound() {
  const { run, rollout } = idsOf(usePathname());
  const runHref = `/runs/${encodeURIComponent(run)}`;
  return (
    <div data-testid="not-found" data-missing={rollout === null ? "run" : "rollout"}>
      <PageArrived />
      <p className="crumbs">
        <Link href="/">runs</Link> /{" "}
        {rollout === null ? (
          <span className="mono">{run}</span>
        ) : (
          <>
            <Link href={runHref}>{run}</Link> / <span className="mono">{rollout}</span>
          </>
        )}
      </p>
      <div className="card empty">
        <h1>{rollout === null ? "Run not found" : "Rollout not found"}</h1>
        <p data-testid="not-found-reason">
          {rollout === null ? (
            <>
              There is no run <span className="mono">{run}</span> in the runs root.
            </>
          ) : (
            <>
              There is no rollout <span className="mono">{rollout}</span> in run{" "}
              <span className="mono">{run}</span>.
            </>
          )}
        </p>
        <Link href={rollout === null ? "/" : runHref}>
          {rollout === null ? "Back to the runs" : `Back to ${run}`}
        </Link>
      </div>
    </div>
  );
}
