// The store worker pool's promises, with a worker script that speaks its protocol: a file call
// that never returns (a hung mount, simulated by a watched wait) fails its job after the read
// deadline with the file's name, the worker is replaced, and a cancelled job frees its worker;
// groups take turns and an idle worker is ended.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { StoreWorkerPool } from "./pool";
import { readWatchedName, watchViews, WATCH_BYTES, writeWatchedName } from "./watch";

// Jobs: {hang: file} marks a file call as begun and never ends it; {echo: x} answers x. The shared
// memory's layout is ./serve's (watchViews): the call's start at byte 0, the name's length at 8,
// its base name from 16.
const SCRIPT = `
import { parentPort, workerData } from "node:worker_threads";
const since = new Float64Array(workerData.watch, 0, 1);
const nameLength = new Int32Array(workerData.watch, 8, 1);
const name = new Uint8Array(workerData.watch, 16);
parentPort.on("message", ({ id, request }) => {
  if (request.hang) {
    nameLength[0] = new TextEncoder().encodeInto(request.hang.split("/").pop(), name).written;
    since[0] = Date.now();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // a call that never returns
  }
  parentPort.postMessage({ id, progress: 3 });
  parentPort.postMessage({ id, result: { echo: request.echo, thread: process.pid } });
});
`;

let script: string;
const saved = process.env.ROLLOUT_LENS_READ_DEADLINE_MS;
beforeAll(() => {
  script = path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-pool-")), "worker.mjs");
  writeFileSync(script, SCRIPT);
  process.env.ROLLOUT_LENS_READ_DEADLINE_MS = "300";
});
afterAll(() => {
  if (saved === undefined) delete process.env.ROLLOUT_LENS_READ_DEADLINE_MS;
  else process.env.ROLLOUT_LENS_READ_DEADLINE_MS = saved;
});

describe("StoreWorkerPool", () => {
  it("abandons a worker stuck in a file call after the deadline, naming the file, and goes on", async () => {
    const pool = new StoreWorkerPool(script, { size: 1 });
    const t0 = performance.now();
    await expect(pool.run({ hang: "/mnt/nfs/x.tokens.jsonl" })).rejects.toThrow(
      "x.tokens.jsonl: no data for 300 ms: is this a FIFO or a stalled mount?",
    );
    const waited = performance.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(300);
    expect(waited).toBeLessThan(2000);
    // The one slot is free again: a fresh worker answers, with progress on the way.
    const seen: number[] = [];
    const r = await pool.run<{ echo: number }>({ echo: 7 }, { onProgress: (n) => seen.push(n) });
    expect(r.echo).toBe(7);
    expect(seen).toEqual([3]);
    expect(pool.started).toBe(2);
    pool.close();
  });

  it("a cancelled job rejects with the abort reason and frees its worker; queued jobs wait", async () => {
    const pool = new StoreWorkerPool(script, { size: 1 });
    const ac = new AbortController();
    const stuck = pool.run({ hang: "slow.jsonl" }, { signal: ac.signal });
    const queued = pool.run<{ echo: string }>({ echo: "after" });
    ac.abort(new Error("client went away"));
    await expect(stuck).rejects.toThrow("client went away");
    expect((await queued).echo).toBe("after");
    pool.close();
  });

  it("groups take turns: a large run queued first does not hold back a small one", async () => {
    const pool = new StoreWorkerPool(script, { size: 1 });
    const done: string[] = [];
    const job = (echo: string, group: string) =>
      pool.run<{ echo: string }>({ echo }, { group }).then((r) => void done.push(r.echo));
    await Promise.all([
      ...["big-1", "big-2", "big-3", "big-4"].map((e) => job(e, "big")),
      ...["small-1", "small-2"].map((e) => job(e, "small")),
    ]);
    expect(done).toEqual(["big-1", "small-1", "big-2", "small-2", "big-3", "big-4"]);
    pool.close();
  });

  it("ends a worker idle for idleMs; the next job starts a fresh one", async () => {
    const pool = new StoreWorkerPool(script, { size: 1, idleMs: 50 });
    const first = await pool.run<{ echo: number }>({ echo: 1 });
    expect(pool.workers).toBe(1);
    await vi.waitFor(() => expect(pool.workers).toBe(0), { timeout: 5_000, interval: 10 });
    await pool.run({ echo: 2 });
    expect(first.echo).toBe(1);
    expect(pool.started).toBe(2);
    pool.close();
  });

  it("prestart starts every worker idle; jobs then run on them, not on new ones", async () => {
    const pool = new StoreWorkerPool(script, { size: 2, idleMs: 60_000 });
    pool.prestart();
    await vi.waitFor(() => expect(pool.started).toBe(2), { timeout: 5_000, interval: 1 });
    const answers = await Promise.all(
      [1, 2, 3, 4].map((echo) => pool.run<{ echo: number }>({ echo })),
    );
    expect(answers.map((a) => a.echo)).toEqual([1, 2, 3, 4]);
    expect(pool.started).toBe(2);
    pool.prestart(); // all started already: no more
    await new Promise((r) => setImmediate(r));
    expect(pool.started).toBe(2);
    pool.close();
  });

  it("starts its workers one a turn of the event loop, never several in one", async () => {
    // A start holds the thread 10-25 ms: four jobs at once on four slots, and a prestart beside.
    const pool = new StoreWorkerPool(script, { size: 4 });
    const other = new StoreWorkerPool(script, { size: 2 });
    const jobs = [1, 2, 3, 4].map((echo) => pool.run<{ echo: number }>({ echo }));
    other.prestart();
    const started = () => pool.started + other.started;
    expect(started()).toBe(0); // none in the caller's turn
    const seen = [0];
    while (started() < 6) {
      await new Promise((r) => setImmediate(r));
      seen.push(started());
    }
    const steps = seen.slice(1).map((n, i) => n - (seen[i] as number));
    expect(Math.max(...steps)).toBe(1);
    expect((await Promise.all(jobs)).map((a) => a.echo)).toEqual([1, 2, 3, 4]);
    pool.close();
    other.close();
  });
});

describe("the watched call's shared name", () => {
  it("reads back what the worker wrote, a long name cut on a character boundary", () => {
    const views = watchViews(new SharedArrayBuffer(WATCH_BYTES));
    expect(readWatchedName(views)).toBe("");
    writeWatchedName(views, "r-1.tokens.jsonl");
    expect(readWatchedName(views)).toBe("r-1.tokens.jsonl");
    writeWatchedName(views, "é".repeat(600)); // 1,200 bytes of UTF-8 into 1,024
    expect(readWatchedName(views)).toBe("é".repeat(512));
    writeWatchedName(views, "b.tokens.jsonl"); // shorter than the last: no tail of it left
    expect(readWatchedName(views)).toBe("b.tokens.jsonl");
  });
});
