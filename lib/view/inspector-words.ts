// The rollout inspector's sentences: the rule that picked the main chain, how the other builder
// profile's verdict differs, why a call was left out of the build, and an output item as text.
// Pure wording over facts the server computed; not responsible for deciding any of them.
import type { OtherProfileVerdict, RolloutView } from "@/lib/schema";
import { maskReasonWords } from "./mask-reasons";

export function mainRule(profile: "seed" | "gym-v1"): RolloutView["main_rule"] {
  return profile === "seed"
    ? {
        rule: "generated_mass",
        text: "the chain with the most generated tokens; ties go to the longer root prompt, then the greater root call id, then the earlier chain.",
      }
    : {
        rule: "earliest_root",
        text: "the chain whose root call was created first (created_at); ties go to the smaller root call id.",
      };
}

/** "gym-v1 decides the same", or each way the other profile's verdict differs from this one. */
export function otherProfileSummary(
  current: OtherProfileVerdict,
  other: OtherProfileVerdict,
): { differs: boolean; summary: string } {
  const reasons = (v: OtherProfileVerdict) => v.mask_reasons.map(maskReasonWords).join(", ");
  const diffs: string[] = [];
  if (current.mask_sample !== other.mask_sample) {
    diffs.push(
      other.mask_sample ? `would mask (${reasons(other) || other.error})` : "would train on it",
    );
  } else if (other.mask_reasons.join() !== current.mask_reasons.join()) {
    diffs.push(`gives other reasons: ${reasons(other) || "none"}`);
  }
  if (other.error && other.error !== current.error) diffs.push(`reports ${other.error}`);
  if (other.main_calls.join() !== current.main_calls.join()) {
    const n = other.main_calls.length;
    diffs.push(
      n === 0
        ? "would deliver no chain"
        : `would pick a different main chain (${n} call${n === 1 ? "" : "s"})`,
    );
  }
  const summary =
    diffs.length > 0 ? `${other.profile} ${diffs.join("; ")}` : `${other.profile} decides the same`;
  return { differs: diffs.length > 0, summary };
}

/** Why a call with a token entry is not a node of the build. */
export function excludedReason(cause: "empty_generation" | "build_failed" | "not_built"): string {
  if (cause === "empty_generation") return "empty generation (excluded before chaining)";
  return cause === "build_failed"
    ? "not built: the rollout failed to build"
    : "not part of the build";
}

const texts = (v: unknown): string =>
  Array.isArray(v)
    ? v
        .map((s: unknown) =>
          s !== null && typeof s === "object" && "text" in s && typeof s.text === "string"
            ? s.text
            : "",
        )
        .join("\n")
    : "";

/** An output item as the detail pane shows it: reasoning and messages as text, a tool call as `name(args)`. */
export function outputItemText(item: Readonly<Record<string, unknown>>): {
  type: string;
  text: string;
} {
  const type = typeof item.type === "string" ? item.type : "item";
  if (type === "reasoning") return { type, text: texts(item.summary) };
  if (type === "message") return { type, text: texts(item.content) };
  if (type === "function_call") {
    const name = typeof item.name === "string" ? item.name : "?";
    return { type, text: `${name}(${typeof item.arguments === "string" ? item.arguments : ""})` };
  }
  return { type, text: JSON.stringify(item, null, 2) };
}
