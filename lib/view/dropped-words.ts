// "Why this chain"'s dropped line in the call timeline's words: each call left out of the main
// chain counted by why (./sequence-training notDeliveredWhy: "retry dropped", "side call", …),
// so a retry loser reads "1 retry dropped", not "1 quarantined call". Pure.
import type { CallView } from "@/lib/schema";
import { notDeliveredWhy } from "./sequence-training";

/** "1 other chain, 1 retry dropped, 2 side calls", or "nothing" when every call is main's. */
export function droppedWords(
  branchChains: number,
  calls: ReadonlyArray<Pick<CallView, "role" | "quarantine" | "retry">>,
): string {
  const counts = new Map<string, number>();
  for (const c of calls) {
    const why = notDeliveredWhy(c);
    // Branch calls are counted as their chains, below.
    if (why === null || c.role === "branch") continue;
    counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  const parts: string[] = [];
  if (branchChains > 0) parts.push(`${branchChains} other chain${branchChains === 1 ? "" : "s"}`);
  for (const [why, n] of counts) {
    // "side call" and "retry dropped" take a plural on their noun; the others read as states.
    const words =
      n === 1
        ? why
        : why === "side call"
          ? "side calls"
          : why.startsWith("retry ")
            ? `retries ${why.slice(6)}`
            : `calls ${why}`;
    parts.push(`${n} ${words}`);
  }
  return parts.length === 0 ? "nothing" : parts.join(", ");
}
