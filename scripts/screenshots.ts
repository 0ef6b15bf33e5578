// `npm run screenshots`: the README's screenshots (docs/*.png), taken from the built app. Needs a
// prior `npm run build`. Writes the e2e runs root (the sample runs plus the 500-call rollout, see
// e2e/support/prepare-runs.ts), starts `next start` on a free port with a fresh index cache,
// drives Debian's Chromium as the e2e tests do, waits for each view's data (never a loading
// state), saves the PNGs and stops the server. Shots are taken in the dark theme (the system
// preference the browser reports) unless one says light: the run page is taken in both.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { E2E_RUNS, GENERATED_ROLLOUT, LARGE_RUN } from "../e2e/support/paths";
import { GROUP_PAIR } from "../fixtures/generator/diff-pairs";
import { FIND_QUERY } from "../fixtures/generator/find-planted";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, "docs");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const VIEWPORT = { width: 1400, height: 900 };
/** The same flags as playwright.config.ts. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const MAX_BYTES = 400_000;
const TIMELINE_ROW = '[data-testid="timeline-row"]';
const PAINTED_TOKEN = '[data-testid="token-scroll"] .tok[data-pos]';
const PENDING_TOKEN = '[data-testid="token-scroll"] .tok.loading';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function startServer(port: number, cache: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        ROLLOUT_LENS_RUNS: E2E_RUNS,
        ROLLOUT_LENS_CACHE: cache,
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/runs`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    if (Date.now() > deadline) {
      await stopServer(child);
      throw new Error(`next start on port ${port} did not answer`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Waits until the summary index of every run is built, so counts and pills are final. */
