// A token-store line read faster than JSON.parse: the three long number lists (prompt and generated
// token ids, log probs) are scanned straight from the bytes (./token-numbers); the rest of the line
// (a few hundred bytes) is parsed by JSON.parse with `[]` in their place. Anything unusual falls back to JSON.parse
// of the whole line (the caller's path), so values and error messages are JSON.parse's own.
// Not responsible for validating records (the caller runs the schema; see token-store).
import { noteSharedPrefix } from "@/lib/builder";
import {
  BACKSLASH,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  isSpace,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  scanFloatsInto,
  scanIdsInto,
  skipSpace,
} from "./token-numbers";

/** The lists this reader scans, by key. */
export type ListKey = "prompt_token_ids" | "generation_token_ids" | "generation_log_probs";
export type ScannedLists = {
  prompt_token_ids?: Int32Array;
  generation_token_ids?: number[];
  generation_log_probs?: number[];
  /** An envelope string's bytes (no quotes), a view of the line: decode before the line is reused. */
  routed_experts?: Uint8Array;
};

export interface ScannedLine {
  /** The line parsed with each scanned list replaced by an empty array. */
  value: Record<string, unknown>;
  /** The scanned lists, to put back in place of the empty arrays once the record is validated. */
  lists: ScannedLists;
}

/** A routes envelope can be ~100 MB of base64: cut out of the line as bytes (docs/experts.md). */
const ROUTES_KEY = Buffer.from('"routed_experts"');
const KEYS: ReadonlyArray<[ListKey, Buffer, "id" | "float"]> = [
  ["prompt_token_ids", Buffer.from('"prompt_token_ids"'), "id"],
  ["generation_token_ids", Buffer.from('"generation_token_ids"'), "id"],
  ["generation_log_probs", Buffer.from('"generation_log_probs"'), "float"],
];

/** Index after the string opening at `i` (a quote), or -1 when it does not close. */
function skipString(b: Uint8Array, i: number): number {
  for (i++; i < b.length; i++) {
    const c = b[i] as number;
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/**
 * Index after the value starting at `i`, without checking it (JSON.parse of the rest does), or -1.
 * Strings are skipped with their escapes, so brackets inside them are not counted.
 */
function skipValue(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === QUOTE) return skipString(b, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    while (i < b.length) {
      const d = b[i] as number;
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  while (i < b.length) {
    const d = b[i] as number;
    if (d === QUOTE) {
      i = skipString(b, i);
      if (i < 0) return -1;
      continue;
    }
    if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
    else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) depth--;
    i++;
    if (depth === 0) return i;
  }
  return -1;
}

/**
 * The previous list's length per key, as the next list's capacity: a rollout's prompts grow call
 * by call, so one allocation usually fits and no list is copied. Only a hint; results never depend on it.
 */
const lastLength: Record<ListKey, number> = {
  prompt_token_ids: 0,
  generation_token_ids: 0,
  generation_log_probs: 0,
};

/**
 * The previous prompt list scanned: its text from `[` up to `]` and its ids. A call's prompt
 * repeats its parent's, so when the next prompt's text starts with these very bytes (followed by a
 * separator), its first ids are these ids: only the rest is scanned. Bytes equal, ids equal: the
 * result is what a full scan gives. Reset at each file (resetPromptReuse).
 */
let prevPrompt: { text: Uint8Array; ids: Int32Array } | null = null;

/**
 * Where scanned prompts live: one Int32Array per chain of prompts that repeat each other. A prompt
 * that repeats the previous one and ends where the arena's last write ended is the previous view
 * grown in place: the tail is written after it and the new prompt is a longer view of the same
 * bytes, so a 500-call chain's prompts cost one buffer of its longest prompt, not a copy of every
 * prefix (400 MB for a 200k-token rollout). Views are never written to after they are handed out:
 * a later write only goes past the end of every view made so far.
 */
let arena = new Int32Array(0);
let arenaUsed = 0;

/** Forgets the previous prompt (a new file starts; nothing else may have touched its ids). */
export function resetPromptReuse(): void {
  prevPrompt = null;
  arena = new Int32Array(0);
  arenaUsed = 0;
}

/** `head` then `tail` as a view of the arena: in place after `head` when it ends the arena. */
function arenaView(head: Int32Array | null, tail: readonly number[]): Int32Array {
  const headLength = head?.length ?? 0;
  const length = headLength + tail.length;
  const inPlace =
    head !== null &&
    head.buffer === arena.buffer &&
    head.byteOffset / 4 + headLength === arenaUsed &&
    arenaUsed + tail.length <= arena.length;
  let start: number;
  if (inPlace) start = head.byteOffset / 4;
  else {
    if (arenaUsed + length > arena.length) {
      // A fresh arena, with room for the chain to grow; earlier views keep the old one alive.
      arena = new Int32Array(Math.max(1024, 2 * length));
      arenaUsed = 0;
    }
    start = arenaUsed;
    if (head) arena.set(head, start);
  }
  const at = start + headLength;
  for (let k = 0; k < tail.length; k++) arena[at + k] = tail[k] as number;
  arenaUsed = start + length;
  return arena.subarray(start, arenaUsed);
}

/**
 * A list of token ids at `i` (its `[`): plain non-negative integers below 2^31 with JSON whitespace,
 * into `out[key]`. Returns the index after `]`, or -1 for anything else (a sign, a fraction, an
 * exponent, a larger number, another value), which is left to JSON.parse and the schema. Prompts
 * go to the arena (Int32Array views); generated ids stay arrays (short, one per call).
 */
function scanIds(b: Uint8Array, i: number, key: ListKey, out: ScannedLists): number {
  const open = i;
  const isPrompt = key === "prompt_token_ids";
  const prev = isPrompt ? reusedPrefix(b, i) : -1;
  let ids: number[];
  if (prev >= 0) {
    // Only the new tail is scanned; the parent's ids are the previous view's.
    ids = [];
    i = skipSpace(b, prev);
    if (b[i] === COMMA) i = scanIdsInto(b, skipSpace(b, i + 1), ids, 0);
    else if (b[i] !== CLOSE_BRACKET) return -1;
  } else {
    ids = new Array<number>(lastLength[key] + (lastLength[key] >> 3) + 16);
    i = skipSpace(b, i + 1);
    if (b[i] !== CLOSE_BRACKET) i = scanIdsInto(b, i, ids, 0);
    else ids.length = 0;
  }
  if (i < 0) return -1;
  if (!isPrompt) {
    lastLength[key] = ids.length;
    out[key as "generation_token_ids"] = ids;
    return i + 1;
  }
  const parent = prev >= 0 ? (prevPrompt as { ids: Int32Array }).ids : null;
  const prompt = arenaView(parent, ids);
  // The builder's digests ahead convert only the ids past the ones they hold (digest-ahead).
  if (parent) noteSharedPrefix(prompt, parent, parent.length);
  lastLength[key] = prompt.length;
  out[key] = prompt;
  prevPrompt = { text: b.subarray(open, i), ids: prompt };
  return i + 1;
}

/** Where the previous prompt's text ends in the list at `i`, when it starts it; else -1. */
function reusedPrefix(b: Uint8Array, i: number): number {
  const prev = prevPrompt;
  if (prev === null || prev.ids.length === 0) return -1;
  const n = prev.text.length;
  const end = i + n;
  if (end >= b.length) return -1;
  // The byte after must end the last id: "[1,2,3" is no prefix of "[1,2,34".
  const c = b[end] as number;
  if (c !== COMMA && c !== CLOSE_BRACKET && !isSpace(c)) return -1;
  return Buffer.from(b.buffer, b.byteOffset + i, n).equals(prev.text) ? end : -1;
}

/** A list of log probs at `i` (its `[`) into `out[key]`; the index after `]`, or -1. */
function scanFloats(b: Buffer, i: number, key: ListKey, out: ScannedLists): number {
  const values = new Array<number>(lastLength[key] + 16);
  const end = scanFloatsInto(b, i, values);
  if (end < 0) return -1;
  lastLength[key] = values.length;
  out[key as "generation_log_probs"] = values;
  return end;
}

/** A key with an escape could spell a list key another way: JSON.parse decides those lines. */
function hasEscape(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] === BACKSLASH) return true;
  return false;
}

