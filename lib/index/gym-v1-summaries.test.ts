// Summaries of gym-v1 stores against what Gym main's consumer answered (fixtures/gym-v1-cases
// expected.jsonl) and what the stores' own files say (state.json, lock files, `-aN` names): the
// verdict, out-of-range token ids, the lifecycle state, tombstones, deleted rollouts and attempts.
// Expected values are read from the case files here, never from the code under test. The run
// alert over these summaries is lib/health/alerts/lifecycle.test.ts.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { ProfileChoice } from "@/lib/builder";
import { rolloutSummarySchema, type RolloutSummary } from "@/lib/schema";
import { listStore } from "@/lib/store";
import { fingerprintTree } from "@/lib/testing/fingerprint";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { getRun } from "@/lib/runs/root";
import { summarizeRollout } from "@/lib/rollout/summarize";
import { keyedInputs, type KeyedInput } from "./keys";

const CASES = path.resolve("fixtures/gym-v1-cases");
const EXAMPLE = path.resolve("fixtures/runs/gym-main-example/tokens");
const cases = readdirSync(CASES).sort();
const MAX_ID = 2 ** 31 - 1;

// Builds run on this thread: a built worker (dist/) may be older than the source under test.
beforeAll(() => void vi.stubEnv("ROLLOUT_LENS_IO_WORKERS", "0"));

interface Expected {
  rollout_id: string;
  mask_sample: boolean;
  error: string | null;
  metrics: Record<string, unknown>;
  torn_tail: boolean;
  main: null | { token_ids: number[] };
}

const expectedOf = (name: string): Expected[] =>
  readFileSync(path.join(CASES, name, "expected.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Expected);

/** A runs root with one run per case: run.json (gym-v1 or auto) and the case's store as tokens/. */
function caseRoot(profile: ProfileChoice): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-gym-cases-"));
  for (const name of cases) {
    const tokens = path.join(root, name, "tokens");
    mkdirSync(tokens, { recursive: true });
    for (const f of readdirSync(path.join(CASES, name)))
      if (f !== "expected.jsonl") cpSync(path.join(CASES, name, f), path.join(tokens, f));
    writeFileSync(
      path.join(root, name, "run.json"),
      JSON.stringify({ capture: "on", builder_profile: profile }),
    );
  }
  return root;
}

async function inputsOf(root: string, run: string): Promise<Map<string, KeyedInput>> {
  const layout = await getRun(run, root);
  const tokens = await listStore(layout.tokensDir as string, { stat: true });
  return keyedInputs(layout, tokens, null, await readRolloutRecords(layout.rolloutsFile));
}

async function summariesOf(root: string, run: string): Promise<Map<string, RolloutSummary>> {
  const out = new Map<string, RolloutSummary>();
  for (const [id, { input }] of await inputsOf(root, run))
    out.set(id, rolloutSummarySchema.parse(await summarizeRollout(input)));
  return out;
}

/** Python truthiness of a JSON value, as Gym main reads `state.json` flags. */
const truthy = (v: unknown) =>
  !(v === undefined || v === null || v === false || v === 0 || v === "") &&
  !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/** The lifecycle state the case's own files give (docs/gym-v1-store.md §1). */
function stateFromFiles(name: string): string {
  const files = readdirSync(path.join(CASES, name));
  if (!files.includes("r0.tokens.state.json"))
    return files.includes("r0.tokens.intents") ? "open" : "none";
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(path.join(CASES, name, "r0.tokens.state.json"), "utf8"));
  } catch {
    return "unreadable";
  }
  if (typeof state !== "object" || state === null || Array.isArray(state)) return "unreadable";
  const s = state as Record<string, unknown>;
  return truthy(s.retired) ? "retired" : truthy(s.frozen) ? "frozen" : "open";
}

const outside = (ids: readonly number[]) => ids.filter((t) => t < 0 || t > MAX_ID).length;

