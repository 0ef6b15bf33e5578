import type { ReactNode } from "react";
import { HeldRuns } from "@/components/run/held-runs";
import { orNotFound } from "@/lib/http";
import { runsHeldBy, runsRoot } from "@/lib/runs";
import { requestRun } from "./request-run";

export const dynamic = "force-dynamic";

// An unknown run is answered here, above every page of the run, so its 404 (app/runs/not-found)
// says "no run X" whatever was asked of it; below, app/runs/[run]/not-found knows the run exists and
// so can name an unknown rollout as such.
export default async function RunLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ run: string }>;
}) {
  const { run } = await params;
  const held = await runsHeldBy(run, runsRoot());
  if (held) return <HeldRuns id={run} runs={held} />;
  await orNotFound(requestRun(run));
  return children;
}
