// The runs a side of a comparison names: `a=r1,r2,r3` lists seeds; one run whose run.json has a
// seed_group stands for every run of the root with that seed_group (the named run first, leading
// the side). Not responsible for reading the runs' scalars or testing them (./load, ./seed-groups).
import "server-only";
import { InvalidInputError } from "@/lib/errors";
import { getRun, type RunLayout } from "@/lib/runs";
import type { ComparisonSide, RunRef } from "@/lib/schema";

/** Most runs one side may list or a seed group may hold: each is read whole. */
export const MAX_SIDE_RUNS = 32;

export interface Side {
  runs: RunLayout[];
  from: ComparisonSide["from"];
  seed_group: string | null;
}

/** The ids of a comma-separated list, trimmed, empty items and repeats dropped, in order. */
export function sideIds(raw: string): string[] {
  return [...new Set(raw.split(",").map((s) => s.trim()))].filter((s) => s !== "");
}

function tooMany(what: string, n: number): InvalidInputError {
  return new InvalidInputError(
    `${what} has ${n} runs; a side of a comparison takes at most ${MAX_SIDE_RUNS}`,
  );
}

/** The side `raw` names, reading each run (UnknownRunError naming the id that is not a run). */
export async function resolveSide(raw: string, all: readonly RunLayout[]): Promise<Side> {
  const ids = sideIds(raw);
  if (ids.length === 0) throw new InvalidInputError("compare needs two runs: ?a=<run>&b=<run>");
  if (ids.length > MAX_SIDE_RUNS) throw tooMany("the list", ids.length);
  const runs = await Promise.all(ids.map((id) => getRun(id)));
  const [lead] = runs as [RunLayout];
  const group = lead.manifest.seed_group;
  if (runs.length > 1 || !group)
    return { runs, from: runs.length > 1 ? "list" : "run", seed_group: null };
  const members = all.filter((r) => r.manifest.seed_group === group && r.id !== lead.id);
  if (members.length + 1 > MAX_SIDE_RUNS)
    throw tooMany(`seed_group ${JSON.stringify(group)}`, members.length + 1);
  return { runs: [lead, ...members], from: "seed_group", seed_group: group };
}

/** A side as the response carries it, with `label`: its seed group, else its run's id, else
 * its runs' ids in braces. */
export function sideRef(side: Side, ref: (r: RunLayout) => RunRef): ComparisonSide {
  return {
    runs: side.runs.map(ref),
    from: side.from,
    seed_group: side.seed_group,
    label:
      side.seed_group ??
      (side.runs.length === 1 ? side.runs[0]!.id : `{${side.runs.map((r) => r.id).join(", ")}}`),
  };
}
