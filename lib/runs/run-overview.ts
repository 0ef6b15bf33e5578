// The small per-run facts the home page lists; cheap (a directory listing, no token arrays).
import { listStore } from "@/lib/store";
import type { RunLayout } from "./runs-root";

export interface RunOverview {
  id: string;
  name: string;
  description: string;
  capture: "on" | "off" | null;
  builderProfile: string;
  manifestError: string | null;
  /** Rollouts with files in the token store. */
  storeRollouts: number;
  hasRolloutRecords: boolean;
  hasMetrics: boolean;
}

export async function describeRun(run: RunLayout): Promise<RunOverview> {
  const listing = run.tokensDir ? await listStore(run.tokensDir) : null;
  let storeRollouts = 0;
  for (const files of listing?.rollouts.values() ?? []) {
    if (files.tokens !== undefined || files.incomplete !== undefined || files.intents !== undefined || files.state !== undefined) storeRollouts++;
  }
  return {
    id: run.id,
    name: run.manifest.name ?? run.id,
    description: run.manifest.description ?? "",
    capture: run.manifest.capture ?? (run.tokensDir ? "on" : null),
    builderProfile: run.manifest.builder_profile ?? "seed",
    manifestError: run.manifestError,
    storeRollouts,
    hasRolloutRecords: run.rolloutsFile !== null,
    hasMetrics: run.metricsFile !== null,
  };
}
