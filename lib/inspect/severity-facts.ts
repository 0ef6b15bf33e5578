// What only the inspector adds to a rollout's facts: where each dangling intent sits among the
// calls, and the run's tokenizer as a second test of an id's vocabulary. The facts themselves are
// lib/rollout/facts' (the run table's too); classifying is lib/severity's, words lib/view's.
import type { DanglingIntent } from "@/lib/schema";
import { isOutsideVocabulary } from "@/lib/severity";
import type { TokenDecoder } from "@/lib/tokens";

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

/**
 * An id outside every vocabulary: past int32, or unknown to the run's tokenizer (each id asked
 * once). For lib/rollout/facts' countOutsideIds.
 */
export function outsideVocabulary(decoder: TokenDecoder | null): (id: number) => boolean {
  const unknown = new Map<number, boolean>();
  return (id) => {
    let hit = unknown.get(id);
    if (hit === undefined) {
      hit = isOutsideVocabulary(id) || (decoder !== null && decoder.piece(id).kind === "unknown");
      unknown.set(id, hit);
    }
    return hit;
  };
}
