"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { PageArrived } from "@/components/rollout/rollout-shell";

/** The path's segment `i` (0 is "runs"), decoded; "" when absent or not decodable. */
function segment(pathname: string, i: number): string {
  const raw = pathname.split("/").filter(Boolean)[i] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

// Any address under /runs/{run} whose run the runs root does not hold (app/runs/[run]/layout.tsx).
// Not-found pages take no params; the address says which run was asked for.
export default function RunNotFound() {
  const run = segment(usePathname(), 1);
  return (
    <div data-testid="not-found" data-missing="run">
      <PageArrived />
      <p className="crumbs">
        <Link href="/">runs</Link> / <span className="mono">{run}</span>
      </p>
      <div className="card empty">
        <h1>Run not found</h1>
        <p data-testid="not-found-reason">
          There is no run <span className="mono">{run}</span> in the runs root.
        </p>
        <Link href="/">Back to the runs</Link>
      </div>
    </div>
  );
}
