// URLs that carry the rollouts table's sort and filters from the run page into the inspector, so
// previous / next follow the table's order: the table's row links, the neighbours route, the
// inspector's previous / next links, the run page's alert links and its charts' bars (a bucket's
// table query); and the reasons the table's reason filter offers. Pure; the order itself and what
// each filter matches are lib/index/query's.
import {
  maskReasonSchema,
  type Alert,
  type Count,
  type RolloutSummary,
  type TextHit,
  API,
} from "@/lib/schema";
import { agentMaskedReason, maskReason, WARNING_TITLES } from "@/lib/severity";
import { maskReasonShort } from "./mask-reasons";

/** The rollouts table's URL parameters that decide its rows and order (not the window or columns). */
export const TABLE_QUERY_KEYS = [
  "sort",
  "dir",
  "verdict",
  "severity",
  "reason",
  "status",
  "step",
  "cut_short",
  "alert",
  "q",
  // Words and "phrases" the rollouts' text holds (lib/index/search).
  "text",
  // A chart bucket's rollouts where no filter above lists exactly them (chartBucketQuery).
  "mask_reason",
  "delivered",
  "calls",
  "chains",
  "roots",
  "side_call",
  "fallback",
  "error_category",
  "ledger", // a signal ledger stage's rollouts (docs/ledger.md)
  // Routed experts that fell back, at least this fraction (docs/experts.md).
  "expert_fallback",
] as const;

/**
 * Inspector state that still means something on another rollout: the builder profile, the tab and
 * the view settings (conversation shading, the low-probability filter's threshold, routed experts
 * shown). The selection (call, chain, token position, message) names things of this rollout only
 * and is dropped.
 */
export const KEPT_ON_NAVIGATION = ["profile", "tab", "shade", "low", "experts"] as const;

/** What the helpers read parameters from: URLSearchParams, or Next's read-only search params. */
export interface ParamSource {
  get(key: string): string | null;
}

function pick(
  params: ParamSource,
  keys: readonly string[],
  into = new URLSearchParams(),
): URLSearchParams {
  for (const k of keys) {
    const v = params.get(k);
    if (v) into.set(k, v);
  }
  return into;
}

/** The table's sort and filters out of a URL's parameters (empty ones dropped). */
export function tableQueryOf(params: ParamSource): URLSearchParams {
  return pick(params, TABLE_QUERY_KEYS);
}

function withQuery(path: string, q: URLSearchParams): string {
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}

export function rolloutPath(runId: string, rolloutId: string): string {
  return `/runs/${encodeURIComponent(runId)}/rollouts/${encodeURIComponent(rolloutId)}`;
}

/**
 * A table row's link: the inspector for `rolloutId` carrying the table's sort and filters from the
 * run page's parameters (`tableParams`), so the inspector's previous / next follow that order.
 */
export function inspectorHref(runId: string, rolloutId: string, tableParams: ParamSource): string {
  return withQuery(rolloutPath(runId, rolloutId), tableQueryOf(tableParams));
}

/**
 * A text search hit's link: the row's link (the table's query, `text` among it) opened at the hit.
 * Text on the main chain opens the token view of main with the hit's call selected and its
 * segment's first token (`pos`) selected and scrolled to; an error body, which has no tokens,
 * opens the call's detail.
 */
export function textHitHref(
  runId: string,
  rolloutId: string,
  tableParams: ParamSource,
  hit: Pick<TextHit, "call" | "pos" | "match">,
): string {
  const q = tableQueryOf(tableParams);
  if (hit.pos === null) {
    q.set("tab", "call");
    q.set("call", hit.call);
  } else {
    q.set("tab", "tokens");
    q.set("chain", "main");
    q.set("call", hit.call);
    q.set("pos", String(hit.pos));
    // The inspector's find opens with the match and moves from the call's text to it.
    if (hit.match !== "") q.set("find", hit.match);
  }
  return withQuery(rolloutPath(runId, rolloutId), q);
}

/** Another rollout of the inspector's order: the table query plus the kept state of `current`. */
export function neighborHref(runId: string, rolloutId: string, current: ParamSource): string {
  return withQuery(
    rolloutPath(runId, rolloutId),
    pick(current, KEPT_ON_NAVIGATION, tableQueryOf(current)),
  );
}

/** The neighbours route for the inspector's rollout under the table query in `current`. */
export function neighborsUrl(runId: string, rolloutId: string, current: ParamSource): string {
  return withQuery(API.neighbors.path({ run: runId, rollout: rolloutId }), tableQueryOf(current));
}

/** Where the rollouts table of the run is, under the same sort and filters (the way back). */
export function tableHref(runId: string, current: ParamSource): string {
  return withQuery(`/runs/${encodeURIComponent(runId)}`, tableQueryOf(current));
}

/**
 * Where an alert lists its rollouts: the run's table filtered to exactly them (the alert's
 * `table_query`), or null for an alert about a file, which has no rollouts to list.
 */
export function alertTableHref(runId: string, alert: Pick<Alert, "table_query">): string | null {
  if (!alert.table_query) return null;
  return withQuery(`/runs/${encodeURIComponent(runId)}`, new URLSearchParams(alert.table_query));
}

/** The inspector of one rollout an alert names (no table query: the alert is not a table). */
export function alertRolloutHref(runId: string, rolloutId: string): string {
  return rolloutPath(runId, rolloutId);
}

export interface ReasonOption {
  group: "mask reasons" | "warnings";
  /** The `reason` URL value: a code the rollouts route matches (lib/index/query hasReason). */
  value: string;
  label: string;
}

