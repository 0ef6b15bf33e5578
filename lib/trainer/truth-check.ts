// The truth check of a run: every sample of NeMo-RL's train_data_step{N}.jsonl joined to its captured
// rollout (lib/trainer/truth-join) and classified, with per-step and per-run counts and each
// sample's train/inference mismatch (lib/trainer/mismatch), and each step's recomputed
// token_mult_prob_error against the one the trainer logged (./logged-mismatch). Computed once per
// version of the files it read. Not responsible for what the page draws or which alerts follow.
import "server-only";
import path from "node:path";
import { processCache } from "@/lib/cache";
import { reviveStoreError, storePool } from "@/lib/rollout";
import { indexFor, idsOfSteps, setTrainerDiffers } from "@/lib/index";
import type { RunLayout } from "@/lib/runs";
import { confinedRunPath, trainerLogsDir } from "./log-place";
import type { TrainerTruth, TruthSample, TruthStep } from "@/lib/schema";
import { fileState, fileVersion, isDirectory, memoryBudget } from "@/lib/store";
import { decoderFor, type TokenDecoder } from "@/lib/tokens";
import { compareLogged, LOGGED_RELATIVE_TOLERANCE, LOGGED_TAG } from "./logged-mismatch";
import { mergeJoined, type JoinedTally } from "./hotspots/pure";
import { sampleMismatch, stepMismatch, type SampleMismatch } from "./mismatch";
import { readTrainerLogs } from "./read-logs";
import {
  advantageTokensOf,
  listStepFiles,
  loggedAdvantageOf,
  lossTokensOf,
  readStepFile,
} from "./step-data";
import type { StepFile, StepIssue } from "./step-data";
import { candidatesOf, joinedOfStep, stepRecords, type StepRecord } from "./truth-candidates";
import { differsByRollout, joinStep, type TruthJoin } from "./truth-join";

export const JOIN_RULE =
  "train_data_step{N}.jsonl holds step N−1 of the rollout records (NeMo-RL names it total_steps + 1). " +
  "A sample joins the rollout of that step (same agent_ref name) whose main chain equals its tokens " +
  "up to input_lengths, else the one sharing the longest token prefix; among equals, the rollout at " +
  "the sample's idx in rollouts.jsonl order.";

/** Samples a response lists; the counts always cover all of them. */
export const MAX_SAMPLES = 1000;
const CONTEXT_TOKENS = 12;

/**
 * The run's NeMo-RL log directory: `<run>/logs` (a symlink only if it stays inside the runs root
 * or an --allow-path directory), else the run directory when it holds step files.
 */
export async function trainerLogDir(run: RunLayout): Promise<string | null> {
  const logs = (await confinedRunPath(run, "logs")).dir;
  if (logs && (await isDirectory(logs)) && (await listStepFiles(logs)).length > 0) return logs;
  return (await listStepFiles(run.dir)).length > 0 ? run.dir : null;
}

function context(
  trainer: readonly number[],
  capture: readonly number[],
  at: number,
  decoder: TokenDecoder | null,
): TruthSample["context"] {
  const text = (ids: readonly number[]) =>
    decoder ? decoder.decode(ids) : ids.length ? `[${ids.join(" ")}]` : "";
  return {
    before: text(trainer.slice(Math.max(0, at - CONTEXT_TOKENS), at)),
    trainer: text(trainer.slice(at, at + CONTEXT_TOKENS)),
    capture: text(capture.slice(at, at + CONTEXT_TOKENS)),
  };
}

export interface StepResult {
  step: TruthStep;
  samples: TruthSample[];
  issues: StepIssue[];
  /** The step's turns and MoE layers for the hotspots (docs/hotspots.md). */
  joined: JoinedTally;
}

/**
 * One step file checked on a store worker (lib/trainer/jobs): read and parsed there, its rollouts
 * built there, so a large step file never holds the server's thread. The records come with it.
 */
export interface TruthStepJob {
  kind: "truth-step";
  run: RunLayout;
  file: StepFile;
  ids: string[];
  records: Array<[string, StepRecord | null]>;
}

export async function runTruthStep(job: TruthStepJob): Promise<StepResult> {
  const { run } = job;
  const decoder = await decoderFor(run.dir, run.manifest.tokenizer, run.root).catch(() => null);
  return checkStep(run, job.file, job.ids, new Map(job.records), decoder);
}

