// One rule for "trained": a generated (mask 1) token is called trained only when it is in the
// delivered main chain of a trained rollout. Every view that names or colours generated tokens
// (segment headers, the token info line, the legend, the token colours, the conversation's
// legend) asks this, per viewed sequence: the main chain, a branch chain, or one call shown alone
// (`call:<id>`, judged by that call's role). Pure: words and a flag, no colours.
import type { CallView } from "@/lib/schema";
import type { SeverityState } from "@/lib/severity";

export interface SequenceTraining {
  /** Mask-1 tokens of this sequence are trained on. */
  trained: boolean;
  /** Known not trained (false while the verdict is pending: then nothing is claimed either way). */
  notTrained: boolean;
  /** Why not, in the timeline's words ("retry dropped", "branch dropped", …); null when trained. */
  why: string | null;
  /**
   * The generated tokens' words: "trained", "trained with warnings", "not trained (…)", or, in a
   * masked rollout (which trains nothing, and whose views never say "trained"), "excluded: …";
   * "" while the verdict is pending.
   */
  words: string;
}

type CallRoles = ReadonlyMap<string, Pick<CallView, "role" | "quarantine" | "retry">>;

/** Why a call's own tokens are not delivered, in the timeline's words; null for a main-chain call. */
export function notDeliveredWhy(c: Pick<CallView, "role" | "quarantine" | "retry">): string | null {
  switch (c.role) {
    case "main":
      return null;
    case "branch":
      return "branch dropped";
    case "side_call":
      return "side call";
    case "quarantined":
      if (c.quarantine === "retry_dropped")
        return c.retry === "unresolved" ? "retry unresolved" : "retry dropped";
      return "quarantined";
    case "excluded":
      return "excluded";
    case "unchained":
      return "not in a chain";
  }
}

/**
 * Whether the generated tokens of `sequence` ("main", a branch chain id, or `call:<id>`) are
 * trained on, and the words for them. A masked rollout trains nothing; a pending one claims
 * nothing; otherwise only the main chain and a main-chain call shown alone are trained. A branch
 * chain walks up to its root through main-chain calls: given `segmentCall`, the call whose tokens
 * are asked about, a main-chain call's tokens in a branch are trained (they are main's tokens).
 */
export function sequenceTraining(
  severity: SeverityState,
  sequence: string,
  calls: CallRoles,
  segmentCall?: string | null,
): SequenceTraining {
  const not = (why: string): SequenceTraining => ({
    trained: false,
    notTrained: true,
    why,
    words: `not trained (${why})`,
  });
  let why: string | null;
  if (sequence === "main") why = null;
  else if (sequence.startsWith("call:")) {
    const c = calls.get(sequence.slice(5));
    why = c ? notDeliveredWhy(c) : "not in the delivered chain";
  } else
    why =
      segmentCall !== undefined && segmentCall !== null && calls.get(segmentCall)?.role === "main"
        ? null
        : "branch dropped";
  // A masked rollout trains nothing: its views say excluded, never the word trained.
  if (severity === "masked")
    return {
      trained: false,
      notTrained: true,
      why: "rollout masked",
      words: "excluded: rollout masked",
    };
  if (why !== null) return not(why);
  if (severity === "pending") return { trained: false, notTrained: false, why: null, words: "" };
  return {
    trained: true,
    notTrained: false,
    why: null,
    words: severity === "trained" ? "trained" : "trained with warnings",
  };
}
