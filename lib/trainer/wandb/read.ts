// One W&B run file (`run-<id>.wandb`) read: its history as scalar points into a sink, and what it
// says about the run (ids, names, start time, config and summary in the order written, exit code).
// Pure: bytes in, results out. Records that are not Records, and config or summary values that
// are not JSON, are notes with their byte offset, never fatal. Not responsible for framing
// (./framing), for series naming rules (./history) or for the side files (./side-files).
import type { PointSink } from "../scalar-series";
import { FactValues, isWandbConfigKey, MAX_VALUE_CHARS, type WandbFacts } from "./facts";
import { eachWandbRecord } from "./framing";
import { HistoryPoints } from "./history";
import { parseWandbJson } from "./json-value";
import { decodeRecord, itemName, type WandbChange, type WandbRunMessage } from "./proto";

export interface WandbRead {
  notes: string[];
  facts: WandbFacts;
  /** Whole records read, of every kind. */
  records: number;
  /** Points handed to the sink. */
  points: number;
}

// Notes on undecodable records and values past this many are only counted.
const MAX_NOTES = 20;
const MAX_TAGS = 100;

/**
 * Applies a config or summary change (updates, then removes, as W&B applies them), leaving out
 * the keys `skip` names.
 */
function applyChange(
  into: FactValues,
  change: WandbChange,
  offset: number,
  note: (m: string) => void,
  skip: (key: string) => boolean = () => false,
): void {
  let unparsed = 0;
  for (const item of change.update ?? []) {
    const key = itemName(item);
    if (skip(key)) continue;
    const parsed = parseWandbJson(item.value_json ?? "");
    if (parsed.ok) into.set(key, parsed.value);
    else unparsed++;
  }
  for (const item of change.remove ?? []) into.remove(itemName(item));
  if (unparsed > 0) note(`byte ${offset}: ${unparsed} values that are not JSON; skipped`);
}

/** The run's names and times from a RunRecord: a later record's non-empty field wins. */
function applyRun(facts: WandbFacts, run: WandbRunMessage): void {
  for (const key of [
    "run_id",
    "project",
    "entity",
    "display_name",
    "run_group",
    "job_type",
  ] as const) {
    const v = run[key];
    if (v) facts[key] = v.slice(0, MAX_VALUE_CHARS);
  }
  if (run.tags?.length)
    facts.tags = run.tags.slice(0, MAX_TAGS).map((t) => t.slice(0, MAX_VALUE_CHARS));
  const t = run.start_time;
  if (t && (t.seconds !== undefined || t.nanos !== undefined))
    facts.start_time = (t.seconds ?? 0) + (t.nanos ?? 0) / 1e9;
}

/**
 * Adds the history of the W&B run file `bytes` (named `rel`, the name notes use) to `into` and
 * returns the run's facts. Throws `WandbFileRefused` only when the header is not W&B's or is from a
 * newer log version; anything else wrong in the bytes is a note.
 */
export function parseWandbFile(bytes: Buffer, rel: string, into: PointSink): WandbRead {
  const notes: string[] = [];
  let dropped = 0;
  const note = (message: string) => {
    if (notes.length < MAX_NOTES) notes.push(`${rel}: ${message}`);
    else dropped++;
  };
  const history = new HistoryPoints(rel, into, (m) =>
    notes.length < MAX_NOTES ? notes.push(m) : dropped++,
  );
  const config = new FactValues();
  const summary = new FactValues();
  const facts: WandbFacts = { config: {}, summary: {} };
  const framing = eachWandbRecord(bytes, rel, (data, offset) => {
    let record;
    try {
      record = decodeRecord(data);
    } catch (err) {
      note(`byte ${offset}: not a W&B Record (${(err as Error).message}); skipped`);
      return;
    }
    if (record.history) history.add(record.history, offset);
    else if (record.summary) applyChange(summary, record.summary, offset, note);
    else if (record.config) applyChange(config, record.config, offset, note, isWandbConfigKey);
    else if (record.run) {
      applyRun(facts, record.run);
      if (record.run.config) applyChange(config, record.run.config, offset, note, isWandbConfigKey);
      if (record.run.summary) applyChange(summary, record.run.summary, offset, note);
    } else if (record.exit) facts.exit_code = record.exit.exit_code ?? 0;
  });
  facts.config = config.record();
  facts.summary = summary.record();
  if (dropped > 0) notes.push(`${rel}: …and ${dropped} more problems`);
  return {
    // Framing first, as the file reads: a torn tail or bad CRC, then what the records held.
    notes: [
      ...framing.notes,
      ...notes,
      ...history.notes(),
      ...config.notes("config", rel),
      ...summary.notes("summary", rel),
    ],
    facts,
    records: framing.records,
    points: history.points,
  };
}
