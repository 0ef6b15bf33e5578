// The call timeline as rows: one per call in time order, failed HTTP calls and dangling intents
// where they happened, each with its role in words and a bar on one shared time axis. Depth counts
// branch points only, so a long linear chain stays flat. Iterative, with Maps built once.
// Not responsible for deciding roles (the builder did) or for formatting numbers (the view does).
import type { CallRole, CallView, DanglingIntent, FailedCall } from "@/lib/schema";
import { pushTo } from "../group";

export type { DanglingIntent };

export type TimelineRole = CallRole | "failed" | "lost" | "intent";
export type TimelineTone = "ok" | "warn" | "bad" | "";
export const isCall = (r: TimelineRow) =>
  r.role !== "failed" && r.role !== "lost" && r.role !== "intent";

export interface TimelineRow {
  call_id: string;
  /** Builder role; else "failed" (non-2xx), "lost" (2xx, no token entry) or "intent". */
  role: TimelineRole;
  /** Role in words, and why (side-call rule, quarantine, exclusion, the HTTP error). */
  label: string;
  reason: string | null;
  tone: TimelineTone;
  depth: number;
  /** The call this row's branch leaves from; null on a root's own line. */
  branch_point: string | null;
  /** Branches leaving from this call: its children beyond the one that continues the line. */
  branches: number;
  requested_model: string | null;
  served_model: string | null;
  prompt_len: number | null;
  generated_len: number | null;
  status: string;
  status_ok: boolean | null;
  /** Unix seconds; null when the row has no time. */
  time: { start: number; end: number } | null;
  /** Fractions of the axis: a bar for timed rows, a marker at the row's order for the others. */
  bar: { left: number; width: number } | null;
  marker: number | null;
}

/** `axis`: the Unix seconds the bars cover; null when no row has a time. */
export type Timeline = { rows: TimelineRow[]; axis: { start: number; end: number } | null };

type Line = Pick<TimelineRow, "depth" | "branch_point" | "branches">;

const TOP: Line = { depth: 0, branch_point: null, branches: 0 };

export function buildTimeline(
  calls: readonly CallView[],
  failed: readonly FailedCall[],
  intents: readonly DanglingIntent[] = [],
): Timeline {
  const lines = branchLines(calls);
  const after = new Map<string | null, TimelineRow[]>();
  // Failed and intended calls follow the call they came after (or open the timeline).
  const add = (id: string | null, row: (line: Line) => TimelineRow) => {
    const line = id === null ? undefined : lines.get(id);
    pushTo(after, line ? id : null, row(line ?? TOP));
  };
  const intended = new Set(intents.map((i) => i.model_call_id));
  const seen = new Set([...lines.keys(), ...failed.map((f) => f.model_call_id)]);
  for (const f of failed) add(f.after_call, (l) => failedRow(f, l, intended.has(f.model_call_id)));
  for (const i of intents)
    if (!seen.has(i.model_call_id)) add(i.after_call, (l) => intentRow(i, l));
  const rows: TimelineRow[] = [...(after.get(null) ?? [])];
  for (const c of calls) {
    rows.push(callRow(c, lines.get(c.model_call_id) ?? TOP));
    for (const r of after.get(c.model_call_id) ?? []) rows.push(r);
  }
  return { rows, axis: placeOnAxis(rows) };
}

/**
 * Depth and branch point of every call. A call with several children is a branch point: the child
 * that continues its line (on main, else sharing one of its chains, else the earliest) keeps
 * its depth, the others start branches one deeper. Roots are depth 0.
 */
function branchLines(calls: readonly CallView[]): Map<string, Line> {
  const ids = new Set(calls.map((c) => c.model_call_id));
  const children = new Map<string, CallView[]>();
  const lines = new Map<string, Line>();
  const stack: CallView[] = [];
  for (const c of calls) {
    const p = c.parent_call_id;
    if (p !== null && p !== c.model_call_id && ids.has(p)) pushTo(children, p, c);
    else stack.push(c);
  }
  for (const root of stack) lines.set(root.model_call_id, { ...TOP });
  while (stack.length > 0) {
    const parent = stack.pop() as CallView;
    const line = lines.get(parent.model_call_id) as Line;
    const kids = children.get(parent.model_call_id) ?? [];
    const next = continuing(parent, kids);
    line.branches = kids.length - (next ? 1 : 0);
    for (const k of kids) {
      if (lines.has(k.model_call_id)) continue; // a malformed cycle: keep the first placement
      const on = k === next; // continues the parent's line
      const branch_point = on ? line.branch_point : parent.model_call_id;
      lines.set(k.model_call_id, { depth: line.depth + (on ? 0 : 1), branch_point, branches: 0 });
      stack.push(k);
    }
  }
  return lines;
}

function continuing(parent: CallView, kids: readonly CallView[]): CallView | undefined {
  if (kids.length <= 1) return kids[0];
  const chains = new Set(parent.chains);
  return (
    kids.find((k) => k.role === "main") ??
    kids.find((k) => k.chains.some((id) => chains.has(id))) ??
    kids[0]
  );
}

