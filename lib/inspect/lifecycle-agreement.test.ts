// The run table's summary and the inspector's model of one rollout, built from the same store,
// must tell the same story: the verdict, the dangling intents, the tombstone, the torn tail, the
// out-of-range ids, the calls shown and the main chain. Checked under gym-v1 and auto for every
// gym-v1 case, a store Gym read and then failed on, and every stored rollout of the sample runs
// (their own profile too, so seed stays as it was). Where a case's expected.jsonl (Gym main's own
// answer) or its files state a fact, both sides must match it; those values are read here.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import type { ProfileChoice } from "@/lib/builder";
import { buildRollout, rolloutSourceOf } from "@/lib/rollout/build";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { getRun } from "@/lib/runs/root";
import { summarizeSafely } from "@/lib/rollout/summarize";
import { keyedInputs } from "@/lib/index/keys";
import { rolloutSummarySchema, type RolloutSummary } from "@/lib/schema";
import { rolloutViewSchema, type RolloutView } from "@/lib/schema/api-rollout";
import { listStore } from "@/lib/store";
import { rolloutSeverity } from "@/lib/view/rollout-severity";
import { inspectRollout } from "./rollout-model";

// Both paths build on this thread: a built store worker (dist/) may be older than the source.
beforeAll(() => void vi.stubEnv("ROLLOUT_LENS_IO_WORKERS", "0"));

