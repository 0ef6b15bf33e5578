// What the run page says about a search of the rollouts' text: each hit's kind, how much of the
// run's text is indexed while the index still runs (a partial answer never reads as complete),
// and a search that found nothing, in words. Pure; the query's parsing is lib/index/search's and
// a hit's link is ./rollout-nav's.
import type { TextKindName } from "@/lib/schema";

/** Where a hit's text comes from, as the hit line names it. */
export const TEXT_KIND_WORDS: Record<TextKindName, string> = {
  generated: "generated",
  input: "tool or user input",
  error: "error body",
};

/** The parser's kind letters (lib/index/search/parse) as the words of a sentence. */
const WHERE: Record<string, string> = {
  g: "generated text",
  i: "input (tool output, user turns)",
  e: "error bodies",
};

const n = (x: number) => x.toLocaleString("en-US");
const quoted = (s: string) => `“${s}”`;

function listed(words: readonly string[], joint: "and" | "or"): string {
  if (words.length <= 1) return words[0] ?? "";
  return `${words.slice(0, -1).join(", ")} ${joint} ${words.at(-1)}`;
}

/**
 * While the index runs: how many rollouts' text a search looks through so far, of the run's
 * `total` rollouts. Null once the index is complete (`total` null).
 */
export function textIndexedWords(indexed: number, total: number | null): string | null {
  if (total === null) return null;
  return `${n(Math.min(indexed, total))} of ${n(total)} rollouts' text indexed so far: a search lists matches among those only`;
}

/**
 * A search with no row: which text no rollout holds (the parsed query's lower-cased `needles`,
 * restricted to `kinds` letters when given), and whether other filters narrowed the rollouts.
 */
export function noTextMatchWords(
  q: { needles: readonly string[]; kinds: readonly string[] | null },
  otherFilters: boolean,
): string {
  const what = listed(q.needles.map(quoted), "and");
  const where = q.kinds
    ? ` in ${listed(
        q.kinds.map((k) => WHERE[k] ?? k),
        "or",
      )}`
    : "";
  const among = otherFilters ? " among the rollouts the other filters select" : "";
  if (q.needles.length === 0) return `No rollout has ${where.slice(4)}${among}.`;
  return `No rollout's text contains ${what}${where}${among}.`;
}
