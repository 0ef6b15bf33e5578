// Find within one sequence of an inspected rollout (docs/routes.md, the find route): the sequence's
// ids decoded once as one folded text with the run's tokenizer (./fold-case, on a store worker),
// kept per model, then the query looked for as literal text with case ignored; each match is
// placed back on the tokens it covers and the call holding its first. Not responsible for the
// run-wide search (lib/index/search) or for moving the views to a match (components/rollout).
import { InvalidInputError } from "@/lib/errors";
import type { FindResult, TextKindName } from "@/lib/schema";
import { tokenizerNeeded } from "@/lib/text";
import { tokenAt } from "@/lib/tokens";
import type { ProfileChoice } from "@/lib/builder";
import type { RunLayout } from "@/lib/runs";
import type { RolloutModel } from "./model";
import { foldCase, type FoldedText } from "./fold-case";
import { foldedTextOffThread } from "./model-pool";
import { rolloutModel } from "./rollout-model";
import { sequenceParts } from "./token-window";

/** Matches listed at most; past it they are counted (`total`) and `truncated` says so. */
export const FIND_CAP = 10_000;
/** The longest query: a find box's text, not a document. */
export const MAX_FIND_QUERY = 1_000;

/** Where a sequence's parts start, their calls and whether they are generated. */
export interface PartAt {
  start: number;
  call: string;
  kind: TextKindName;
}

/** A sequence as find reads it: its folded text, token starts and parts. */
export interface FindText extends FoldedText {
  parts: PartAt[];
}

/** The part holding position `pos` (the last that starts at or before it). */
function partAt(parts: readonly PartAt[], pos: number): PartAt | undefined {
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((parts[mid] as PartAt).start <= pos) lo = mid;
    else hi = mid - 1;
  }
  return parts[lo];
}

/**
 * Every match of `query` in the text, in order and not overlapping: its tokens [start, end) (a
 * match that begins inside a byte-level group, whose tokens share one start, begins at the group's
 * first token) and the call and kind of the part holding its first token.
 */
export function matchesIn(
  text: FindText,
  query: string,
  cap = FIND_CAP,
): Pick<FindResult, "matches" | "total" | "truncated"> {
  const needle = foldCase(query);
  const matches: FindResult["matches"] = [];
  let total = 0;
  if (needle === "") return { matches, total, truncated: false };
  const { folded, starts } = text;
  for (let at = folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + needle.length)) {
    total++;
    if (matches.length >= cap) continue;
    let start = tokenAt(starts, at);
    while (start > 0 && starts[start - 1] === starts[start]) start--;
    const end = tokenAt(starts, at + needle.length - 1) + 1;
    const part = partAt(text.parts, start);
    matches.push({ start, end, call: part?.call ?? "", kind: part?.kind ?? "input" });
  }
  return { matches, total, truncated: total > matches.length };
}

// Decoded once per model (itself cached per file version and evicted by the rollout cache) and
// sequence; concurrent finds share one decode.
const decoded = new WeakMap<RolloutModel, Map<string, Promise<FindText>>>();
const SEQUENCES_PER_MODEL = 4;

function findTextFor(model: RolloutModel, run: RunLayout, sequence: string): Promise<FindText> {
  let bySequence = decoded.get(model);
  if (!bySequence) decoded.set(model, (bySequence = new Map()));
  const hit = bySequence.get(sequence);
  if (hit) return hit;
  const parts = sequenceParts(model, sequence); // throws for an unknown sequence, before caching
  const ids = new Int32Array(parts.reduce((n, p) => n + p.ids.length, 0));
  for (const p of parts) ids.set(p.ids, p.start);
  const at = parts.map((p) => ({
    start: p.start,
    call: model.view.calls[p.call]?.model_call_id ?? "",
    kind: p.kind === "generated" ? ("generated" as const) : ("input" as const),
  }));
  const decoder = model.decoder;
  if (!decoder) throw new Error("find needs a decoder");
  const text = foldedTextOffThread(run, decoder, ids).then((d) => ({ ...d, parts: at }));
  text.catch(() => bySequence.delete(sequence)); // a failed decode is tried again next time
  if (bySequence.size >= SEQUENCES_PER_MODEL)
    bySequence.delete(bySequence.keys().next().value as string);
  bySequence.set(sequence, text);
  return text;
}

/** What the find route is asked: the text, the sequence (`main` by default), the builder profile. */
export interface FindAsk {
  q: string;
  chain: string;
  profile?: ProfileChoice;
  signal?: AbortSignal;
}

/** Every match of the asked text in the asked sequence of the rollout (its model built or cached). */
export async function findInRollout(
  run: RunLayout,
  rolloutId: string,
  ask: FindAsk,
): Promise<FindResult> {
  const model = await rolloutModel(run, rolloutId, { profile: ask.profile, signal: ask.signal });
  return findInModel(model, run, ask.chain, ask.q);
}

/** Every match of `query` in `sequence` (`main`, a chain id or `call:<id>`) of the model. */
export async function findInModel(
  model: RolloutModel,
  run: RunLayout,
  sequence: string,
  query: string,
): Promise<FindResult> {
  if (query.length > MAX_FIND_QUERY)
    throw new InvalidInputError(`q: at most ${MAX_FIND_QUERY} characters, got ${query.length}`);
  const base = { query, chain: sequence };
  if (model.decoder === null) {
    sequenceParts(model, sequence); // an unknown sequence is still a 404
    const why = model.view.tokenizer_error;
    const unavailable = why
      ? `Find needs the run's tokenizer to decode its token ids, and it could not be loaded: ${why}`
      : tokenizerNeeded("Find");
    return { ...base, matches: [], total: 0, truncated: false, unavailable };
  }
  const text = await findTextFor(model, run, sequence);
  return { ...base, ...matchesIn(text, query), unavailable: null };
}
