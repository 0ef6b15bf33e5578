// Mismatch hotspots of a run (docs/trainer-logs.md "Mismatch hotspots"): the tokens, position
// buckets and turns where train and inference disagree most, ranked from ./read's one-pass tally,
// tokens decoded with the run's tokenizer, each row's worst occurrence joined to its rollout
// through the truth check (../truth-check), so a link can open the inspector at that token.
// MoE layers are a seam: they need routed experts in the capture, which this does not decode.
import "server-only";
import path from "node:path";
import type { RunLayout } from "@/lib/runs";
import type { HotspotRow, HotspotsQuery, TrainerHotspots, TruthSample } from "@/lib/schema";
import { decoderFor, type TokenDecoder } from "@/lib/tokens";
import { trainerLogDir, trainerTruthAll } from "../truth-check";
import { runTally } from "./read";
import {
  bucketRange,
  distinctTokens,
  rank,
  TAIL_ERROR,
  tokenEntries,
  type Acc,
  type Dimension,
  type Occurrence,
} from "./tally";

export { runHotspotsStep, runTally, type HotspotsStepJob } from "./read";
export { tokenEntries } from "./tally";

/** Occurrences a row needs before it is ranked, per table: one token's error is noise. */
export const MIN_COUNT: Record<Dimension, number> = { tokens: 5, positions: 1, turns: 1 };

/** Issues listed; the rest are counted in one more line. */
export const MAX_ISSUES = 50;

type Joined = ReadonlyMap<string, TruthSample>;

/** The token's text, or null without a tokenizer or for an id it has no piece for. */
function textOf(decoder: TokenDecoder | null, id: number): string | null {
  try {
    return decoder ? decoder.decode([id]) : null;
  } catch {
    return null;
  }
}

function listed(issues: string[]): string[] {
  if (issues.length <= MAX_ISSUES) return issues;
  const more = issues.length - MAX_ISSUES;
  return [
    ...issues.slice(0, MAX_ISSUES),
    `… and ${more.toLocaleString("en-US")} more lines not read`,
  ];
}

/** The rollout whose main chain holds the occurrence, or null (no join, or past the first drift). */
function rolloutOf(joined: Joined, at: Occurrence): string | null {
  const s = joined.get(`${at.step}:${at.line}`);
  if (!s || s.class === "no_capture") return null;
  if (s.class === "tokens_differ" && (s.first_diff === null || at.pos >= s.first_diff)) return null;
  return s.rollout_id;
}

async function joinedSamples(run: RunLayout): Promise<Joined> {
  const truth = await trainerTruthAll(run).catch(() => null);
  return new Map((truth?.samples ?? []).map((s) => [`${s.step}:${s.line}`, s]));
}

function toRow(
  dim: Dimension,
  key: number,
  a: Acc,
  joined: Joined,
  decoder: TokenDecoder | null,
): HotspotRow {
  const [from, to] = dim === "positions" ? bucketRange(key) : [null, null];
  return {
    key,
    text: dim === "tokens" ? textOf(decoder, key) : null,
    from,
    to,
    count: a.count,
    mean: a.sum / a.count,
    tail_share: a.tail / a.count,
    max: a.max,
    worst: { ...a.at, rollout_id: rolloutOf(joined, a.at) },
  };
}

/** The run's hotspots, ranked by `q.by`; empty tables and a null log_dir without step files. */
export async function trainerHotspots(run: RunLayout, q: HotspotsQuery): Promise<TrainerHotspots> {
  const logDir = await trainerLogDir(run);
  const { tally, issues, stepFiles } = await runTally(logDir);
  const joined: Joined = stepFiles > 0 ? await joinedSamples(run) : new Map();
  const decoder =
    tally.maskedTokens > 0
      ? await decoderFor(run.dir, run.manifest.tokenizer, run.root).catch(() => null)
      : null;
  const table = (dim: Dimension) =>
    rank(dim === "tokens" ? tokenEntries(tally) : tally[dim], q.by, MIN_COUNT[dim], q.limit).map(
      (r) => toRow(dim, r.key, r.acc, joined, decoder),
    );
  return {
    run_id: run.id,
    log_dir: logDir === null ? null : path.relative(run.dir, logDir) || ".",
    step_files: stepFiles,
    samples: tally.samples,
    masked_tokens: tally.maskedTokens,
    non_finite: tally.nonFinite,
    by: q.by,
    tail_error: TAIL_ERROR,
    min_count: MIN_COUNT,
    tokens: table("tokens"),
    positions: table("positions"),
    turns: table("turns"),
    distinct: {
      tokens: distinctTokens(tally),
      positions: tally.positions.size,
      turns: tally.turns.size,
    },
    moe_layers: null,
    issues: listed(issues),
  };
}
