// Moving through the call timeline: the rows left visible when branches are folded, where the
// selection sits among them, and where a key press takes it (↑↓ Home End move, ← → fold, unfold or
// follow a branch). Pure; the rows themselves come from ./rows.
import { isCall, type TimelineRow } from "./rows";

export type TimelineKey = "ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight" | "Home" | "End";

/** The rows left after hiding the branches that leave from `collapsed` calls (and theirs). */
export function visibleRows(
  rows: readonly TimelineRow[],
  collapsed: ReadonlySet<string>,
): TimelineRow[] {
  const pointOf = new Map<string, string | null>();
  for (const r of rows) if (isCall(r)) pointOf.set(r.call_id, r.branch_point);
  const hidden = new Map<string, boolean>();
  const isHidden = (point: string | null): boolean => {
    const path: string[] = [];
    let answer = false;
    for (let p = point; p !== null; p = pointOf.get(p) ?? null) {
      const known = collapsed.has(p) || hidden.get(p);
      if (known !== undefined) {
        answer = known;
        break;
      }
      path.push(p);
    }
    for (const id of path) hidden.set(id, answer);
    return answer;
  };
  return rows.filter((r) => !isHidden(r.branch_point));
}

/**
 * Where a selected call sits among the visible rows: its own row, else (folded away) the row of
 * the branch point that hides it; -1 when nothing is selected or the call is not in the timeline.
 * The maps are built once per pair of lists; the returned function is called per key press.
 */
export function timelineCursor(
  visible: readonly TimelineRow[],
  all: readonly TimelineRow[],
): (callId: string | null) => number {
  const at = new Map(visible.map((r, i) => [r.call_id, i]));
  const pointOf = new Map(all.map((r) => [r.call_id, r.branch_point]));
  return (callId) => {
    const seen = new Set<string>();
    for (let id = callId; id !== null && !seen.has(id); id = pointOf.get(id) ?? null) {
      const row = at.get(id);
      if (row !== undefined) return row;
      seen.add(id);
    }
    return -1;
  };
}

/**
 * The visible row to move to after a key press, and the branch point to collapse or expand.
 * `current` is -1 when nothing is selected: then every key but End lands on the first row (End on
 * the last), so the first ↓ selects call 1 rather than skipping it.
 */
export function moveInTimeline(
  rows: readonly TimelineRow[],
  current: number,
  key: TimelineKey,
  collapsed: ReadonlySet<string>,
): { row: number; toggle: string | null } {
  const clamp = (i: number) => Math.max(0, Math.min(rows.length - 1, i));
  if (current < 0 || current >= rows.length)
    return { row: key === "End" ? clamp(rows.length - 1) : 0, toggle: null };
  const row = rows[current];
  const point = row && row.branches > 0 ? row.call_id : null;
  if (key === "ArrowRight") {
    if (point !== null && collapsed.has(point)) return { row: current, toggle: point };
    return { row: clamp(current + (point !== null ? 1 : 0)), toggle: null };
  }
  if (key === "ArrowLeft") {
    if (point !== null && !collapsed.has(point)) return { row: current, toggle: point };
    const from = row?.branch_point ?? null;
    const at = from === null ? -1 : rows.findIndex((r) => isCall(r) && r.call_id === from);
    return { row: at >= 0 ? at : current, toggle: null };
  }
  const to = { ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: rows.length - 1 }[key];
  return { row: clamp(to), toggle: null };
}
