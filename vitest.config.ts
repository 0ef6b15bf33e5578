import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Test files that time the event loop, bound a heap or wait against a clock: `npm test` runs them
 * first, one file at a time, so nothing else competes for the two cores; the rest then run on two
 * workers (UNIT_SET=alone | rest; unset, every file with vitest's defaults).
 */
const ALONE = [
  "app/api/hostile-stores.test.ts",
  "app/api/hostile-trainer-files.test.ts",
  "app/api/runs/\\[run\\]/rollouts/\\[rollout\\]/experts/memory.test.ts",
  "lib/compare/reference.test.ts",
  "lib/health/run-health-wait.test.ts",
  "lib/index/summary-cache.test.ts",
  "lib/inspect/conversation.test.ts",
  "lib/rollout/tokenizer-off-thread.test.ts",
  "lib/store/io/heap.test.ts",
  "lib/store/io/pool.test.ts",
  "lib/store/io/sqlite-snapshot.test.ts",
  "lib/store/jsonl.test.ts",
  "lib/store/line-issues.test.ts",
  "lib/trainer/log-files.test.ts",
  "lib/trainer/mlflow-db/parse.test.ts",
  "lib/trainer/truth-off-thread.test.ts",
  "lib/view/chat-template.test.ts",
  "lib/view/conversation/build.test.ts",
  "lib/view/timeline/rows.test.ts",
];
const set = process.env.UNIT_SET;
const ALL = [
  "lib/**/*.test.{ts,tsx}",
  "cli/**/*.test.ts",
  "fixtures/**/*.test.ts",
  "components/**/*.test.{ts,tsx}",
  "app/**/*.test.ts",
  "scripts/**/*.test.ts",
];

export default defineConfig({
  resolve: {
    // Tests run lib's server modules directly: `server-only` is the empty module it is on the server.
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      "server-only": fileURLToPath(new URL("node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    include: set === "alone" ? ALONE : ALL,
    exclude: set === "rest" ? [...configDefaults.exclude, ...ALONE] : configDefaults.exclude,
    ...(set === "alone" && { maxWorkers: 1 }),
    ...(set === "rest" && { maxWorkers: 2 }),
    environment: "node",
    globalSetup: ["vitest.global-setup.ts"],
    pool: "threads",
    testTimeout: 30_000,
  },
});
