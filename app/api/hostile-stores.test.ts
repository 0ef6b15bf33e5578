// The hostile-store suite: runs built to hang, blind or trick the server, in a temp runs root, read
// through the real route handlers on the built store workers (dist/store-worker.mjs). For each: the
// clear message, and while the hostile run is being read, `/api/runs` and another run's inspector
// answer within 2 s and the event loop never blocks for 100 ms (perf_hooks.monitorEventLoopDelay).
// FIFO side files: ./hostile-side-files.test.ts; trainer files at their size caps:
// ./hostile-trainer-files.test.ts. Symlinks out of the root, run.json paths outside
// it, unreadable metrics or records and damaged caches are proven where they are built:
// lib/runs/root.test.ts, lib/store/confine.test.ts, app/api/faults.test.ts and
// lib/index/summary-cache.test.ts.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, statSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { watchEventLoop } from "@/lib/testing/event-loop";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeLargeRollout, BIG_ROLLOUT_ID } from "@/fixtures/generator/large";
import { line, tokenRecord } from "@/lib/testing/temp-store";
import { o200kDecoder } from "@/lib/tokens/decoder";
import { GET as getRuns } from "./runs/route";
import { GET as getRollout } from "./runs/[run]/rollouts/[rollout]/route";
import { GET as getProgress } from "./runs/[run]/rollouts/[rollout]/progress/route";

const ENV = [
  "ROLLOUT_LENS_RUNS",
  "ROLLOUT_LENS_CACHE",
  "ROLLOUT_LENS_READ_DEADLINE_MS",
  "ROLLOUT_LENS_IO_WORKERS",
] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) }) as never;
const req = () => new Request("http://localhost/x");
/** The promises: other routes answer within this, the event loop never blocks this long. */
const ANSWER_MS = 2000;
const MAX_BLOCK_MS = 100;
/**
 * The event loop's delay (monitorEventLoopDelay) also counts time the OS ran other threads: on a
 * loaded 2-core CI machine that alone reaches 100–300 ms while the main thread does nothing. So the
 * 100 ms promise is asserted on the main thread's own work in any 5 ms tick (its event-loop
 * utilisation), and the raw delay against a bound the blocking reads of old (21–124 s) break.
 */
const MAX_DELAY_MS = 1000;
let root: string;

const good = (id: string) =>
  line(tokenRecord(id, "a", [1, 2, 3], [4, 5])) +
  line(tokenRecord(id, "b", [1, 2, 3, 4, 5, 6], [7], { created_at: 1786032155 }));

function tokensDir(run: string): string {
  const dir = path.join(root, run, "tokens");
  mkdirSync(dir, { recursive: true });
  return dir;
}

