// Rollout route benchmark: what GET /api/runs/{run}/rollouts/{rollout} and the first token window
// cost on a 500-call rollout whose last prompt holds 200k tokens, as a ratio to plain JSON.parse
// of the same file (cold: nothing cached). Also prints a warm window deep in the chain.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { BIG_ROLLOUT_ID, LARGE_DEFAULTS, writeLargeRollout } from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { getRun } from "@/lib/runs/runs-root";
import { clearInspectCache, inspectRollout } from "@/lib/inspect/rollout-model";
import { tokenWindow } from "@/lib/inspect/token-window";
import { fmt, time } from "./util";

export async function benchInspector(): Promise<number> {
  await writeLargeRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  const run = await getRun("large-rollout", LARGE_DIR);
  const file = path.join(run.tokensDir!, `${BIG_ROLLOUT_ID}.tokens.jsonl`);
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.length > 0);
  const parseMs = await time(() => lines.map((l) => JSON.parse(l) as unknown), 2);
  console.log(`rollout: ${lines.length} calls, file ${(statSync(file).size / 1e6).toFixed(0)} MB; JSON.parse of every line: ${fmt(parseMs)}`);
  let bytes = 0;
  const routeMs = await time(async () => {
    clearInspectCache();
    const model = await inspectRollout(run, BIG_ROLLOUT_ID);
    bytes = JSON.stringify(model.view).length + JSON.stringify(tokenWindow(model, "main", "0", "2000")).length;
  }, 2);
  const model = await inspectRollout(run, BIG_ROLLOUT_ID);
  const total = tokenWindow(model, "main", "0", "1").total;
  const warmMs = await time(() => JSON.stringify(tokenWindow(model, "main", String(Math.floor(total * 0.75)), "2000")), 5);
  console.log(`route (cold read + build + view + first window): ${fmt(routeMs)}, ${(bytes / 1e3).toFixed(0)} kB sent for a ${total}-token chain`);
  console.log(`warm 2,000-token window at 75%: ${fmt(warmMs)}`);
  const ratio = routeMs / parseMs;
  console.log(`rollout route/JSON.parse ratio: ${ratio.toFixed(3)}`);
  return ratio;
}

if (process.argv[1]?.endsWith("inspector.bench.ts")) void benchInspector();
