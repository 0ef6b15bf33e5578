// The rollouts table's query: parsed from URL parameters once (zod; unknown sort keys or values are
// an InvalidInputError), its filters and keys, and the export row and CSV line of a summary
// (columns from the contract, lib/schema/api-runs). The SQL that serves it is ./sql's; the
// same query in memory, the tests' reference, is lib/testing/rollout-query-reference.
import { z } from "zod";
import { InvalidInputError } from "@/lib/errors";
import {
  exportRowSchema,
  LEDGER_FILTERS,
  type LedgerFilter,
  severityStateSchema,
  type ExportRow,
  type RolloutSummary,
} from "@/lib/schema";
import { deliveredBucket, maskReasonKeys } from "@/lib/view";

export const SORT_KEYS = [
  "rollout_id",
  "reward",
  "step",
  "mask_sample",
  "n_calls",
  "chains",
  "delivered_fraction",
  "side_calls",
  "quarantined",
  "failed_calls",
  "expert_fallback_fraction",
  "bytes",
  "severity",
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/**
 * The alerts whose rollouts no other filter lists exactly (`alert=<kind>`), each with the test the
 * run's health flags a rollout by (lib/health/health.ts counts the same fields).
 */
export const ALERT_FILTERS = {
  dangling_intents: (s: RolloutSummary) => s.dangling_intents > 0,
  unreadable: (s: RolloutSummary) => s.unreadable,
  newer_schema: (s: RolloutSummary) => s.newer_schema,
  profile_disagreement: (s: RolloutSummary) => s.other_profile_disagrees,
} as const;
const ALERT_FILTER_KINDS = Object.keys(ALERT_FILTERS) as Array<keyof typeof ALERT_FILTERS>;

/**
 * The rollouts table's query that lists exactly the rollouts an alert of `kind` names, or null for
 * an alert about a file (nothing to list). Existing filters where one fits, so the table's own
 * controls show what is applied.
 */
export function alertTableQuery(kind: string): string | null {
  if (kind === "cut_short") return "cut_short=1";
  if (kind === "other_model_main") return "reason=other_model_main";
  if (kind === "masked_fraction") return "severity=masked";
  if (kind === "outside_token_ids") return "reason=out_of_vocabulary";
  if (kind === "rerendered_prefixes") return "ledger=rerendered";
  if (kind === "trainer_truth") return "reason=trainer_differs";
  // lib/health's EXPERT_FALLBACK_ALERT_THRESHOLD (a layer above): the rollouts at or past it.
  if (kind === "expert_fallback") return "expert_fallback=0.01";
  return ALERT_FILTER_KINDS.some((k) => k === kind) ? `alert=${kind}` : null;
}

/**
 * The reason filter: a mask reason the consumer gave (`mask_reasons`) or any reason code of the
 * severity model (`severity_reasons`: warnings such as cut_short or torn_tail, agent_masked…).
 * Both are in every summary the index serves, so the filter runs where the mask-reason one did.
 */
export function hasReason(s: RolloutSummary, reason: string): boolean {
  return (
    s.mask_reasons.some((r) => r === reason) || s.severity_reasons.some((r) => r.code === reason)
  );
}

const isLedgerFilter = (v: string): v is LedgerFilter => LEDGER_FILTERS.some((f) => f === v);

/** The signal ledger's bucket (docs/ledger.md): tokens in that part, or a re-rendered prompt. */
function ledgerHas(s: RolloutSummary, v: string): boolean {
  if (v === "rerendered") return (s.splice?.rerendered ?? 0) > 0;
  return isLedgerFilter(v) && v !== "rerendered" && (s.ledger?.[v] ?? 0) > 0;
}

type BucketTest = (s: RolloutSummary, value: string) => boolean;
const has = (counts: Record<string, number>, key: string) => Object.hasOwn(counts, key);

/**
 * A health chart's bucket that no filter above lists exactly (`calls=7`, `delivered=0.9`), each with
 * the test lib/health/health.ts files a rollout under that bucket by, so a bar's click lists
 * exactly the rollouts it counts.
 */
export const BUCKET_FILTERS = {
  mask_reason: (s, v) => maskReasonKeys(s).includes(v),
  delivered: (s, v) => s.delivered_fraction !== null && deliveredBucket(s.delivered_fraction) === v,
  calls: (s, v) => String(s.n_calls) === v,
  chains: (s, v) => s.chains !== null && String(s.chains) === v,
  roots: (s, v) => s.roots !== null && String(s.roots) === v,
  side_call: (s, v) => (v === "pattern" || v === "self_calibration") && s.side_call_reasons[v] > 0,
  fallback: (s, v) => has(s.fallbacks, v) && (s.fallbacks[v] ?? 0) > 0,
  error_category: (s, v) => has(s.error_categories, v),
  ledger: (s, v) => ledgerHas(s, v),
  /** Routed experts that fell back on the main chain: at least this fraction (docs/experts.md). */
  expert_fallback: (s, v) =>
    s.expert_fallback_fraction !== null && s.expert_fallback_fraction >= Number(v),
} satisfies Record<string, BucketTest>;
export const BUCKET_KEYS = Object.keys(BUCKET_FILTERS) as Array<keyof typeof BUCKET_FILTERS>;

const word = z.string().max(64).optional();
const count = z
  .string()
  .regex(/^\d+(\.\d+)?$/, "takes a count")
  .optional();

const intParam = (max: number, fallback: number) =>
  z.coerce.number().int().min(0).max(max).default(fallback);

export const rolloutQuerySchema = z.object({
  sort: z.enum(SORT_KEYS).default("rollout_id"),
  dir: z.enum(["asc", "desc"]).default("asc"),
  /** masked, or trained (with or without warnings), by the severity model. */
  verdict: z.enum(["all", "masked", "trained"]).default("all"),
  /** One severity class (lib/severity). */
  severity: severityStateSchema.optional(),
  reason: z.string().max(64).optional(),
  status: z
    .string()
    .regex(/^\d{3}$|^none$/, "status must be an HTTP status code")
    .optional(),
  step: z.coerce.number().int().optional(),
  cut_short: z.enum(["1"]).optional(),
  /** The rollouts an alert names, where no other filter lists exactly them (ALERT_FILTERS). */
  alert: z.enum(ALERT_FILTER_KINDS).optional(),
  mask_reason: word,
  delivered: z
    .string()
    .regex(/^0\.\d$|^1\.0$/, "delivered takes a bucket's lower edge, 0.0 … 0.9 or 1.0")
    .optional(),
  calls: count,
  chains: count,
  roots: count,
  side_call: z.enum(["pattern", "self_calibration"]).optional(),
  fallback: word,
  error_category: word,
  ledger: z.enum(LEDGER_FILTERS).optional(),
  expert_fallback: z
    .string()
    .regex(
      /^0(\.\d{1,6})?$|^1(\.0{1,6})?$/,
      "expert_fallback takes the least fraction shown, 0 … 1",
    )
    .optional(),
  q: z.string().max(200).optional(),
  /** Words and "phrases" the rollout's text holds (./search/parse). */
  text: z.string().max(500).optional(),
  offset: intParam(Number.MAX_SAFE_INTEGER, 0),
  limit: intParam(5000, 200),
});

export type RolloutQuery = z.infer<typeof rolloutQuerySchema>;

export function parseRolloutQuery(params: URLSearchParams): RolloutQuery {
  const raw = Object.fromEntries([...params].filter(([, v]) => v !== ""));
  const parsed = rolloutQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidInputError(
      `${issue?.path.join(".") || "query"}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

/** The query without its window: rows for the same key are the same list. */
export function filterKey(q: RolloutQuery): string {
  return JSON.stringify([
    q.sort,
    q.dir,
    q.verdict,
    q.severity ?? "",
    q.reason ?? "",
    q.status ?? "",
    q.step ?? "",
    q.cut_short ?? "",
    q.alert ?? "",
    q.q ?? "",
    q.text ?? "",
    ...BUCKET_KEYS.map((k) => q[k] ?? ""),
  ]);
}

/** One flat row per rollout, for CSV and JSON exports. */
export function exportRow(s: RolloutSummary): ExportRow {
  return {
    rollout_id: s.rollout_id,
    step: s.step,
    reward: s.reward,
    mask_sample: s.mask_sample,
    severity: s.severity,
    severity_reasons: s.severity_reasons.map((r) => r.code).join(" "),
    mask_reasons: s.mask_reasons.join(" "),
    error: s.error,
    n_calls: s.n_calls,
    chains: s.chains,
    roots: s.roots,
    delivered_fraction: s.delivered_fraction,
    expert_fallback_fraction: s.expert_fallback_fraction,
    side_calls: s.side_calls,
    quarantined: s.quarantined,
    failed_calls: s.failed_calls,
    lost_calls: s.lost_calls,
    status_codes: Object.entries(s.status_codes)
      .map(([k, n]) => `${k}:${n}`)
      .join(" "),
    cut_short: s.cut_short,
    bytes: s.bytes,
    source: s.source,
  };
}

/** The CSV's columns: the JSON export row's keys, in the contract's order. */
export const EXPORT_COLUMNS = exportRowSchema.keyof().options;

/**
 * Text a spreadsheet would run as a formula (OWASP's CSV injection): a formula sign first, also
 * after leading whitespace or line breaks, or in its fullwidth form (＝ ＋ － ＠), or a tab or CR.
 */
const FORMULA_START = /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

/**
 * A CSV cell: numbers and booleans bare, every text quoted (so no `,` or `;` in it can start a
 * cell) and a formula start neutralised with a leading `'`; null is empty.
 */
function cell(v: string | number | boolean | null | undefined): string {
  if (v === null || v === undefined) return "";
  if (typeof v !== "string") return String(v);
  const t = FORMULA_START.test(v) ? `'${v}` : v;
  return `"${t.replace(/"/g, '""')}"`;
}

/** One row of the CSV, with its line end. */
export function csvLine(row: ExportRow): string {
  return `${EXPORT_COLUMNS.map((c) => cell(row[c])).join(",")}\n`;
}
