// Builds the e2e runs root before the e2e server starts (playwright.config.ts runs this file with
// tsx ahead of `next start`): a copy of fixtures/runs (copied, not linked: the server refuses
// links that leave its root), the stores of fixtures/gym-v1-cases as gym-v1 runs (./gym-cases),
// the long session and the 500-call rollout. Reused while the stamp beside the root matches the
// fixture and case bytes and the generators' options.
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { LARGE_DEFAULTS, writeLargeRollout } from "@/fixtures/generator/large";
import {
  LONG_SESSION_DEFAULTS,
  LONG_SESSION_RUN,
  writeLongSession,
} from "@/fixtures/generator/long-session";
import { GYM_CASES, writeGymCaseRuns } from "./gym-cases";
import { E2E_RUNS, E2E_STAMP, FIXTURE_RUNS, LARGE_RUN, LONG_RUN, MISSPELLED_RUN } from "./paths";

/** Bump when a generator's output changes without a change to its options. */
const GENERATOR_VERSION = 3;

function treeDigest(dir: string): string {
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else
        h.update(`${path.relative(dir, p)}\0`)
          .update(readFileSync(p))
          .update("\0");
    }
  };
  walk(dir);
  return h.digest("hex");
}

/** A run whose run.json misspells `builder_profile`: its run page and home row must alert. */
function writeMisspelledRun(root: string): void {
  const dir = path.join(root, MISSPELLED_RUN);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "run.json"),
    JSON.stringify({ name: "Misspelled run.json", builder_profle: "gym-v1" }, null, 2) + "\n",
  );
  cpSync(
    path.join(FIXTURE_RUNS, "grpo-capture-on", "rollouts.jsonl"),
    path.join(dir, "rollouts.jsonl"),
  );
}

async function prepare(): Promise<void> {
  const t0 = performance.now();
  const stamp = JSON.stringify({
    version: GENERATOR_VERSION,
    fixtures: treeDigest(FIXTURE_RUNS),
    gymCases: treeDigest(GYM_CASES),
    long: LONG_SESSION_DEFAULTS,
    large: { calls: LARGE_DEFAULTS.bigCalls, tokens: LARGE_DEFAULTS.bigTokens },
  });
  if (existsSync(E2E_RUNS) && existsSync(E2E_STAMP) && readFileSync(E2E_STAMP, "utf8") === stamp) {
    process.stdout.write(`e2e runs root reused: ${E2E_RUNS}\n`);
    return;
  }
  rmSync(E2E_STAMP, { force: true });
  rmSync(E2E_RUNS, { recursive: true, force: true });
  mkdirSync(E2E_RUNS, { recursive: true });
  for (const run of readdirSync(FIXTURE_RUNS))
    cpSync(path.join(FIXTURE_RUNS, run), path.join(E2E_RUNS, run), { recursive: true });
  writeGymCaseRuns(E2E_RUNS);
  writeMisspelledRun(E2E_RUNS);
  if (LONG_SESSION_RUN !== LONG_RUN)
    throw new Error(`the long session run is ${LONG_SESSION_RUN}, e2e expects ${LONG_RUN}`);
  await writeLongSession(E2E_RUNS, LONG_SESSION_DEFAULTS);
  if ((await writeLargeRollout(E2E_RUNS, LARGE_DEFAULTS)) !== LARGE_RUN)
    throw new Error(`the large rollout run is not ${LARGE_RUN}`);
  writeFileSync(E2E_STAMP, stamp);
  process.stdout.write(
    `e2e runs root written in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${E2E_RUNS}\n`,
  );
}

prepare().catch((e: unknown) => {
  process.stderr.write(
    `preparing the e2e runs root failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exit(1);
});
