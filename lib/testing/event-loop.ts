// Samples the main thread's event loop while a test's work runs: its longest stretch of work
// (perf_hooks event-loop utilisation, every 5 ms) and its longest delay (monitorEventLoopDelay,
// which on a loaded machine also counts time the OS gave other threads).
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

export function watchEventLoop(): { stop(): { maxDelayMs: number; maxBusyMs: number } } {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let maxBusyMs = 0;
  let elu = performance.eventLoopUtilization();
  const tick = setInterval(() => {
    const now = performance.eventLoopUtilization();
    maxBusyMs = Math.max(maxBusyMs, performance.eventLoopUtilization(now, elu).active);
    elu = now;
  }, 5);
  return {
    stop() {
      clearInterval(tick);
      delay.disable();
      return { maxDelayMs: delay.max / 1e6, maxBusyMs };
    },
  };
}
