// The facts of one rollout that both the run table's summary (./summarize) and the inspector's
// model (lib/inspect/build-model) show, each decided here once from (capture, verdict), in the
// reading of the verdict's profile: under gym-v1 what Gym main's freeze reads
// (docs/gym-v1-store.md), otherwise the seed reader's (docs/builder.md). Pure over a finished read;
// reading the files is lib/store's, classifying lib/severity's.
import type { Verdict } from "@/lib/builder";
import type { RolloutRecord, TokenEntry } from "@/lib/schema";
import {
  isOutsideVocabulary,
  mainChainModel,
  type IncompleteFacts,
  type Tombstone,
} from "@/lib/severity";
import type { RolloutCapture } from "@/lib/store";

/** Under gym-v1 the consumer reads the store as Gym's freeze does; the seed reader otherwise. */
export const readsAsGym = (capture: RolloutCapture, v: Verdict): boolean =>
  v.profile === "gym-v1" && (capture.snapshot.gym ?? null) !== null;

/** The store has Gym's lifecycle files: a `state.json` (readable or not) or an intents file. */
export const hasLifecycleFiles = (capture: RolloutCapture): boolean =>
  capture.lifecycle.state !== "absent" || capture.intents !== null;

/**
 * The entries the verdict was decided from, with their 1-based lines. Under gym-v1, those Gym's
 * freeze read (any integer id, its own torn tail), also when it failed after reading them: the
 * calls are listed, every one excluded. When the freeze failed before reading any entry (state,
 * index offset, tail), the token store's read stands in, so the file's calls are still counted.
 */
export function decidedEntries(
  capture: RolloutCapture,
  v: Verdict,
): { entries: readonly TokenEntry[]; lines: readonly number[] } {
  const gym = capture.snapshot.gym;
  if (gym && readsAsGym(capture, v) && (gym.error === null || gym.entries.length > 0))
    return { entries: gym.entries, lines: capture.gymEntryLines };
  return { entries: capture.snapshot.entries, lines: capture.entryLines };
}

/**
 * The token file's read error as the profile's consumer meets it: under gym-v1 only when Gym's
 * read fails too (it keeps ids and drops torn lines the seed reader refuses), never a tombstone.
 */
export function readErrorOf(capture: RolloutCapture, v: Verdict): string | null {
  const { snapshot: snap } = capture;
  if (!readsAsGym(capture, v)) return snap.readError;
  const gym = snap.gym;
  return gym && gym.error !== null && !gym.retired ? snap.readError : null;
}

/**
 * Intents without an entry, in intents-file order. Gym main has no cancel rule: under gym-v1 a
 * `-c2` line is one more intent (dangling unless an entry is called `-c2`), and intents the
 * freeze never reached (it failed first) dangle nowhere. The seed reader cancels `-id` lines.
 */
export function danglingIntentsOf(capture: RolloutCapture, v: Verdict): readonly string[] {
  return readsAsGym(capture, v)
    ? capture.lifecycle.intents.dangling
    : capture.snapshot.danglingIntents;
}

/** What a retired tombstone recorded, when the profile's consumer answers it as retired. */
export function tombstoneOf(capture: RolloutCapture, v: Verdict): Tombstone | null {
  const { lifecycle: lc, snapshot, state } = capture;
  // Gym answers any truthy `retired` as a tombstone, its token file deleted yet or not.
  if (readsAsGym(capture, v))
    return lc.retired
      ? { frozen: lc.frozen, snapshot_id: lc.snapshotId ?? "", version: lc.storedVersion ?? 0 }
      : null;
  return snapshot.retired && state
    ? { frozen: state.frozen, snapshot_id: state.snapshot_id, version: state.version }
    : null;
}

/** Why the snapshot is incomplete, in the profile's reading of the store. */
export function incompleteOf(capture: RolloutCapture, v: Verdict): IncompleteFacts {
  const snap = capture.snapshot;
  return {
    dangling_intents: danglingIntentsOf(capture, v),
    lost_calls: (snap.incompleteMarker ?? []).filter((l) => l.trim() !== ""),
    // Gym reads `incomplete` with Python truthiness (`1` is true); the seed schema's boolean else.
    state_flag: readsAsGym(capture, v) ? capture.lifecycle.stateIncomplete : snap.stateIncomplete,
  };
}

/**
 * How many prompt tokens each built call takes over from its parent (the parent's flattened
 * length, at most the call's own prompt); unbuilt calls inherit nothing.
 */
export function inheritedLengths(v: Verdict): Map<string, number> {
  const nodes = v.build?.nodes ?? [];
  const inherited = new Map<string, number>();
  for (const n of nodes) {
    const parent = n.parent >= 0 ? nodes[n.parent] : undefined;
    const own = n.entry.prompt_token_ids.length;
    inherited.set(n.entry.model_call_id, parent ? Math.min(parent.cumLen, own) : 0);
  }
  return inherited;
}

/**
 * Token ids of the entries that no vocabulary holds: past int32 by default, or whatever `outside`
 * says (the inspector also asks the run's tokenizer). A call's inherited prompt prefix is its
 * parent's tokens again, so only its own prompt tail and its generation are counted.
 */
export function countOutsideIds(
  entries: readonly TokenEntry[],
  inherited: ReadonlyMap<string, number>,
  outside: (id: number) => boolean = (id) => isOutsideVocabulary(id),
): number {
  let n = 0;
  for (const e of entries) {
    const prompt = e.prompt_token_ids;
    for (let i = inherited.get(e.model_call_id) ?? 0; i < prompt.length; i++)
      if (outside(prompt[i] as number)) n++;
    for (const id of e.generation_token_ids) if (outside(id)) n++;
  }
  return n;
}

/** The main chain's model, by generated tokens (quarantined calls are not on a chain). */
export function mainModelOf(v: Verdict): string | null {
  const build = v.build;
  const main = build?.chains.find((c) => c.chain_id === "main");
  if (!build || !main) return null;
  const calls = main.nodes.flatMap((i) => {
    const n = build.nodes[i];
    if (!n || n.quarantine) return [];
    return [
      {
        requested_model: n.entry.requested_model || null,
        model: n.entry.model,
        generated: n.entry.generation_token_ids.length,
      },
    ];
  });
  return mainChainModel(calls);
}

/**
 * Any token-capture evidence: a token file with something in it, a state or intents file, the
 * lost-call marker, or the record's `_ng_token_capture`. An empty token file holds no capture: the
 * consumer builds nothing from it (docs/builder.md §5, rule 1).
 */
export function hasCapture(capture: RolloutCapture, record: RolloutRecord | null): boolean {
  const file =
    capture.hasTokenFile &&
    (capture.snapshot.entries.length > 0 || capture.issues.length > 0 || capture.snapshot.tornTail);
  const store = file || capture.state !== null || capture.intents !== null;
  return (
    store ||
    capture.snapshot.incompleteMarker !== null ||
    (record?._ng_token_capture ?? null) !== null
  );
}

/** What the store recorded beyond the verdict: a retired tombstone, incompleteness, token counts. */
export function storeFacts(capture: RolloutCapture, v: Verdict) {
  const notes = v.build?.notes;
  return {
    tombstone: tombstoneOf(capture, v),
    incomplete: incompleteOf(capture, v),
    generated_tokens: notes
      ? { captured: notes.generated_tokens_captured, delivered: notes.generated_tokens_delivered }
      : null,
  };
}
