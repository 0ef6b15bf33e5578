// The event-loop watcher counts the thread's own work, blocking included, and not the time the
// OS gave other threads. Each expected figure is the work this test does itself, timed by it.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { watchEventLoop } from "./event-loop";

/** This thread's CPU time in ms (Linux). */
const cpuMs = () => Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
const tick = () => new Promise((r) => setTimeout(r, 20));

/** Spins until this thread has used `ms` of CPU, and answers the wall time it took. */
function spinCpu(ms: number): number {
  const t0 = performance.now();
  const c0 = cpuMs();
  while (cpuMs() - c0 < ms);
  return performance.now() - t0;
}

describe("watchEventLoop", () => {
  it("counts a 150 ms task on the thread", async () => {
    const loop = watchEventLoop();
    await tick();
    spinCpu(150);
    await tick();
    const { maxBusyMs, maxWallBusyMs } = loop.stop();
    expect(maxBusyMs).toBeGreaterThanOrEqual(145);
    expect(maxWallBusyMs).toBeGreaterThanOrEqual(145);
  });

  it("counts 150 ms of blocking, where the thread uses no CPU", async () => {
    const loop = watchEventLoop();
    await tick();
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150);
    await tick();
    expect(loop.stop().maxBusyMs).toBeGreaterThanOrEqual(145);
  });

  it("does not count the time other threads had the CPU", async () => {
    // Four threads spin on this machine's cores while this one does 40 ms of work: the clock sees
    // the task last as long as the OS's share makes it; the watcher sees about 40 ms.
    const spinners = Array.from(
      { length: 4 },
      () =>
        new Worker("const e = Date.now() + 3000; while (Date.now() < e);", {
          eval: true,
        }),
    );
    try {
      await Promise.all(spinners.map((w) => new Promise((r) => w.once("online", r))));
      const loop = watchEventLoop();
      await tick();
      const wall = spinCpu(40);
      await tick();
      const { maxBusyMs, maxWallBusyMs } = loop.stop();
      console.log(
        `40 ms of CPU lasted ${wall.toFixed(1)} ms; watcher ${maxBusyMs.toFixed(1)} ms, ` +
          `wall stretch ${maxWallBusyMs.toFixed(1)} ms`,
      );
      expect(maxBusyMs).toBeGreaterThanOrEqual(38);
      expect(maxBusyMs).toBeLessThan(60);
      expect(maxWallBusyMs).toBeGreaterThanOrEqual(wall - 1);
    } finally {
      await Promise.all(spinners.map((w) => w.terminate()));
    }
  });
});
