// Load benchmark: 50 concurrent clients open the 500-call, 200k-token rollout (view + 3 token
// windows at spread offsets), then 50 clients open 50 different rollouts. Figure: the server
// process's peak resident set (VmHWM from /proc/<pid>/status: the kernel's high-water mark, not a
// sample) as a ratio to the big rollout's file size. Cold: a fresh server process with its own
// index directory, page cache dropped. Target ≤ 3.0× the file (set here; no issue states one).
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import {
  BIG_ROLLOUT_ID,
  LARGE_DEFAULTS,
  writeLargeRollout,
  writeLargeRun,
} from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { dropPageCache } from "./cache";
import { startServer } from "./server";
import { figure, fmt, runAlone, scratchDir } from "./util";

const TARGET = 3.0;

/** VmRSS and VmHWM of a process, in MB. */
function memory(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => {
    const m = new RegExp(`^${k}:\\s+(\\d+) kB`, "m").exec(status);
    if (!m) throw new Error(`no ${k} in /proc/${pid}/status`);
    return Number(m[1]) / 1024;
  };
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

async function clients(n: number, urls: (i: number) => string[]): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      for (const u of urls(i)) {
        const res = await fetch(u);
        if (!res.ok) throw new Error(`${u}: HTTP ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
  return performance.now() - t0;
}

export async function benchLoad(): Promise<void> {
  await writeLargeRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  await writeLargeRun(LARGE_DIR, LARGE_DEFAULTS.rollouts, true);
  const file = path.join(LARGE_DIR, "large-rollout", "tokens", `${BIG_ROLLOUT_ID}.tokens.jsonl`);
  const fileMb = statSync(file).size / 1e6;
  const server = await startServer(LARGE_DIR, 3193, {
    ROLLOUT_LENS_CACHE: scratchDir("rollout-lens-load-"),
  });
  try {
    const idle = memory(server.pid);
    console.log(
      `cold: fresh server process (idle RSS ${idle.rss.toFixed(0)} MB); ${dropPageCache([file])}`,
    );
    const big = `${server.url}/api/runs/large-rollout/rollouts/${BIG_ROLLOUT_ID}`;
    const chain = 199_000; // offsets stay inside the 199,748-token chain; every client arrives while it is cold
    const bigMs = await clients(50, (i) => [
      big,
      ...[0, 1, 2].map(
        (k) => `${big}/tokens?chain=main&offset=${(i * 7919 + k * 104_729) % chain}&limit=2000`,
      ),
    ]);
    const manyMs = await clients(50, (i) => {
      const id = `${Math.floor((i * 37) / 4)}-${(i * 37) % 4}`;
      const base = `${server.url}/api/runs/large-run/rollouts/${id}`;
      return [base, `${base}/tokens?chain=main&limit=2000`];
    });
    const end = memory(server.pid);
    console.log(
      `50 clients on one ${fileMb.toFixed(0)} MB rollout: ${fmt(bigMs)} until all answered (the first request built it); 50 clients on 50 rollouts: ${fmt(manyMs)}`,
    );
    console.log(
      `server memory: VmHWM ${end.hwm.toFixed(0)} MB (peak since start), VmRSS now ${end.rss.toFixed(0)} MB, idle ${idle.rss.toFixed(0)} MB`,
    );
    figure(
      "server peak RSS (VmHWM) / rollout file, 50 + 50 clients",
      end.hwm / fileMb,
      TARGET,
      (v) => `${v.toFixed(2)}×`,
    );
  } finally {
    await server.stop();
  }
}

runAlone("load.bench.ts", "load bench", benchLoad);
