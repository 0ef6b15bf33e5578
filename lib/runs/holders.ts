// Directories of the runs root that hold runs rather than being one: a NeMo-RL log directory of
// experiments (./experiments) or a directory whose MLflow database holds several runs
// (./database-runs). The root's listing shows the runs they hold in their place; the run page of
// such a directory lists and links them. Read-only.
import "server-only";
import path from "node:path";
import { isDirectory, isValidRolloutId as isValidRunId } from "@/lib/store";
import type { RunManifest } from "@/lib/schema";
import { databaseRunsOf } from "./database-runs";
import { experimentRunId, experimentRunName, experimentsOf } from "./experiments";

/** A run a directory of the root holds: an experiment of a log directory, or a database's run. */
export interface Held {
  id: string;
  dir: string;
  name?: string;
  /** run.json fields the run stands for (a database's run: which one, and where the file is). */
  manifest?: RunManifest;
}

/** The runs the root's directory `name` holds; none when it is a run itself (or holds none). */
export async function heldRunsOf(root: string, name: string): Promise<Held[]> {
  const dir = path.join(/*turbopackIgnore: true*/ root, name);
  const exps = await experimentsOf(dir);
  if (exps.length > 0)
    return exps.map((exp) => ({
      id: experimentRunId(name, exp),
      dir: path.join(dir, exp),
      name: experimentRunName(name, exp),
    }));
  const dbRuns = await databaseRunsOf(name, dir);
  return dbRuns.map((r) => ({ id: r.id, dir, name: r.name, manifest: r.manifest }));
}

/** The runs `id` holds when it names such a directory of `root`, else null (a run, or nothing). */
export async function runsHeldBy(
  id: string,
  root: string,
): Promise<Array<{ id: string; name: string }> | null> {
  if (!isValidRunId(id) || !(await isDirectory(path.join(/*turbopackIgnore: true*/ root, id))))
    return null;
  const held = await heldRunsOf(root, id);
  return held.length > 0 ? held.map((h) => ({ id: h.id, name: h.name ?? h.id })) : null;
}
