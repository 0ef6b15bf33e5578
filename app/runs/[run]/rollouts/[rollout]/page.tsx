import Link from "next/link";
import { notFound } from "next/navigation";
import { getRun, type RunLayout } from "@/lib/runs/runs-root";
import { inspectRollout, type RolloutView } from "@/lib/inspect/rollout-model";
import { InvalidInputError, InvalidRolloutIdError, UnknownEntityError } from "@/lib/errors";
import { profileParam } from "@/lib/http/params";
import { VerdictBar } from "@/components/rollout/verdict-bar";
import { RolloutInspector } from "@/components/rollout/rollout-inspector";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

async function load(runId: string, rollout: string, profile: string | undefined): Promise<{ run: RunLayout; view: RolloutView } | { error: string }> {
  try {
    const run = await getRun(runId);
    return { run, view: (await inspectRollout(run, rollout, { profile: profileParam(profile) })).view };
  } catch (err) {
    if (err instanceof UnknownEntityError || err instanceof InvalidRolloutIdError) notFound();
    if (err instanceof InvalidInputError) return { error: err.message };
    throw err;
  }
}

export default async function RolloutPage({ params, searchParams }: { params: Promise<{ run: string; rollout: string }>; searchParams: Promise<Search> }) {
  const { run: runId, rollout } = await params;
  const search = await searchParams;
  const strings = Object.entries(search).filter((e): e is [string, string] => typeof e[1] === "string");
  const loaded = await load(runId, rollout, Object.fromEntries(strings).profile);
  if ("error" in loaded) return <div className="error-box">{loaded.error}</div>;
  const { run, view } = loaded;
  const profileHref = (p: string) => {
    const q = new URLSearchParams(strings);
    q.set("profile", p);
    return `?${q.toString()}`;
  };
  return (
    <>
      <p className="crumbs">
        <Link href="/">runs</Link> / <Link href={`/runs/${encodeURIComponent(run.id)}`}>{run.manifest.name ?? run.id}</Link> / <span className="mono">{rollout}</span>
      </p>
      <VerdictBar view={view} profileHref={profileHref} />
      <RolloutInspector view={view} />
    </>
  );
}
