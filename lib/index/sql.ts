// The rollouts table as SQL over the summary index's rows (./columns): the WHERE clause of
// every filter the table offers, its ORDER BY (nulls last in either direction, ties in natural id
// order, the same order as ./query's), pages, counts, neighbours and the rows an export
// streams. The run-level severity (the policy model's "another model as main chain" warning, no
// capture in a capturing run) is applied in SQL from the run's facts, as ./run-severity
// applies it to a summary. Not responsible for parsing the query (./query).
import "server-only";
import type { RolloutSummary, RolloutNeighbors, TrainerDiffers } from "@/lib/schema";
import { SEVERITY_ORDER } from "@/lib/severity";
import type { RolloutQuery } from "./query";
import { SUMMARY_SELECT, summaryOfRow, TAG } from "./columns";
import type { SummaryRows } from "./rows";
import { isDamage } from "@/lib/rollout";
import { indexTextSoon, parseTextQuery, retireTrigrams, trigramsDone } from "./search";

/** The run's facts its severity is served with (./run-severity applies them to a summary). */
export interface RunFacts {
  policy_model: string | null;
  /** The manifest says capture is on (true), off (false) or does not say (null). */
  capture_expected: boolean | null;
  /** Rollouts whose trained sample in the trainer's step files differs (./trainer-facts), by id. */
  trainer_differs?: Readonly<Record<string, TrainerDiffers>>;
}

type Params = Record<string, unknown>;
interface Sql {
  sql: string;
  params: Params;
}

/** The rollout's main chain is another model than the run's policy (a run-level warning). */
export const OTHER_MODEL_SQL =
  "(s.severity != 'pending' AND s.main_model IS NOT NULL AND @policy IS NOT NULL AND s.main_model != @policy)";
/** No capture evidence in a run that captures or does not say (a run-level warning). */
export const NO_CAPTURE_SQL = "(s.severity != 'pending' AND s.has_capture = 0 AND @cap = 1)";
/**
 * The trainer's step files hold a sample of the rollout that differs (a run-level warning); a run
 * without any (almost every one) pays one comparison of a bound constant per row.
 */
export const TRAINER_SQL =
  "(@tdiff != '[]' AND s.severity != 'pending' AND s.id IN (SELECT value FROM json_each(@tdiff)))";
/** A trained rollout whose sample the trainer left out of the loss: masked there (./run-severity). */
const TRAINER_LEFT_SQL =
  "(@tleft != '[]' AND s.severity IN ('trained', 'trained_with_warnings') AND s.id IN (SELECT value FROM json_each(@tleft)))";
/** Masked as served: by the capture's consumer (or the record), or by the trainer. */
export const SERVED_MASKED_SQL = `(s.severity = 'masked' OR ${TRAINER_LEFT_SQL})`;
/**
 * The severity as served: a trained rollout the trainer left out of the loss is masked; one with
 * another run-level warning is trained with warnings.
 */
export const SERVED_SEVERITY_SQL = `(CASE WHEN ${TRAINER_LEFT_SQL} THEN 'masked' WHEN s.severity = 'trained' AND (${OTHER_MODEL_SQL} OR ${NO_CAPTURE_SQL} OR ${TRAINER_SQL}) THEN 'trained_with_warnings' ELSE s.severity END)`;

export const factParams = (f: RunFacts): Params => ({
  policy: f.policy_model,
  cap: f.capture_expected === false ? 0 : 1,
  tdiff: JSON.stringify(Object.keys(f.trainer_differs ?? {})),
  tleft: JSON.stringify(
    Object.entries(f.trainer_differs ?? {}).flatMap(([id, d]) => (d.left_out ? [id] : [])),
  ),
});

const SEVERITY_RANK = `(CASE ${SERVED_SEVERITY_SQL} ${SEVERITY_ORDER.map((s, i) => `WHEN '${s}' THEN ${i}`).join(" ")} END)`;

/** A number filter's value as the column holds it, or null when no number prints as `v`. */
const exactNumber = (v: string): number | null => (String(Number(v)) === v ? Number(v) : null);

