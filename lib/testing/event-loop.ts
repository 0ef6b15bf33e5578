// Samples the calling thread's event loop while a test's work runs: its longest stretch of work
// (perf_hooks event-loop utilisation, every 5 ms) and its longest delay (monitorEventLoopDelay).
//
// Both are wall time, so on a loaded machine they also count time the OS gave other threads: on
// CI's two cores, with store workers and other test files running, a 30 ms task can last 150 ms
// of wall time. `maxBusyMs` therefore takes out, per interval, the time this thread sat runnable
// on the scheduler's queue (Linux's /proc/thread-self/schedstat, proc(5): "time spent waiting on
// a runqueue"), and never counts less than the thread's own CPU time in that interval. Blocking
// on a read still counts: the thread is neither running nor queued then, only busy.
// `maxWallBusyMs` is the stretch as the clock saw it; `maxCpuMs` the thread's CPU alone, without
// its waits. Without schedstat all three are the wall time.
import { readFileSync } from "node:fs";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

export type LoopWatch = {
  maxDelayMs: number;
  maxBusyMs: number;
  maxWallBusyMs: number;
  /** The most CPU the thread used between two samples (its own work, waits excluded). */
  maxCpuMs: number;
};

/** This thread's time on a CPU and time queued for one, in ms (null where Linux's file is not). */
function schedstat(): { cpuMs: number; queuedMs: number } | null {
  try {
    const [cpu, queued] = readFileSync("/proc/thread-self/schedstat", "utf8").split(" ");
    return { cpuMs: Number(cpu) / 1e6, queuedMs: Number(queued) / 1e6 };
  } catch {
    return null;
  }
}

export function watchEventLoop(): { stop(): LoopWatch } {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let maxBusyMs = 0;
  let maxWallBusyMs = 0;
  let maxCpuMs = 0;
  let elu = performance.eventLoopUtilization();
  let sched = schedstat();
  const tick = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const nowSched = schedstat();
    const wall = performance.eventLoopUtilization(now, elu).active;
    const own =
      sched && nowSched
        ? Math.max(
            nowSched.cpuMs - sched.cpuMs,
            Math.min(wall, wall - (nowSched.queuedMs - sched.queuedMs)),
          )
        : wall;
    maxWallBusyMs = Math.max(maxWallBusyMs, wall);
    maxCpuMs = Math.max(maxCpuMs, sched && nowSched ? nowSched.cpuMs - sched.cpuMs : wall);
    maxBusyMs = Math.max(maxBusyMs, own);
    elu = now;
    sched = nowSched;
  }, 5);
  return {
    stop() {
      clearInterval(tick);
      delay.disable();
      return { maxDelayMs: delay.max / 1e6, maxBusyMs, maxWallBusyMs, maxCpuMs };
    },
  };
}
