import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { isNotFound } from "@/lib/http";
import { rolloutVersion } from "@/lib/rollout";
import { indexFor } from "@/lib/index";
import { requestRun } from "../../request-run";
import { RolloutShell } from "@/components/rollout/rollout-shell";

export const dynamic = "force-dynamic";

// An unknown rollout must be a 404 page. The page below may stream behind a Suspense boundary (a
// cold build), and once the shell is sent the status is 200; this layout sits above that boundary, so it answers first: a few
// stats (and the run's cached records), never a build. It also holds the loading frame
// (RolloutShell), hydrated with the shell so it can poll the build's progress.
export default async function RolloutLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ run: string; rollout: string }>;
}) {
  const { run: runId, rollout } = await params;
  if (!(await rolloutExists(runId, rollout))) notFound();
  return <RolloutShell>{children}</RolloutShell>;
}

/** Something of the rollout exists: a token-store or capture file, or its record. */
async function rolloutExists(runId: string, rollout: string): Promise<boolean> {
  try {
    const run = await requestRun(runId);
    // Without rollouts.jsonl in the source, every part of the version is one of the rollout's own
    // files, "-" when missing.
    const source = { tokensDir: run.tokensDir, modelCallsDir: run.modelCallsDir };
    const version = await rolloutVersion(source, rollout);
    if (version.split("|").some((v) => v !== "-")) return true;
    // Its record, looked up in the run's index (rollouts.jsonl streamed in once per version).
    return await indexFor(run).hasRecord(rollout);
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}