/**
 * The WHERE clause of `q`'s filters (always true without any), over `summaries s`. `trigrams`: how
 * far search's trigrams have got (./search trigramsDone), null when there are none to narrow with.
 */
export function whereOf(q: RolloutQuery, facts: RunFacts, trigrams: number | null = null): Sql {
  const params: Params = factParams(facts);
  const and: string[] = [];
  const bind = (v: unknown) => {
    const name = `p${Object.keys(params).length}`;
    params[name] = v;
    return `@${name}`;
  };
  const tagged = (tag: string, extra = "") =>
    `s.id IN (SELECT id FROM summary_tags WHERE tag = ${bind(tag)}${extra})`;
  const number = (col: string, v: string | undefined) => {
    if (v === undefined) return;
    const n = exactNumber(v);
    and.push(n === null ? "0" : `s.${col} = ${bind(n)}`);
  };
  if (q.verdict === "masked") and.push("s.severity = 'masked'");
  if (q.verdict === "trained") and.push("s.severity IN ('trained', 'trained_with_warnings')");
  if (q.severity) and.push(`${SERVED_SEVERITY_SQL} = ${bind(q.severity)}`);
  if (q.reason) {
    const run =
      q.reason === "other_model_main"
        ? ` OR ${OTHER_MODEL_SQL}`
        : q.reason === "no_capture"
          ? ` OR ${NO_CAPTURE_SQL}`
          : q.reason === "trainer_differs"
            ? ` OR ${TRAINER_SQL}`
            : "";
    and.push(`(${tagged(TAG.reason + q.reason)}${run})`);
  }
  if (q.status) and.push(tagged(TAG.status + q.status));
  if (q.step !== undefined) and.push(`ifnull(s.step, 9e999) = ${bind(q.step)}`);
  if (q.cut_short) and.push("ifnull(s.cut_short, '') != ''");
  if (q.alert === "dangling_intents") and.push("s.dangling_intents > 0");
  if (q.alert === "unreadable") and.push("s.unreadable = 1");
  if (q.alert === "newer_schema") and.push("s.newer_schema = 1");
  if (q.alert === "profile_disagreement") and.push("s.other_profile_disagrees = 1");
  if (q.mask_reason !== undefined) and.push(tagged(TAG.maskReason + q.mask_reason));
  if (q.delivered !== undefined) and.push(`s.delivered_bucket = ${bind(q.delivered)}`);
  number("n_calls", q.calls);
  number("chains", q.chains);
  number("roots", q.roots);
  if (q.side_call === "pattern") and.push("s.side_pattern > 0");
  if (q.side_call === "self_calibration") and.push("s.side_self > 0");
  if (q.fallback !== undefined) and.push(tagged(TAG.fallback + q.fallback, " AND n > 0"));
  if (q.error_category !== undefined) and.push(tagged(TAG.errorCategory + q.error_category));
  if (q.ledger === "rerendered") and.push("ifnull(json_extract(s.splice, '$.rerendered'), 0) > 0");
  else if (q.ledger !== undefined)
    and.push(`ifnull(json_extract(s.ledger, '$.${q.ledger}'), 0) > 0`);
  if (q.expert_fallback !== undefined)
    and.push(`s.expert_fallback_fraction >= ${bind(Number(q.expert_fallback))}`);
  if (q.q) and.push(`instr(s.search, ${bind(q.q.toLowerCase())}) > 0`);
  const text = q.text ? parseTextQuery(q.text) : null;
  if (text) {
    // The trigram index narrows the candidates; each is then checked exactly (./search/match).
    // Rows without trigrams (after the trigrams' last row, or never indexed) are candidates too,
    // found by rowid range and a partial index: an `OR` on search_text would scan its every row.
    const narrow =
      text.fts && trigrams !== null
        ? `t.rid IN (SELECT rowid FROM trig.search_fts WHERE search_fts MATCH ${bind(text.fts)} UNION ALL SELECT rid FROM search_text WHERE rid > ${bind(trigrams)} UNION ALL SELECT rid FROM search_text WHERE trigrams = 0) AND `
        : "";
    const check = bind(JSON.stringify({ needles: text.needles, kinds: text.kinds }));
    and.push(
      `s.id IN (SELECT t.id FROM search_text t WHERE ${narrow}lens_text_match(t.body, t.deflated, t.segs, ${check}))`,
    );
  }
  return { sql: and.length ? and.join(" AND ") : "1", params };
}

