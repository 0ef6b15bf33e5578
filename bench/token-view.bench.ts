// Browser benchmark of the token view on a 500-call, 200k-token rollout: time to the first token
// (cold build, then warm), and DOM nodes while scrolling the whole chain, as a ratio to its tokens.
import { BIG_ROLLOUT_ID, LARGE_DEFAULTS, writeLargeRollout } from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { launchChromium, startServer } from "./server";
import { fmt } from "./util";

export async function benchTokenView(): Promise<number> {
  await writeLargeRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  const server = await startServer(LARGE_DIR, 3191);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const url = `${server.url}/runs/large-rollout/rollouts/${BIG_ROLLOUT_ID}`;
    const firstToken = async () => {
      const t0 = performance.now();
      await page.goto(url, { timeout: 120_000 });
      await page.locator(".tok:not(.loading)").first().waitFor({ timeout: 120_000 });
      return performance.now() - t0;
    };
    const cold = await firstToken();
    const warm = await firstToken();
    const total = Number((await page.getByTestId("token-counts").innerText()).split(" ")[0]!.replace(/,/g, ""));
    let maxNodes = 0, maxTokens = 0;
    const steps = 40;
    const t0 = performance.now();
    for (let i = 0; i <= steps; i++) {
      await page.getByTestId("token-scroll").evaluate((el, f) => el.scrollTo(0, (el.scrollHeight - el.clientHeight) * f), i / steps);
      await page.waitForFunction(() => document.querySelectorAll(".tok.loading").length === 0, undefined, { timeout: 30_000 });
      const [nodes, toks] = await page.evaluate(() => [document.getElementsByTagName("*").length, document.querySelectorAll(".tok").length]);
      maxNodes = Math.max(maxNodes, nodes);
      maxTokens = Math.max(maxTokens, toks);
    }
    const scrollMs = (performance.now() - t0) / (steps + 1);
    console.log(`chain: ${total} tokens; first token view: cold ${fmt(cold)} (builds the rollout), warm ${fmt(warm)}`);
    console.log(`scrolling ${steps + 1} positions: ${fmt(scrollMs)} per jump incl. window fetch; at most ${maxTokens} token spans, ${maxNodes} DOM nodes`);
    const ratio = maxNodes / total;
    console.log(`token view DOM nodes / chain tokens while scrolling: ${ratio.toFixed(4)}`);
    return ratio;
  } finally {
    await browser.close();
    server.stop();
  }
}

if (process.argv[1]?.endsWith("token-view.bench.ts")) void benchTokenView();
