// Browser benchmark of the inspector on the 500-call, 200k-token rollout (330 MB), in Chromium:
// - first token painted after navigation: cold (a fresh server process, page cache dropped, so the
//   build runs) against JSON.parse of the file's lines in this run (target ≤ 2.0×), and
//   warm (build cached; target ≤ 0.5 s);
// - HTTP requests made after navigation before the first token is painted: the document plus every
//   fetch/XHR started before it (target 1, the page itself). The loading frame's
//   progress polls during a cold build are listed apart: the first token waits on none of them;
// - token spans in the DOM while jumping through the chain end to end (target ≤ 2,000, as the e2e).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser } from "@playwright/test";
import { BIG_ROLLOUT_ID, LARGE_DEFAULTS, writeLargeRollout } from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { dropPageCache } from "./cache";
import { launchChromium, startServer } from "./server";
import { figure, fmt, runAlone, time } from "./util";

// The token view's DOM (as in e2e/support/token-view.ts; the view is being rewritten).
const SCROLL = '[data-testid="token-scroll"]';
const TOKEN = ".tok";
const PAINTED = ".tok[data-pos]";
const PENDING = ".tok.loading";
/** The loading frame's poll of a cold build's progress (components/rollout/loading-progress). */
const PROGRESS = /\/api\/runs\/[^/]+\/rollouts\/[^/]+\/progress$/;

declare global {
  interface Window {
    __firstTokenAt?: number;
  }
}

/**
 * Installed before any page script: stamps when the first token is in the DOM and rendered (a
 * streamed Suspense boundary's content first arrives in a hidden element, which does not count).
 */
function watchFirstToken(selector: string): void {
  new MutationObserver((_, obs) => {
    if (document.querySelector(selector)?.checkVisibility()) {
      window.__firstTokenAt = performance.now();
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

interface FirstPaint {
  ms: number;
  requests: number;
  detail: string;
}

/**
 * Navigates in a fresh page; returns ms from navigation start to the first painted token and the
 * requests started before it: the document and every fetch/XHR, except Next's link prefetches
 * (`Next-Router-Prefetch: 1`), which nothing on the page waits for; they are listed apart.
 */
async function firstPaint(browser: Browser, url: string): Promise<FirstPaint> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const prefetches = new Set<string>();
  page.on(
    "request",
    (r) => void (r.headers()["next-router-prefetch"] === "1" && prefetches.add(r.url())),
  );
  try {
    await page.addInitScript(watchFirstToken, PAINTED);
    await page.goto(url, { timeout: 180_000, waitUntil: "commit" });
    await page.waitForFunction(() => window.__firstTokenAt !== undefined, undefined, {
      timeout: 180_000,
      polling: 100,
    });
    const seen = await page.evaluate(() => {
      const at = window.__firstTokenAt ?? Infinity;
      const before = performance
        .getEntriesByType("resource")
        .filter((e) => e.startTime < at) as PerformanceResourceTiming[];
      return {
        at,
        data: before
          .filter((e) => e.initiatorType === "fetch" || e.initiatorType === "xmlhttprequest")
          .map((e) => e.name),
        statics: before.filter(
          (e) => e.initiatorType !== "fetch" && e.initiatorType !== "xmlhttprequest",
        ).length,
      };
    });
    const short = (u: string) =>
      new URL(u).pathname.replace(/\/runs\/[^/]+\/rollouts\/[^/]+/, "/runs/…/rollouts/…");
    const polls = seen.data.filter((u) => PROGRESS.test(new URL(u).pathname));
    const counted = seen.data.filter((u) => !prefetches.has(u) && !polls.includes(u));
    const skipped = seen.data.length - counted.length - polls.length;
    const detail = `document${counted.map((u) => ` + ${short(u)}`).join("")}; not counted: ${polls.length} progress polls of the loading frame, ${skipped} link prefetches, ${seen.statics} scripts/styles`;
    return { ms: seen.at, requests: 1 + counted.length, detail };
  } finally {
    await page.close();
  }
}

async function scrollEndToEnd(
  browser: Browser,
  url: string,
): Promise<{ maxSpans: number; maxNodes: number; jumpMs: number }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.goto(url, { timeout: 180_000 });
    await page.locator(PAINTED).first().waitFor({ timeout: 180_000 });
    let maxSpans = 0,
      maxNodes = 0;
    const steps = 40;
    const t0 = performance.now();
    for (let i = 0; i <= steps; i++) {
      await page
        .locator(SCROLL)
        .evaluate((el, f) => el.scrollTo(0, (el.scrollHeight - el.clientHeight) * f), i / steps);
      await page.waitForFunction((p) => document.querySelectorAll(p).length === 0, PENDING, {
        timeout: 30_000,
      });
      const [nodes, spans] = await page.evaluate(
        (t) => [document.getElementsByTagName("*").length, document.querySelectorAll(t).length],
        TOKEN,
      );
      [maxNodes, maxSpans] = [Math.max(maxNodes, nodes), Math.max(maxSpans, spans)];
    }
    return { maxSpans, maxNodes, jumpMs: (performance.now() - t0) / (steps + 1) };
  } finally {
    await page.close();
  }
}

export async function benchTokenView(): Promise<void> {
  await writeLargeRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  const file = path.join(LARGE_DIR, "large-rollout", "tokens", `${BIG_ROLLOUT_ID}.tokens.jsonl`);
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.length > 0);
  const parseMs = await time(() => lines.map((l) => JSON.parse(l) as unknown), 5);
  lines.length = 0;
  console.log(`JSON.parse of every line (this process, warm, median of 5): ${fmt(parseMs)}`);
  const server = await startServer(LARGE_DIR, 3191);
  const browser = await launchChromium();
  try {
    const url = `${server.url}/runs/large-rollout/rollouts/${BIG_ROLLOUT_ID}`;
    console.log(`cold: fresh server process; ${dropPageCache([file])}`);
    const cold = await firstPaint(browser, url);
    const warm = await firstPaint(browser, url);
    console.log(
      `first token painted: cold ${fmt(cold.ms)} (builds the rollout), warm ${fmt(warm.ms)}`,
    );
    console.log(
      `requests before the first token: cold ${cold.requests}: ${cold.detail}; warm ${warm.requests}: ${warm.detail}`,
    );
    const s = await scrollEndToEnd(browser, url);
    console.log(
      `41 jumps end to end: ${fmt(s.jumpMs)} per jump incl. window fetch; at most ${s.maxSpans} token spans, ${s.maxNodes} DOM nodes`,
    );
    figure("first token painted, warm (s)", warm.ms / 1000, 0.5);
    figure("first token painted, cold / JSON.parse", cold.ms / parseMs, 2.0);
    figure(
      "HTTP requests after navigation before the first token",
      Math.max(cold.requests, warm.requests),
      1,
      (v) => String(v),
    );
    figure("token spans in the DOM while scrolling 200k tokens", s.maxSpans, 2_000, (v) =>
      v.toLocaleString("en-US"),
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

runAlone("token-view.bench.ts", "token view bench", benchTokenView);
