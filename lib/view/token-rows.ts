// Token view layout: the flattened sequence as fixed-height rows for virtualisation. Each segment
// (a call's prompt, interstitial or generation) starts with a header row, then rows of at most
// `perRow` tokens, so call boundaries are always visible and never need the tokens themselves.
import type { TokenSegment } from "@/lib/schema/api";

export type TokenRow =
  | { kind: "header"; segment: number }
  | { kind: "tokens"; segment: number; start: number; count: number };

export function tokenRows(segments: readonly TokenSegment[], perRow: number): TokenRow[] {
  const rows: TokenRow[] = [];
  segments.forEach((s, i) => {
    rows.push({ kind: "header", segment: i });
    for (let off = 0; off < s.length; off += perRow) rows.push({ kind: "tokens", segment: i, start: s.start + off, count: Math.min(perRow, s.length - off) });
  });
  return rows;
}

/** Index of the token row holding sequence position `pos` (binary search; -1 when out of range). */
export function rowOfPosition(rows: readonly TokenRow[], pos: number): number {
  let lo = 0, hi = rows.length - 1, best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = rows[mid] as TokenRow;
    // Headers take the start of the row after them, so starts never decrease along the rows.
    const next = r.kind === "header" ? rows[mid + 1] : r;
    const start = next && next.kind === "tokens" ? next.start : Number.POSITIVE_INFINITY;
    if (start <= pos) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (best < 0) return -1;
  const r = rows[best] as TokenRow;
  const row = r.kind === "header" ? best + 1 : best;
  const t = rows[row];
  return t && t.kind === "tokens" && pos < t.start + t.count ? row : -1;
}

/** The first header row of a call's segments, to jump to it. */
export function rowOfCall(rows: readonly TokenRow[], segments: readonly TokenSegment[], callId: string): number {
  return rows.findIndex((r) => r.kind === "header" && segments[r.segment]?.call === callId);
}

/** Generated tokens get a brighter green the more probable they were: exp(log prob) mapped to 0.25-1 alpha. */
export function generatedAlpha(logProb: number | null): number {
  if (logProb === null) return 1;
  const p = Math.exp(Math.max(-20, Math.min(0, logProb)));
  return Math.round((0.25 + 0.75 * p) * 100) / 100;
}

/** Whitespace and control characters made visible; the rest of the text is unchanged. */
export function visibleText(text: string): string {
  return text.replace(/\n/g, "↵").replace(/\t/g, "⇥").replace(/\r/g, "␍").replace(/ /g, "·").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
