// The trainer's files under load: a 57-run root (the sample runs, copies of the GRPO runs, and
// six runs with hostile trainer files: a 250 MiB TensorBoard event file, a 100 MB MLflow metric
// file, a 200 MiB W&B run file, an MLflow database of 1,000,000 rows, a 200 MB tokenizer.json,
// 200 records × 1,000 tags). Figures: the home page and /api/runs
// warm (each once cold first), then 100 clients over 17 routes for 60 s: p50 and p99 latency,
// errors, the largest answer, and the server's peak resident set (VmHWM, the kernel's high-water
// mark) against the largest file's size. Cold: a fresh server with its own index directory.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import path from "node:path";
import { eventFileBytes, type ScalarToWrite } from "@/lib/testing/event-writer";
import {
  writeLargeEventFile,
  writeLargeMlflowDb,
  writeLargeMlflowMetric,
  writeLargeTokenizer,
  writeLargeWandbFile,
} from "@/lib/testing/hostile-trainer-files";
import { LIST_REUSE_MS } from "@/lib/health";
import { startServer } from "./server";
import { figure, fmt, runAlone, scratchDir } from "./util";

const ROOT = path.join("bench", "out", "hostile-load");
const RUNS = 57;
const WARM_MS = 1_000;
const P99_MS = 3_000;
const HWM_MB = 1_500;
const CLIENTS = 100;
const SECONDS = 60;

function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(status)?.[1]) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

function hostileRun(name: string, description: string, extra: Record<string, unknown> = {}) {
  const dir = path.join(ROOT, name);
  mkdirSync(path.join(dir, "logs"), { recursive: true });
  writeFileSync(path.join(dir, "run.json"), JSON.stringify({ name, description, ...extra }));
  return dir;
}

/** The root, written once (its files are large; a second run reuses them). */
function writeRoot(): void {
  if (existsSync(path.join(ROOT, ".complete-2"))) return;
  mkdirSync(ROOT, { recursive: true });
  const samples = readdirSync("fixtures/runs", { withFileTypes: true }).filter((d) =>
    d.isDirectory(),
  );
  for (const d of samples)
    cpSync(path.join("fixtures/runs", d.name), path.join(ROOT, d.name), { recursive: true });
  const events = hostileRun("big-events", "a 250 MiB TensorBoard event file");
  const tb = path.join(events, "logs", "tensorboard", "events.out.tfevents.1700000000.node");
  writeLargeEventFile(tb, 250 * 2 ** 20);
  const ml = hostileRun("big-mlflow", "a 100 MB MLflow metric file");
  writeLargeMlflowMetric(
    path.join(ml, "logs", "mlruns", "0", "run1", "metrics", "train", "reward"),
    100e6,
  );
  const tok = hostileRun("big-tokenizer", "a 200 MB tokenizer.json", {
    tokenizer: "tokenizer.json",
  });
  writeLargeTokenizer(path.join(tok, "tokenizer.json"), 200e6);
  const wandb = hostileRun("big-wandb", "a 200 MiB W&B run file");
  writeLargeWandbFile(
    path.join(wandb, "logs", "wandb", "wandb", "offline-run-1-big", "run-big.wandb"),
    200 * 2 ** 20,
  );
  const db = hostileRun("big-mlflow-db", "an MLflow database of 1,000,000 metric rows");
  writeLargeMlflowDb(path.join(db, "logs", "mlflow.db"), 1_000_000);
  // 200 records × 1,000 tags.
  const tags = hostileRun("many-tags", "200 records × 1,000 tags");
  mkdirSync(path.join(tags, "logs", "tensorboard"), { recursive: true });
  const many: ScalarToWrite[] = [];
  for (let step = 0; step < 200; step++)
    for (let t = 0; t < 1000; t++)
      many.push({ tag: `tag/${t}`, step, wall_time: step, value: t + step });
  writeFileSync(
    path.join(tags, "logs", "tensorboard", "events.out.tfevents.1.node"),
    eventFileBytes(0, many),
  );
  // Copies of the GRPO runs until the root has RUNS runs.
  const present = readdirSync(ROOT).length;
  for (let i = 0; i < RUNS - present; i++) {
    const from = i % 2 ? "grpo-capture-on" : "grpo-capture-off";
    cpSync(path.join("fixtures/runs", from), path.join(ROOT, `${from}-copy-${i}`), {
      recursive: true,
    });
  }
  writeFileSync(path.join(ROOT, ".complete-2"), "");
}

async function timed(url: string): Promise<{ ms: number; bytes: number; ok: boolean }> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  return { ms: performance.now() - t0, bytes: body.byteLength, ok: res.ok };
}

