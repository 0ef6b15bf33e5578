import Link from "next/link";
import { notFound } from "next/navigation";
import { getRun, type RunLayout } from "@/lib/runs/runs-root";
import { inspectRollout } from "@/lib/inspect/rollout-model";
import { runPolicyOf } from "@/lib/inspect/run-policy";
import { firstWindow } from "@/lib/inspect/token-window";
import type { RolloutView } from "@/lib/schema/api-rollout";
import { positionOf, tabOf } from "@/lib/view/inspector-url";
import { rolloutSeverity } from "@/lib/view/rollout-severity";
import { tableHref } from "@/lib/view/rollout-nav";
import {
  InvalidInputError,
  InvalidRolloutIdError,
  InvalidRunIdError,
  UnknownEntityError,
} from "@/lib/errors";
import { profileParam } from "@/lib/http/params";
import { VerdictBar } from "@/components/rollout/verdict-bar";
import { RolloutInspector } from "@/components/rollout/rollout-inspector";
import { RolloutNav } from "@/components/rollout/rollout-nav";
import { PageArrived } from "@/components/rollout/rollout-shell";
import type { TokenWindowSeed } from "@/components/rollout/use-token-windows";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
type Loaded = { run: RunLayout; view: RolloutView; seed: TokenWindowSeed | null };

// The view and, when the token tab shows, the token window the URL points at: the first token is
// painted from the page itself, with no request before it.
async function load(
  runId: string,
  rollout: string,
  q: Partial<Record<string, string>>,
): Promise<Loaded | { error: string }> {
  try {
    const run = await getRun(runId);
    const [model, policy_model] = await Promise.all([
      inspectRollout(run, rollout, { profile: profileParam(q.profile) }),
      runPolicyOf(run),
    ]);
    const window =
      tabOf(q.tab) === "tokens" ? firstWindow(model, q.chain || null, positionOf(q.pos)) : null;
    const seed = window && { profile: q.profile || null, stamp: model.view.stamp, window };
    return { run, view: { ...model.view, policy_model }, seed };
  } catch (err) {
    if (
      err instanceof UnknownEntityError ||
      err instanceof InvalidRolloutIdError ||
      err instanceof InvalidRunIdError
    )
      notFound();
    if (err instanceof InvalidInputError) return { error: err.message };
    throw err;
  }
}

export default async function RolloutPage({
  params,
  searchParams,
}: {
  params: Promise<{ run: string; rollout: string }>;
  searchParams: Promise<Search>;
}) {
  const { run: runId, rollout } = await params;
  const strings = Object.entries(await searchParams).filter(
    (e): e is [string, string] => typeof e[1] === "string",
  );
  const loaded = await load(runId, rollout, Object.fromEntries(strings));
  if ("error" in loaded)
    return (
      <>
        <PageArrived />
        <div className="error-box">{loaded.error}</div>
      </>
    );
  const { run, view, seed } = loaded;
  return (
    <>
      <PageArrived />
      <div className="inspector-head">
        <p className="crumbs">
          <Link href="/">runs</Link> /{" "}
          <Link href={tableHref(run.id, new URLSearchParams(strings))}>
            {run.manifest.name ?? run.id}
          </Link>{" "}
          / <span className="mono">{rollout}</span>
        </p>
        <RolloutNav runId={run.id} rolloutId={rollout} />
      </div>
      <VerdictBar view={view} severity={rolloutSeverity(view)} />
      <RolloutInspector view={view} seed={seed} />
    </>
  );
}
