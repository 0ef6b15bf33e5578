// Scale benchmark: a records-only run of 1,000,000 rollouts indexed by a real `next
// start` server from a cold cache (until every rollout is in the table and nothing runs: target
// ≤ 10× DuckDB's read_ndjson_auto of the same file into a table, ./duckdb; first rows ≤ 1 s; the progress polled every 250 ms never goes back), then the first table
// page, a sort by reward, a filter by reason and the health route, each answering warm (median of
// five after one first, uncached answer, which is printed too; target ≤ 300 ms), and the server's
// peak RSS (VmHWM over its process tree, target ≤ 450 MB) throughout. Before them, the first health
// route on the freshly indexed run (computed as the index ended, target ≤ 300 ms) and the longest
// another request (a static asset, every 20 ms) waited meanwhile (target ≤ 100 ms).
// After them, what SQLite alone takes to write the same rows (lib/index/write-floor).
// Then token runs of 40,000 and 120,000 rollouts (./scale-tokens): peak RSS that does not grow
// with the run, and the index's CPU over `JSON.parse` of the same files.
import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { recordsWriteFloor } from "@/lib/index";
import { duckDbReadNdjson } from "./duckdb";
import { scaleRecordsRun, SCALE_DIR } from "./scale-fixtures";
import { get, untilIndexed } from "./poll";
import { peakRss } from "./proc";
import { benchTokenRuns } from "./scale-tokens";
import { startServer, type BenchServer } from "./server";
import { figure, fmt, runAlone, scratchDir } from "./util";

const RECORDS = 1_000_000;

/** The first answer (no cached view) and the median of five warm ones. */
async function firstAndWarm(server: BenchServer, url: string) {
  const first = (await get(server, url)).ms;
  const warm: number[] = [];
  for (let i = 0; i < 5; i++) warm.push((await get(server, url)).ms);
  warm.sort((a, b) => a - b);
  return { first, warm: warm[2] as number };
}

/** A static file the server serves (a built chunk), else a route that answers at once. */
function probeUrl(): string {
  try {
    const dir = path.join(".next", "static", "chunks");
    const js = readdirSync(dir).find((f) => f.endsWith(".js"));
    if (js) return `/_next/static/chunks/${js}`;
  } catch {
    // no build output to list: the route below
  }
  return "/api/runs/__ready__/health";
}

