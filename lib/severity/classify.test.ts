// Expected sentences and classes are written from docs/capture-format.md §8/§9.3/§14, docs/gym-v1-store.md,
// the gym-v1 cases' expected.jsonl, seed 000's capture A/B and the sample runs' files.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { captureExchangeSchema } from "@/lib/schema";
import {
  bannerSentences,
  classifySeverity,
  headline,
  reasonTitles,
  type SeverityInput,
} from "./classify";
import { failedCallFromExchange, isFailedExchange } from "./failed-call";
import { mainChainModel, runPolicyModel } from "./policy-model";
import { SEVERITY_LABEL } from "./palette";

const RUNS = path.join(process.cwd(), "fixtures", "runs");
const exchangesOf = (run: string, id: string) =>
  readFileSync(path.join(RUNS, run, "model-calls", `${id}.capture.jsonl`), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => captureExchangeSchema.parse(JSON.parse(l)));

const NEMOTRON = "eccn-nemotron-3-nano-30b-a3b";
/** A clean, trained rollout; cases override what differs. */
const clean: SeverityInput = {
  mask_sample: false,
  mask_reasons: [],
  error: null,
  record_mask_sample: null,
  delivered_fraction: 1,
  torn_tail: false,
  has_capture: true,
  capture_expected: true,
};

/** The timeline facts the inspector maps from the capture store: every exchange is a call. */
function timelineOf(run: string, id: string): Pick<SeverityInput, "failed_calls" | "calls_total"> {
  const xs = exchangesOf(run, id);
  const failed = xs.flatMap((x, i) =>
    isFailedExchange(x) ? [failedCallFromExchange(x, i + 1)] : [],
  );
  return { failed_calls: failed, calls_total: xs.length };
}

describe("seed 000: a 422 after the tool call ends the rollout", () => {
  it("warns on opencode-before-fix 0-0 with the status, error type and location", () => {
    const input = {
      ...clean,
      ...timelineOf("opencode-before-fix", "0-0"),
      main_model: NEMOTRON,
      policy_model: NEMOTRON,
    };
    const result = classifySeverity(input);
    expect(result.severity).toBe("trained_with_warnings");
    expect(result.reasons.map((r) => r.code)).toEqual(["cut_short"]);
    expect(headline(result)).toBe("Trained on, with warnings");
    expect(bannerSentences(result)).toEqual([
      "Trained on, but cut short: call 2 got HTTP 422 `extra_forbidden` at `messages[2].reasoning`, and the agent stopped.",
    ]);
    expect(result.reasons[0]?.title).toBe("cut short");
  });

  it("gives no warning after the fix (every call 200)", () => {
    const input = {
      ...clean,
      ...timelineOf("opencode-after-fix", "0-0"),
      main_model: NEMOTRON,
      policy_model: NEMOTRON,
    };
    const result = classifySeverity(input);
    expect(input.failed_calls).toEqual([]);
    expect(result).toEqual({ severity: "trained", reasons: [] });
    expect(headline(result)).toBe("Trained on");
    expect(bannerSentences(result)).toEqual(["Trained on."]);
  });

  it("warns on every before-fix rollout and on no after-fix rollout", () => {
    const ids = (run: string) =>
      readdirSync(path.join(RUNS, run, "model-calls")).map((f) =>
        f.replace(/\.capture\.jsonl$/, ""),
      );
    const before = ids("opencode-before-fix");
    expect(before).toHaveLength(12); // run.json: 12 tasks, each cut short
    for (const id of before) {
      const [line] = bannerSentences(
        classifySeverity({ ...clean, ...timelineOf("opencode-before-fix", id) }),
      );
      expect(line, id).toMatch(
        /^Trained on, but cut short: call \d+ got HTTP 422 `extra_forbidden` at `messages\[\d+\]\.reasoning`, and the agent stopped\.$/,
      );
    }
    for (const id of ids("opencode-after-fix")) {
      expect(
        classifySeverity({ ...clean, ...timelineOf("opencode-after-fix", id) }).severity,
        id,
      ).toBe("trained");
    }
  });

  it("is not cut short when the agent carried on after the failed call", () => {
    const failed = {
      position: 2,
      status_code: 429,
      error_category: "rate_limit",
      error_type: null,
      location: null,
      message: null,
    };
    const result = classifySeverity({ ...clean, failed_calls: [failed], calls_total: 4 });
    expect(result.severity).toBe("trained");
  });
});

describe("a side model that out-generated the policy (claude-code side_model_heavier)", () => {
  // 6-0's record: one chain of 4 calls, 496 generated tokens, all from the summariser; the
  // harness routes every requested model to one served model.
  const SERVED = "nemotron-3-nano-30b-a3b";
  const main = [130, 120, 126, 120].map((generated) => ({
    requested_model: "claude-sonnet-4-5",
    model: SERVED,
    generated,
  }));

  it("warns that the main chain is not the run's policy model", () => {
    const policy = runPolicyModel([
      ...Array<string>(9).fill("claude-opus-4-1"),
      "claude-sonnet-4-5",
      null,
    ]);
    const result = classifySeverity({
      ...clean,
      main_model: mainChainModel(main),
      policy_model: policy,
    });
    expect(result.severity).toBe("trained_with_warnings");
    expect(bannerSentences(result)).toEqual([
      "Trained on, but another model as main chain: the main chain comes from `claude-sonnet-4-5`, not the run's policy model `claude-opus-4-1`; a side model may have out-generated the policy.",
    ]);
  });

  it("says nothing when the main chain is the policy's", () => {
    const result = classifySeverity({
      ...clean,
      main_model: "claude-opus-4-1",
      policy_model: "claude-opus-4-1",
    });
    expect(result.severity).toBe("trained");
  });
});

