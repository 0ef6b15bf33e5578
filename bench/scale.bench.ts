// Scale benchmark: a records-only run of 1,000,000 rollouts indexed by a real `next
// start` server from a cold cache (target ≤ 60 s until every rollout is in the table and nothing
// runs; first rows ≤ 1 s; the progress polled every 250 ms never goes back), then the first table
// page, a sort by reward, a filter by reason and the health route, each answering warm (median of
// five after one first, uncached answer, which is printed too; target ≤ 300 ms), and the server's
// peak RSS (VmHWM over its process tree, target ≤ 450 MB) throughout. Before them, the first health
// route on the freshly indexed run (computed as the index ended, target ≤ 300 ms) and the longest
// another request (a static asset, every 20 ms) waited meanwhile (target ≤ 100 ms).
// Then the 100,000-rollout run with token stores on another fresh server: how soon its table shows
// rows, how long its store index takes and its peak RSS (printed, no target).
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { scaleRuns, SCALE_DIR } from "./scale-fixtures";
import { startServer, type BenchServer } from "./server";
import { figure, fmt, runAlone } from "./util";

const RECORDS = 1_000_000;
const STORE = 100_000;

/** Peak resident memory (VmHWM) of `pid` and its descendants, in bytes (the largest of them). */
function peakRss(pid: number): number {
  let peak = 0;
  const walk = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb * 1024);
      for (const t of readdirSync(`/proc/${p}/task`))
        for (const c of readFileSync(`/proc/${p}/task/${t}/children`, "utf8").split(/\s+/))
          if (c) walk(Number(c));
    } catch {
      // the process ended meanwhile
    }
  };
  walk(pid);
  return peak;
}

interface Page {
  total: number;
  all: number;
  progress: { running: boolean; done: number; total: number };
}

async function get<T>(server: BenchServer, url: string): Promise<{ ms: number; body: T }> {
  const t0 = performance.now();
  const res = await fetch(`${server.url}${url}`);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${await res.text()}`);
  const body = (await res.json()) as T;
  return { ms: performance.now() - t0, body };
}

/**
 * Polls the run's first page until `all` rollouts are listed and nothing runs; its time, and how
 * often the progress went back (done, total or done/total lower than the poll before, or done at
 * its total while running).
 */
async function untilIndexed(server: BenchServer, run: string, all: number, limitMs: number) {
  const t0 = performance.now();
  let firstRows: number | null = null;
  let page: Page | null = null;
  let back = 0;
  let was: Page["progress"] | null = null;
  while (performance.now() - t0 < limitMs) {
    page = (await get<Page>(server, `/api/runs/${run}/rollouts?limit=50`)).body;
    if (firstRows === null && page.all > 0) firstRows = performance.now() - t0;
    const p = page.progress;
    if (p.running && p.total > 0) {
      if (p.done >= p.total) back++;
      if (
        was &&
        (p.done < was.done || p.total < was.total || p.done / p.total < was.done / was.total)
      )
        back++;
      was = p;
    }
    if (page.all === all && !page.progress.running) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { ms: performance.now() - t0, firstRows, page, back };
}

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
  const cache = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-scale-"));
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
    figure("index 1,000,000 records (s)", all ? idx.ms / 1000 : NaN, 60, (v) => v.toFixed(1));
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
}

/** The 100,000-rollout run with token stores on its own fresh server: printed, no target. */
async function storeRun(): Promise<void> {
  const cache = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-scale-"));
  const server = await startServer(SCALE_DIR, 3194, { ROLLOUT_LENS_CACHE: cache });
  try {
    const store = await untilIndexed(server, "scale-store", STORE, 900_000);
    console.log(
      `store run (${STORE} rollouts with token stores, cold): first rows after ${fmt(store.firstRows ?? NaN)}, ${store.page?.all} rows, ${store.page?.progress.done} summarised from the store, after ${fmt(store.ms)}; server peak RSS ${(peakRss(server.pid) / 1e6).toFixed(0)} MB`,
    );
  } finally {
    await server.stop();
  }
}

export async function benchScale(): Promise<void> {
  const gen = await scaleRuns(RECORDS, STORE);
  console.log(
    gen.generatedMs === null
      ? `scale runs: reused from ${SCALE_DIR} (stamp matches)`
      : `scale runs: generated in ${fmt(gen.generatedMs)} under ${SCALE_DIR}`,
  );
  await recordsRun();
  await storeRun();
}

runAlone("scale.bench.ts", "scale bench", benchScale);
