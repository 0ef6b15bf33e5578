// Mismatch hotspots on the 10,000-rollout run with step files (fixtures/generator/large-steps): the
// one pass over every train_data_step{N}.jsonl (read, parse, tally: lib/trainer runTally) against
// one read + JSON.parse of each line of the same files, in this process, both with the files'
// pages resident (read once first; fincore says how much). Target: the pass ≤ 2× JSON.parse
// (docs/hotspots.md). The pass is timed cold (every cache of this process emptied; its modules
// loaded and compiled by a pass over the small sample run first), then warm (its cache answers).
// The figure is the median over several runs of the ratio of CPU times (this process, all its
// threads), each run printed with the load average: on cores shared with other work, either
// side's wall time doubles when it is descheduled.
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { LARGE_DEFAULTS } from "@/fixtures/generator/large";
import { HOT_IDS, writeLargeStepFiles } from "@/fixtures/generator/large-steps";
import { LARGE_DIR, RUNS_DIR } from "@/fixtures/generate";
import { clearAllCaches } from "@/lib/cache";
import { runTally, tokenEntries } from "@/lib/trainer";
import { residency } from "./cache";
import { figure, fmt, mb, runAlone } from "./util";

const TARGET = 2;

/** CPU time of this process (all its threads) in ms since `from`. */
function cpuMs(from: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
}

function parseAll(files: string[]): { ms: number; cpu: number; bytes: number } {
  let bytes = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const f of files) {
    const text = readFileSync(f, "utf8");
    bytes += Buffer.byteLength(text);
    for (const l of text.split("\n")) if (l.length > 0) JSON.parse(l);
  }
  return { ms: performance.now() - t0, cpu: cpuMs(c0), bytes };
}

export async function benchHotspots(): Promise<void> {
  // One thread against one thread: the pass inline (no store workers), as JSON.parse runs here.
  const workers = process.env.ROLLOUT_LENS_IO_WORKERS;
  process.env.ROLLOUT_LENS_IO_WORKERS = "0";
  try {
    await measure();
  } finally {
    if (workers === undefined) delete process.env.ROLLOUT_LENS_IO_WORKERS;
    else process.env.ROLLOUT_LENS_IO_WORKERS = workers;
  }
}

/** Cold passes and JSON.parse baselines, alternated; the figure is the median of their ratios. */
const REPS = 5;

/** `uptime`'s load averages (1, 5 and 15 minutes) and the cores: the machine is shared. */
const load = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(", ")} on ${os.availableParallelism()} cores`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function measure(): Promise<void> {
  const logDir = writeLargeStepFiles(LARGE_DIR, LARGE_DEFAULTS.rollouts);
  const files = readdirSync(logDir)
    .filter((n) => n.endsWith(".jsonl"))
    .map((n) => path.join(logDir, n));
  const first = parseAll(files); // the pages in, for both sides alike
  console.log(
    `${files.length} step files, ${mb(first.bytes)}, ${LARGE_DEFAULTS.rollouts} samples; ${residency(files)}`,
  );
  // Modules loaded and the code compiled on the 3-file sample run first: what is timed is the pass.
  await runTally(path.join(RUNS_DIR, "grpo-hotspots", "logs"));
  const ratios: number[] = [];
  let cold: Awaited<ReturnType<typeof runTally>> | null = null;
  for (let rep = 1; rep <= REPS; rep++) {
    const parse = parseAll(files);
    clearAllCaches(); // cold: nothing of these files cached in this process
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    cold = await runTally(logDir);
    const [ms, cpu] = [performance.now() - t0, cpuMs(c0)];
    ratios.push(cpu / parse.cpu);
    console.log(
      `run ${rep}: read + JSON.parse of every line ${fmt(parse.ms)} (CPU ${fmt(parse.cpu)}); ` +
        `hotspot pass, cold, inline (ROLLOUT_LENS_IO_WORKERS=0) ${fmt(ms)} (CPU ${fmt(cpu)}): ` +
        `${(cpu / parse.cpu).toFixed(2)}× in CPU, ${(ms / parse.ms).toFixed(2)}× in wall time; ${load()}`,
    );
  }
  const t1 = performance.now();
  await runTally(logDir);
  const warmMs = performance.now() - t1;
  if (!cold) return;
  console.log(
    `warm (cached by the files' versions): ${fmt(warmMs)}; ${cold.tally.samples} samples, ` +
      `${cold.tally.maskedTokens} masked tokens, ${cold.issues.length} issues`,
  );
  const top = [...tokenEntries(cold.tally)]
    .filter(([, a]) => a.count >= 5)
    .sort(([, a], [, b]) => b.sum / b.count - a.sum / a.count)
    .slice(0, 3)
    .map(([k]) => k);
  if ([...top].sort().join() !== [...HOT_IDS].sort().join())
    throw new Error(`the planted ids ${HOT_IDS.join(", ")} do not rank first: ${top.join(", ")}`);
  figure(
    `hotspot pass / JSON.parse of the step files, CPU time, median of ${REPS} (${load()})`,
    median(ratios),
    TARGET,
    (v) => `${v.toFixed(2)}×`,
  );
}

runAlone("hotspots.bench.ts", "hotspots", benchHotspots);