// The run's health counts a masked rollout with no mask reason under these keys; the severity
// model gives those rollouts exactly these reason codes (lib/severity classify).
const HEALTH_KEY_CODE: Record<string, { code: string; words: string }> = {
  masked_by_record: { code: "agent_masked", words: "masked by the agent" },
  error: { code: "build_error", words: "build error" },
};

/**
 * What the reason filter offers, with the run's counts: its mask reasons (`health.mask_reasons`)
 * and the severity model's warnings it has (`health.severity_reasons`, counted by title).
 */
export function reasonOptions(health: {
  mask_reasons: readonly Count[];
  severity_reasons: readonly Count[];
}): ReasonOption[] {
  const mask = new Map<string, { words: string; count: number }>();
  for (const { key, count } of health.mask_reasons) {
    const known = HEALTH_KEY_CODE[key];
    const code = known?.code ?? key;
    const prev = mask.get(code);
    mask.set(code, {
      words: known?.words ?? maskReasonShort(key),
      count: (prev?.count ?? 0) + count,
    });
  }
  const out: ReasonOption[] = [...mask].map(([value, m]) => ({
    group: "mask reasons",
    value,
    label: `${m.words} (${m.count})`,
  }));
  const byTitle = new Map(health.severity_reasons.map((c) => [c.key, c.count]));
  for (const [value, title] of Object.entries(WARNING_TITLES)) {
    const count = byTitle.get(title) ?? 0;
    if (count > 0 && !mask.has(value))
      out.push({ group: "warnings", value, label: `${title} (${count})` });
  }
  return out;
}

/** Buckets of width 0.1, labelled by their lower edge ("0.9" holds 0.9 ≤ x < 1.0; "1.0" is exactly 1). */
export function deliveredBucket(x: number): string {
  if (x >= 1) return "1.0";
  return (Math.floor(Math.max(0, x) * 10) / 10).toFixed(1);
}

/**
 * The keys the mask-reasons chart counts a rollout under: its mask reasons; a masked one with none
 * under `error` (the consumer's error says why) or `masked_by_record` (the record's own flag).
 */
export function maskReasonKeys(s: RolloutSummary): readonly string[] {
  if (s.mask_reasons.length > 0 || s.severity !== "masked") return s.mask_reasons;
  return [s.error ? "error" : "masked_by_record"];
}

/** The run page's charts whose bars (or points) list their rollouts in the table. */
export type BucketChart =
  | "verdicts"
  | "severity-reasons"
  | "mask-reasons"
  | "delivered"
  | "chains"
  | "roots"
  | "calls"
  | "side-calls"
  | "fallbacks"
  | "status"
  | "error-categories"
  | "step";

const NO_FACTS = {
  error: null,
  incomplete: null,
  roots: null,
  chains: null,
  unresolved_retries: null,
};

/** The reason codes of lib/severity by their titles, which "why not simply trained" counts by. */
const CODE_OF_TITLE = new Map<string, string>([
  ...maskReasonSchema.options.map((r) => [maskReason(r, NO_FACTS).title, r] as const),
  [agentMaskedReason().title, "agent_masked"],
  ...Object.entries(WARNING_TITLES).map(([code, title]) => [title, code] as const),
]);

/**
 * Mask reasons the `reason` filter lists exactly: a rollout carries the code only when the
 * consumer gave it. Not `build_error`, which the severity model also gives a masked rollout with
 * no reason but an error (that rollout is the chart's `error` bar): those go by `mask_reason`.
 */
const EXACT_BY_REASON: ReadonlySet<string> = new Set(
  [...maskReasonSchema.options, "deleted"].filter((r) => r !== "build_error"),
);

/** The table's filter for one key of a chart's bucket: the table's own control where one fits. */
function bucketFilter(chart: BucketChart, key: string): [string, string] | null {
  switch (chart) {
    case "verdicts": // pending rollouts are not summarised yet: the table cannot list them
      return key === "pending" ? null : ["severity", key];
    case "severity-reasons": // counted by title; a mask reason this version does not know keeps its name
      return ["reason", CODE_OF_TITLE.get(key) ?? key.replace(/ /g, "_")];
    case "mask-reasons":
      return EXACT_BY_REASON.has(key) ? ["reason", key] : ["mask_reason", key];
    case "side-calls":
      return ["side_call", key];
    case "fallbacks":
      return ["fallback", key];
    case "error-categories":
      return ["error_category", key];
    default:
      return [chart, key];
  }
}

/**
 * The rollouts table's query listing exactly the rollouts a chart's bar (its `key`, as lib/health
 * counts it) or a step chart's point stands for; null where the table cannot list them.
 */
export function chartBucketQuery(chart: BucketChart, key: string): string | null {
  const filter = bucketFilter(chart, key);
  return filter ? new URLSearchParams([filter]).toString() : null;
}

/**
 * The run page under a bucket's `query` in place of the table's filters (so the table lists exactly
 * the bucket's rollouts), keeping its sort and everything that is not a filter (columns).
 */
export function bucketTableHref(runId: string, current: URLSearchParams, query: string): string {
  const filters: ReadonlySet<string> = new Set(
    TABLE_QUERY_KEYS.filter((k) => k !== "sort" && k !== "dir"),
  );
  const next = new URLSearchParams();
  for (const [k, v] of current) if (!filters.has(k)) next.set(k, v);
  for (const [k, v] of new URLSearchParams(query)) next.set(k, v);
  return withQuery(`/runs/${encodeURIComponent(runId)}`, next);
}

/** Whether the table shows exactly a bucket's rollouts now: its filters are the bucket's query. */
export function isBucketShown(current: ParamSource, query: string): boolean {
  const want = new URLSearchParams(query);
  return TABLE_QUERY_KEYS.every(
    (k) => k === "sort" || k === "dir" || (current.get(k) ?? "") === (want.get(k) ?? ""),
  );
}
