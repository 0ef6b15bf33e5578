// Verdicts for every rollout of a run's token store, built on the fly. Fine for small runs;
// the summary index replaces this for large ones.
import { toVerdictRow, type VerdictRow } from "@/lib/builder";
import { listStore } from "@/lib/store";
import { buildRollout } from "./build-rollout";
import type { RunLayout } from "./runs-root";

export async function runVerdicts(run: RunLayout, limit = 500): Promise<{ rows: VerdictRow[]; total: number }> {
  if (!run.tokensDir) return { rows: [], total: 0 };
  const ids = [...(await listStore(run.tokensDir)).rollouts.keys()];
  const rows: VerdictRow[] = [];
  for (const id of ids.slice(0, limit)) {
    const { verdict } = await buildRollout(run.tokensDir, id, { profile: run.manifest.builder_profile ?? "seed", sideCallPatterns: run.manifest.side_call_patterns });
    rows.push(toVerdictRow(verdict, { includeMain: false }));
  }
  return { rows, total: ids.length };
}
