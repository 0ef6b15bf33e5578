// The exact check of a search candidate and its best match: the rollout's text (inflated if it was
// kept deflated) is looked through (case ignored), within the segments of the kinds asked for. Registered as the
// SQL function `lens_text_match` so the check composes with every other filter of the table.
// Not responsible for narrowing the candidates (./store's FTS5 table) or parsing (./parse).
import "server-only";
import type Database from "better-sqlite3";
import { rawInflate, SEGMENT_SEPARATOR } from "@/lib/rollout";
import type { TextHit, TextKind, TextSegment } from "@/lib/schema";
import type { TextQuery } from "./parse";

const KIND_NAME = { g: "generated", i: "input", e: "error" } as const;
/** The separator between segments is one byte of UTF-8. */
const SEPARATOR_BYTES = Buffer.byteLength(SEGMENT_SEPARATOR);
/** Characters of text kept before and after a match in its snippet. */
const BEFORE = 60;
const AFTER = 120;

interface Segment {
  kind: TextKind;
  call: string;
  pos: number;
  from: number;
  to: number;
}

/** Each segment's byte range in the text (the separator between two belongs to neither). */
function segmentsOf(segs: string, length: number): Segment[] {
  const raw = JSON.parse(segs) as TextSegment[];
  return raw.map(([kind, call, pos, , from], k) => ({
    kind,
    call,
    pos,
    from,
    to: k + 1 < raw.length ? (raw[k + 1] as TextSegment)[4] - SEPARATOR_BYTES : length,
  }));
}

/** A search_text row's UTF-8 bytes. */
export const utf8Of = (body: Buffer, deflated: number): Buffer =>
  deflated ? rawInflate(body) : body;

/** Whether every needle occurs in the text (within the kinds asked for). */
export function textMatches(text: Buffer, segs: string, q: Pick<TextQuery, "needles" | "kinds">) {
  if (!q.kinds) {
    const lower = text.toString("utf8").toLowerCase();
    return q.needles.every((n) => lower.includes(n));
  }
  const kinds = q.kinds;
  const parts = segmentsOf(segs, text.length)
    .filter((s) => kinds.includes(s.kind))
    .map((s) => text.toString("utf8", s.from, s.to).toLowerCase());
  // `kind:error` alone: the rollout has text of that kind.
  if (parts.length === 0) return false;
  const within = parts.join(SEGMENT_SEPARATOR);
  return q.needles.every((n) => within.includes(n));
}

/** The SQL function `lens_text_match(body, deflated, segs, query)`, `query` a TextQuery's JSON. */
export function registerTextMatch(db: Database.Database): void {
  let lastJson = "";
  let last: Pick<TextQuery, "needles" | "kinds"> = { needles: [], kinds: null };
  db.function("lens_text_match", { deterministic: true }, (body, deflated, segs, json) => {
    if (json !== lastJson) {
      last = JSON.parse(String(json)) as typeof last;
      lastJson = String(json);
    }
    return textMatches(utf8Of(body as Buffer, Number(deflated)), String(segs), last) ? 1 : 0;
  });
}

/**
 * The best match in the segments asked for: the words as typed in a row (`rm -rf`: "rm", blanks,
 * "-rf") where they occur so, else the first place a needle occurs, earliest first; null if none.
 */
export function bestHit(text: Buffer, segs: string, q: TextQuery): TextHit | null {
  const parts = segmentsOf(segs, text.length).filter((s) => !q.kinds || q.kinds.includes(s.kind));
  const row =
    q.needles.length > 1 ? new RegExp(q.needles.map(escapeRegExp).join("\\s+"), "u") : null;
  if (row) {
    for (const s of parts) {
      const hit = hitIn(text, s, (lower) => {
        const m = row.exec(lower);
        return m ? [m.index, m[0].length] : null;
      });
      if (hit) return hit;
    }
  }
  for (const s of parts) {
    const hit = hitIn(text, s, (lower) => {
      // No needle (`kind:` alone): the segment's opening.
      if (q.needles.length === 0) return [0, 0];
      let best: [number, number] | null = null;
      for (const n of q.needles) {
        const k = lower.indexOf(n);
        if (k >= 0 && (best === null || k < best[0])) best = [k, n.length];
      }
      return best;
    });
    if (hit) return hit;
  }
  return null;
}

/** The hit `find` places in segment `s`'s lower-cased text (offset, length), with its context. */
function hitIn(
  text: Buffer,
  s: Segment,
  find: (lower: string) => [at: number, length: number] | null,
): TextHit | null {
  const piece = text.toString("utf8", s.from, s.to);
  const lower = piece.toLowerCase();
  const found = find(lower);
  if (!found) return null;
  const [at, length] = found;
  // Offsets of the lower-cased text are the text's own unless lower-casing changed its length.
  const src = lower.length === piece.length ? piece : lower;
  return {
    kind: KIND_NAME[s.kind],
    call: s.call,
    pos: s.pos < 0 ? null : s.pos,
    before: (at > BEFORE ? "…" : "") + src.slice(Math.max(0, at - BEFORE), at),
    match: src.slice(at, at + length),
    after:
      src.slice(at + length, at + length + AFTER) + (at + length + AFTER < src.length ? "…" : ""),
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Each listed rollout's best match, by id. */
export function textHitsOf(
  db: Database.Database,
  ids: readonly string[],
  q: TextQuery,
): Record<string, TextHit> {
  const out: Record<string, TextHit> = {};
  if (ids.length === 0) return out;
  const rows = db
    .prepare(
      "SELECT t.id, t.body, t.deflated, t.segs FROM json_each(?) j JOIN search_text t ON t.id = j.value",
    )
    .all(JSON.stringify(ids)) as Array<{
    id: string;
    body: Buffer;
    deflated: number;
    segs: string;
  }>;
  for (const r of rows) {
    const hit = bestHit(utf8Of(r.body, r.deflated), r.segs, q);
    if (hit) out[r.id] = hit;
  }
  return out;
}
