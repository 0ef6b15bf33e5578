// The signal ledger's index half (docs/ledger.md): each step's sums of its rollouts' ledgers and
// splice facts over the summaries table, and whether each rollout's GRPO group carries any
// advantage (the groups route's groups and rule, ./groups-sql). Reads only; the trainer's stages
// are joined by lib/ledger.
import "server-only";
import type Database from "better-sqlite3";
import { DEFAULT_GROUP_FIELD } from "@/lib/runs";
import { LEDGER_PARTS, type RolloutLedger } from "@/lib/schema";
import { groupTables } from "./groups-sql";
import { anyScalarAt, sampleFields } from "./records-sql";

/** A step's rollouts, those whose store was read, their ledgers' sums and their calls' splice sums. */
export type LedgerStepSums = {
  step: number | null;
  rollouts: number;
  counted: number;
} & RolloutLedger & {
    calls: number;
    rerendered: number;
    rerendered_rollouts: number;
  };

const STEP_SUMS = `SELECT step, count(*) AS rollouts, count(json_extract(ledger, '$.captured')) AS counted,
  ${LEDGER_PARTS.map((k) => `ifnull(sum(json_extract(ledger, '$.${k}')), 0) AS ${k}`).join(",\n  ")},
  ifnull(sum(json_extract(splice, '$.calls')), 0) AS calls,
  ifnull(sum(json_extract(splice, '$.rerendered')), 0) AS rerendered,
  ifnull(sum(json_extract(splice, '$.rerendered') > 0), 0) AS rerendered_rollouts
  FROM summaries GROUP BY step ORDER BY step IS NULL, step`;

/** Each step's sums (null step last), one GROUP BY over the summaries table. */
export function ledgerStepSums(db: Database.Database): LedgerStepSums[] {
  return db.prepare(STEP_SUMS).all() as LedgerStepSums[];
}

/** The first `limit` rollouts (natural id order) whose prompt re-rendered an earlier turn. */
export function rerenderedRollouts(
  db: Database.Database,
  limit: number,
): Array<{ id: string; splice: string }> {
  return db
    .prepare(
      `SELECT id, splice FROM summaries WHERE ifnull(json_extract(splice, '$.rerendered'), 0) > 0
       ORDER BY nat, tie LIMIT ?`,
    )
    .all(limit) as Array<{ id: string; splice: string }>;
}

/** The groups route's default groups (by task and step), or null when the records hold no task. */
function defaultGroupTables(db: Database.Database): ReturnType<typeof groupTables> | null {
  const fields = sampleFields(db).map((f) => f.path);
  if (!fields.includes(DEFAULT_GROUP_FIELD) && !anyScalarAt(db, DEFAULT_GROUP_FIELD)) return null;
  return groupTables(db, DEFAULT_GROUP_FIELD);
}

/**
 * Rollout id → whether its group (by task and step, the groups route's default) carries an
 * advantage: at least two unmasked rewards, not all equal; null where no member's record has a
 * reward (not known). Null when the run has no task field.
 */
export function groupSignalOf(db: Database.Database): Map<string, boolean | null> | null {
  const t = defaultGroupTables(db);
  if (t === null) return null;
  const rows = db
    .prepare(
      `SELECT m.id AS id, g.no_signal AS none, g.unrewarded AS unknown FROM ${t.members} m
       JOIN ${t.groups} g ON g.kind = m.kind AND g.v = m.v AND g.step IS m.step`,
    )
    .all() as Array<{ id: string; none: number; unknown: number }>;
  return new Map(rows.map((r) => [r.id, r.unknown === 1 ? null : r.none === 0]));
}

/** A step's delivered tokens, and the rollouts that have any, in GRPO groups whose rewards are all equal. */
export interface EqualRewardSums {
  step: number | null;
  rollouts: number;
  delivered: number;
}

/**
 * Per step, the delivered tokens of rollouts whose group (groupSignalOf's) has two or more unmasked
 * rewards, all equal: GRPO gives them no advantage, whatever its baseline. A group of one is not
 * counted (nothing says the run groups its rollouts at all). Null with no groups.
 */
export function equalRewardSums(db: Database.Database): EqualRewardSums[] | null {
  const t = defaultGroupTables(db);
  if (t === null) return null;
  return db
    .prepare(
      `SELECT s.step AS step, ifnull(sum(json_extract(s.ledger, '$.delivered') > 0), 0) AS rollouts,
         ifnull(sum(json_extract(s.ledger, '$.delivered')), 0) AS delivered
       FROM ${t.members} m
       JOIN ${t.groups} g ON g.kind = m.kind AND g.v = m.v AND g.step IS m.step
       JOIN summaries s ON s.id = m.id
       WHERE g.no_signal = 1 AND g.voters >= 2
       GROUP BY s.step`,
    )
    .all() as EqualRewardSums[];
}
