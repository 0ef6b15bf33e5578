// Two token sequences compared: where their ids first differ, their messages aligned by content
// (each message's ids hashed, Myers' alignment of the hashes by jsdiff's diffArrays), and the
// token-level alignment inside one pair of messages, with the edit distance bounded so a long,
// wholly rewritten message gives up instead of stalling a request. Pure: ids in, index ranges out;
// not responsible for reading rollouts, finding messages or decoding text (./rollouts).
import { diffArrays } from "diff";

export type RowKind = "same" | "changed" | "only_a" | "only_b";

/** One step of the message alignment: a message of a, of b, or a pair (indices into each list). */
export interface AlignedRow {
  kind: RowKind;
  a: number | null;
  b: number | null;
}

/** A message's token range in its sequence. */
export interface Span {
  start: number;
  end: number;
}

/** Past this many message edits the alignment pairs messages by position instead (`aligned: false`). */
export const MAX_MESSAGE_EDITS = 2_000;
/** Past this many token edits inside one message pair, no token diff (its first divergence only). */
export const MAX_TOKEN_EDITS = 1_000;
/** Past this many tokens on either side of a message pair, no token diff either. */
export const MAX_TOKEN_DIFF_LENGTH = 60_000;

/** The first position where the ids differ; the shorter one's length when one is a prefix of the other; null when equal. */
export function firstDivergence(a: ArrayLike<number>, b: ArrayLike<number>): number | null {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? null : n;
}

/**
 * A key for each span's ids: two 32-bit FNV-1a variants and the length, so equal keys mean equal
 * ids with overwhelming odds (the token diff of a "changed" pair compares the ids themselves).
 */
export function spanKeys(ids: ArrayLike<number>, spans: readonly Span[]): string[] {
  return spans.map(({ start, end }) => {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = start; i < end; i++) {
      const id = ids[i] as number;
      h1 = Math.imul(h1 ^ id, 0x01000193);
      h2 = Math.imul(h2 ^ (id + i - start), 0x5bd1e995) ^ (h2 >>> 15);
    }
    return `${end - start}:${(h1 >>> 0).toString(36)}:${(h2 >>> 0).toString(36)}`;
  });
}

/**
 * The two lists of message keys aligned: equal keys are "same"; a run of a's messages removed
 * beside a run of b's added pairs up in order as "changed", the rest "only_a" / "only_b". When the
 * lists differ by more than MAX_MESSAGE_EDITS, messages are paired by position (`aligned: false`).
 */
export function alignMessages(
  a: readonly string[],
  b: readonly string[],
): { rows: AlignedRow[]; aligned: boolean } {
  const changes = diffArrays(a as string[], b as string[], { maxEditLength: MAX_MESSAGE_EDITS });
  if (!changes) return { rows: byPosition(a, b), aligned: false };
  const rows: AlignedRow[] = [];
  let ia = 0;
  let ib = 0;
  let removed = 0;
  let added = 0;
  const flush = () => {
    const pairs = Math.min(removed, added);
    for (let k = 0; k < pairs; k++) rows.push({ kind: "changed", a: ia++, b: ib++ });
    for (let k = pairs; k < removed; k++) rows.push({ kind: "only_a", a: ia++, b: null });
    for (let k = pairs; k < added; k++) rows.push({ kind: "only_b", a: null, b: ib++ });
    removed = added = 0;
  };
  for (const c of changes) {
    if (c.removed) removed += c.count;
    else if (c.added) added += c.count;
    else {
      flush();
      for (let k = 0; k < c.count; k++) rows.push({ kind: "same", a: ia++, b: ib++ });
    }
  }
  flush();
  return { rows, aligned: true };
}

function byPosition(a: readonly string[], b: readonly string[]): AlignedRow[] {
  const rows: AlignedRow[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i >= a.length) rows.push({ kind: "only_b", a: null, b: i });
    else if (i >= b.length) rows.push({ kind: "only_a", a: i, b: null });
    else rows.push({ kind: a[i] === b[i] ? "same" : "changed", a: i, b: i });
  }
  return rows;
}

/** A run of tokens the same on both sides, only in a (removed) or only in b (added). */
export interface TokenOp {
  kind: "same" | "removed" | "added";
  /** Where the run starts in a's and b's ids (the side's position where the run is not in it). */
  a: number;
  b: number;
  length: number;
}

export type TokenDiff =
  { ops: TokenOp[]; note: null } | { ops: null; note: "too_long" | "too_different" };

/**
 * The token-level alignment of two messages' ids. The common prefix and suffix are cut first, so
 * Myers runs only on the middle; null ops with a note when either side is longer than
 * MAX_TOKEN_DIFF_LENGTH or the middle needs more than MAX_TOKEN_EDITS edits.
 */
export function diffTokens(a: ArrayLike<number>, b: ArrayLike<number>): TokenDiff {
  if (a.length > MAX_TOKEN_DIFF_LENGTH || b.length > MAX_TOKEN_DIFF_LENGTH)
    return { ops: null, note: "too_long" };
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const midA = Array.from({ length: a.length - head - tail }, (_, i) => a[head + i] as number);
  const midB = Array.from({ length: b.length - head - tail }, (_, i) => b[head + i] as number);
  const changes = diffArrays(midA, midB, { maxEditLength: MAX_TOKEN_EDITS });
  if (!changes) return { ops: null, note: "too_different" };
  const ops: TokenOp[] = [];
  const push = (kind: TokenOp["kind"], at: { a: number; b: number }, length: number) => {
    const last = ops[ops.length - 1];
    if (length === 0) return;
    if (last && last.kind === kind) last.length += length;
    else ops.push({ kind, a: at.a, b: at.b, length });
  };
  const at = { a: 0, b: 0 };
  push("same", at, head);
  at.a = at.b = head;
  for (const c of changes) {
    const kind = c.removed ? "removed" : c.added ? "added" : "same";
    push(kind, { ...at }, c.count);
    if (kind !== "added") at.a += c.count;
    if (kind !== "removed") at.b += c.count;
  }
  push("same", { ...at }, tail);
  return { ops, note: null };
}