function callRow(c: CallView, line: Line): TimelineRow {
  const x = c.exchange;
  // created_at is the capture time; the exchange's own start is closer to when the call began.
  const start = x?.started_at || c.created_at || null;
  return {
    call_id: c.model_call_id,
    role: c.role,
    ...describeRole(c),
    ...line,
    requested_model: c.requested_model || null,
    served_model: x?.served_model ?? c.model,
    prompt_len: c.prompt_len,
    generated_len: c.generated_len,
    ...callStatus(x),
    time: span(start, x?.latency_ms ?? null),
    bar: null,
    marker: null,
  };
}

const ROLE_WORDS: Record<CallRole, [string, TimelineTone]> = {
  main: ["main", "ok"],
  branch: ["branch", ""],
  side_call: ["side call", "warn"],
  quarantined: ["quarantined", "bad"],
  excluded: ["excluded", "warn"],
  unchained: ["not in a chain", "warn"],
};

function describeRole(c: CallView): { label: string; reason: string | null; tone: TimelineTone } {
  let [label, tone] = ROLE_WORDS[c.role];
  let reason: string | null = null;
  if (c.role === "branch" && c.chains.length > 0) label = c.chains.join(", ");
  if (c.side_call?.kind === "pattern") reason = `requested model matches "${c.side_call.pattern}"`;
  else if (c.side_call)
    reason = `self-calibration: ${c.side_call.policy_model} generated more (${c.side_call.policy_generated_tokens} tokens)`;
  // In an unresolved group the builder only set this one aside; it does not know it was dropped.
  if (c.quarantine === "retry_dropped")
    label = c.retry === "unresolved" ? "retry unresolved" : "retry dropped";
  else if (c.quarantine === "ambiguous_parent")
    reason = `ambiguous parent: ${c.candidates.length} calls share the longest prefix`;
  if (c.role === "excluded") reason = c.excluded_reason;
  if (c.retry && c.quarantine !== "retry_dropped") {
    label = `${label} · retry ${c.retry}`;
    if (c.retry !== "kept" && tone !== "bad") tone = "warn";
  }
  return { label, reason, tone };
}

function callStatus(x: CallView["exchange"]): { status: string; status_ok: boolean | null } {
  // The model-call store (HTTP status, latency) holds no exchange for this call, or there is none.
  if (!x) return { status: "no HTTP log", status_ok: null };
  const repeat = x.count > 1 ? ` ×${x.count}` : "";
  if (x.status_code === null) return { status: `no status${repeat}`, status_ok: null };
  const ok = x.status_code >= 200 && x.status_code < 300;
  const detail = ok ? x.finish_reason : x.error_category;
  return { status: `${x.status_code}${detail ? ` ${detail}` : ""}${repeat}`, status_ok: ok };
}

// Times default to 0 in the capture format, so 0 (or less) means "not recorded".
const span = (start: number | null, ms: number | null): TimelineRow["time"] =>
  start === null || start <= 0 ? null : { start, end: start + Math.max(0, ms ?? 0) / 1000 };

const NO_CALL = {
  branches: 0,
  requested_model: null,
  served_model: null,
  prompt_len: null,
  generated_len: null,
  status_ok: false,
  bar: null,
  marker: null,
} as const;

function failedRow(f: FailedCall, line: Line, intended: boolean): TimelineRow {
  const category = f.error_category ? ` ${f.error_category}` : "";
  // A 2xx answer is not a failure: the model answered, and only the token entry is missing.
  const answered = f.status_code !== null && f.status_code >= 200 && f.status_code < 300;
  const role = answered ? "lost" : "failed";
  return {
    ...NO_CALL,
    call_id: f.model_call_id,
    role,
    label: intended ? `${role} · dangling intent` : answered ? "lost (no token entry)" : "failed",
    reason: answered ? "answered, but no token entry was captured" : `${f.error} (no token entry)`,
    tone: answered ? "warn" : "bad",
    depth: line.depth,
    branch_point: line.branch_point,
    status: `HTTP ${f.status_code ?? "?"}${category}`,
    time: span(f.started_at, f.latency_ms),
  };
}

function intentRow(i: DanglingIntent, line: Line): TimelineRow {
  return {
    ...NO_CALL,
    call_id: i.model_call_id,
    role: "intent",
    label: "dangling intent",
    reason: "dispatched (intent recorded) but no token entry and no captured exchange",
    tone: "warn",
    depth: line.depth,
    branch_point: line.branch_point,
    status: "no response",
    time: null,
  };
}

/**
 * Sets every row's bar (fractions of the shared axis) or, for rows without a time, a marker where
 * the row falls in order: at the end of the last timed row before it, else the next one's start.
 */
function placeOnAxis(rows: TimelineRow[]): Timeline["axis"] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const { time } of rows) {
    if (time) [lo, hi] = [Math.min(lo, time.start), Math.max(hi, time.end)];
  }
  if (lo > hi) {
    rows.forEach((r, i) => (r.marker = rows.length > 1 ? i / (rows.length - 1) : 0));
    return null;
  }
  const span = hi - lo;
  const at = (t: number) => (span > 0 ? (t - lo) / span : 0);
  let last: number | null = null;
  let pending: TimelineRow[] = [];
  for (const r of rows) {
    if (r.time) {
      r.bar = { left: at(r.time.start), width: at(r.time.end) - at(r.time.start) };
      for (const p of pending) p.marker = r.bar.left;
      pending = [];
      last = at(r.time.end);
    } else if (last === null) pending.push(r);
    else r.marker = last;
  }
  return { start: lo, end: hi };
}
