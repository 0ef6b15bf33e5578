// Route tests over the committed sample runs: point the server's runs root at fixtures/runs and its
// summary cache at a fresh temp directory for the file's tests, and put both back afterwards.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";

export const serveFixtureRuns = (): void => serveRunsRoot(() => RUNS_DIR);

/** The same over a root the file makes (`rootOf` is called in a beforeAll after the file's own). */
export function serveRunsRoot(rootOf: () => string): void {
  const saved = { runs: process.env.ROLLOUT_LENS_RUNS, cache: process.env.ROLLOUT_LENS_CACHE };
  beforeAll(() => {
    process.env.ROLLOUT_LENS_RUNS = rootOf();
    process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-"));
  });
  afterAll(() => {
    for (const [key, value] of [
      ["ROLLOUT_LENS_RUNS", saved.runs],
      ["ROLLOUT_LENS_CACHE", saved.cache],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
}

export const req = (url = "/x") => new Request(`http://localhost${url}`);
/** A run route's context, as Next passes it (`params` is a promise). */
export const runCtx = (run: string) => ({ params: Promise.resolve({ run }) }) as never;
