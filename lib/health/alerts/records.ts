// Records first, checked: a rollout is listed from its record at once and rebuilt from the token
// store; where the verdict built from the store contradicts the one the consumer left in the
// record (`_ng_token_capture`: an error or incomplete capture means it masked the rollout), the run
// gets a warning naming them. A query over the summary index's rows and records; no I/O of its own.
import "server-only";
import type Database from "better-sqlite3";
import type { Alert } from "@/lib/schema";
import { plural } from "@/lib/text";
import { SAMPLE } from "../health";

/** The consumer masked the rollout by its record: its capture carries an error or is incomplete. */
const CONSUMER_MASKED =
  "(json_extract(r.record, '$._ng_token_capture.error') IS NOT NULL OR json_extract(r.record, '$._ng_token_capture.capture_incomplete') = 1)";
const DISAGREES = `s.source = 'store' AND json_type(r.record, '$._ng_token_capture') = 'object' AND ${CONSUMER_MASKED} != s.mask_sample`;

/** The alert, or none when every built verdict agrees with its record's. */
export function recordAlerts(db: Database.Database): Alert[] {
  const from = `FROM summaries s JOIN records r ON r.id = s.id WHERE ${DISAGREES}`;
  const count = db.prepare(`SELECT COUNT(*) ${from}`).pluck().get() as number;
  if (count === 0) return [];
  const ids = db
    .prepare(`SELECT s.id ${from} ORDER BY s.nat, s.tie LIMIT ${SAMPLE}`)
    .pluck()
    .all() as string[];
  const first = db
    .prepare(`SELECT s.mask_sample FROM summaries s WHERE s.id = ?`)
    .pluck()
    .get(ids[0]) as number;
  const [record, built] = first ? ["trained", "masked"] : ["masked", "trained"];
  return [
    {
      kind: "record_disagrees",
      severity: "warning",
      verdict: null,
      count,
      message: `${plural(count, "rollout")}: the verdict built from the token store disagrees with the consumer's in rollouts.jsonl (e.g. ${ids[0]}: the record says ${record}, the store builds ${built}); the trainer used the record's.`,
      rollout_ids: ids,
    },
  ];
}