const quantile = (xs: number[], p: number) =>
  xs.sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))] ?? NaN;

export async function benchHostileLoad(): Promise<void> {
  writeRoot();
  const server = await startServer(path.resolve(ROOT), 3194, {
    ROLLOUT_LENS_CACHE: scratchDir("rollout-lens-hostile-load-"),
  });
  try {
    const u = (p: string) => `${server.url}${p}`;
    const idle = memory(server.pid);
    console.log(`cold: fresh server process (idle RSS ${idle.rss.toFixed(0)} MB), ${RUNS} runs`);
    const coldHome = await timed(u("/"));
    const coldRuns = await timed(u("/api/runs"));
    // The hostile runs' pages once each, so their files are parsed before the warm figures.
    for (const r of [
      "big-events",
      "big-mlflow",
      "big-wandb",
      "big-mlflow-db",
      "big-tokenizer",
      "many-tags",
    ])
      await timed(u(`/runs/${r}`));
    // Each warm figure after the list's reuse window: the list is made again, not reused.
    const pastReuse = () => new Promise((r) => setTimeout(r, LIST_REUSE_MS + 100));
    await pastReuse();
    const warmHome = await timed(u("/"));
    await pastReuse();
    const warmRuns = await timed(u("/api/runs"));
    const afterCold = memory(server.pid);
    console.log(
      `home: cold ${fmt(coldHome.ms)}, warm ${fmt(warmHome.ms)}; /api/runs: cold ${fmt(coldRuns.ms)}, warm ${fmt(warmRuns.ms)} (${(warmRuns.bytes / 1e3).toFixed(0)} kB)`,
    );
    const routes = [
      "/",
      "/api/runs",
      "/runs/big-events",
      "/runs/big-mlflow",
      "/api/runs/big-wandb/trainer/training",
      "/api/runs/big-mlflow-db/trainer/training",
      "/runs/many-tags",
      "/runs/big-tokenizer",
      "/api/runs/big-events/health",
      "/api/runs/many-tags/health",
      "/compare?a=big-events&b=grpo-capture-on",
      "/api/compare?a=many-tags&b=grpo-capture-off",
      "/runs/grpo-capture-on",
      "/api/runs/grpo-capture-on/rollouts?limit=200",
      "/api/runs/grpo-capture-on/trainer/truth",
      "/runs/claude-code-capture-on",
      "/api/runs/claude-code-capture-on/rollouts?limit=200",
    ];
    const latencies: number[] = [];
    const byRoute = new Map<string, number[]>(routes.map((r) => [r, []]));
    let errors = 0;
    let largest = { bytes: 0, route: "" };
    const end = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let k = c; Date.now() < end; k++) {
          const route = routes[k % routes.length]!;
          const r = await timed(u(route)).catch(() => ({ ms: NaN, bytes: 0, ok: false }));
          if (!r.ok) {
            errors++;
            continue;
          }
          latencies.push(r.ms);
          byRoute.get(route)!.push(r.ms);
          if (r.bytes > largest.bytes) largest = { bytes: r.bytes, route };
        }
      }),
    );
    const mem = memory(server.pid);
    for (const [route, ms] of byRoute)
      console.log(
        `  ${route}: ${ms.length} answers, p50 ${fmt(quantile(ms, 0.5))}, max ${fmt(quantile(ms, 1))}`,
      );
    const p50 = quantile(latencies, 0.5);
    const p99 = quantile(latencies, 0.99);
    console.log(
      `${CLIENTS} clients × ${routes.length} routes for ${SECONDS} s: ${latencies.length} answers, ${errors} errors, ` +
        `p50 ${fmt(p50)}, p99 ${fmt(p99)}; largest answer ${(largest.bytes / 1e6).toFixed(1)} MB (${largest.route}); ` +
        `VmHWM ${mem.hwm.toFixed(0)} MB against the largest file's 262 MB (${afterCold.hwm.toFixed(0)} MB ` +
        `after the first visits, before the load), idle ${idle.rss.toFixed(0)} MB`,
    );
    figure("home page warm, 57 runs with hostile trainer files", warmHome.ms, WARM_MS, fmt);
    figure("/api/runs warm, the same root", warmRuns.ms, WARM_MS, fmt);
    figure("p99 latency, 100 clients over 17 routes", p99, P99_MS, fmt);
    figure("server peak RSS (VmHWM), the same load", mem.hwm, HWM_MB, (v) => `${v.toFixed(0)} MB`);
    if (errors > 0) throw new Error(`${errors} requests failed under load`);
  } finally {
    await server.stop();
  }
}

runAlone("hostile-load.bench.ts", "hostile trainer files under load", benchHostileLoad);