/**
 * `run` with `q`'s WHERE clause narrowed by the trigrams; if that fails on a damaged database, once
 * more without them: a damaged trigram file costs a query the narrowing, not its answer. Its
 * trigrams are retired (a new epoch: no query narrows by them again) and written afresh by the
 * trigram writer, which moves a file it cannot clear aside (./search/indexer).
 */
function withWhere<T>(rows: SummaryRows, q: RolloutQuery, facts: RunFacts, run: (w: Sql) => T): T {
  const trigrams = q.text ? trigramsDone(rows.handle) : null;
  try {
    return run(whereOf(q, facts, trigrams));
  } catch (err) {
    if (trigrams === null || !isDamage(err)) throw err;
    rows.guarded((db) => retireTrigrams(db));
    indexTextSoon(rows);
    return run(whereOf(q, facts, null));
  }
}

/** The "Calls made" column's value (lib/view/calls-made), as the table sorts by it. */
const CALLS_MADE = "(s.n_calls + s.failed_calls + s.lost_calls)";

/**
 * The table's order as expressions sorted ascending (a descending number sorts by its negation, so
 * nulls stay last and the indexes serve both), or all descending for the id order reversed.
 */
export function orderOf(q: RolloutQuery): { keys: string[]; desc: boolean } {
  const ids = ["s.nat", "s.tie"];
  if (q.sort === "rollout_id") return { keys: ids, desc: q.dir === "desc" };
  const col =
    q.sort === "severity" ? SEVERITY_RANK : q.sort === "n_calls" ? CALLS_MADE : `s.${q.sort}`;
  const value = q.dir === "asc" ? col : `-${col}`;
  return { keys: [`ifnull(${value}, 9e999)`, ...ids], desc: false };
}

const orderBy = (o: { keys: string[]; desc: boolean }) =>
  o.keys.map((k) => (o.desc ? `${k} DESC` : k)).join(", ");

const summariesOf = (rows: unknown[]): RolloutSummary[] =>
  rows
    .map((r) => summaryOfRow(r as Record<string, unknown>))
    .filter((s): s is RolloutSummary => s !== null);

/** Rollouts with a row. */
export function countRows(rows: SummaryRows): number {
  return rows.handle.prepare("SELECT COUNT(*) FROM summaries").pluck().get() as number;
}

/** Every stored summary in natural id order (for small runs: compare, tests). */
export function allSummaries(rows: SummaryRows): RolloutSummary[] {
  return summariesOf(
    rows.handle.prepare(`SELECT ${SUMMARY_SELECT} FROM summaries s ORDER BY s.nat, s.tie`).all(),
  );
}

/** How many rollouts match `q`. */
export function countMatching(rows: SummaryRows, q: RolloutQuery, facts: RunFacts): number {
  return withWhere(rows, q, facts, (w) => {
    const sql = `SELECT COUNT(*) FROM summaries s WHERE ${w.sql}`;
    return rows.handle.prepare(sql).pluck().get(w.params) as number;
  });
}

/** One window of the rows matching `q` in its order (stored summaries: no run severity yet). */
export function pageRows(
  rows: SummaryRows,
  q: RolloutQuery,
  facts: RunFacts,
  offset: number,
  limit: number,
): RolloutSummary[] {
  return withWhere(rows, q, facts, (w) => {
    const sql = `SELECT ${SUMMARY_SELECT} FROM summaries s WHERE ${w.sql} ORDER BY ${orderBy(orderOf(q))} LIMIT @limit OFFSET @offset`;
    return summariesOf(rows.handle.prepare(sql).all({ ...w.params, limit, offset }));
  });
}

