// The call tree as visible rows: calls nested under their parents (side calls and other roots at
// the top level, in time order), failed HTTP calls placed after the call they followed, collapsed
// subtrees skipped. Iterative, so a 1,000-call-deep rollout cannot overflow the stack.
import type { CallView, FailedCall } from "@/lib/schema/api-rollout";
import { pushTo } from "./group";

export type TreeRow =
  | { kind: "call"; id: string; depth: number; call: CallView; childCount: number; expanded: boolean }
  | { kind: "failed"; id: string; depth: number; failed: FailedCall };

export interface TreeIndex {
  roots: string[];
  children: Map<string, string[]>;
  calls: Map<string, CallView>;
  failedAfter: Map<string, FailedCall[]>;
  failedAtTop: FailedCall[];
}

export function indexTree(calls: readonly CallView[], failed: readonly FailedCall[]): TreeIndex {
  const byId = new Map(calls.map((c) => [c.model_call_id, c]));
  const children = new Map<string, string[]>();
  const roots: string[] = [];
  for (const c of calls) {
    const parent = c.parent_call_id !== null && byId.has(c.parent_call_id) ? c.parent_call_id : null;
    if (parent === null) roots.push(c.model_call_id);
    else pushTo(children, parent, c.model_call_id);
  }
  const failedAfter = new Map<string, FailedCall[]>();
  const failedAtTop: FailedCall[] = [];
  for (const f of failed) {
    if (f.after_call !== null && byId.has(f.after_call)) pushTo(failedAfter, f.after_call, f);
    else failedAtTop.push(f);
  }
  return { roots, children, calls: byId, failedAfter, failedAtTop };
}

/** Visible rows, depth first; `collapsed` holds call ids whose subtrees are hidden. */
export function treeRows(index: TreeIndex, collapsed: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  for (const f of index.failedAtTop) rows.push({ kind: "failed", id: `failed:${f.model_call_id}`, depth: 0, failed: f });
  const stack: Array<[id: string, depth: number]> = [];
  for (let r = index.roots.length - 1; r >= 0; r--) stack.push([index.roots[r] as string, 0]);
  while (stack.length > 0) {
    const [id, depth] = stack.pop() as [string, number];
    const call = index.calls.get(id) as CallView;
    const kids = index.children.get(id) ?? [];
    const failedHere = index.failedAfter.get(id) ?? [];
    const childCount = kids.length + failedHere.length;
    const expanded = !collapsed.has(id);
    rows.push({ kind: "call", id, depth, call, childCount, expanded });
    if (!expanded) continue;
    // Failed calls go right after this call, before its children: they happened before the next call.
    for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k] as string, depth + 1]);
    for (const f of failedHere) rows.push({ kind: "failed", id: `failed:${f.model_call_id}`, depth: depth + 1, failed: f });
  }
  return rows;
}

/** The row to select after a key press in the tree (ArrowUp/Down/Left/Right, Home, End). */
export function moveSelection(rows: readonly TreeRow[], current: number, key: string, index: TreeIndex): { row: number; toggle: string | null } {
  const last = rows.length - 1;
  const row = rows[current];
  switch (key) {
    case "ArrowDown":
      return { row: Math.min(last, current + 1), toggle: null };
    case "ArrowUp":
      return { row: Math.max(0, current - 1), toggle: null };
    case "Home":
      return { row: 0, toggle: null };
    case "End":
      return { row: last, toggle: null };
    case "ArrowRight":
      if (row?.kind === "call" && row.childCount > 0 && !row.expanded) return { row: current, toggle: row.id };
      return { row: Math.min(last, current + (row?.kind === "call" && row.childCount > 0 ? 1 : 0)), toggle: null };
    case "ArrowLeft": {
      if (row?.kind === "call" && row.childCount > 0 && row.expanded) return { row: current, toggle: row.id };
      const parent = row?.kind === "call" ? row.call.parent_call_id : row?.kind === "failed" ? row.failed.after_call : null;
      const at = parent !== null && index.calls.has(parent) ? rows.findIndex((r) => r.id === parent) : -1;
      return { row: at >= 0 ? at : current, toggle: null };
    }
    default:
      return { row: current, toggle: null };
  }
}
