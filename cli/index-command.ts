// `rollout-lens index`: one shard of a run's summary index into a shard file
// (lib/index/shards/write), or a directory of shards merged into one (lib/index/shards/set). Progress
// goes to stderr, one line at a time (batch jobs log to files). Never writes inside a run.
import { existsSync, mkdirSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { boundHeapGrowth, isInside } from "@/lib/store";
import { resolveRunLayout, type RunLayout } from "@/lib/runs";
import {
  codeVersionAt,
  indexShard,
  mergeShards,
  readShardDir,
  ShardError,
  shardFileName,
} from "@/lib/index";
import type { Command } from "./args";

/** How often a progress line is printed while a shard is summarised. */
const PROGRESS_MS = 5000;

const say = (line: string) => void process.stderr.write(`rollout-lens: ${line}\n`);

/** The real path of `p`, or of its nearest existing parent with the rest appended. */
function realPathOf(p: string): string {
  const abs = path.resolve(p);
  if (existsSync(abs)) return realpathSync(abs);
  const parent = path.dirname(abs);
  return parent === abs ? abs : path.join(realPathOf(parent), path.basename(abs));
}

/** Why `out` must not be written (it lies in one of `places`), or null. */
function insideProblem(out: string, places: Array<[string | null, string]>): string | null {
  const target = realPathOf(out);
  for (const [place, what] of places)
    if (place !== null && isInside(realPathOf(place), target))
      return `--out ${out} is inside ${what} ${place}: rollout-lens never writes there; put shards elsewhere`;
  return null;
}

async function runLayoutOf(cmd: Extract<Command, { command: "index" }>): Promise<RunLayout> {
  const dir = path.resolve(cmd.runDir);
  // Its parent is the runs root a server would find it in: run.json paths may lead to siblings.
  const run = await resolveRunLayout(path.basename(dir), dir, path.dirname(dir));
  const manifest = { ...run.manifest };
  if (cmd.profile !== undefined) manifest.builder_profile = cmd.profile;
  if (cmd.sideCallPatterns !== undefined) manifest.side_call_patterns = cmd.sideCallPatterns;
  return { ...run, manifest };
}

export async function runIndex(
  cmd: Extract<Command, { command: "index" }>,
  appDir: string,
): Promise<number> {
  if (!existsSync(cmd.runDir) || !statSync(cmd.runDir).isDirectory()) {
    say(`${cmd.runDir}: not a directory`);
    return 1;
  }
  const run = await runLayoutOf(cmd);
  if (run.manifestError) say(`${run.dir}: ${run.manifestError}`);
  if (!run.tokensDir && !run.rolloutsFile) {
    say(`${run.dir}: not a run (no tokens/, no *.tokens.jsonl, no rollouts.jsonl)`);
    return 1;
  }
  const refused = insideProblem(cmd.out, [
    [run.dir, "the run directory"],
    [run.tokensDir, "the token store"],
    [run.modelCallsDir, "the model-call store"],
  ]);
  if (refused) {
    say(refused);
    return 2;
  }
  mkdirSync(cmd.out, { recursive: true });
  // As the server does (lib/store/io/heap): a 40,000-rollout shard peaked at 218 MB, not 306-310.
  boundHeapGrowth();
  const { index, count } = cmd.shard;
  const file = path.join(cmd.out, shardFileName(cmd.shard));
  // One shard is one job's worth of work on one core: no worker threads unless asked for.
  process.env.ROLLOUT_LENS_IO_WORKERS ??= "0";
  const t0 = performance.now();
  let last = t0;
  const result = await indexShard(run, cmd.shard, file, {
    codeVersion: codeVersionAt(appDir),
    onProgress: (done, total) => {
      if (done === 0)
        return say(`shard ${index}/${count} of ${run.dir}: ${total} rollouts to summarise`);
      if (done === total || performance.now() - last < PROGRESS_MS) return;
      last = performance.now();
      say(`shard ${index}/${count}: ${done} of ${total} rollouts summarised`);
    },
  });
  const { meta, listing } = result;
  for (const name of listing.skipped) say(`skipped ${name}: not a valid rollout id`);
  if (listing.recordsError) say(`rollouts.jsonl: ${listing.recordsError}`);
  else if (listing.unreadableRecords > 0)
    say(`rollouts.jsonl: ${listing.unreadableRecords} unreadable lines`);
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  say(
    `wrote ${file}: shard ${index}/${count}, ${meta.rows} of the run's ${result.runRollouts} rollouts, ${secs} s`,
  );
  return 0;
}

/** Why --merge must not write `out`: a directory, inside the shard directory or the run. */
function mergeOutProblem(cmd: Extract<Command, { command: "merge" }>, runDir: string | null) {
  if (existsSync(cmd.out) && statSync(cmd.out).isDirectory())
    return `--out ${cmd.out} is a directory; --merge writes one file (e.g. ${cmd.out}/index.sqlite)`;
  const shardDir = existsSync(cmd.shardDir) && statSync(cmd.shardDir).isDirectory();
  // A merged file among the shards would be read with them next time, as a shard of another count.
  return insideProblem(cmd.out, [
    [shardDir ? cmd.shardDir : null, "the shard directory"],
    [runDir, "the run directory"],
  ]);
}

export async function runMerge(cmd: Extract<Command, { command: "merge" }>): Promise<number> {
  let refused = mergeOutProblem(cmd, null);
  if (refused) {
    say(refused);
    return 2;
  }
  let set;
  try {
    set = readShardDir(cmd.shardDir);
  } catch (err) {
    if (!(err instanceof ShardError)) throw err;
    say(err.message);
    return 1;
  }
  refused = mergeOutProblem(cmd, set.runDir);
  if (refused) {
    say(refused);
    return 2;
  }
  mkdirSync(path.dirname(path.resolve(cmd.out)), { recursive: true });
  say(`merging ${set.files.length} shards of ${set.runDir} (${set.rows} rollouts)`);
  try {
    const meta = mergeShards(set, cmd.out);
    say(`wrote ${cmd.out}: ${meta.rows} rollouts of ${set.runDir}`);
  } catch (err) {
    if (!(err instanceof ShardError)) throw err;
    say(err.message);
    return 1;
  }
  return 0;
}
