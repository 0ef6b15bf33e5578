import { defineConfig } from "@playwright/test";
import { E2E_RUNS } from "./e2e/support/paths";

const PORT = Number(process.env.E2E_PORT ?? 3123);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/**
 * Specs that time what a user waits for (a first progress within a second, a click answered within
 * 500 ms): `npm test` runs them first, alone, on a fresh server (project "timed"); the rest share
 * the two cores (project "rest", two workers). `playwright test` alone runs both at once.
 */
const TIMED = ["run-loading.spec.ts", "loading-nav.spec.ts"];

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  timeout: 30_000,
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  globalSetup: "./e2e/support/read-only-root.ts",
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? "reports/e2e.json" }]],
  projects: [
    {
      name: "timed",
      testMatch: TIMED,
      workers: 1,
      // No trace: recording one (DOM snapshots around every action, every response's body) takes
      // the two cores inside the very click-to-frame times these specs measure. The sample run's
      // click measured 348-395 ms in 5 runs without it; 410-651 ms with its snapshots and
      // screenshots off, 433-691 ms with the whole trace (same build). A failure still leaves its
      // screenshot and the measured times in the report's annotations.
      use: { trace: "off" },
    },
    // A trace only when a failed test runs again (CI retries once): recording one for every test
    // took the rest's console-clean run pages 72 s instead of 62 s, alone on a fresh server.
    { name: "rest", testIgnore: TIMED, use: { trace: "on-first-retry" } },
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: "chromium",
    // The specs' expected colours are the dark theme's; e2e/theme.spec.ts and a11y set their own.
    colorScheme: "dark",
    headless: true,
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // Needs a prior `next build`. First writes the e2e runs root (fixture copies + generated big
    // rollouts, reused while unchanged); then `exec`s Next's bin, so the server is the direct child
    // and stops with the run.
    command: `node --conditions=react-server --import tsx e2e/support/prepare-runs.ts && exec node node_modules/next/dist/bin/next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/api/runs`,
    reuseExistingServer: false, // a stale server would serve an older build
    timeout: 180_000, // a fresh clone generates the root first (~5 s here)
    stdout: "pipe",
    stderr: "pipe",
    env: { NEXT_TELEMETRY_DISABLED: "1", ROLLOUT_LENS_RUNS: E2E_RUNS },
  },
});