const CASES = path.resolve("fixtures/gym-v1-cases");
const cases = readdirSync(CASES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const MAX_ID = 2 ** 31 - 1;

interface Sides {
  summary: RolloutSummary;
  view: RolloutView;
  /** The main chain of the verdict the summary is made from (the shared read-and-decide path). */
  verdictMain: string[];
}

/** The summary row (as the index makes it) and the inspector's view of one rollout. */
async function sidesOf(root: string, runId: string, id: string, profile: ProfileChoice) {
  const run = await getRun(runId, root);
  const tokens = run.tokensDir ? await listStore(run.tokensDir, { stat: true }) : null;
  const calls = run.modelCallsDir ? await listStore(run.modelCallsDir, { stat: true }) : null;
  const inputs = keyedInputs(run, tokens, calls, await readRolloutRecords(run.rolloutsFile));
  const keyed = inputs.get(id);
  if (!keyed) throw new Error(`${runId}/${id} is not listed`);
  const summary = rolloutSummarySchema.parse(
    await summarizeSafely({ ...keyed.input, profile, tokenizer: null }),
  );
  const model = await inspectRollout(run, id, { profile, other: "if-known" });
  const view = rolloutViewSchema.parse(model.view);
  const options = { profile, sideCallPatterns: run.manifest.side_call_patterns };
  const { verdict: v } = await buildRollout(rolloutSourceOf(run), id, options);
  const main = v.build && v.build.mainIndex >= 0 ? v.build.chains[v.build.mainIndex] : undefined;
  const verdictMain = (main?.nodes ?? []).map((i) => v.build?.nodes[i]?.entry.model_call_id ?? "");
  return { summary, view, verdictMain } satisfies Sides;
}

/** The facts both paths show, each read from its own path's output. */
function agree({ summary: s, view, verdictMain }: Sides): void {
  expect(view.profile).toBe(s.profile);
  expect(view.verdict.mask_sample).toBe(s.mask_sample);
  expect(view.verdict.error).toBe(s.error);
  expect(view.dangling_intents.length).toBe(s.dangling_intents);
  expect(view.read.torn_tail).toBe(s.torn_tail);
  expect(view.oov_tokens).toBe(s.oov_tokens);
  expect(view.calls.length).toBe(s.n_calls);
  expect(view.main_model).toBe(s.main_model);
  const main = view.chains.find((c) => c.chain_id === "main")?.call_ids ?? [];
  expect(main).toEqual(verdictMain);
  // The severity, but for "nothing captured", which the run adds to a row (lib/health).
  const severity = rolloutSeverity(view);
  const codes = (rs: ReadonlyArray<{ code: string }>) => rs.map((r) => r.code).sort();
  const noCapture = codes(severity.reasons).includes("no_capture");
  expect(noCapture).toBe(!s.has_capture && view.capture_expected !== false);
  const own = severity.reasons.filter((r) => r.code !== "no_capture");
  expect(codes(own)).toEqual(codes(s.severity_reasons));
  if (!noCapture) expect(severity.severity).toBe(s.severity);
  // The tombstone: the view's facts, the summary's reason and its lifecycle's record.
  expect(view.tombstone !== null).toBe(codes(s.severity_reasons).includes("retired"));
  if (view.tombstone !== null && s.profile === "gym-v1")
    expect(s.lifecycle.tombstone).toEqual({
      frozen: view.tombstone.frozen,
      snapshot_id: view.tombstone.snapshot_id,
      version: view.tombstone.version,
    });
  // Under gym-v1 the dangling intents are those Gym's freeze read (docs/gym-v1-store.md §3).
  if (view.profile === "gym-v1" && view.read.lifecycle)
    expect(view.dangling_intents.map((i) => i.model_call_id)).toEqual(
      view.read.lifecycle.intents.dangling,
    );
}

interface Expected {
  rollout_id: string;
  mask_sample: boolean;
  error: string | null;
  metrics: Record<string, unknown>;
  torn_tail: boolean;
  main: null | { call_ids: string[]; token_ids: number[] };
}

const expectedOf = (dir: string): Expected[] =>
  readFileSync(path.join(dir, "expected.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Expected);

/** Gym's intent ids: every stripped non-empty line (no cancel rule), in file order. */
function intentLines(dir: string, id: string): string[] {
  let text = "";
  try {
    text = readFileSync(path.join(dir, `${id}.tokens.intents`), "utf8");
  } catch {
    return [];
  }
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
}

/** Call ids of the token file's lines that parse (a torn or garbage line is no entry). */
function entryIds(dir: string, id: string): Set<string> {
  const ids = new Set<string>();
  let text = "";
  try {
    text = readFileSync(path.join(dir, `${id}.tokens.jsonl`), "utf8");
  } catch {
    return ids;
  }
  for (const l of text.split("\n")) {
    try {
      ids.add((JSON.parse(l) as { model_call_id: string }).model_call_id);
    } catch {
      // not an entry
    }
  }
  return ids;
}

/** Python truthiness of a JSON value, as Gym main reads `state.json` flags. */
const truthy = (v: unknown) =>
  !(v === undefined || v === null || v === false || v === 0 || v === "") &&
  !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/** `state.json` when it is a JSON object (Gym reads its flags only then). */
function stateOf(dir: string, id: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(readFileSync(path.join(dir, `${id}.tokens.state.json`), "utf8"));
    return v !== null && typeof v === "object" && !Array.isArray(v) ? { ...v } : null;
  } catch {
    return null;
  }
}

/** Both sides against Gym main's answer, where it states the fact. */
function matchGym(sides: Sides, e: Expected, dir: string): void {
  const { summary: s, view } = sides;
  expect(s.mask_sample).toBe(e.mask_sample);
  expect(s.error).toBe(e.error);
  expect(s.torn_tail).toBe(e.torn_tail);
  const main = view.chains.find((c) => c.chain_id === "main")?.call_ids ?? [];
  expect(main).toEqual(e.main?.call_ids ?? []);
  if (e.main) {
    const outside = e.main.token_ids.filter((t) => t < 0 || t > MAX_ID).length;
    expect(s.oov_tokens).toBe(outside);
  }
  const retired = e.error !== null && / is retired$/.test(e.error);
  expect(view.tombstone !== null).toBe(retired);
  const state = stateOf(dir, e.rollout_id);
  if (state !== null) expect(view.incomplete.state_flag).toBe(truthy(state.incomplete));
  if (e.error === null) {
    // The freeze read the intents: each line without an entry dangles, `-c2` included.
    const recorded = entryIds(dir, e.rollout_id);
    const dangling = intentLines(dir, e.rollout_id).filter((i) => !recorded.has(i));
    expect(view.dangling_intents.map((i) => i.model_call_id)).toEqual(dangling);
    expect(s.dangling_intents).toBe(dangling.length);
    if (dangling.length > 0) expect(e.metrics.capture_incomplete).toBe(true);
  }
}

/** A runs root with one run per store directory: run.json and the store as tokens/. */
function runsOf(stores: Record<string, string | Record<string, string>>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "lifecycle-agreement-"));
  for (const [name, from] of Object.entries(stores)) {
    const tokens = path.join(root, name, "tokens");
    mkdirSync(tokens, { recursive: true });
    if (typeof from === "string") {
      for (const f of readdirSync(from))
        if (f !== "expected.jsonl") cpSync(path.join(from, f), path.join(tokens, f));
    } else for (const [f, text] of Object.entries(from)) writeFileSync(path.join(tokens, f), text);
    writeFileSync(
      path.join(root, name, "run.json"),
      JSON.stringify({ name, capture: "on", builder_profile: "gym-v1" }),
    );
  }
  return root;
}

