// The hostile-store suite's trainer side: a runs root whose trainer files are as large as the
// size caps allow (a 250 MiB TensorBoard event file, a 100 MB MLflow metric file, a 200 MiB W&B
// run file, an MLflow tracking database of 1,000,000 metric rows, a 200 MB tokenizer.json), read
// through the real route handlers on the built store workers. The first list of runs parses all
// of them while the main thread's longest busy stretch stays under 100 ms and
// another run's inspector answers within 2 s; the list warm, with every file parsed, answers
// within 1 s and parses none of them again. The files are written in a temp root, removed after.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LIST_REUSE_MS } from "@/lib/health";
import { readTokenizerOffThread, storePool } from "@/lib/rollout";
import { watchEventLoop } from "@/lib/testing/event-loop";
import {
  byteSymbols,
  LARGE_DB_STEPS,
  LARGE_WANDB_STEPS,
  writeLargeEventFile,
  writeLargeMlflowDb,
  writeLargeMlflowMetric,
  writeLargeTokenizer,
  writeLargeWandbFile,
} from "@/lib/testing/hostile-trainer-files";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { runListSchema } from "@/lib/schema";
import { decoderFor } from "@/lib/tokens";
import { GET as getRuns } from "./runs/route";
import { GET as getRollout } from "./runs/[run]/rollouts/[rollout]/route";
import { GET as getHealth } from "./runs/[run]/health/route";

const ENV = ["ROLLOUT_LENS_RUNS", "ROLLOUT_LENS_CACHE", "ROLLOUT_LENS_IO_WORKERS"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const req = () => new Request("http://localhost/x");
const ANSWER_MS = 2000;
const MAX_BLOCK_MS = 100;
const WARM_MS = 1000;
/** Fixture truth: the event file's chunk logs steps 0–49,999; the MLflow file steps 0–199,999. */
const EVENT_STEPS = 50_000;
const MLFLOW_STEPS = 200_000;
let root: string;
let cacheDir: string;
/** Each file a store worker was asked to parse (trainer files and tokenizers), in order. */
const parses: string[] = [];

/** Ids of printable ASCII text in the byte-level vocabulary the large tokenizer has. */
const ids = (text: string) => [...text].map((c) => byteSymbols().indexOf(c));

function run(name: string, manifest: Record<string, unknown> = {}): string {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "tokens"), { recursive: true });
  writeFileSync(path.join(dir, "run.json"), JSON.stringify({ name, ...manifest }));
  // "Hi" then "!": one rollout, so the run's tokenizer decodes something.
  const rollout = line(tokenRecord(`${name}-0`, "a", ids("Hi"), ids("!")));
  writeFileSync(path.join(dir, "tokens", `${name}-0.tokens.jsonl`), rollout);
  return dir;
}

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-node.mjs"]); // the store worker, from this source
  // What a serving process has done before its first trainer file, so the timing below is the
  // readers' alone: Node loads its fetch classes (undici) at the first Request (25-40 ms), and ICU
  // its number formats at the first toLocaleString (about 25 ms).
  void req();
  void (1234).toLocaleString("en-US");
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-hostile-trainer-"));
  cacheDir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-"));
  run("good");
  const events = run("big-events");
  writeLargeEventFile(
    path.join(events, "logs", "tensorboard", "events.out.tfevents.1700000000.node"),
    250 * 2 ** 20,
  );
  const ml = run("big-mlflow");
  writeLargeMlflowMetric(
    path.join(ml, "logs", "mlruns", "0", "run1", "metrics", "train", "reward"),
    100e6,
  );
  const wandb = run("big-wandb");
  writeLargeWandbFile(
    path.join(wandb, "logs", "wandb", "wandb", "offline-run-1-big", "run-big.wandb"),
    200 * 2 ** 20,
  );
  writeLargeMlflowDb(path.join(run("big-mlflow-db"), "logs", "mlflow.db"), 1_000_000);
  const tok = run("big-tokenizer", { tokenizer: "tokenizer.json" });
  writeLargeTokenizer(path.join(tok, "tokenizer.json"), 200e6);
  process.env.ROLLOUT_LENS_RUNS = root;
  process.env.ROLLOUT_LENS_CACHE = cacheDir;
  delete process.env.ROLLOUT_LENS_IO_WORKERS;
  const pool = storePool("interactive")!;
  const runJob = pool.run.bind(pool);
  vi.spyOn(pool, "run").mockImplementation((job, options) => {
    const { kind, file } = job as { kind: string; file?: string };
    if ((kind === "trainer-file" || kind === "tokenizer") && file) parses.push(file);
    return runJob(job, options);
  });
}, 120_000);
afterAll(() => {
  for (const k of ENV)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  rmSync(root, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
});

async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await p;
  return { value, ms: performance.now() - t0 };
}

const listed = async () => runListSchema.parse(await (await getRuns()).json()).runs;

