// The inspector's severity facts beyond the verdict: dangling intents placed after the call they
// followed, the main chain's model, ids outside any vocabulary (the tokenizer asked too), the
// tombstone and incompleteness. Which of them hold is lib/runs/lifecycle-facts' (the run table's
// too); classifying is lib/severity's, the words lib/view's.
import type { Verdict } from "@/lib/builder";
import { countOutsideIds as countIds, incompleteOf, tombstoneOf } from "@/lib/runs/lifecycle-facts";
import type { CallView, DanglingIntent, RolloutView } from "@/lib/schema/api-rollout";
import type { TokenEntry } from "@/lib/schema";
import { isOutsideVocabulary, mainChainModel } from "@/lib/severity";
import type { RolloutCapture } from "@/lib/store";
import type { TokenDecoder } from "@/lib/tokens/decoder";

/**
 * The `dangling` intent ids (in intents-file order), each after the nearest earlier intent in
 * `order` that has an entry (null when none before it has one). An id `order` does not hold (the
 * seed reader's order drops `-id` lines and the ids they cancel, which Gym keeps) follows the
 * dangling intent before it, or the last recorded intent when it is the first.
 */
export function danglingIntents(
  dangling: readonly string[],
  order: readonly string[] | null,
  recorded: { has(id: string): boolean },
): DanglingIntent[] {
  const after = new Map<string, string | null>();
  let last: string | null = null;
  for (const id of order ?? []) {
    if (recorded.has(id)) last = id;
    else if (!after.has(id)) after.set(id, last);
  }
  let previous: string | null = last;
  return dangling.map((id) => {
    const at = after.has(id) ? (after.get(id) ?? null) : previous;
    previous = at;
    return { model_call_id: id, after_call: at };
  });
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
 * (`inherited[k]` tokens skipped) and its generation are counted (lib/runs/lifecycle-facts).
 */
export function countOutsideIds(
  entries: readonly TokenEntry[],
  inherited: ReadonlyMap<string, number>,
  decoder: TokenDecoder | null,
): number {
  const unknown = new Map<number, boolean>();
  return countIds(entries, inherited, (id) => {
    let hit = unknown.get(id);
    if (hit === undefined) {
      hit = isOutsideVocabulary(id) || (decoder !== null && decoder.piece(id).kind === "unknown");
      unknown.set(id, hit);
    }
    return hit;
  });
}

type StoreFacts = Pick<RolloutView, "tombstone" | "incomplete" | "generated_tokens">;

/** The tombstone (when retired), the store's incompleteness and the builder's token counts. */
export function storeFacts(capture: RolloutCapture, verdict: Verdict): StoreFacts {
  const notes = verdict.build?.notes ?? null;
  const { lost_calls, state_flag } = incompleteOf(capture, verdict);
  return {
    tombstone: tombstoneOf(capture, verdict),
    incomplete: { lost_calls: [...lost_calls], state_flag },
    generated_tokens: notes
      ? { captured: notes.generated_tokens_captured, delivered: notes.generated_tokens_delivered }
      : null,
  };
}