async function waitForIndex(base: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const body = (await (await fetch(`${base}/api/runs`)).json()) as {
      runs: Array<{ id: string; severity: { pending: number } | null }>;
    };
    const pending = body.runs.filter((r) => (r.severity?.pending ?? 0) > 0).map((r) => r.id);
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error(`runs still indexing: ${pending.join(", ")}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The inspector with its data: the banner, the timeline, no loading frame. */
async function inspectorReady(page: Page): Promise<void> {
  await page.getByTestId("verdict-bar").waitFor({ timeout: 120_000 });
  await page.getByTestId("rollout-loading").waitFor({ state: "detached", timeout: 120_000 });
  await page.locator(TIMELINE_ROW).first().waitFor();
}

/** The token view painted where it is scrolled: tokens present, no placeholder left. */
async function tokensReady(page: Page): Promise<void> {
  await page.locator(PAINTED_TOKEN).first().waitFor({ timeout: 60_000 });
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 0, PENDING_TOKEN, {
    timeout: 60_000,
  });
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(400); // layout after the last response (virtualised rows measure)
}

interface Shot {
  file: string;
  what: string;
  /** The system preference the page is taken under (app/globals.css follows it); dark unless said. */
  scheme?: "light" | "dark";
  take: (page: Page, base: string) => Promise<Parameters<Page["screenshot"]>[0] | void>;
}

/** The run page with its data, in a theme (checked on the page: <body>'s background is --bg). */
function runPage(theme: "light" | "dark"): Shot["take"] {
  return async (page, base) => {
    await page.goto(`${base}/runs/opencode-before-fix`);
    await page.getByTestId("alert").first().waitFor({ timeout: 60_000 });
    await page.getByTestId("rollouts-count").filter({ hasText: "12 of 12" }).waitFor();
    await page.locator(".recharts-bar-rectangle:visible").first().waitFor(); // a 0 bar is hidden
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const want = theme === "light" ? "rgb(246, 247, 249)" : "rgb(15, 17, 21)";
    if (bg !== want) throw new Error(`the page is not in the ${theme} theme (body ${bg})`);
    return { fullPage: true };
  };
}

const inspector = (run: string, rollout: string, query = "") =>
  `/runs/${run}/rollouts/${rollout}${query ? `?${query}` : ""}`;

/** The run page scrolled to one section, clipped to it (page coordinates: fullPage). */
function section(run: string, testId: string, ready: string): Shot["take"] {
  return async (page, base) => {
    await page.goto(`${base}/runs/${run}`);
    const el = page.getByTestId(testId);
    await el.locator(ready).first().waitFor({ timeout: 60_000 });
    await el.scrollIntoViewIfNeeded();
    const box = await el.boundingBox();
    if (!box) throw new Error(`${testId} is not on the page`);
    const y = await page.evaluate(() => window.scrollY);
    const x = Math.max(0, box.x - 8);
    const clip = { x, y: box.y + y - 8, width: box.width + 16, height: box.height + 16 };
    return { fullPage: true, clip };
  };
}

const SHOTS: Shot[] = [
  {
    file: "ledger.png",
    what: "signal-ledger: the signal ledger per step, the run totals in words and each stage's link",
    take: section("signal-ledger", "signal-ledger", ".recharts-bar-rectangle"),
  },
  {
    file: "ledger-rerender.png",
    what: "signal-ledger: the share of calls whose prompt re-rendered an earlier turn, per step",
    take: section("signal-ledger", "rerender-section", ".recharts-line"),
  },
  {
    file: "home.png",
    what: "the home page's first screen: runs worst first, each with its worst alert in words and its profile line",
    take: async (page, base) => {
      await page.goto(`${base}/`);
      await page
        .getByTestId("runs-row")
        .filter({ hasText: "opencode-before-fix" })
        .getByTestId("run-worst-alert")
        .waitFor({ timeout: 60_000 });
      // What a user reads first: the first screen, the worst runs at its top.
      return { fullPage: false };
    },
  },
  {
    file: "compare-headline.png",
    what: "compare on train/token_mult_prob_error: the plain-words headline says the runs differ",
    take: async (page, base) => {
      await page.goto(
        `${base}/compare?a=grpo-capture-on&b=grpo-capture-off&scalar=train%2Ftoken_mult_prob_error`,
      );
      await page.getByTestId("compare-headline").waitFor({ timeout: 60_000 });
      await page.getByTestId("chart-reward").waitFor();
    },
  },
  {
    file: "inspector-banner.png",
    what: "opencode-before-fix 0-0: cut short by a 422, the banner and the failed call's row",
    take: async (page, base) => {
      await page.goto(base + inspector("opencode-before-fix", "0-0"));
      await inspectorReady(page);
      await tokensReady(page);
    },
  },
  {
    file: "call-timeline.png",
    what: "claude-code-capture-on 2-0: side calls, a 60 s first attempt dropped as a retry, its detail",
    take: async (page, base) => {
      await page.goto(base + inspector("claude-code-capture-on", "2-0"));
      await inspectorReady(page);
      await page.locator(TIMELINE_ROW, { hasText: "retry dropped" }).click();
      await page.getByTestId("tab-call").click();
      await page.getByTestId("exchange").first().waitFor();
    },
  },
  {
    file: "conversation.png",
    what: "claude-code-capture-on 1-0: messages by role with reasoning, tool calls and a side call",
    take: async (page, base) => {
      await page.goto(
        base + inspector("claude-code-capture-on", "1-0", "tab=conversation&message=3"),
      );
      await inspectorReady(page);
      // message=3 scrolls past the long system prompt to the title side call, then the agent's
      // reasoning, tool calls and tool results.
      await page.getByTestId("conversation-message").first().waitFor();
      await page.getByTestId("conversation-side-call").nth(1).waitFor();
    },
  },
  {
    file: "token-view.png",
    what: "claude-code-capture-on 1-0: the token view at a generated tool call, with the legend",
    take: async (page, base) => {
      await page.goto(base + inspector("claude-code-capture-on", "1-0", "tab=tokens&pos=380"));
      await inspectorReady(page);
      await tokensReady(page);
    },
  },
  {
    file: "diff.png",
    what: "two members of grpo-capture-on's task-0 group side by side: the first divergence, the changed reply's tokens",
    take: async (page, base) => {
      const { run, a, b } = GROUP_PAIR;
      await page.goto(`${base}/diff?a=${run}/${a}&b=${run}/${b}&message=1`);
      await page.getByTestId("diff-first-divergence").waitFor({ timeout: 60_000 });
      await page.getByTestId("diff-tokens").waitFor();
      return { fullPage: true };
    },
  },
  {
    file: "run-page.png",
    what: "opencode-before-fix run page, dark theme: the alert, health charts and amber pills",
    take: runPage("dark"),
  },
  {
    file: "run-page-light.png",
    what: "opencode-before-fix run page, light theme: the alert, health charts and amber pills",
    scheme: "light",
    take: runPage("light"),
  },
  {
    file: "search.png",
    what: "claude-code-capture-on run page searching the rollouts' text for `error`: each row's best hit under it, its kind and the match marked",
    take: async (page, base) => {
      await page.goto(`${base}/runs/claude-code-capture-on?text=error`);
      await page
        .getByTestId("rollouts-count")
        .filter({ hasText: /^\d+ of 40 rollouts$/ })
        .waitFor({ timeout: 60_000 });
      await page.locator('[data-testid="search-hit"] mark').first().waitFor();
      // The search box and the table fill the first screen from the Rollouts heading down.
      await page.locator("#rollouts").evaluate((el) => el.scrollIntoView({ block: "start" }));
      return { fullPage: false };
    },
  },
  {
    file: "timeline-500-calls.png",
    what: `${LARGE_RUN} ${GENERATED_ROLLOUT}: the 500-call rollout, its last call selected`,
    take: async (page, base) => {
      await page.goto(base + inspector(LARGE_RUN, GENERATED_ROLLOUT), { timeout: 120_000 });
      await inspectorReady(page);
      await tokensReady(page);
      // End selects the last call (which opens its detail); then the chain's last tokens.
      await page.locator(TIMELINE_ROW).first().click();
      await page.getByRole("tree", { name: "Calls in time order" }).press("End");
      await page.locator(`${TIMELINE_ROW}[data-call-number="500"][aria-selected="true"]`).waitFor();
      await page.getByTestId("tab-tokens").click();
      const scroll = page.getByTestId("token-scroll");
      for (let i = 0; i < 3; i++) {
        await scroll.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        await tokensReady(page);
      }
    },
  },
  {
    file: "find.png",
    what: `${LARGE_RUN} ${GENERATED_ROLLOUT}: find (Ctrl-F) in the 200k-token chain, at its second match`,
    take: async (page, base) => {
      await page.goto(base + inspector(LARGE_RUN, GENERATED_ROLLOUT), { timeout: 120_000 });
      await inspectorReady(page);
      await tokensReady(page);
      await page.getByTestId("token-scroll").click();
      await page.keyboard.press("Control+f");
      await page.getByTestId("find-input").fill(FIND_QUERY);
      await page.getByTestId("find-count").getByText("1 of 4").waitFor({ timeout: 60_000 });
      await page.getByTestId("find-input").press("Enter");
      await page.getByTestId("find-count").getByText("2 of 4").waitFor();
      await page.locator('[data-testid="token-scroll"] .tok.sel[data-found]').waitFor();
      await tokensReady(page);
    },
  },
];

async function main(): Promise<void> {
  if (!existsSync(path.join(ROOT, ".next", "BUILD_ID")))
    throw new Error("no production build: run `npm run build` first");
  const prep = spawnSync(
    process.execPath,
    ["--conditions=react-server", "--import", "tsx", "e2e/support/prepare-runs.ts"],
    { cwd: ROOT, stdio: "inherit" },
  );
  if (prep.status !== 0) throw new Error("preparing the e2e runs root failed");
  mkdirSync(OUT, { recursive: true });
  const cache = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-shots-"));
  const port = await freePort();
  const server = await startServer(port, cache);
  const base = `http://127.0.0.1:${port}`;
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      await waitForIndex(base);
      await takeAll(browser, base, process.argv.slice(2));
    } finally {
      await browser.close();
    }
  } finally {
    await stopServer(server);
    rmSync(cache, { recursive: true, force: true });
  }
}

