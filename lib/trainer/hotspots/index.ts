// Mismatch hotspots of a run (docs/hotspots.md): the tokens and position buckets where train and
// inference disagree most, ranked from ./read's one-pass tally, tokens decoded with the run's
// tokenizer; turns (calls of the main chain) and MoE layer × expert from the truth check's join
// (../truth-check, ./joined). Each row's worst occurrence is joined to its rollout, so a link can
// open the inspector at that token.
import "server-only";
import path from "node:path";
import type { RunLayout } from "@/lib/runs";
import type {
  HotspotMoe,
  HotspotRow,
  HotspotsQuery,
  HotspotStat,
  TrainerHotspots,
  TruthSample,
} from "@/lib/schema";
import { decoderFor, type TokenDecoder } from "@/lib/tokens";
import { trainerJoinedTally, trainerLogDir, trainerTruthAll } from "../truth-check";
import { emptyJoined, fallbackOf, MOE_KEY, replayedOf, type JoinedTally } from "./joined";
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
  type Tally,
} from "./tally";

export { runHotspotsStep, runTally, type HotspotsStepJob } from "./read";
export { tokenEntries } from "./tally";

/** Occurrences a row needs before it is ranked, per table: one token's error is noise. */
export const MIN_COUNT: Record<Dimension, number> = { tokens: 5, positions: 1, turns: 1, moe: 5 };

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

function toStat(a: Acc, joined: Joined): HotspotStat {
  return {
    count: a.count,
    mean: a.sum / a.count,
    tail_share: a.tail / a.count,
    max: a.max,
    worst: { ...a.at, rollout_id: rolloutOf(joined, a.at) },
  };
}

function toRow(
  dim: Dimension,
  key: number,
  a: Acc,
  joined: Joined,
  decoder: TokenDecoder | null,
): HotspotRow {
  const [from, to] = dim === "positions" ? bucketRange(key) : [null, null];
  const moe = dim === "moe";
  return {
    ...toStat(a, joined),
    key,
    text: dim === "tokens" ? textOf(decoder, key) : null,
    from,
    to,
    layer: moe ? Math.floor(key / MOE_KEY) : null,
    expert: moe ? key % MOE_KEY : null,
  };
}

/** Without the truth check's join, every trained token's turn is unknown: said, not left empty. */
const failedJoin = (tally: Tally, issues: string[]) => (err: unknown) => {
  issues.unshift(`turns and MoE layers unknown: the truth check failed (${String(err)})`);
  return { ...emptyJoined(), turnUnknown: tally.maskedTokens - tally.nonFinite };
};

/** The MoE table, or null when no trained token's call carries routes. */
function moeOf(t: JoinedTally, rows: HotspotRow[], joined: Joined): HotspotMoe | null {
  const [replayed, fallback] = [replayedOf(t), fallbackOf(t)];
  if (!replayed && !fallback) return null;
  return {
    layers: t.layers,
    topk: t.topk,
    min_count: MIN_COUNT.moe,
    rows,
    distinct: t.moe.size,
    replayed: replayed && toStat(replayed, joined),
    fallback: fallback && toStat(fallback, joined),
    no_route: t.noRoute + t.turnUnknown,
  };
}

/** The run's hotspots, ranked by `q.by`; empty tables and a null log_dir without step files. */
export async function trainerHotspots(run: RunLayout, q: HotspotsQuery): Promise<TrainerHotspots> {
  const logDir = await trainerLogDir(run);
  const { tally, issues: read, stepFiles } = await runTally(logDir);
  const issues = [...read]; // the run's tally is cached: its list is not this answer's to grow
  const joined: Joined = stepFiles > 0 ? await joinedSamples(run) : new Map();
  const jt =
    stepFiles > 0 ? await trainerJoinedTally(run).catch(failedJoin(tally, issues)) : emptyJoined();
  const decoder =
    tally.maskedTokens > 0
      ? await decoderFor(run.dir, run.manifest.tokenizer, run.root).catch(() => null)
      : null;
  const source = {
    tokens: tokenEntries(tally),
    positions: tally.positions,
    turns: jt.turns,
    moe: jt.moe,
  };
  const table = (dim: Dimension) =>
    rank(source[dim], q.by, MIN_COUNT[dim], q.limit).map((r) =>
      toRow(dim, r.key, r.acc, joined, decoder),
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
    min_count: { tokens: MIN_COUNT.tokens, positions: MIN_COUNT.positions, turns: MIN_COUNT.turns },
    tokens: table("tokens"),
    positions: table("positions"),
    turns: table("turns"),
    distinct: {
      tokens: distinctTokens(tally),
      positions: tally.positions.size,
      turns: jt.turns.size,
    },
    turn_unknown: jt.turnUnknown,
    moe_layers: moeOf(jt, table("moe"), joined),
    issues: listed(issues),
  };
}
