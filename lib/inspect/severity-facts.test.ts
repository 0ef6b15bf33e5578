// The rollout view's severity facts against the sample runs' files on disk: what the capture and
// token files say is compared with what the view carries and what the banner then states.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUNS_DIR } from "@/fixtures/generate";
import { getRun } from "@/lib/runs/root";
import { rolloutViewSchema, type RolloutView } from "@/lib/schema/api-rollout";
import { bannerSentences, runPolicyModel } from "@/lib/severity";
import { o200kDecoder } from "@/lib/tokens/decoder";
import { rolloutSeverity } from "@/lib/view/rollout-severity";
import { inspectRollout } from "./rollout-model";
import { countOutsideIds } from "@/lib/rollout/facts";
import { danglingIntents, outsideVocabulary } from "./severity-facts";
import { tokenEntrySchema } from "@/lib/schema";

async function viewOf(runId: string, rollout: string): Promise<RolloutView> {
  const model = await inspectRollout(await getRun(runId, RUNS_DIR), rollout);
  return rolloutViewSchema.parse(model.view);
}

const jsonl = (file: string): Array<Record<string, unknown>> =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const OPENCODE = Array.from({ length: 12 }, (_, i) => `${i}-0`);

describe("opencode-before-fix: every rollout is cut short by a 422", () => {
  it.each(OPENCODE)("%s: the failed call, its place and the banner", async (id) => {
    const dir = path.join(RUNS_DIR, "opencode-before-fix");
    const exchanges = jsonl(path.join(dir, "model-calls", `${id}.capture.jsonl`));
    const entries = jsonl(path.join(dir, "tokens", `${id}.tokens.jsonl`));
    const failedOnDisk = exchanges.filter((x) => x.status_code === 422);
    expect(failedOnDisk).toHaveLength(1);
    const x = failedOnDisk[0] as {
      model_call_id: string;
      response: { detail: Array<{ type: string; msg: string }> };
    };
    const view = await viewOf("opencode-before-fix", id);
    expect(view.failed).toHaveLength(1);
    expect(view.failed[0]).toMatchObject({
      model_call_id: x.model_call_id,
      status_code: 422,
      position: entries.length + 1,
      error_type: x.response.detail[0]?.type,
      location: "messages[2].reasoning",
      message: x.response.detail[0]?.msg,
      after_call: entries[entries.length - 1]?.model_call_id,
    });
    const severity = rolloutSeverity(view);
    expect(severity.severity).toBe("trained_with_warnings");
    expect(bannerSentences(severity)[0]).toBe(
      "Trained on, but cut short: call 2 got HTTP 422 `extra_forbidden` at `messages[2].reasoning`, and the agent stopped.",
    );
    expect(view.dangling_intents).toEqual([]);
    expect(view.oov_tokens).toBe(0);
    expect(view.tombstone).toBeNull();
  });
});

describe("opencode-after-fix: no warning", () => {
  it.each(OPENCODE)("%s is trained with no reasons", async (id) => {
    const view = await viewOf("opencode-after-fix", id);
    expect(view.failed).toEqual([]);
    const severity = rolloutSeverity(view);
    expect(severity).toEqual({ severity: "trained", reasons: [] });
    expect(bannerSentences(severity)).toEqual(["Trained on."]);
  });
});

describe("gym-main-v1 3-0: the dangling intent", () => {
  it("is placed after the last recorded intent and masks the rollout by name", async () => {
    const dir = path.join(RUNS_DIR, "gym-main-v1", "tokens");
    const intents = readFileSync(path.join(dir, "3-0.tokens.intents"), "utf8")
      .split("\n")
      .filter(Boolean);
    const recorded = new Set(jsonl(path.join(dir, "3-0.tokens.jsonl")).map((e) => e.model_call_id));
    const missing = intents.filter((id) => !recorded.has(id));
    expect(missing).toHaveLength(1);
    const at = intents.indexOf(missing[0] as string);
    const view = await viewOf("gym-main-v1", "3-0");
    expect(view.dangling_intents).toEqual([
      { model_call_id: missing[0], after_call: intents[at - 1] },
    ]);
    const severity = rolloutSeverity(view);
    expect(severity.severity).toBe("masked");
    const sentence = severity.reasons.find((r) => r.code === "capture_incomplete")?.sentence ?? "";
    expect(sentence).toContain(`\`${missing[0]}\` never got a token entry`);
    expect(bannerSentences(severity).join(" ")).not.toMatch(/\btrained\b/i);
  });

  it("the other gym-main-v1 rollouts have none", async () => {
    for (const id of ["0-0", "1-0", "2-0", "4-0", "5-0"]) {
      expect((await viewOf("gym-main-v1", id)).dangling_intents).toEqual([]);
    }
  });

  it("places intents after the nearest earlier recorded one, null before any", () => {
    const recorded = new Set(["a", "c"]);
    const order = ["x", "a", "b", "c", "d", "e"];
    expect(danglingIntents(["x", "b", "d", "e"], order, recorded)).toEqual([
      { model_call_id: "x", after_call: null },
      { model_call_id: "b", after_call: "a" },
      { model_call_id: "d", after_call: "c" },
      { model_call_id: "e", after_call: "c" },
    ]);
    expect(danglingIntents([], null, recorded)).toEqual([]);
  });

  it("places ids the seed order lacks (Gym's `-c2` lines) after the dangling one before them", () => {
    // File `a`, `b`, `c2`, `-c2`, `d`: the seed parse cancels c2 and drops `-c2`; Gym keeps both.
    const recorded = new Set(["a", "b"]);
    const seedOrder = ["a", "b", "d"];
    expect(danglingIntents(["c2", "-c2", "d"], seedOrder, recorded)).toEqual([
      { model_call_id: "c2", after_call: "b" },
      { model_call_id: "-c2", after_call: "b" },
      { model_call_id: "d", after_call: "b" },
    ]);
    expect(danglingIntents(["c2"], null, recorded)).toEqual([
      { model_call_id: "c2", after_call: null },
    ]);
  });
});

