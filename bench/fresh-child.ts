// The child side of bench/fresh.ts: one task, timed from its first line, printed as one JSON line.
// Imports happen before the clock starts; what they load lazily (decoders, caches) is cold.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { FreshTask } from "./fresh";

async function run(t: FreshTask): Promise<Record<string, unknown>> {
  if (t.task === "read-parse") {
    const t0 = performance.now();
    const text = readFileSync(t.file, "utf8");
    const readMs = performance.now() - t0;
    const lines = text.split("\n").filter((l) => l.length > 0);
    const t1 = performance.now();
    for (const l of lines) JSON.parse(l);
    return { readMs, parseMs: performance.now() - t1 };
  }
  if (t.task === "build") {
    const { decideVerdict } = await import("@/lib/builder");
    const { tokenEntrySchema } = await import("@/lib/schema");
    const { snapshotOf } = await import("@/lib/testing/snapshot");
    const entries = readFileSync(t.file, "utf8")
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => tokenEntrySchema.parse(JSON.parse(l)));
    const t0 = performance.now();
    const v = decideVerdict(snapshotOf(entries), {
      profile: t.profile,
      sideCallPatterns: t.patterns,
    });
    return {
      ms: performance.now() - t0,
      chains: v.build?.chains.length ?? 0,
      masked: v.mask_sample,
    };
  }
  if (t.task === "plain-read-dir") {
    const t0 = performance.now();
    let files = 0;
    for (const f of readdirSync(t.dir).filter((n) => n.endsWith(".tokens.jsonl"))) {
      files++;
      for (const l of readFileSync(path.join(t.dir, f), "utf8").split("\n")) if (l) JSON.parse(l);
    }
    return { ms: performance.now() - t0, files };
  }
  const { getRun } = await import("@/lib/runs");
  const { pendingTextCount, SummaryIndex } = await import("@/lib/index");
  const run = await getRun(t.run, t.runsRoot);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const index = new SummaryIndex(run, t.db);
  const snap = await index.snapshot({ waitMs: 3_600_000, minIntervalMs: 0 });
  const summariesMs = performance.now() - t0;
  // Search's trigrams are indexed after the summaries: the index is complete when none waits.
  while (pendingTextCount(index.rows.handle) > 0) await new Promise((r) => setTimeout(r, 20));
  const ms = performance.now() - t0;
  index.close();
  // CPU of every thread of the process (the index's workers included), from the clock's start.
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return {
    ms,
    summariesMs,
    cpuMs,
    threads: threadCpu(),
    workers: snap.progress.workers,
    summaries: snap.count,
  };
}

/**
 * CPU seconds of each thread of this process that used more than 0.1 s (Linux: /proc/self/task,
 * in clock ticks of 10 ms), named as the kernel names it, busiest first; [] elsewhere.
 */
function threadCpu(): Array<[name: string, seconds: number]> {
  try {
    const out: Array<[string, number]> = [];
    for (const tid of readdirSync("/proc/self/task")) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // After the name in parentheses: state, then 10 fields, then utime and stime.
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const seconds = (Number(rest[11]) + Number(rest[12])) / 100;
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (seconds > 0.1) out.push([name, seconds]);
    }
    return out.sort((a, b) => b[1] - a[1]);
  } catch {
    return [];
  }
}

run(JSON.parse(process.argv[2] ?? "{}") as FreshTask).then(
  (r) => {
    process.stdout.write(JSON.stringify(r) + "\n");
    process.exit(0); // index worker threads must not keep the child alive
  },
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
