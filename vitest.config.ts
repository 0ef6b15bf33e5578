import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Test files that time the event loop, bound a heap or wait against a clock: `npm test` runs them
 * first, one file at a time, so nothing else competes for the two cores; the rest then run on two
 * workers (UNIT_SET=alone | rest, the rest split into shared | isolated below; unset, every file
 * with vitest's defaults).
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
/**
 * Of the rest, the files that mock modules, set the environment or globalThis, or read state that
 * a file before them leaves in a module (counters, caches): UNIT_SET=isolated runs them each in
 * fresh module instances, as Vitest does by default. UNIT_SET=shared runs the others in their
 * worker's modules (`isolate: false`): importing lib's graph again for every file took 117 s of
 * the rest's 419 s of worker time. A file that fails only after another joins this list.
 */
const ISOLATED = [
  "app/api/bad-input.test.ts",
  "app/api/empty-token-file.test.ts",
  "app/api/faults.test.ts",
  "app/api/hostile-side-files.test.ts",
  "app/api/hostile-stores.test.ts",
  "app/api/hostile-trainer-files.test.ts",
  "app/api/json-routes.test.ts",
  "app/api/runs/\\[run\\]/rollouts/\\[rollout\\]/client-windows.test.ts",
  "app/api/runs/\\[run\\]/rollouts/\\[rollout\\]/conversation/route.test.ts",
  "app/api/runs/\\[run\\]/rollouts/\\[rollout\\]/experts/memory.test.ts",
  "app/api/runs/\\[run\\]/rollouts/\\[rollout\\]/progress/route.test.ts",
  "app/api/runs/\\[run\\]/rollouts/\\[rollout\\]/routes.test.ts",
  "lib/compare/compare.test.ts",
  "lib/compare/scalars.test.ts",
  "lib/compare/sides.test.ts",
  "lib/health/alerts/inputs.test.ts",
  "lib/health/alerts/lifecycle.test.ts",
  "lib/health/run-health-wait.test.ts",
  "lib/health/settle-health.test.ts",
  "lib/index/gym-v1-summaries.test.ts",
  "lib/index/neighbors.test.ts",
  "lib/index/record-change.test.ts",
  "lib/index/record-ranges.test.ts",
  "lib/index/record-rows.test.ts",
  "lib/index/run-index.test.ts",
  "lib/index/search/indexer-on-thread.test.ts",
  "lib/index/shards/seed.test.ts",
  "lib/index/store-pacing.test.ts",
  "lib/index/wait.test.ts",
  "lib/inspect/build-progress.test.ts",
  "lib/inspect/lifecycle-agreement.test.ts",
  "lib/inspect/record-lookup.test.ts",
  "lib/runs/bare-run-fields.test.ts",
  "lib/runs/root.test.ts",
  "lib/schema/rollout-record.test.ts",
  "lib/store/io/pool.test.ts",
  "lib/store/jsonl.test.ts",
  "lib/store/read-chunks.test.ts",
  "lib/store/versioned-cache.test.ts",
  "lib/tokens/decoder.test.ts",
  "lib/trainer/truth-records.test.ts",
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
    include: set === "alone" ? ALONE : set === "isolated" ? ISOLATED : ALL,
    // The timed files run alone, never again in the rest (ISOLATED names some of them too).
    exclude:
      set === "rest" || set === "shared" || set === "isolated"
        ? [...configDefaults.exclude, ...ALONE, ...(set === "shared" ? ISOLATED : [])]
        : configDefaults.exclude,
    ...(set === "alone" && { maxWorkers: 1 }),
    ...((set === "rest" || set === "shared" || set === "isolated") && { maxWorkers: 2 }),
    ...(set === "shared" && { isolate: false }),
    environment: "node",
    globalSetup: ["vitest.global-setup.ts"],
    pool: "threads",
    testTimeout: 30_000,
  },
});
