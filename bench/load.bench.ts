// Load benchmark: 50 concurrent clients open the 500-call, 200k-token rollout (view + token windows
// at random offsets), then 50 clients open 50 different rollouts. Prints the server's peak RSS as a
// ratio to the big rollout's file size, and how long the clients waited.
import { readFileSync, statSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BIG_ROLLOUT_ID, LARGE_DEFAULTS, writeLargeRollout, writeLargeRun } from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { startServer } from "./server";
import { fmt } from "./util";

function rssMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

async function clients(n: number, url: (i: number) => string[]): Promise<number> {
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      for (const u of url(i)) {
        const res = await fetch(u);
        if (!res.ok) throw new Error(`${u}: HTTP ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
  return performance.now() - t0;
}

export async function benchLoad(): Promise<number> {
  await writeLargeRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  await writeLargeRun(LARGE_DIR, LARGE_DEFAULTS.rollouts, true);
  process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-load-"));
  const server = await startServer(LARGE_DIR, 3193);
  try {
    const idle = rssMb(server.pid);
    let peak = idle.rss;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid).rss)), 50);
    const big = `${server.url}/api/runs/large-rollout/rollouts/${BIG_ROLLOUT_ID}`;
    const total = 199_000;
    const bigMs = await clients(50, (i) => [big, ...[0, 1, 2].map((k) => `${big}/tokens?chain=main&offset=${(i * 7919 + k * 104_729) % total}&limit=2000`)]);
    const manyMs = await clients(50, (i) => {
      const id = `${Math.floor((i * 37) / 4)}-${(i * 37) % 4}`;
      const base = `${server.url}/api/runs/large-run/rollouts/${id}`;
      return [base, `${base}/tokens?chain=main&limit=2000`];
    });
    clearInterval(sampler);
    const file = statSync(path.join(LARGE_DIR, "large-rollout", "tokens", `${BIG_ROLLOUT_ID}.tokens.jsonl`)).size / 1e6;
    console.log(`server idle RSS ${idle.rss.toFixed(0)} MB; 50 clients on one ${file.toFixed(0)} MB rollout: ${fmt(bigMs)} until all answered; 50 clients on 50 rollouts: ${fmt(manyMs)}`);
    const ratio = peak / file;
    console.log(`peak server RSS with 50 concurrent clients: ${peak.toFixed(0)} MB, ${ratio.toFixed(2)}× the rollout file`);
    return ratio;
  } finally {
    server.stop();
  }
}

if (process.argv[1]?.endsWith("load.bench.ts")) void benchLoad();