/** The first health route (nothing cached) and the longest a probe request waited meanwhile. */
async function coldHealth(server: BenchServer, url: string) {
  const probe = probeUrl();
  let done = false;
  let stall = 0;
  let probes = 0;
  const poller = (async () => {
    while (!done) {
      const t0 = performance.now();
      await fetch(`${server.url}${probe}`).then((r) => r.arrayBuffer());
      stall = Math.max(stall, performance.now() - t0);
      probes++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const ms = (await get(server, url)).ms;
  done = true;
  await poller;
  return { ms, stall, probes, probe };
}

/** The records-only run on a fresh server: the figures. */
async function recordsRun(): Promise<void> {
  const file = path.join(SCALE_DIR, "scale-records", "rollouts.jsonl");
  const duck = await duckDbReadNdjson(file);
  console.log(
    `DuckDB read_ndjson_auto into a table (in memory, ${duck.threads} threads, page cache warm from generation, best of 3): ${fmt(duck.ms)}, ${duck.rows} rows`,
  );
  const cache = scratchDir("rollout-lens-scale-");
  const server = await startServer(SCALE_DIR, 3193, { ROLLOUT_LENS_CACHE: cache });
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, peakRss(server.pid))), 500);
  try {
    console.log(`cold index (fresh server, empty cache ${cache}; page cache warm from generation)`);
    const idx = await untilIndexed(server, "scale-records", RECORDS, 600_000);
    console.log(
      `records-only run: first rows after ${fmt(idx.firstRows ?? NaN)}, all ${idx.page?.all} rows after ${fmt(idx.ms)} (load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")})`,
    );
    console.log(`(no target) the slowest table poll while it indexed: ${fmt(idx.slowest)}`);
    const cold = await coldHealth(server, "/api/runs/scale-records/health");
    console.log(
      `first health route (cold): ${fmt(cold.ms)}; longest wait of ${cold.probes} probes (${cold.probe}) meanwhile ${fmt(cold.stall)}`,
    );
    const routes: Array<[string, string]> = [
      ["first table page", "/api/runs/scale-records/rollouts?offset=0&limit=200"],
      ["sort by reward (desc)", "/api/runs/scale-records/rollouts?sort=reward&dir=desc&limit=200"],
      ["filter by reason", "/api/runs/scale-records/rollouts?reason=build_error&limit=200"],
      ["health route", "/api/runs/scale-records/health"],
    ];
    const times: Array<[string, { first: number; warm: number }]> = [];
    for (const [name, url] of routes) {
      const t = await firstAndWarm(server, url);
      times.push([name, t]);
      console.log(`${name}: first ${fmt(t.first)}, warm ${fmt(t.warm)}`);
    }
    peak = Math.max(peak, peakRss(server.pid));
    const all = idx.page?.all === RECORDS && !idx.page.progress.running;
    figure(
      "index 1,000,000 records / DuckDB read_ndjson_auto of the same file",
      all && duck.rows === RECORDS ? idx.ms / duck.ms : NaN,
      10,
      (v) => v.toFixed(1),
    );
    figure("first rows of the 1M-record run (s)", (idx.firstRows ?? NaN) / 1000, 1, (v) =>
      v.toFixed(2),
    );
    figure("polls where the index's progress went back", idx.back, 0, (v) => v.toFixed(0));
    figure("first health route after indexing 1M (ms)", cold.ms, 300, (v) => v.toFixed(0));
    figure(
      "event loop longest stall while the first health is computed (ms)",
      cold.stall,
      100,
      (v) => v.toFixed(0),
    );
    for (const [name, t] of times)
      figure(`${name}, 1,000,000 rollouts, warm (ms)`, t.warm, 300, (v) => v.toFixed(0));
    figure("server peak RSS, VmHWM (MB)", peak / 1e6, 450, (v) => v.toFixed(0));
  } finally {
    clearInterval(sampler);
    await server.stop();
  }
  // After the server, so its gigabyte of writes does not share the disk with the index measured.
  const floor = await recordsWriteFloor(SCALE_DIR, "scale-records");
  const sql = floor.recordsSqlMs + floor.summariesSqlMs + floor.indexesSqlMs;
  console.log(
    `(no target) SQLite alone on the same ${floor.records} records (lib/index/write-floor: the index's tables, the ${floor.indexes} secondary indexes built after the load): ${fmt(sql)}, ${(sql / duck.ms).toFixed(1)}× DuckDB (records ${fmt(floor.recordsSqlMs)}, summaries and tags ${fmt(floor.summariesSqlMs)}, indexes ${fmt(floor.indexesSqlMs)}); our parts, timed apart: read ${fmt(floor.readMs)}, parse and check ${fmt(floor.parseMs)}, summaries ${fmt(floor.summariseMs)}, row values ${fmt(floor.rowsMs)}`,
  );
}

/** SCALE_PART=records or tokens runs that part alone (docs/benchmarks.md). */
export async function benchScale(): Promise<void> {
  const part = process.env.SCALE_PART;
  if (part !== "tokens") {
    const generated = await scaleRecordsRun(RECORDS);
    console.log(
      generated === null
        ? `records run: reused from ${SCALE_DIR} (stamp matches)`
        : `records run: generated in ${fmt(generated)} under ${SCALE_DIR}`,
    );
    await recordsRun();
  }
  if (part !== "records") await benchTokenRuns();
}

runAlone("scale.bench.ts", "scale bench", benchScale);
