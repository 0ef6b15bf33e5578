// What the inspector offers to diff a rollout with: the other attempts `R-aN` of the same rollout
// in its token store (docs/gym-v1-store.md §6), and the same rollout id (task and index) in the
// root's other runs, listed without reading them. Not responsible for the other builder profile's
// chain (the page links the same rollout under that profile).
import "server-only";
import path from "node:path";
import type { RunLayout } from "@/lib/runs";
import { attemptOf, fileVersion, listStore, listSubdirectories } from "@/lib/store";

/** Runs named at most: a root of many A/B runs would otherwise fill the inspector's head. */
export const OTHER_RUNS_SHOWN = 4;

/** The rollout's attempt group but itself (base first, then by N); empty without attempts. */
export async function otherAttempts(run: RunLayout, rolloutId: string): Promise<string[]> {
  if (!run.tokensDir) return [];
  const base = attemptOf(rolloutId)?.base ?? rolloutId;
  const listing = await listStore(run.tokensDir);
  return (listing.attempts.get(base) ?? []).filter(
    (id) => id !== rolloutId && listing.rollouts.has(id),
  );
}

/**
 * The root's other run directories whose `tokens/` holds this rollout id (the same task and index,
 * as a compare pairs them), by name; at most OTHER_RUNS_SHOWN, and how many there are in all. One
 * listing of the root and a stat per run: no run.json, trainer log or database is read, so the
 * inspector's page never waits on them (a run keeping its store elsewhere is not offered).
 */
export async function sameRolloutElsewhere(
  run: RunLayout,
  rolloutId: string,
): Promise<{ runs: string[]; total: number }> {
  const others = (await listSubdirectories(run.root)).filter((n) => n !== run.id).sort();
  const held = await Promise.all(
    others.map(async (name) => {
      const file = path.join(run.root, name, "tokens", `${rolloutId}.tokens.jsonl`);
      return (await fileVersion(file).catch(() => "-")) !== "-";
    }),
  );
  const runs = others.filter((_, i) => held[i]);
  return { runs: runs.slice(0, OTHER_RUNS_SHOWN), total: runs.length };
}
