import Link from "next/link";
import { orNotFound } from "@/lib/http";
import { runHealth } from "@/lib/health";
import { PROFILE_MEANING } from "@/lib/builder";
import { decideRunProfile } from "@/lib/runs";
import { requestRun } from "./request-run";
import { RunOverview } from "@/components/run/run-overview";
import { GroupSignal } from "@/components/run/group-signal";
import { OpeningFrame } from "@/components/run/rollout-link";

export const dynamic = "force-dynamic";

/**
 * How long the first render waits for a cold index: a run of a few dozen rollouts is usually done
 * by then; a big one renders its progress at once (the page polls it from there), well within a
 * second of navigation, rather than waiting for a route's longer first look.
 */
const FIRST_WAIT_MS = 400;

export default async function RunPage({ params }: { params: Promise<{ run: string }> }) {
  const { run: runId } = await params;
  const run = await orNotFound(requestRun(runId));
  const hasSources = [run.tokensDir, run.modelCallsDir, run.rolloutsFile].some((f) => f !== null);
  const [health, profile] = await Promise.all([
    runHealth(run, FIRST_WAIT_MS, true),
    decideRunProfile(run),
  ]);
  return (
    <>
      {/* A clicked rollout's loading frame: while shown, it hides the rest (app/globals.css). */}
      <OpeningFrame />
      {/* The id is in the crumbs only beside a name: a run without one (a bare directory) is titled
          by its id, which should not show twice. */}
      <p className="crumbs" data-testid="run-crumbs">
        <Link href="/">runs</Link>
        {run.manifest.name !== undefined && (
          <>
            {" "}
            / <span className="mono">{run.id}</span>
          </>
        )}
      </p>
      <h1 data-testid="run-title">
        {run.manifest.name ?? <span className="mono">{run.id}</span>}{" "}
        {run.manifest.capture && <span className="badge">capture {run.manifest.capture}</span>}
      </h1>
      {run.manifest.description && <p className="muted">{run.manifest.description}</p>}
      {/* A run of trainer logs alone has nothing a builder profile judges. */}
      {hasSources && (
        <p className="muted small" data-testid="run-profile-reason">
          Builder profile <span className="mono">{profile.profile}</span> (
          {PROFILE_MEANING[profile.profile]}): {profile.reason}
        </p>
      )}
      {/* A run.json problem is told once, as the run's first alert (lib/health/alerts/files). */}
      <RunOverview
        initial={health}
        facts={{
          captureOff: run.manifest.capture === "off",
          hasSources,
          hasRecords: run.rolloutsFile !== null,
        }}
      />
      {/* GRPO groups without training signal per step: only a run with records can have groups. */}
      {run.rolloutsFile !== null && <GroupSignal runId={run.id} />}
    </>
  );
}