/** Takes every shot, or only those named on the command line (`npm run screenshots -- a.png`). */
async function takeAll(browser: Browser, base: string, only: string[]): Promise<void> {
  const unknown = only.filter((f) => !SHOTS.some((s) => s.file === f));
  if (unknown.length > 0) throw new Error(`no such screenshot: ${unknown.join(", ")}`);
  for (const shot of SHOTS) {
    if (only.length > 0 && !only.includes(shot.file)) continue;
    const page = await browser.newPage({
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      colorScheme: shot.scheme ?? "dark",
    });
    const options = await shot.take(page, base).catch(async (e: unknown) => {
      const seen = path.join(os.tmpdir(), `rollout-lens-failed-${shot.file}`);
      await page.screenshot({ path: seen });
      throw new Error(
        `${shot.file}: ${e instanceof Error ? e.message : String(e)}\n(page: ${seen})`,
      );
    });
    await settle(page);
    const file = path.join(OUT, shot.file);
    await page.screenshot({
      ...(options ?? {}),
      path: file,
      animations: "disabled",
      caret: "hide",
    });
    await page.close();
    const bytes = statSync(file).size;
    const warn = bytes > MAX_BYTES ? ` (over ${MAX_BYTES / 1000} kB)` : "";
    process.stdout.write(`${shot.file}  ${(bytes / 1000).toFixed(0)} kB${warn}  ${shot.what}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`screenshots failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
