// The facts of one rollout the severity model needs beyond the verdict (lib/severity): dangling
// intents placed after the call they followed, the main chain's model, token ids outside any
// vocabulary, and what a retired tombstone or an incomplete store recorded.
// Not responsible for classifying (lib/severity) or for the words (lib/view).
import type { Verdict } from "@/lib/builder";
import type { CallView, DanglingIntent, RolloutView } from "@/lib/schema/api-rollout";
import type { TokenEntry } from "@/lib/schema";
import { isOutsideVocabulary, mainChainModel } from "@/lib/severity";
import type { RolloutCapture } from "@/lib/store";
import type { TokenDecoder } from "@/lib/tokens/decoder";

/**
 * Intent ids with no token entry, in intents-file order, each after the nearest earlier intent
 * that has an entry (null when none before it has one).
 */
export function danglingIntents(
  intentIds: readonly string[] | null,
  recorded: { has(id: string): boolean },
): DanglingIntent[] {
  const out: DanglingIntent[] = [];
  let last: string | null = null;
  for (const id of intentIds ?? []) {
    if (recorded.has(id)) last = id;
    else out.push({ model_call_id: id, after_call: last });
  }
  return out;
}

/** The model the main chain's calls come from (by generated tokens); null without a main chain. */
export function mainModelOf(calls: readonly CallView[]): string | null {
  const main = calls.filter((c) => c.role === "main");
  return mainChainModel(
    main.map((c) => ({
      requested_model: c.requested_model,
      model: c.model,
      generated: c.generated_len,
    })),
  );
}

/**
 * Token ids of the entries outside any vocabulary: past int32, or unknown to the run's tokenizer.
 * Each call's inherited prefix is its parent's tokens again, so only its own prompt tail
 * (`inherited[k]` tokens skipped) and its generation are counted.
 */
export function countOutsideIds(
  entries: readonly TokenEntry[],
  inherited: ReadonlyMap<string, number>,
  decoder: TokenDecoder | null,
): number {
  const unknown = new Map<number, boolean>();
  const outside = (id: number): boolean => {
    let hit = unknown.get(id);
    if (hit === undefined) {
      hit = isOutsideVocabulary(id) || (decoder !== null && decoder.piece(id).kind === "unknown");
      unknown.set(id, hit);
    }
    return hit;
  };
  let n = 0;
  for (const e of entries) {
    const prompt = e.prompt_token_ids;
    for (let i = inherited.get(e.model_call_id) ?? 0; i < prompt.length; i++) {
      if (outside(prompt[i] as number)) n++;
    }
    for (const id of e.generation_token_ids) if (outside(id)) n++;
  }
  return n;
}

type StoreFacts = Pick<RolloutView, "tombstone" | "incomplete" | "generated_tokens">;

/** The tombstone (when retired), the store's incompleteness and the builder's token counts. */
export function storeFacts(capture: RolloutCapture, verdict: Verdict): StoreFacts {
  const { snapshot, state } = capture;
  const notes = verdict.build?.notes ?? null;
  return {
    tombstone:
      snapshot.retired && state
        ? { frozen: state.frozen, snapshot_id: state.snapshot_id, version: state.version }
        : null,
    incomplete: {
      lost_calls: (snapshot.incompleteMarker ?? []).filter((l) => l.trim() !== ""),
      state_flag: snapshot.stateIncomplete,
    },
    generated_tokens: notes
      ? { captured: notes.generated_tokens_captured, delivered: notes.generated_tokens_delivered }
      : null,
  };
}