describe("gym-main-example 3-0: a retired tombstone", () => {
  it("carries what state.json recorded and is told in the banner", async () => {
    const state = JSON.parse(
      readFileSync(
        path.join(RUNS_DIR, "gym-main-example", "tokens", "3-0.tokens.state.json"),
        "utf8",
      ),
    ) as { frozen: boolean; snapshot_id: string; version: number; retired: boolean };
    expect(state.retired).toBe(true);
    const view = await viewOf("gym-main-example", "3-0");
    expect(view.tombstone).toEqual({
      frozen: state.frozen,
      snapshot_id: state.snapshot_id,
      version: state.version,
    });
    const severity = rolloutSeverity(view);
    // The tombstone takes the consumer's verdict (docs/gym-v1-store.md §1 says Gym masks it; the builder
    // decides that): never plain "trained", and the tombstone is told first.
    expect(severity.severity).toBe(view.verdict.mask_sample ? "masked" : "trained_with_warnings");
    expect(severity.reasons[0]?.code).toBe("retired");
    expect(severity.reasons[0]?.sentence).toContain(
      `snapshot \`${state.snapshot_id}\`, version ${state.version}`,
    );
  });
});

describe("claude-code-capture-on 6-0: a side model out-generated the policy", () => {
  const POLICY = "claude-opus-4-1"; // fixtures/generator/claude-code.ts

  it("the main chain's model is the heavier side model, not the policy", async () => {
    const entries = jsonl(
      path.join(RUNS_DIR, "claude-code-capture-on", "tokens", "6-0.tokens.jsonl"),
    );
    const mass = new Map<string, number>();
    for (const e of entries) {
      const m = String(e.requested_model);
      if (m.includes("haiku")) continue;
      mass.set(m, (mass.get(m) ?? 0) + (e.generation_token_ids as unknown[]).length);
    }
    const heaviest = [...mass].sort((a, b) => b[1] - a[1])[0]?.[0];
    expect(heaviest).not.toBe(POLICY);
    const view = await viewOf("claude-code-capture-on", "6-0");
    expect(view.main_model).toBe(heaviest);
    // The run's policy is not known to the inspector yet (null): given it, the banner warns.
    expect(view.policy_model).toBeNull();
    const severity = rolloutSeverity({ ...view, policy_model: POLICY });
    expect(severity.severity).toBe("trained_with_warnings");
    expect(severity.reasons.map((r) => r.code)).toContain("other_model_main");
    expect(bannerSentences(severity)[0]).toContain(`not the run's policy model \`${POLICY}\``);
  });

  it("the run's policy, voted over every rollout's main model, is the generator's policy", async () => {
    const run = await getRun("claude-code-capture-on", RUNS_DIR);
    const ids = Array.from({ length: 40 }, (_, i) => `${i}-0`);
    const models = await Promise.all(
      ids.map(async (id) => (await inspectRollout(run, id)).view.main_model),
    );
    expect(runPolicyModel(models)).toBe(POLICY);
  });
});

describe("token ids outside any vocabulary", () => {
  it("counts own prompt tails and generations, past int32 or unknown to the tokenizer", async () => {
    const decoder = await o200kDecoder();
    const entry = (id: string, prompt: number[], gen: number[]) =>
      tokenEntrySchema.parse({
        rollout_id: "r",
        model_call_id: id,
        model: "m",
        prompt_token_ids: prompt,
        generation_token_ids: gen,
        generation_log_probs: gen.map(() => -0.1),
        created_at: 1,
      });
    const big = 2 ** 31; // past int32: in no vocabulary
    const unknown = 900_000; // inside int32 but past o200k's 200k ids
    const entries = [entry("a", [1, 2], [big, 3]), entry("b", [1, 2, big, 3, unknown], [unknown])];
    // b inherits a's 4 tokens: only its tail [unknown] and its generation count.
    const inherited = new Map([["b", 4]]);
    expect(countOutsideIds(entries, inherited, outsideVocabulary(decoder))).toBe(3);
    expect(countOutsideIds(entries, inherited, outsideVocabulary(null))).toBe(1);
    expect(countOutsideIds(entries, inherited)).toBe(1); // past int32 only, as the index counts
  });
});