describe("pending", () => {
  it("is its own state while the summary is being indexed, and never says trained", () => {
    const result = classifySeverity({
      ...clean,
      mask_sample: null,
      pending_reason: "the run is still being indexed",
    });
    expect(result.severity).toBe("pending");
    expect(headline(result)).toBe("Not yet known");
    expect(bannerSentences(result)).toEqual(["Not yet known: the run is still being indexed."]);
    const words = [
      headline(result),
      ...bannerSentences(result),
      reasonTitles(result),
      SEVERITY_LABEL[result.severity],
    ];
    for (const w of words) expect(w).not.toMatch(/trained/i);
  });

  it("a masked rollout's banner never says trained, even with every warning", () => {
    const result = classifySeverity({
      ...clean,
      mask_sample: true,
      mask_reasons: ["unresolved_retry"],
      delivered_fraction: 0.5,
      generated_tokens: { captured: 10, delivered: 5 },
      oov_tokens: 2,
      torn_tail: true,
      main_model: "side",
      policy_model: "policy",
      ...timelineOf("opencode-before-fix", "0-0"),
    });
    expect(result.severity).toBe("masked");
    expect(result.reasons.length).toBeGreaterThan(4);
    for (const w of [...bannerSentences(result), reasonTitles(result), SEVERITY_LABEL.masked]) {
      expect(w).not.toMatch(/\btrained\b/i);
    }
  });

  it("stays pending even when other facts would warn", () => {
    expect(classifySeverity({ ...clean, mask_sample: null, torn_tail: true }).severity).toBe(
      "pending",
    );
  });
});

describe("the trainer's step files hold a sample that differs from the main chain", () => {
  const sample = {
    step: 3,
    record_step: 2,
    line: 6,
    first_diff: 812,
    mask_diffs: 0,
    left_out: false,
  };

  it("other token ids: trained with a warning that names the file, the line and the position", () => {
    const result = classifySeverity({
      ...clean,
      trainer_differs: { ...sample, class: "tokens_differ" },
    });
    expect(result.severity).toBe("trained_with_warnings");
    expect(SEVERITY_LABEL[result.severity]).not.toBe(SEVERITY_LABEL.trained);
    expect(bannerSentences(result)).toEqual([
      "Trained on by the capture's consumer, but the trainer's sample differs: `train_data_step3.jsonl` line 6 (the records' step 2) holds other token ids than this main chain from position 812 on.",
    ]);
  });

  it("another loss mask: how many positions, and the first", () => {
    const result = classifySeverity({
      ...clean,
      trainer_differs: { ...sample, class: "mask_differs", first_diff: 30, mask_diffs: 14 },
    });
    expect(result.reasons.map((r) => r.sentence)).toEqual([
      "The trainer's sample differs: `train_data_step3.jsonl` line 6 (the records' step 2) has a loss mask that differs from the capture's at 14 positions (the first: position 30).",
    ]);
  });

  it("a sample the trainer left out of the loss says so, not only how many positions differ", () => {
    const result = classifySeverity({
      ...clean,
      trainer_differs: {
        ...sample,
        class: "mask_differs",
        first_diff: 12,
        mask_diffs: 92,
        left_out: true,
      },
    });
    // Not trained on, whatever the capture's consumer would do: masked, the trainer's reason first.
    expect(result.severity).toBe("masked");
    expect(bannerSentences(result)).toEqual([
      "Masked by the trainer, not the capture's consumer: excluded from training.",
      "The trainer left its sample out of the loss: `train_data_step3.jsonl` line 6 (the records' step 2) keeps none of its tokens in the loss (its sample or token loss masks are 0), where the capture's consumer trains 92 tokens.",
    ]);
  });

  it("left out of the loss, with a torn tail: masked, the trainer's reason before the warning", () => {
    const result = classifySeverity({
      ...clean,
      torn_tail: true,
      trainer_differs: { ...sample, class: "mask_differs", mask_diffs: 5, left_out: true },
    });
    expect(result.severity).toBe("masked");
    expect(result.reasons.map((r) => r.code)).toEqual(["trainer_differs", "torn_tail"]);
  });

  it("a masked rollout stays masked, and keeps the warning after its mask reasons", () => {
    const result = classifySeverity({
      ...clean,
      mask_sample: true,
      mask_reasons: ["capture_incomplete"],
      trainer_differs: { ...sample, class: "tokens_differ" },
    });
    expect(result.severity).toBe("masked");
    expect(result.reasons.map((r) => r.code)).toEqual(["capture_incomplete", "trainer_differs"]);
  });
});

describe("router replay that fell back (docs/experts.md: 1% of the main chain's routes)", () => {
  const at = (f: number | null) => classifySeverity({ ...clean, expert_fallback_fraction: f });

  it("warns at 1% and past it, naming the share; below it, or with no routes, says nothing", () => {
    expect(at(null).severity).toBe("trained");
    expect(at(0.0099).severity).toBe("trained");
    expect(at(0.01).severity).toBe("trained_with_warnings");
    expect(reasonTitles(at(0.56))).toContain("expert routes fell back");
    expect(bannerSentences(at(0.56)).join(" ")).toContain("56% of the main chain's routed experts");
    expect(bannerSentences(at(0.9999)).join(" ")).toContain("99.9%");
    expect(bannerSentences(at(1)).join(" ")).toContain("100%");
  });
});
