// Where the e2e server reads its runs: a git-ignored copy of fixtures/runs plus generated big
// rollouts (see prepare-runs.ts). Relative paths resolve from the repository root, where
// Playwright runs.
import path from "node:path";

export const FIXTURE_RUNS = path.resolve("fixtures/runs");
export const E2E_RUNS = path.resolve("bench/out/e2e-runs");
/** Beside the root, not in it: the server lists every directory of the root as a run. */
export const E2E_STAMP = `${E2E_RUNS}.stamp.json`;

/** The generated runs in the e2e root, each with one rollout. */
export const LONG_RUN = "long-session"; // ≥ 50k tokens of real text, one linear chain
export const LARGE_RUN = "large-rollout"; // 500 calls, 200k tokens in the last prompt (random ids)
export const GENERATED_ROLLOUT = "0-0";
/** A run whose run.json misspells a key (`builder_profle`). */
export const MISSPELLED_RUN = "misspelled-manifest";