/**
 * Every row matching `q` in its order, a thousand at a time from where the last page ended (no
 * statement stays open between pages, so the index keeps writing while an export streams).
 */
export function* matchingRows(
  rows: SummaryRows,
  q: RolloutQuery,
  facts: RunFacts,
): Generator<RolloutSummary> {
  const o = orderOf(q);
  const keys = o.keys.map((k, i) => `${k} AS k${i}`).join(", ");
  const after = `(${o.keys.join(", ")}) ${o.desc ? "<" : ">"} (${o.keys.map((_, i) => `@k${i}`).join(", ")})`;
  let last: Record<string, unknown> | null = null;
  for (;;) {
    const page = withWhere(rows, q, facts, (w) => {
      const sql = `SELECT ${SUMMARY_SELECT}, ${keys} FROM summaries s WHERE ${w.sql}${last ? ` AND ${after}` : ""} ORDER BY ${orderBy(o)} LIMIT 1000`;
      return rows.handle.prepare(sql).all({ ...w.params, ...(last ?? {}) }) as Array<
        Record<string, unknown>
      >;
    });
    yield* summariesOf(page);
    if (page.length < 1000) return;
    const end = page[page.length - 1] as Record<string, unknown>;
    last = Object.fromEntries(o.keys.map((_, i) => [`k${i}`, end[`k${i}`]]));
  }
}

/**
 * The rollouts just before and after `id` in `q`'s order, its place among the matching rows and
 * their count. A rollout outside the filters still has neighbours: those it would sit between.
 * Without a row (not indexed yet) it has none.
 */
export function neighboursOf(
  rows: SummaryRows,
  id: string,
  q: RolloutQuery,
  facts: RunFacts,
): RolloutNeighbors {
  const db = rows.handle;
  const o = orderOf(q);
  const total = countMatching(rows, q, facts);
  return withWhere(rows, q, facts, (w) => {
    const keys = o.keys.map((k, i) => `${k} AS k${i}`).join(", ");
    const self = db
      .prepare(`SELECT ${keys}, (${w.sql}) AS hit FROM summaries s WHERE s.id = @id`)
      .get({ ...w.params, id }) as Record<string, unknown> | undefined;
    if (!self) return { prev: null, next: null, index: null, total };
    const tuple = `(${o.keys.join(", ")})`;
    const at = `(${o.keys.map((_, i) => `@k${i}`).join(", ")})`;
    const p = {
      ...w.params,
      ...Object.fromEntries(o.keys.map((_, i) => [`k${i}`, self[`k${i}`]])),
    };
    const [lt, gt] = o.desc ? [">", "<"] : ["<", ">"];
    const back = { keys: o.keys, desc: !o.desc };
    const one = (cmp: string, order: string) =>
      (db
        .prepare(
          `SELECT s.id FROM summaries s WHERE ${w.sql} AND ${tuple} ${cmp} ${at} ORDER BY ${order} LIMIT 1`,
        )
        .pluck()
        .get(p) as string | undefined) ?? null;
    const before = db
      .prepare(`SELECT COUNT(*) FROM summaries s WHERE ${w.sql} AND ${tuple} ${lt} ${at}`)
      .pluck()
      .get(p) as number;
    return {
      prev: one(lt, orderBy(back)),
      next: one(gt, orderBy(o)),
      index: self.hit ? before : null,
      total,
    };
  });
}

/** The run's policy model: the main-chain model most rollouts train on (ties: smallest name). */
export function policyModelOf(rows: SummaryRows): string | null {
  const sql =
    "SELECT main_model FROM summaries WHERE main_model IS NOT NULL AND main_model != '' GROUP BY main_model ORDER BY COUNT(*) DESC, main_model LIMIT 1";
  return (rows.handle.prepare(sql).pluck().get() as string | undefined) ?? null;
}