async function checkStep(
  run: RunLayout,
  f: StepFile,
  ids: readonly string[],
  records: ReadonlyMap<string, StepRecord | null>,
  decoder: TokenDecoder | null,
): Promise<StepResult> {
  const read = await readStepFile(f);
  const samples = read.samples.filter((s) => s.tokenIds !== null);
  const { candidates, calls } = await candidatesOf(run, ids, records);
  const mains = new Map(candidates.map((c) => [c.rolloutId, c.main]));
  const joins: TruthJoin[] = joinStep(
    samples.map((s) => ({ ...s, tokenIds: s.tokenIds ?? [] })),
    candidates,
  );
  const mismatches: Array<SampleMismatch | null> = samples.map(sampleMismatch);
  const counts = { samples: 0, identical: 0, mask_differs: 0, tokens_differ: 0, no_capture: 0 };
  const rows = samples.map((s, k): TruthSample => {
    const j = joins[k] as TruthJoin;
    const m = mismatches[k] ?? null;
    const main = j.rolloutId ? mains.get(j.rolloutId) : null;
    counts.samples++;
    counts[j.cls]++;
    return {
      step: f.step,
      record_step: Math.max(0, f.step - 1),
      idx: s.idx,
      line: s.line,
      rollout_id: j.rolloutId,
      class: j.cls,
      first_diff: j.firstDiff,
      mask_diffs: j.maskDiffs,
      context:
        j.cls === "tokens_differ" && main && j.firstDiff !== null
          ? context(s.tokenIds ?? [], main.token_ids, j.firstDiff, decoder)
          : null,
      input_length: s.inputLength ?? 0,
      reward: finiteOrNull(s.reward),
      mult_prob_error: finiteOrNull(m?.mean ?? null),
      masked_tokens: m?.maskedTokens ?? 0,
      loss_tokens: lossTokensOf(s),
      advantage_tokens: advantageTokensOf(s),
      advantage: loggedAdvantageOf(s),
      max_token_error: finiteOrNull(m?.max ?? null),
      max_token_pos: m?.maxPos ?? null,
    };
  });
  const step: TruthStep = {
    step: f.step,
    file: path.basename(f.file),
    ...counts,
    token_mult_prob_error: finiteOrNull(stepMismatch(mismatches)),
    masked_tokens: mismatches.reduce((a, m) => a + (m?.maskedTokens ?? 0), 0),
    logged_token_mult_prob_error: null,
    logged_check: "not_logged",
  };
  const joined = await joinedOfStep(run, samples, joins, calls, records);
  return { step, samples: rows, issues: read.issues, joined };
}

const finiteOrNull = (v: number | null) => (v !== null && Number.isFinite(v) ? v : null);
const ORDER = { tokens_differ: 0, mask_differs: 1, no_capture: 2, identical: 3 } as const;

function assemble(run: RunLayout, logDir: string | null, results: StepResult[]): TrainerTruth {
  const steps = results.map((r) => r.step);
  const all = results.flatMap((r) => r.samples);
  all.sort((a, b) => ORDER[a.class] - ORDER[b.class] || a.step - b.step || a.line - b.line);
  const sum = (k: "samples" | "identical" | "mask_differs" | "tokens_differ" | "no_capture") =>
    steps.reduce((a, s) => a + s[k], 0);
  const masked = steps.reduce((a, s) => a + s.masked_tokens, 0);
  const weighted = steps.reduce((a, s) => a + (s.token_mult_prob_error ?? 0) * s.masked_tokens, 0);
  return {
    run_id: run.id,
    capture: run.manifest.capture ?? null,
    log_dir: logDir === null ? null : path.relative(run.dir, logDir) || ".",
    join_rule: JOIN_RULE,
    totals: {
      samples: sum("samples"),
      identical: sum("identical"),
      mask_differs: sum("mask_differs"),
      tokens_differ: sum("tokens_differ"),
      no_capture: sum("no_capture"),
      token_mult_prob_error: masked > 0 ? weighted / masked : null,
    },
    steps,
    logged: null,
    samples: all,
    samples_total: all.length,
    issues: results.flatMap((r) => r.issues),
  };
}

/** The check and, from the same pass, the hotspots' turns and MoE layers. */
interface TruthRun {
  truth: TrainerTruth;
  joined: JoinedTally;
}

const cache = () =>
  processCache<{ key: string; value: Promise<TruthRun> }>("trainer-truth", "entries", 32);

/**
 * The version of what the check read: the step files, rollouts.jsonl, and the joined rollouts by
 * the summary index's generation (it moves when their files do), not a stat of each one's files.
 */