describe("hostile trainer files", () => {
  it("are as large as promised", () => {
    const size = (...p: string[]) => statSync(path.join(root, ...p)).size;
    expect(
      size("big-events", "logs", "tensorboard", "events.out.tfevents.1700000000.node"),
    ).toBeGreaterThanOrEqual(250 * 2 ** 20);
    expect(
      size("big-mlflow", "logs", "mlruns", "0", "run1", "metrics", "train", "reward"),
    ).toBeGreaterThanOrEqual(100e6);
    expect(size("big-tokenizer", "tokenizer.json")).toBeGreaterThanOrEqual(200e6);
    expect(
      size("big-wandb", "logs", "wandb", "wandb", "offline-run-1-big", "run-big.wandb"),
    ).toBeGreaterThanOrEqual(200 * 2 ** 20);
    expect(size("big-mlflow-db", "logs", "mlflow.db")).toBeGreaterThanOrEqual(50e6);
  });

  // The thread's own work is bounded; its waits are printed, not bounded: while the niced index
  // workers are starved by the parsing ones, the thread sleeps on them up to 80-230 ms in about
  // one run in three here, with 0.1-0.4 ms of CPU (none with the workers not niced: 9-21 ms in
  // five runs). An open finding, docs/trainer-logs.md.
  it("are parsed off the main thread: no stretch of its own work reaches 100 ms", async () => {
    const loop = watchEventLoop();
    const list = timed(listed());
    const tokenized = timed(
      getRollout(req(), ctx({ run: "big-tokenizer", rollout: "big-tokenizer-0" })),
    );
    const health = timed(getHealth(req(), ctx({ run: "big-events" })));
    // Meanwhile another run's inspector answers, whatever the list is waiting for.
    const other = await timed(getRollout(req(), ctx({ run: "good", rollout: "good-0" })));
    const [runs, tok, events] = await Promise.all([list, tokenized, health]);
    const { maxBusyMs, maxWallBusyMs, maxCpuMs, maxDelayMs } = loop.stop();
    console.log(
      `cold list ${runs.ms.toFixed(0)} ms, big-tokenizer inspector ${tok.ms.toFixed(0)} ms, ` +
        `big-events health ${events.ms.toFixed(0)} ms, good inspector ${other.ms.toFixed(0)} ms; ` +
        `event loop: most CPU between samples ${maxCpuMs.toFixed(1)} ms, longest busy stretch ` +
        `${maxBusyMs.toFixed(1)} ms with its waits (${maxWallBusyMs.toFixed(1)} ms of wall ` +
        `time), max delay ${maxDelayMs.toFixed(1)} ms`,
    );
    expect(other.value.status).toBe(200);
    expect(other.ms).toBeLessThan(ANSWER_MS);
    expect(maxCpuMs).toBeLessThan(MAX_BLOCK_MS);
    expect(tok.value.status).toBe(200);
    expect(events.value.status).toBe(200);
    // Every record was read: the curves have the fixture's steps, one point per step.
    const steps = Object.fromEntries(runs.value.map((r) => [r.id, r.steps]));
    expect(steps["big-events"]).toBe(EVENT_STEPS);
    expect(steps["big-mlflow"]).toBe(MLFLOW_STEPS);
    expect(steps["big-wandb"]).toBe(LARGE_WANDB_STEPS);
    expect(steps["big-mlflow-db"]).toBe(LARGE_DB_STEPS);
    // The 200 MB tokenizer's decoder (read on a worker, merges dropped) decodes its bytes.
    const dir = path.join(root, "big-tokenizer");
    const decoder = await decoderFor(dir, "tokenizer.json", root, readTokenizerOffThread);
    expect(decoder!.decode(ids("Hi!"))).toBe("Hi!");
  }, 180_000);

  it("the warm list (the home page's) answers within 1 s and parses no file again", async () => {
    // Each big file was parsed once, by the first list (the health route and inspector shared it).
    const big = (f: string) => /events\.out|reward$|tokenizer\.json$|\.wandb$|mlflow\.db$/.test(f);
    expect(parses.filter(big)).toHaveLength(5);
    expect(new Set(parses.filter(big)).size).toBe(5);
    await new Promise((r) => setTimeout(r, LIST_REUSE_MS + 100)); // past the shared answer's reuse
    const loop = watchEventLoop();
    const warm = await timed(listed());
    const health = await timed(getHealth(req(), ctx({ run: "big-mlflow" })));
    const { maxBusyMs } = loop.stop();
    console.log(
      `warm list ${warm.ms.toFixed(0)} ms, big-mlflow health ${health.ms.toFixed(0)} ms, ` +
        `longest busy stretch ${maxBusyMs.toFixed(1)} ms`,
    );
    expect(warm.ms).toBeLessThan(WARM_MS);
    expect(health.ms).toBeLessThan(WARM_MS);
    expect(maxBusyMs).toBeLessThan(MAX_BLOCK_MS);
    expect(warm.value.find((r) => r.id === "big-events")?.steps).toBe(EVENT_STEPS);
    expect(parses.filter(big)).toHaveLength(5);
  });
});
