// The search benchmark's text runs, generated once under bench/out/search and reused while their
// stamp matches: rollouts whose token ids are English agent text (o200k), drawn from a pool of
// sentences, so their text indexes as real text does (random ids decode to text no one writes).
// One rollout in a thousand ran `rm -rf /var/cache/apt`: the truth a selective query is checked
// against.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { Random } from "@/fixtures/generator/random";
import { LARGE_DIR } from "@/fixtures/generate";

/** Where the text runs are written, each in a root of its own. */
export const SEARCH_DIR = path.join(LARGE_DIR, "..", "search");
export const SEARCH_TEXT_RUN = "search-text";
export const PLANTED = "rm -rf /var/cache/apt";
/** Which rollouts ran the planted command (one in a thousand). */
export const planted = (i: number) => i % 1000 === 7;
export const rolloutIdOf = (i: number) => `${Math.floor(i / 8)}-${i % 8}`;
const STAMP = "search-v1";

const SENTENCES = [
  "I will look at the failing test first.",
  "The build log shows a missing header file.",
  "Let me list the files in the repository.",
  "The function returns None when the cache is empty.",
  "Running the unit tests again after the change.",
  "All 42 tests passed in 3.1 seconds.",
  "The traceback points at line 88 of parser.py.",
  "I updated the import and reran the linter.",
  "The configuration file sets the timeout to 30 seconds.",
  "The server answered with status 503 twice before succeeding.",
  "Deleting the temporary directory frees 2 GB.",
  "The migration adds an index on the user id column.",
  "The flaky test depends on the wall clock.",
  "I replaced the sleep with a poll on the job status.",
  "The patch touches three files and adds one test.",
  "Das Ergebnis wurde gespeichert.",
  "La compilation a réussi sans avertissement.",
  "测试全部通过。",
];
const TOOL_OUTPUT = [
  "ok: 12 files changed, 48 insertions(+), 9 deletions(-)",
  "error: cannot find module 'left-pad'",
  "PASS src/cache.test.ts (4 tests)",
  "drwxr-xr-x  5 root root 4096 Dec  4 10:00 build",
  "make: *** [Makefile:12: all] Error 2",
  "Traceback (most recent call last):\n  File \"main.py\", line 3\nKeyError: 'id'",
];

export interface TextRunShape {
  rollouts: number;
  /** Calls per rollout, inclusive range. */
  calls: [number, number];
  /** Sentences per generation and per re-fed interstitial, inclusive range. */
  sentences: [number, number];
}

/** The 100,000-rollout query run: two short calls each. */
export const QUERY_RUN: TextRunShape = { rollouts: 100_000, calls: [2, 2], sentences: [2, 5] };
/**
 * The index budget's run: large-run's shape (10,000 rollouts of 3-8 calls, about 1,000 tokens on
 * the main chain) in agent text.
 */
export const INDEX_RUN: TextRunShape = { rollouts: 10_000, calls: [3, 8], sentences: [6, 16] };

/** `<root>/<SEARCH_TEXT_RUN>` of `shape`, generated when its stamp is missing or another. */
export async function searchTextRun(
  root: string,
  shape: TextRunShape,
): Promise<{ generatedMs: number | null }> {
  const dir = path.join(root, SEARCH_TEXT_RUN);
  const stamp = path.join(root, ".stamp");
  const want = `${STAMP}:${JSON.stringify(shape)}`;
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return { generatedMs: null };
  const t0 = performance.now();
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(dir, "tokens"), { recursive: true });
  writeFileSync(
    path.join(dir, "run.json"),
    JSON.stringify({
      name: "Search text run",
      description: `${shape.rollouts} rollouts of English agent text, for the search benchmark.`,
      capture: "on",
      builder_profile: "seed",
      tokenizer: "o200k_base",
    }),
  );
  const sentences = SENTENCES.map((s) => encode(` ${s}`));
  const tools = TOOL_OUTPUT.map((s) => encode(`\n${s}\n`));
  const command = encode(` I ran ${PLANTED} to clear the cache.`);
  const system = encode("You are a coding agent working in a Linux container.\n");
  const rng = new Random(29_000);
  const pick = <T>(xs: readonly T[]) => xs[rng.int(0, xs.length - 1)] as T;
  const some = () =>
    Array.from({ length: rng.int(...shape.sentences) }, () => pick(sentences)).flat();
  for (let i = 0; i < shape.rollouts; i++) {
    const id = rolloutIdOf(i);
    const prompt = [...system, ...some()];
    const calls = rng.int(...shape.calls);
    const lines: string[] = [];
    for (let c = 0; c < calls; c++) {
      const gen = [...some(), ...(c === 0 && planted(i) ? command : [])];
      lines.push(
        JSON.stringify({
          rollout_id: id,
          model_call_id: `c${c}-${i}`,
          model: "policy",
          prompt_token_ids: prompt,
          generation_token_ids: gen,
          generation_log_probs: gen.map(() => -0.5),
          output_items: [],
          created_at: 1786032154 + c,
          requested_model: "policy",
        }) + "\n",
      );
      prompt.push(...gen, ...pick(tools), ...some());
    }
    writeFileSync(path.join(dir, "tokens", `${id}.tokens.jsonl`), lines.join(""));
  }
  writeFileSync(stamp, want);
  return { generatedMs: performance.now() - t0 };
}
