"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { PageArrived } from "@/components/rollout/rollout-shell";

// An address no page answers. A missing run or rollout has its own page, which names it
// (app/runs/not-found.tsx, app/runs/[run]/not-found.tsx).
export default function NotFound() {
  const pathname = usePathname();
  return (
    <div data-testid="not-found" data-missing="page">
      <PageArrived />
      <p className="crumbs">
        <Link href="/">runs</Link>
      </p>
      <div className="card empty">
        <h1>Page not found</h1>
        <p data-testid="not-found-reason">
          Rollout Lens has no page at <span className="mono">{pathname}</span>.
        </p>
        <Link href="/">Back to the runs</Link>
      </div>
    </div>
  );
}