function isRoutesKey(b: Buffer, i: number, end: number): boolean {
  return end - i === ROUTES_KEY.length && b.compare(ROUTES_KEY, 0, ROUTES_KEY.length, i, end) === 0;
}

function keyAt(b: Buffer, i: number, end: number): (typeof KEYS)[number] | null {
  for (const k of KEYS)
    if (end - i === k[1].length && b.compare(k[1], 0, k[1].length, i, end) === 0) return k;
  return null;
}

/**
 * The line's top-level object with its number lists scanned, or null when the line should go to
 * JSON.parse whole: not an object, a key with escapes, a list key twice, or a rest that does not
 * parse (its error message would name positions of the shortened text).
 */
export function scanTokenLine(b: Buffer): ScannedLine | null {
  let i = skipSpace(b, 0);
  if (b[i] !== OPEN_BRACE) return null;
  const lists: ScannedLists = {};
  const seen = new Set<ListKey>();
  const cuts: number[] = []; // start, end, kind (0 a list, 1 a string) of each scanned value
  i = skipSpace(b, i + 1);
  if (b[i] === CLOSE_BRACE) return null;
  for (;;) {
    if (b[i] !== QUOTE) return null;
    const keyStart = i;
    const keyEnd = skipString(b, i);
    if (keyEnd < 0 || hasEscape(b, i, keyEnd)) return null;
    const key = keyAt(b, i, keyEnd);
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) return null;
    const v = skipSpace(b, i + 1);
    let end = -1;
    if (key) {
      if (seen.has(key[0])) return null;
      seen.add(key[0]);
      if (b[v] === OPEN_BRACKET) {
        end = key[2] === "id" ? scanIds(b, v, key[0], lists) : scanFloats(b, v, key[0], lists);
        if (end >= 0) cuts.push(v, end, 0);
      }
    } else if (b[v] === QUOTE && isRoutesKey(b, keyStart, keyEnd)) {
      end = skipString(b, v);
      if (end < 0 || lists.routed_experts || hasEscape(b, v, end)) return null;
      lists.routed_experts = b.subarray(v + 1, end - 1);
      cuts.push(v, end, 1);
    }
    if (end < 0) end = skipValue(b, v);
    if (end < 0) return null;
    i = skipSpace(b, end);
    if (b[i] === CLOSE_BRACE) break;
    if (b[i] !== COMMA) return null;
    i = skipSpace(b, i + 1);
  }
  return restOf(b, cuts, lists);
}

/**
 * JSON.parse of the line with `[]` for each cut list and `null` for a cut string; null when it
 * fails or is not what was scanned.
 */
function restOf(b: Buffer, cuts: readonly number[], lists: ScannedLists): ScannedLine | null {
  let text = "";
  let from = 0;
  for (let k = 0; k < cuts.length; k += 3) {
    text += b.toString("utf8", from, cuts[k]) + (cuts[k + 2] === 1 ? "null" : "[]");
    from = cuts[k + 1] as number;
  }
  text += b.toString("utf8", from, b.length);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  for (const k of Object.keys(lists)) {
    const placed = record[k];
    if (k === "routed_experts" ? placed !== null : !Array.isArray(placed) || placed.length !== 0)
      return null;
  }
  return { value: record, lists };
}
