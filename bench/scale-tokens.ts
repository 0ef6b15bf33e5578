// The scale benchmark's token runs: runs of 40,000 and 120,000 rollouts with token stores, each
// indexed cold by its own fresh `next start` server. Figures: the server's peak RSS (VmHWM over its
// process tree, workers included) of the larger run over the smaller's (target ≤ 1.15: memory
// that does not grow with the run), and each index's CPU time (every thread of the tree, from the
// first request until every rollout is summarised from its store) over the CPU of one thread
// reading and `JSON.parse`-ing every line of the same files (target ≤ 2). docs/benchmarks.md.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { SCALE_DIR, scaleStoreRuns, storeRunName } from "./scale-fixtures";
import { startServer } from "./server";
import { untilIndexed } from "./poll";
import { cpuSeconds, loadAverage, peakRss, rssNow } from "./proc";
import { figure, fmt, scratchDir } from "./util";

export const TOKEN_RUN_SIZES = [40_000, 120_000] as const;

interface TokenRunFigures {
  peak: number;
  cpu: number;
  ms: number;
}

/** One token run indexed cold on a fresh server. */
async function indexTokenRun(n: number, port: number): Promise<TokenRunFigures> {
  const cache = scratchDir("rollout-lens-scale-");
  const server = await startServer(SCALE_DIR, port, { ROLLOUT_LENS_CACHE: cache });
  let peak = 0;
  // When the peak was last raised, and the resident memory over the index: where it grows.
  let peakAt = 0;
  const rss: number[] = [];
  const t0 = performance.now();
  const sampler = setInterval(() => {
    const now = peakRss(server.pid);
    if (now > peak) [peak, peakAt] = [now, performance.now() - t0];
    rss.push(rssNow(server.pid));
  }, 250);
  try {
    const cpu0 = cpuSeconds(server.pid);
    const idx = await untilIndexed(server, storeRunName(n), n, 900_000);
    const cpu = cpuSeconds(server.pid) - cpu0;
    peak = Math.max(peak, peakRss(server.pid));
    const done = idx.page?.progress.done ?? 0;
    console.log(
      `token run of ${n} rollouts (cold): first rows after ${fmt(idx.firstRows ?? NaN)}, ${idx.page?.all} rows, ${done} summarised from the store, after ${fmt(idx.ms)}; CPU ${cpu.toFixed(1)} s; server peak RSS ${(peak / 1e6).toFixed(0)} MB, last raised ${fmt(peakAt)} after the start (load average ${loadAverage()})`,
    );
    const tenths = Array.from(
      { length: 10 },
      (_, i) => rss[Math.floor(((i + 1) * rss.length) / 10) - 1],
    );
    console.log(
      `  RSS at each tenth of the index (MB): ${tenths.map((b) => ((b ?? NaN) / 1e6).toFixed(0)).join(" ")}`,
    );
    const complete = idx.page?.all === n && !idx.page.progress.running && done >= n;
    return { peak, cpu: complete ? cpu : NaN, ms: idx.ms };
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
}

/** CPU seconds of one thread reading every token file and rollouts.jsonl and parsing every line. */
function parseCpu(n: number): number {
  const dir = path.join(SCALE_DIR, storeRunName(n));
  const files = [
    path.join(dir, "rollouts.jsonl"),
    ...readdirSync(path.join(dir, "tokens")).map((f) => path.join(dir, "tokens", f)),
  ];
  const t0 = process.cpuUsage();
  let lines = 0;
  for (const file of files)
    for (const line of readFileSync(file, "utf8").split("\n"))
      if (line.length > 0 && JSON.parse(line) !== undefined) lines++;
  const used = process.cpuUsage(t0);
  const s = (used.user + used.system) / 1e6;
  console.log(
    `  JSON.parse of the same files (${files.length} files, ${lines} lines, page cache warm): CPU ${s.toFixed(1)} s (load average ${loadAverage()})`,
  );
  return s;
}

export async function benchTokenRuns(): Promise<void> {
  const generated = await scaleStoreRuns(TOKEN_RUN_SIZES);
  console.log(
    generated === null
      ? `token runs: reused from ${SCALE_DIR} (stamp matches)`
      : `token runs: generated in ${fmt(generated)} under ${SCALE_DIR}`,
  );
  const runs: TokenRunFigures[] = [];
  for (const [i, n] of TOKEN_RUN_SIZES.entries()) {
    // Ports of their own: the records half uses 3193, and an older bench on this machine 3194.
    const r = await indexTokenRun(n, 3296 + i);
    runs.push(r);
    figure(`token run of ${n} rollouts: index CPU / JSON.parse`, r.cpu / parseCpu(n), 2, (v) =>
      v.toFixed(2),
    );
  }
  const [small, large] = runs as [TokenRunFigures, TokenRunFigures];
  const [a, b] = TOKEN_RUN_SIZES;
  console.log(
    `token runs' server peak RSS: ${(small.peak / 1e6).toFixed(0)} MB at ${a}, ${(large.peak / 1e6).toFixed(0)} MB at ${b}`,
  );
  figure(`token runs: peak RSS at ${b} / at ${a} rollouts`, large.peak / small.peak, 1.15, (v) =>
    v.toFixed(2),
  );
}
