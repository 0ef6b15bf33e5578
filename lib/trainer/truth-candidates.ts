// The truth check's candidates for one step: the step's rollouts in rollouts.jsonl order, each built
// by the shared builder (lib/rollout buildRollout) into its projected main chain and the chain's
// generating calls (./hotspots joined), and a rollout's routes read again on demand, one at a time
// (a step's routes together could be gigabytes, docs/experts.md "Memory"). Not responsible for
// joining (./truth-join) or classifying.
import "server-only";
import { toVerdictRow } from "@/lib/builder";
import type { Routes } from "@/lib/experts";
import { recordsOf, withSyncedRecords } from "@/lib/index";
import { buildRollout, rolloutSourceOf } from "@/lib/rollout";
import type { RunLayout } from "@/lib/runs";
import {
  addJoined,
  chainCallsOf,
  chainRoutesOf,
  emptyJoined,
  type ChainCalls,
  type JoinedTally,
} from "./hotspots/pure";
import { tokenErrors } from "./mismatch";
import type { StepSample } from "./step-data";
import type { TruthCandidate, TruthJoin } from "./truth-join";

type Main = NonNullable<TruthCandidate["main"]>;
export type StepRecord = NonNullable<ReturnType<ReturnType<typeof recordsOf>["get"]>>["record"];

/** Only this step's records, by id from the index's records table (ids come from it too). */
export async function stepRecords(run: RunLayout, ids: readonly string[]) {
  const records: ReturnType<typeof recordsOf> =
    ids.length > 0 ? await withSyncedRecords(run, (db) => recordsOf(db, ids)) : new Map();
  return ids.map((id): [string, StepRecord | null] => [id, records.get(id)?.record ?? null]);
}

const buildOf = (run: RunLayout, id: string, record: StepRecord | null) =>
  buildRollout({ ...rolloutSourceOf(run), record }, id, {
    profile: run.manifest.builder_profile ?? "auto",
    sideCallPatterns: run.manifest.side_call_patterns,
  });

export interface Candidates {
  candidates: TruthCandidate[];
  /** Each rollout's main chain calls, by id (absent: no main chain). */
  calls: Map<string, ChainCalls>;
}

/** The step's rollouts in rollouts.jsonl order, each with its projected main chain. */
export async function candidatesOf(
  run: RunLayout,
  ids: readonly string[],
  records: ReadonlyMap<string, StepRecord | null>,
): Promise<Candidates> {
  const candidates: TruthCandidate[] = [];
  const calls = new Map<string, ChainCalls>();
  for (const id of ids) {
    const record = records.get(id) ?? null;
    let main: Main | null = null;
    if (run.tokensDir) {
      const built = await buildOf(run, id, record);
      main = built.capture.hasTokenFile ? toVerdictRow(built.verdict).main : null;
      const c = main ? chainCallsOf(built.verdict) : null;
      if (c) calls.set(id, c);
    }
    candidates.push({ rolloutId: id, agentName: record?.agent_ref?.name ?? null, main });
  }
  return { candidates, calls };
}

/** The routes of each call of a rollout's main chain, read again (the candidates keep none). */
export async function mainRoutesOf(
  run: RunLayout,
  id: string,
  record: StepRecord | null,
): Promise<Array<Routes | null>> {
  return chainRoutesOf((await buildOf(run, id, record)).verdict);
}

/**
 * The step's turns and MoE layers (docs/hotspots.md): each joined sample's trained tokens against
 * its rollout's main chain, up to where the two differ. Samples go by rollout, so a routed
 * rollout's routes are read once and dropped before the next one's.
 */
export async function joinedOfStep(
  run: RunLayout,
  samples: readonly StepSample[],
  joins: readonly TruthJoin[],
  calls: ReadonlyMap<string, ChainCalls>,
  records: ReadonlyMap<string, StepRecord | null>,
): Promise<JoinedTally> {
  const joined = emptyJoined();
  const order = samples.map((_, k) => k);
  const idOf = (k: number) => joins[k]?.rolloutId ?? "";
  order.sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : a - b));
  let read: { id: string; routes: Array<Routes | null> } = { id: "", routes: [] };
  for (const k of order) {
    const [s, j] = [samples[k] as StepSample, joins[k] as TruthJoin];
    const c = j.rolloutId === null ? null : (calls.get(j.rolloutId) ?? null);
    if (c?.routed && j.rolloutId !== null && read.id !== j.rolloutId)
      read = {
        id: j.rolloutId,
        routes: await mainRoutesOf(run, j.rolloutId, records.get(j.rolloutId) ?? null),
      };
    const limit =
      j.cls === "no_capture" ? 0 : j.cls === "tokens_differ" ? (j.firstDiff ?? 0) : Infinity;
    const routes = c?.routed && read.id === j.rolloutId ? read.routes : [];
    addJoined(joined, { sample: s, errors: tokenErrors(s), limit, calls: c, routes });
  }
  return joined;
}
