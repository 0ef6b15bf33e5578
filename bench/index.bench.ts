// Summary index benchmark on a generated run of 10,000 rollouts: the cold index (worker threads)
// as a ratio to one plain read + JSON.parse of every token file; the warm re-open from SQLite; the
// warm health route; and rows in the DOM while scrolling a 50,000-row table.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { LARGE_DEFAULTS, writeLargeRecords, writeLargeRun } from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { getRun } from "@/lib/runs/runs-root";
import { SummaryIndex } from "@/lib/runs/summary-index";
import { launchChromium, startServer } from "./server";
import { fmt, time } from "./util";

export async function benchIndex(): Promise<number> {
  await writeLargeRun(LARGE_DIR, LARGE_DEFAULTS.rollouts, true);
  await writeLargeRecords(LARGE_DIR, 50_000, true);
  const run = await getRun("large-run", LARGE_DIR);
  const files = readdirSync(run.tokensDir!).filter((f) => f.endsWith(".tokens.jsonl"));
  const t0 = performance.now();
  for (const f of files) for (const l of readFileSync(path.join(run.tokensDir!, f), "utf8").split("\n")) if (l) JSON.parse(l);
  const plainMs = performance.now() - t0;
  const db = path.join(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-bench-")), "index.sqlite");
  const t1 = performance.now();
  const cold = new SummaryIndex(run, db);
  const snap = await cold.snapshot({ waitMs: 3_600_000, minIntervalMs: 0 });
  const coldMs = performance.now() - t1;
  cold.close();
  const warmMs = await time(async () => {
    const warm = new SummaryIndex(run, db);
    await warm.snapshot({ minIntervalMs: 0 });
    warm.close();
  }, 3);
  console.log(`run: ${files.length} rollouts; one read + JSON.parse of every file: ${fmt(plainMs)}`);
  console.log(`cold index: ${fmt(coldMs)} on ${snap.progress.workers} worker threads (${snap.summaries.length} summaries); warm re-open from SQLite: ${fmt(warmMs)}`);

  const server = await startServer(LARGE_DIR, 3192);
  const browser = await launchChromium();
  try {
    for (const id of ["large-run", "large-records"]) {
      for (;;) {
        const h = (await (await fetch(`${server.url}/api/runs/${id}/health`)).json()) as { progress: { running: boolean } };
        if (!h.progress.running) break;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    const healthMs = await time(() => fetch(`${server.url}/api/runs/large-run/health`).then((r) => r.json()), 5);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${server.url}/runs/large-records`);
    await page.getByTestId("rollout-row").first().waitFor();
    const total = await page.getByTestId("rollouts-count").innerText();
    let maxRows = 0;
    const steps = 40;
    const t2 = performance.now();
    for (let i = 0; i <= steps; i++) {
      await page.getByTestId("rollouts-table").evaluate((el, f) => el.scrollTo(0, (el.scrollHeight - el.clientHeight) * f), i / steps);
      await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="rollout-row"]')].every((r) => r.getAttribute("data-rollout-id")), undefined, { timeout: 30_000 });
      maxRows = Math.max(maxRows, await page.getByTestId("rollout-row").count());
    }
    const jumpMs = (performance.now() - t2) / (steps + 1);
    console.log(`warm health route for 10,000 rollouts: ${fmt(healthMs)}`);
    console.log(`table (${total}): ${fmt(jumpMs)} per scroll jump incl. page fetch; at most ${maxRows} rows in the DOM`);
  } finally {
    await browser.close();
    server.stop();
  }
  const ratio = coldMs / plainMs;
  console.log(`cold index / plain read ratio (10,000 rollouts): ${ratio.toFixed(3)}`);
  return ratio;
}

if (process.argv[1]?.endsWith("index.bench.ts")) void benchIndex();
