import Link from "next/link";
import { Suspense } from "react";
import type { RunLayout } from "@/lib/runs";
import { requestRun } from "../../request-run";
import { inspectProgress, inspectRollout, knownRunPolicy, firstWindow } from "@/lib/inspect";
import type { RolloutView } from "@/lib/schema";
import { positionOf, tabOf, tableHref } from "@/lib/view";
import { InvalidInputError } from "@/lib/errors";
import { pageAnswer, profileParam } from "@/lib/http";
import { trainerLogDir } from "@/lib/trainer";
import { VerdictBar } from "@/components/rollout/verdict-bar";
import { RolloutInspector } from "@/components/rollout/rollout-inspector";
import { RolloutNav } from "@/components/rollout/rollout-nav";
import { DiffWith } from "@/components/rollout/diff-with";
import { RolloutFactsProvider } from "@/components/rollout/rollout-facts";
import { PageArrived, PagePending } from "@/components/rollout/rollout-shell";
import type { TokenWindowSeed } from "@/components/rollout/use-token-windows";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
type Loaded = {
  run: RunLayout;
  view: RolloutView;
  seed: TokenWindowSeed | null;
  policyPending: boolean;
  /** The run has NeMo-RL step files: the page asks the truth check about this rollout. */
  trainerLogs: boolean;
};

// The view and, when the token tab shows, the token window the URL points at: the first token is
// painted from the page itself, with no request before it. Nothing else waits for the first paint:
// the other profile's verdict (a second decision) and, unless the run's index is complete, the
// run's policy (the index reads every rollout) are asked for by the page once it is up, as is the
// truth check's answer for this rollout when the run has step files (two directory listings here).
async function load(
  runId: string,
  rollout: string,
  q: Partial<Record<string, string>>,
): Promise<Loaded | { error: string }> {
  return pageAnswer(
    (async () => {
      const run = await requestRun(runId);
      const profile = profileParam(q.profile);
      const logs = trainerLogDir(run).catch(() => null);
      const model = await inspectRollout(run, rollout, { profile, other: "if-known" });
      const { policy_model, policy_pending } = await knownRunPolicy(run);
      const trainerLogs = (await logs) !== null;
      const window =
        tabOf(q.tab) === "tokens" ? firstWindow(model, q.chain || null, positionOf(q.pos)) : null;
      const seed = window && { profile: q.profile || null, stamp: model.view.stamp, window };
      const view = { ...model.view, policy_model };
      return { run, view, seed, policyPending: policy_pending, trainerLogs };
    })(),
  );
}

// A built rollout (cached) is rendered in the document's first flush: no Suspense boundary, so
// React's reveal throttle never holds the first token back. Otherwise the page streams behind a
// boundary whose fallback brings back the layout's loading frame (rollout-shell) with its progress.
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
  // The load (and a cold build) starts now, beside the cache check, not after it: on a cold server
  // the check's first look at the run costs 0.1–0.2 s the build need not wait for.
  const loading = load(runId, rollout, Object.fromEntries(strings));
  loading.catch(() => undefined); // rendered below, where a rejection (notFound) is thrown
  const content = (
    <RolloutContent runId={runId} rollout={rollout} strings={strings} loading={loading} />
  );
  if (await isBuilt(runId, rollout, strings)) return content;
  return <Suspense fallback={<PagePending />}>{content}</Suspense>;
}

/**
 * Whether the page can render at once: the model it needs is cached, or the query is bad (the
 * page answers with the 400 box and builds nothing, so the loading frame, whose progress poll
 * would be refused, never shows). Any other doubt (an unknown run, say) is "no".
 */
async function isBuilt(runId: string, rollout: string, strings: Array<[string, string]>) {
  try {
    const run = await requestRun(runId);
    const asked = strings.find(([k]) => k === "profile")?.[1];
    const progress = await inspectProgress(run, rollout, { profile: profileParam(asked) });
    return progress.state === "ready";
  } catch (err) {
    return err instanceof InvalidInputError;
  }
}

async function RolloutContent({
  runId,
  rollout,
  strings,
  loading,
}: {
  runId: string;
  rollout: string;
  strings: Array<[string, string]>;
  loading: ReturnType<typeof load>;
}) {
  const loaded = await loading;
  if ("error" in loaded) {
    // A bad query parameter (?profile=bogus) is a 400: the breadcrumb stays, the message lists the
    // allowed values (lib/http/params), and the rollout opens without the parameter.
    const runHref = `/runs/${encodeURIComponent(runId)}`;
    return (
      <>
        <PageArrived />
        <p className="crumbs">
          <Link href="/">runs</Link> / <Link href={runHref}>{runId}</Link> /{" "}
          <span className="mono">{rollout}</span>
        </p>
        <div className="error-box" role="alert" data-testid="rollout-bad-query">
          <strong>400 · bad query:</strong> {loaded.error}.{" "}
          <Link href={`${runHref}/rollouts/${encodeURIComponent(rollout)}`}>
            Open the rollout without it
          </Link>
        </div>
      </>
    );
  }
  const { run, view, seed, policyPending, trainerLogs } = loaded;
  const asked = strings.find(([k]) => k === "profile")?.[1] || null;
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
        <Suspense fallback={null}>
          <DiffWith run={run} rollout={rollout} profile={view.profile} />
        </Suspense>
      </div>
      <RolloutFactsProvider
        view={view}
        profile={asked}
        policyPending={policyPending}
        trainerLogs={trainerLogs}
      >
        <VerdictBar />
        <RolloutInspector seed={seed} />
      </RolloutFactsProvider>
    </>
  );
}