beforeAll(() => {
  execFileSync(process.execPath, ["scripts/build-node.mjs"]); // the store worker, from this source
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-hostile-"));
  for (const id of ["g-0", "g-1", "g-2"])
    writeFileSync(path.join(tokensDir("good"), `${id}.tokens.jsonl`), good(id));
  process.env.ROLLOUT_LENS_RUNS = root;
  process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-"));
  process.env.ROLLOUT_LENS_READ_DEADLINE_MS = "2000";
  delete process.env.ROLLOUT_LENS_IO_WORKERS;
}, 60_000);
afterAll(() => {
  for (const k of ENV)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

async function timed<T>(p: Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await p;
  return { value, ms: performance.now() - t0 };
}

/** What the inspector says of a rollout: its status and every message of its view. */
async function inspect(run: string, rollout: string) {
  const res = await getRollout(req(), ctx({ run, rollout }));
  const body = await res.json();
  const text = [
    body.error,
    body.verdict?.error,
    ...(body.read?.issues ?? []).map((i: { message: string }) => i.message),
  ]
    .filter(Boolean)
    .join("\n");
  return { status: res.status, body, text };
}

let otherRollout = 0;

/**
 * Until the run's first index has ended: a large rollout's summary is built on the index's pool,
 * and while it was, the measured list waited on it (549 ms in one CI run) long enough for the
 * inspector's build to end before the list answered, so the probes no longer overlapped it.
 */
async function indexed(run: string): Promise<void> {
  const t0 = performance.now();
  for (;;) {
    const { runs } = (await (await getRuns()).json()) as {
      runs: Array<{ id: string; indexing: { running: boolean; last_ms: number | null } }>;
    };
    const i = runs.find((r) => r.id === run)?.indexing;
    if (i && !i.running && i.last_ms !== null) return;
    if (performance.now() - t0 > 120_000) throw new Error(`${run}: not indexed within 120 s`);
    await new Promise((r) => setTimeout(r, 20)); // polled, not slept: the condition ends the wait
  }
}

/** Resolves once the build of run/rollout reports itself building (or has already ended). */
async function underWay(run: string, rollout: string, settled: () => boolean): Promise<void> {
  for (;;) {
    if (settled()) return;
    const res = await getProgress(req(), ctx({ run, rollout }));
    const body = (await res.json()) as { state?: string };
    if (body.state === "building") return;
    await new Promise((r) => setTimeout(r, 2)); // polled, not slept: the condition ends the wait
  }
}

/**
 * Starts reading the hostile rollout, then asks for the list of runs and a cold inspector view of
 * another run while it is read; returns the hostile answer and what was measured. The run is
 * listed once first, as a user would see it: that opens its SQLite cache, which better-sqlite3
 * does synchronously on this thread (tens of ms, more on a loaded disk), before the measurement.
 */
async function whileReading(run: string, rollout: string) {
  expect((await getRuns()).status).toBe(200);
  const loop = watchEventLoop();
  let settled = false;
  const hostile = inspect(run, rollout).finally(() => (settled = true));
  await underWay(run, rollout, () => settled);
  const other = `g-${otherRollout++ % 3}`;
  const [runs, view] = await Promise.all([timed(getRuns()), timed(inspect("good", other))]);
  const readingMeanwhile = !settled;
  const answer = await hostile;
  const { maxDelayMs, maxBusyMs } = loop.stop();
  console.log(
    `${run}/${rollout}: /api/runs ${runs.ms.toFixed(0)} ms, good/${other} ${view.ms.toFixed(0)} ms, ` +
      `event loop: max delay ${maxDelayMs.toFixed(1)} ms, longest busy stretch ${maxBusyMs.toFixed(1)} ms; ` +
      `hostile still reading: ${readingMeanwhile}`,
  );
  expect(runs.value.status).toBe(200);
  expect(view.value.status).toBe(200);
  expect(view.value.body.verdict.mask_sample).toBe(false);
  expect(runs.ms).toBeLessThan(ANSWER_MS);
  expect(view.ms).toBeLessThan(ANSWER_MS);
  expect(maxBusyMs).toBeLessThan(MAX_BLOCK_MS);
  expect(maxDelayMs).toBeLessThan(MAX_DELAY_MS);
  return { answer, readingMeanwhile };
}

// Each hostile run is made by its test, so each test's measurements are of that run alone.
describe("hostile stores", () => {
  it("warms up: the list and an inspector view answer (modules, caches, workers started)", async () => {
    await o200kDecoder(); // as the server does when it starts (instrumentation.ts)
    expect((await getRuns()).status).toBe(200);
    expect((await inspect("good", "g-2")).status).toBe(200);
  });

  it("a 1,000,000-line file of {} is read off the main thread and masked, naming line 1", async () => {
    writeFileSync(path.join(tokensDir("million"), "m-0.tokens.jsonl"), "{}\n".repeat(1_000_000));
    const { answer, readingMeanwhile } = await whileReading("million", "m-0");
    expect(readingMeanwhile).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.body.verdict.mask_sample).toBe(true);
    expect(answer.text).toMatch(/m-0\.tokens\.jsonl: line 1: rollout_id/);
  }, 180_000);

  it("nesting 8,000 levels deep in an output item is reported with file and line", async () => {
    let deep: unknown = "x";
    for (let i = 0; i < 8000; i++) deep = { a: deep };
    const item = { type: "message", content: [deep] };
    const extra = { output_items: [item], created_at: 1786032156 };
    writeFileSync(
      path.join(tokensDir("deep"), "d-0.tokens.jsonl"),
      good("d-0") + line(tokenRecord("d-0", "c", [1, 2, 3, 4, 5, 6, 7], [8], extra)),
    );
    const { answer } = await whileReading("deep", "d-0");
    expect(answer.status).toBe(200);
    expect(answer.body.verdict.mask_sample).toBe(true);
    expect(answer.text).toMatch(/d-0\.tokens\.jsonl: line 3: nested more than 1000 levels deep/);
    expect(answer.text).not.toMatch(/call stack/);
  });

  it("a 2 GiB sparse file is damage (NUL bytes, line 1), masked, never '0 calls, not masked'", async () => {
    const sparse = path.join(tokensDir("sparse"), "s-0.tokens.jsonl");
    writeFileSync(sparse, "");
    truncateSync(sparse, 2 ** 31); // 2 GiB of holes: reads as NUL bytes, takes no disk
    const { answer } = await whileReading("sparse", "s-0");
    expect(answer.status).toBe(200);
    // No record to judge the store by: auto takes Gym main's profile, whose freeze drops the NUL
    // line as a torn tail and finds no entries. Masked either way, the NUL line named on line 1.
    expect(answer.body.verdict.mask_sample).toBe(true);
    expect(answer.body.verdict.error).toBe("capture contains no token records");
    expect(answer.body.read.issues).toContainEqual(
      expect.objectContaining({ file: "s-0.tokens.jsonl", line: 1, severity: "error" }),
    );
    expect(answer.text).toMatch(/holds NUL bytes/);
  }, 180_000);

  it("a FIFO token file is refused by type at once, naming the file", async () => {
    execFileSync("mkfifo", [path.join(tokensDir("fifo"), "f-0.tokens.jsonl")]);
    const { answer } = await whileReading("fifo", "f-0");
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(
      /f-0\.tokens\.jsonl: a FIFO \(named pipe\), not a regular file; refused/,
    );
    expect(answer.body.verdict.mask_sample).toBe(true);
  });

  it("a large valid rollout (over 40 MB) is built on a worker: its model's arrays move, the loop stays free", async () => {
    // 200 calls up to 64k tokens: ~6M token ids, the size whose build (and whose copy back from a
    // worker) used to run on the main thread for seconds.
    await writeLargeRollout(root, { bigCalls: 200, bigTokens: 64_000 });
    const file = path.join(root, "large-rollout", "tokens", `${BIG_ROLLOUT_ID}.tokens.jsonl`);
    expect(statSync(file).size).toBeGreaterThan(40 * 2 ** 20);
    await indexed("large-rollout");
    const { answer, readingMeanwhile } = await whileReading("large-rollout", BIG_ROLLOUT_ID);
    expect(readingMeanwhile).toBe(true);
    expect(answer.status).toBe(200);
    expect(answer.body.verdict.mask_sample).toBe(false);
    expect(answer.body.calls).toHaveLength(200);
  }, 180_000);
});
