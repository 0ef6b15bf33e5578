// Diff route benchmark through HTTP on the built app: GET /api/diff on the 500-call, 200k-token
// rollout and its twin (fixtures/generator/diff-pairs BIG_PAIR: one call's generation redrawn), as
// a ratio to JSON.parse of both rollouts' lines in this process (the inspector bench's measure,
// for two rollouts). Cold: a fresh server process, page cache dropped, both builds first-time.
// Warm: the same request again (both models cached), and one changed row's token diff. Targets:
// cold ≤ 1.5 (the rollout route's), warm ≤ 250 ms. The answer's first divergence is checked
// against the two token files read here.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { BIG_PAIR, firstDifference } from "@/fixtures/generator/diff-pairs";
import {
  LARGE_DEFAULTS,
  writeLargeRollout,
  writeLargeRolloutTwin,
} from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { dropPageCache } from "./cache";
import { startServer } from "./server";
import { figure, fmt, runAlone, time } from "./util";

const TARGET = 1.5;
const WARM_MS = 250;

const storeOf = (side: { run: string; rollout: string }) =>
  path.join(LARGE_DIR, side.run, "tokens", `${side.rollout}.tokens.jsonl`);

function linesOf(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
}

function chainOf(lines: string[]): number[] {
  const last = JSON.parse(lines[lines.length - 1] as string) as {
    prompt_token_ids: number[];
    generation_token_ids: number[];
  };
  return [...last.prompt_token_ids, ...last.generation_token_ids];
}

async function get(url: string): Promise<{ bytes: number; body: unknown }> {
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return { bytes: Buffer.byteLength(text), body: JSON.parse(text) };
}

export async function benchDiff(): Promise<void> {
  await writeLargeRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  if (!existsSync(storeOf(BIG_PAIR.b))) await writeLargeRolloutTwin(LARGE_DIR, LARGE_DEFAULTS);
  const files = [storeOf(BIG_PAIR.a), storeOf(BIG_PAIR.b)];
  const [la, lb] = files.map(linesOf) as [string[], string[]];
  const truth = firstDifference(chainOf(la), chainOf(lb));
  const parseMs = await time(() => [...la, ...lb].map((l) => JSON.parse(l) as unknown), 3);
  la.length = lb.length = 0;
  console.log(
    `JSON.parse of both rollouts' lines (this process, warm, median of 3): ${fmt(parseMs)}`,
  );
  const server = await startServer(LARGE_DIR, 3188);
  try {
    const q = `a=${BIG_PAIR.a.run}/${BIG_PAIR.a.rollout}&b=${BIG_PAIR.b.run}/${BIG_PAIR.b.rollout}`;
    const url = `${server.url}/api/diff?${q}`;
    console.log(`cold: fresh server process; ${dropPageCache(files)}`);
    const t0 = performance.now();
    const cold = await get(url);
    const coldMs = performance.now() - t0;
    const d = cold.body as { first_divergence: { position: number } | null; rows_total: number };
    if (d.first_divergence?.position !== truth)
      throw new Error(`first divergence ${d.first_divergence?.position}, the files say ${truth}`);
    const row = (cold.body as { rows: Array<{ kind: string; index: number }> }).rows.find(
      (r) => r.kind === "changed",
    );
    const warmMs = await time(() => get(url), 3);
    const tokensMs = row ? await time(() => get(`${url}&message=${row.index}`), 3) : NaN;
    console.log(
      `route, cold (both builds + alignment): ${fmt(coldMs)}, ${(cold.bytes / 1e3).toFixed(1)} kB sent, ${d.rows_total} rows, first divergence at ${truth}`,
    );
    console.log(`route, warm: ${fmt(warmMs)}; a changed row's token diff, warm: ${fmt(tokensMs)}`);
    figure("diff route/JSON.parse of both, cold", coldMs / parseMs, TARGET);
    figure("diff route, warm (ms)", warmMs, WARM_MS, (v) => v.toFixed(0));
  } finally {
    await server.stop();
  }
}

runAlone("diff.bench.ts", "diff bench", benchDiff);
