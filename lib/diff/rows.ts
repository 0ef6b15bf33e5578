// The message alignment as the page shows it: each run of equal messages folded into one row (a
// 500-call pair that differs in one call is three rows, not a thousand), every other aligned step
// a row of its own, at most MAX_DIFF_ROWS sent with each message's first words. Pure; not
// responsible for the alignment itself (./align).
import { type DiffMessage, type DiffRow, MAX_DIFF_ROWS } from "@/lib/schema";
import type { TokenDecoder } from "@/lib/tokens";
import type { AlignedRow } from "./align";
import { previewOf } from "./text";

interface SideSeq {
  seq: { ids: Int32Array; messages: ReadonlyArray<{ role: string; start: number; end: number }> };
  decoder: TokenDecoder | null;
}

export interface FoldedRows {
  /** Every row, messages without previews: what a token diff request indexes. */
  all: DiffRow[];
  /** The first MAX_DIFF_ROWS rows with previews. */
  shown: DiffRow[];
  total: number;
  /** The row of each aligned step. */
  rowOf: Int32Array;
}

function messageOf(side: SideSeq, index: number | null): DiffMessage | null {
  if (index === null) return null;
  const m = side.seq.messages[index];
  if (!m) return null;
  return { index, role: m.role, start: m.start, end: m.end, preview: "" };
}

export function foldRows(aligned: readonly AlignedRow[], a: SideSeq, b: SideSeq): FoldedRows {
  const all: DiffRow[] = [];
  const rowOf = new Int32Array(aligned.length);
  aligned.forEach((r, k) => {
    const last = all[all.length - 1];
    if (r.kind === "same" && last?.kind === "same") last.count++;
    else
      all.push({
        index: all.length,
        kind: r.kind,
        count: 1,
        a: messageOf(a, r.a),
        b: messageOf(b, r.b),
      });
    rowOf[k] = all.length - 1;
  });
  const preview = (side: SideSeq, m: DiffMessage | null) =>
    m && { ...m, preview: previewOf(side.decoder, side.seq.ids.subarray(m.start, m.end)) };
  const shown = all
    .slice(0, MAX_DIFF_ROWS)
    .map((r) => ({ ...r, a: preview(a, r.a), b: preview(b, r.b) }));
  return { all, shown, total: all.length, rowOf };
}

/** The row holding token `position`: a's message at it, else b's (a ended first), else null. */
export function rowOfPosition(
  folded: FoldedRows,
  aligned: readonly AlignedRow[],
  a: SideSeq["seq"],
  b: SideSeq["seq"],
  position: number,
): number | null {
  const stepOf = new Map<string, number>();
  aligned.forEach((r, k) => {
    if (r.a !== null) stepOf.set(`a${r.a}`, k);
    if (r.b !== null) stepOf.set(`b${r.b}`, k);
  });
  for (const [name, seq] of [
    ["a", a],
    ["b", b],
  ] as const) {
    const m = lastStartingAtOrBefore(seq.messages, position);
    if (m < 0 || position >= seq.ids.length) continue;
    const step = stepOf.get(`${name}${m}`);
    if (step !== undefined) return folded.rowOf[step] as number;
  }
  return null;
}

function lastStartingAtOrBefore(messages: ReadonlyArray<{ start: number }>, at: number): number {
  let lo = 0;
  let hi = messages.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((messages[mid] as { start: number }).start <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