const casesRoot = runsOf(Object.fromEntries(cases.map((c) => [c, path.join(CASES, c)])));

describe.each(["gym-v1", "auto"] as const)("the gym-v1 cases (--profile %s)", (profile) => {
  it("covers every case", () => expect(cases.length).toBeGreaterThanOrEqual(13));

  it.each(cases)("%s: the summary and the inspector agree, and with Gym main", async (name) => {
    for (const e of expectedOf(path.join(CASES, name))) {
      const sides = await sidesOf(casesRoot, name, e.rollout_id, profile);
      agree(sides);
      matchGym(sides, e, path.join(CASES, name));
    }
  });
});

describe("stores the cases leave out", () => {
  // The line holds id −1, which the seed reader refuses and Gym keeps.
  const line = readFileSync(path.join(CASES, "negative-token-id", "r0.tokens.jsonl"), "utf8");
  const callId = (JSON.parse(line) as { model_call_id: string }).model_call_id;
  const tombstone = { frozen: true, snapshot_id: "s1", version: 3 };
  const root = runsOf({
    // Gym reads the entries and the intents, then fails: a frozen state without snapshot_id.
    "read-then-failed": {
      "r0.tokens.jsonl": line,
      "r0.tokens.state.json": JSON.stringify({ frozen: true, retired: false, version: 1 }),
      "r0.tokens.intents": `${callId}\nc9\n`,
    },
    // Retired, its token file not deleted yet: Gym answers the tombstone all the same.
    "retired-with-file": {
      "r0.tokens.jsonl": line,
      "r0.tokens.state.json": JSON.stringify({ ...tombstone, retired: true }),
    },
  });

  it.each(["gym-v1", "auto"] as const)(
    "--profile %s: both list the calls Gym read then failed on, all excluded",
    async (profile) => {
      const sides = await sidesOf(root, "read-then-failed", "r0", profile);
      agree(sides);
      const { view, summary } = sides;
      expect(view.verdict.error).toBe("KeyError: 'snapshot_id'");
      expect(view.calls.map((c) => [c.model_call_id, c.role])).toEqual([[callId, "excluded"]]);
      expect(summary.n_calls).toBe(1);
      expect(summary.oov_tokens).toBe(1); // the −1 in the call Gym read
      expect(view.dangling_intents.map((i) => i.model_call_id)).toEqual(["c9"]);
    },
  );

  it.each(["gym-v1", "auto"] as const)(
    "--profile %s: a retired state with its token file still there is a tombstone",
    async (profile) => {
      const sides = await sidesOf(root, "retired-with-file", "r0", profile);
      agree(sides);
      expect(sides.view.verdict.error).toBe(
        "RuntimeError: Token capture for rollout r0 is retired",
      );
      expect(sides.view.tombstone).toEqual(tombstone);
    },
  );
});

/** Every rollout of a sample run with store files (a deleted one has no inspector page). */
async function storedRollouts(runId: string): Promise<string[]> {
  const run = await getRun(runId, RUNS_DIR);
  if (!run.tokensDir) return [];
  const tokens = await listStore(run.tokensDir, { stat: true });
  return [...tokens.rollouts.keys()].sort();
}

const sampleRuns = readdirSync(RUNS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory() && readdirSync(path.join(RUNS_DIR, d.name)).includes("run.json"))
  .map((d) => d.name)
  .sort();

describe.each(sampleRuns)("sample run %s", (runId) => {
  const manifest = JSON.parse(readFileSync(path.join(RUNS_DIR, runId, "run.json"), "utf8")) as {
    builder_profile?: ProfileChoice;
  };
  const profiles = [
    ...new Set<ProfileChoice>(["gym-v1", "auto", manifest.builder_profile ?? "seed"]),
  ];

  it.each(profiles)(
    "--profile %s: every stored rollout agrees",
    async (profile) => {
      for (const id of await storedRollouts(runId)) {
        const sides = await sidesOf(RUNS_DIR, runId, id, profile);
        try {
          agree(sides);
        } catch (err) {
          throw new Error(`${runId}/${id}: ${(err as Error).message}`);
        }
      }
    },
    60_000,
  );
});