for (const profile of ["gym-v1", "auto"] as const) {
  describe(`summaries of the gym-v1 cases (--profile ${profile})`, () => {
    let root = "";
    let before: Record<string, string> = {};
    const all = new Map<string, RolloutSummary>();
    beforeAll(async () => {
      root = caseRoot(profile);
      before = fingerprintTree(root);
      for (const name of cases)
        for (const [id, s] of await summariesOf(root, name)) all.set(`${name}/${id}`, s);
    }, 60_000);

    for (const name of cases)
      it(name, () => {
        for (const e of expectedOf(name)) {
          const s = all.get(`${name}/${e.rollout_id}`);
          expect(s, e.rollout_id).toBeDefined();
          if (!s) continue;
          expect(s.profile).toBe("gym-v1");
          expect(s.mask_sample).toBe(e.mask_sample);
          expect(s.error).toBe(e.error);
          expect(s.metrics).toEqual(e.metrics);
          expect(s.torn_tail).toBe(e.torn_tail);
          expect(s.severity === "masked").toBe(e.mask_sample);
          // Ids outside the range are counted in what Gym trains on: the main chain's tokens.
          const oov = e.main ? outside(e.main.token_ids) : 0;
          expect(s.oov_tokens).toBe(oov);
          const codes = s.severity_reasons.map((r) => r.code);
          expect(codes.includes("out_of_vocabulary")).toBe(oov > 0);
          expect(s.lifecycle.state).toBe(stateFromFiles(name));
        }
      });

    it("a retired tombstone keeps Gym's verdict and shows what its state.json recorded", () => {
      const s = all.get("retired-tombstone/r0") as RolloutSummary;
      const state = JSON.parse(
        readFileSync(path.join(CASES, "retired-tombstone", "r0.tokens.state.json"), "utf8"),
      ) as { frozen: boolean; snapshot_id: string; version: number };
      expect(s.lifecycle.tombstone).toEqual({
        frozen: state.frozen,
        snapshot_id: state.snapshot_id,
        version: state.version,
      });
      expect(s.severity).toBe("masked");
      expect(s.severity_reasons.map((r) => r.code)).toContain("retired");
    });

    it("changes no byte, size or mtime of the stores and creates no file", () => {
      expect(fingerprintTree(root)).toEqual(before);
    });
  });
}

describe("deleted rollouts and attempts (a Gym main store)", () => {
  /** gym-main-example's store plus two deletions: `5-0` and the attempt `0-0-a2` (lock files only). */
  function exampleRoot(): string {
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-gym-deleted-"));
    const tokens = path.join(root, "run", "tokens");
    cpSync(EXAMPLE, tokens, { recursive: true });
    writeFileSync(
      path.join(root, "run", "run.json"),
      JSON.stringify({ builder_profile: "gym-v1" }),
    );
    for (const id of ["5-0", "0-0-a2"]) writeFileSync(path.join(tokens, `${id}.tokens.lock`), "");
    return root;
  }

  it("lists a rollout with only a lock file as deleted, never as trained", async () => {
    const root = exampleRoot();
    const before = fingerprintTree(root);
    const byId = await summariesOf(root, "run");
    for (const id of ["5-0", "0-0-a2"]) {
      const s = byId.get(id);
      expect(s?.lifecycle.state, id).toBe("deleted");
      expect(s?.severity).toBe("masked");
      expect(s?.mask_reasons).toEqual(["deleted"]);
      expect(s?.n_calls).toBe(0);
    }
    // Rollouts with files stay listed with their own state.
    expect(byId.get("0-0")?.lifecycle.state).toBe("frozen");
    expect(byId.get("3-0")?.lifecycle.state).toBe("retired");
    expect(fingerprintTree(root)).toEqual(before);
  });

  it("links the attempts of one rollout both ways, deleted ones marked", async () => {
    const byId = await summariesOf(exampleRoot(), "run");
    const group = [
      { rollout_id: "0-0", deleted: false },
      { rollout_id: "0-0-a1", deleted: false },
      { rollout_id: "0-0-a2", deleted: true },
    ];
    for (const id of ["0-0", "0-0-a1", "0-0-a2"])
      expect(byId.get(id)?.lifecycle.attempts, id).toEqual(group);
    for (const id of ["1-0", "2-0", "3-0", "5-0"])
      expect(byId.get(id)?.lifecycle.attempts, id).toEqual([]);
    // Each attempt keeps its own verdict: 0-0 is frozen and trained, 0-0-a1 is open.
    expect(byId.get("0-0")?.mask_sample).toBe(false);
    expect(byId.get("0-0-a1")?.lifecycle.state).toBe("open");
  });

  it("re-summarises the rest of a group when an attempt appears, and nothing else", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-gym-attempt-"));
    const tokens = path.join(root, "run", "tokens");
    cpSync(EXAMPLE, tokens, { recursive: true });
    const first = await inputsOf(root, "run");
    writeFileSync(path.join(tokens, "0-0-a2.tokens.lock"), "");
    const second = await inputsOf(root, "run");
    const changed = [...second.keys()].filter((id) => first.get(id)?.key !== second.get(id)?.key);
    expect(changed.sort()).toEqual(["0-0", "0-0-a1", "0-0-a2"]);
  });
});
