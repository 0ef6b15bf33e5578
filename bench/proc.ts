// A server's process tree as /proc sees it: its peak resident memory and the CPU time it used.
// Worker threads are threads of their process, so both include the index's workers.
import { readdirSync, readFileSync } from "node:fs";

/** `pid` and its descendants (those alive now). */
function tree(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    out.push(p);
    try {
      for (const t of readdirSync(`/proc/${p}/task`))
        for (const c of readFileSync(`/proc/${p}/task/${t}/children`, "utf8").split(/\s+/))
          if (c) walk(Number(c));
    } catch {
      // the process ended meanwhile
    }
  };
  walk(pid);
  return out;
}

/** Peak resident memory (VmHWM) of `pid` and its descendants, in bytes (the largest of them). */
export function peakRss(pid: number): number {
  return largest(pid, /VmHWM:\s+(\d+) kB/);
}

/** Resident memory now (VmRSS) of `pid` and its descendants, in bytes (the largest of them). */
export function rssNow(pid: number): number {
  return largest(pid, /VmRSS:\s+(\d+) kB/);
}

function largest(pid: number, field: RegExp): number {
  let most = 0;
  for (const p of tree(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      most = Math.max(most, Number(field.exec(status)?.[1] ?? 0) * 1024);
    } catch {
      // the process ended meanwhile
    }
  }
  return most;
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS = 100;

/** CPU seconds (user + system, every thread) used so far by `pid` and its live descendants. */
export function cpuSeconds(pid: number): number {
  let ticks = 0;
  for (const p of tree(pid)) {
    try {
      // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks / TICKS;
}

/** The load averages over 1, 5 and 15 minutes, as `uptime` prints them. */
export function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(", ");
}
