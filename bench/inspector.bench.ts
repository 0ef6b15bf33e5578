// Rollout route benchmark through HTTP on the built app: GET /api/runs/{run}/rollouts/{rollout}
// and its first token window for the 500-call, 200k-token rollout (330 MB), as a ratio to
// JSON.parse of the same lines in this process. Cold: a fresh server process, page cache dropped,
// so the read, both profiles' builds and the decoder are all first-time. Warm: the same requests
// again (build cached), and a window deep in the chain. Target: cold ≤ 1.5.
// Also the token store's full read of that rollout in this process (the scanning reader, warm) as a
// ratio to the same JSON.parse: target ≤ 0.6.
import { TOKEN_WINDOW } from "@/lib/view";
import { readFileSync } from "node:fs";
import path from "node:path";
import { BIG_ROLLOUT_ID, LARGE_DEFAULTS, writeLargeRollout } from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { readRolloutCapture } from "@/lib/store";
import { dropPageCache } from "./cache";
import { startServer } from "./server";
import { figure, fmt, runAlone, time } from "./util";

const TARGET = 1.5;

/** GETs each URL in turn; returns the bytes received and the last body parsed. */
async function get(urls: string[]): Promise<{ bytes: number; last: unknown }> {
  let bytes = 0;
  let last: unknown = null;
  for (const u of urls) {
    const res = await fetch(u);
    const text = await res.text();
    if (!res.ok) throw new Error(`${u}: HTTP ${res.status} ${text.slice(0, 200)}`);
    bytes += Buffer.byteLength(text);
    last = JSON.parse(text);
  }
  return { bytes, last };
}

export async function benchInspector(): Promise<void> {
  await writeLargeRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  const file = path.join(LARGE_DIR, "large-rollout", "tokens", `${BIG_ROLLOUT_ID}.tokens.jsonl`);
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
  const parseMs = await time(() => lines.map((l) => JSON.parse(l) as unknown), 5);
  lines.length = 0;
  console.log(`JSON.parse of every line (this process, warm, median of 5): ${fmt(parseMs)}`);
  const readMs = await time(() => readRolloutCapture(path.dirname(file), BIG_ROLLOUT_ID), 5);
  console.log(
    `token store read of the rollout (this process, warm, median of 5; entries validated): ${fmt(readMs)}`,
  );
  figure("full read of the 200k-token rollout/JSON.parse, warm", readMs / parseMs, 0.6);
  const server = await startServer(LARGE_DIR, 3190);
  try {
    const base = `${server.url}/api/runs/large-rollout/rollouts/${BIG_ROLLOUT_ID}`;
    const first = [base, `${base}/tokens?chain=main&offset=0&limit=${TOKEN_WINDOW}`];
    console.log(`cold: fresh server process; ${dropPageCache([file])}`);
    const t0 = performance.now();
    const cold = await get(first);
    const coldMs = performance.now() - t0;
    const total = (cold.last as { total: number }).total;
    const warmMs = await time(() => get(first), 3);
    const deepMs = await time(
      () =>
        get([`${base}/tokens?chain=main&offset=${Math.floor(total * 0.75)}&limit=${TOKEN_WINDOW}`]),
      5,
    );
    console.log(
      `route, cold (read + builds + view + first window): ${fmt(coldMs)}, ${(cold.bytes / 1e3).toFixed(0)} kB sent for a ${total}-token chain`,
    );
    console.log(
      `route, warm (build cached): ${fmt(warmMs)}; a warm ${TOKEN_WINDOW}-token window at 75%: ${fmt(deepMs)}`,
    );
    figure("rollout route/JSON.parse, cold", coldMs / parseMs, TARGET);
  } finally {
    await server.stop();
  }
}

runAlone("inspector.bench.ts", "inspector bench", benchInspector);