async function versionKey(run: RunLayout, files: StepFile[], refreshMs: number): Promise<string> {
  const index = indexFor(run);
  if (Number.isFinite(refreshMs)) await index.snapshot({ waitMs: 0, minIntervalMs: refreshMs });
  const parts = await Promise.all([
    ...files.map((f) => fileVersion(f.file)),
    fileVersion(run.rolloutsFile),
  ]);
  return `${run.manifest.tokenizer ?? ""}|${parts.join(",")}|${index.fingerprint()}`;
}

/** How old the run's index may be (default 2 s); Infinity: the caller has just refreshed it. */
export type TruthLook = { refreshMs?: number };

/** The truth check with every sample listed and no logged comparison (both: see trainerTruth). */
export async function trainerTruthAll(run: RunLayout, look: TruthLook = {}): Promise<TrainerTruth> {
  return (await truthRun(run, look)).truth;
}

/** The turns and MoE layers of the run's trained samples (docs/hotspots.md), cached as the check. */
export async function trainerJoinedTally(run: RunLayout): Promise<JoinedTally> {
  return (await truthRun(run, {})).joined;
}

async function truthRun(run: RunLayout, { refreshMs = 2000 }: TruthLook): Promise<TruthRun> {
  const logDir = await trainerLogDir(run);
  const files = logDir ? (await listStepFiles(logDir)).filter((f) => f.kind === "train") : [];
  // The run page's health asks on every poll: a run without step files reads no records here, and
  // one with them looks up only its steps' ids (0-based record steps), kept per records version.
  const byStep = await idsOfSteps(run, [...new Set(files.map((f) => f.step - 1))]);
  const stepIds = (f: StepFile) => byStep.get(f.step - 1) ?? [];
  const key = await versionKey(run, files, refreshMs);
  const hit = cache().get(run.dir);
  if (hit?.key === key) return hit.value;
  const value = (async () => {
    const pool = storePool("interactive");
    const decoder = pool
      ? null
      : await decoderFor(run.dir, run.manifest.tokenizer, run.root).catch(() => null);
    const results: StepResult[] = [];
    for (const f of files) {
      const ids = stepIds(f);
      const records = await stepRecords(run, ids);
      const job: TruthStepJob = { kind: "truth-step", run, file: f, ids, records };
      const { size } = await fileState(f.file);
      results.push(
        await memoryBudget().run(size, () =>
          pool
            ? pool.run<StepResult>(job, { revive: reviveStoreError })
            : checkStep(run, f, ids, new Map(records), decoder),
        ),
      );
    }
    const joined = mergeJoined(results.map((r) => r.joined));
    const truth = assemble(run, logDir, results);
    // The run's served rows carry it as a warning on each rollout the trainer trained otherwise.
    setTrainerDiffers(run, differsByRollout(truth.samples));
    return { truth, joined };
  })();
  cache().set(run.dir, { key, value });
  value.catch(() => cache().delete(run.dir));
  return value;
}

/**
 * Each step's recomputed value against the trainer's logged `train/token_mult_prob_error`, read
 * fresh (the event files are cached per version by ./read-logs, not under the truth's key).
 */
async function withLogged(run: RunLayout, t: TrainerTruth): Promise<TrainerTruth> {
  const where = await trainerLogsDir(run);
  if (!where.dir || t.steps.length === 0) return t;
  const logs = await readTrainerLogs(where.dir, where);
  const series = logs.series.find((s) => s.tag === LOGGED_TAG);
  if (!series) return t;
  const c = compareLogged(t.steps, series);
  return {
    ...t,
    steps: t.steps.map((s, k) => {
      const row = c.steps[k];
      return row
        ? { ...s, logged_token_mult_prob_error: finiteOrNull(row.logged), logged_check: row.check }
        : s;
    }),
    logged: {
      tag: LOGGED_TAG,
      trainer_logs: path.relative(run.dir, where.dir) || ".",
      relative_tolerance: LOGGED_RELATIVE_TOLERANCE,
      equal: c.equal,
      differs: c.differs,
      not_logged: c.not_logged,
      not_computed: c.not_computed,
      only_logged: c.only_logged,
    },
  };
}

/** The run's truth check (empty when it has no NeMo-RL log directory), at most MAX_SAMPLES listed. */
export async function trainerTruth(run: RunLayout, look: TruthLook = {}): Promise<TrainerTruth> {
  const t = await withLogged(run, await trainerTruthAll(run, look));
  return { ...t, samples: t.samples.slice(0, MAX_SAMPLES) };
}
