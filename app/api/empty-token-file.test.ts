// An empty token file is no capture, never "trained": the seed consumer builds nothing from it
// (docs/builder.md §5, rule 1, "not a build"), so the trainer uses the record as the agent wrote it, and the
// run table and the inspector both say so with the no-capture warning. Under auto (no
// builder_profile), a store with no records to judge by goes to gym-v1, whose consumer masks it
// ("capture contains no token records", Gym main's own answer in gym-v1-cases/auto-empty-file).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, expect, it, vi } from "vitest";
import { rolloutSummarySchema } from "@/lib/schema";
import { listStore } from "@/lib/store";
import { inspectRollout } from "@/lib/inspect/rollout-model";
import { applyRunFacts } from "@/lib/index/run-severity";
import { classifySeverity } from "@/lib/severity";
import { severityInputOf } from "@/lib/view/rollout-severity";
import { readRolloutRecords } from "@/lib/runs/rollout-records";
import { getRun } from "@/lib/runs/root";
import { summarizeRollout } from "@/lib/rollout/summarize";
import { keyedInputs } from "@/lib/index/keys";

let root: string;
beforeAll(() => {
  vi.stubEnv("ROLLOUT_LENS_IO_WORKERS", "0"); // this source, not a built worker
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-empty-"));
  mkdirSync(path.join(root, "run", "tokens"), { recursive: true });
  writeFileSync(
    path.join(root, "run", "run.json"),
    JSON.stringify({ capture: "on", builder_profile: "seed" }),
  );
  writeFileSync(path.join(root, "run", "tokens", "e-0.tokens.jsonl"), "");
  mkdirSync(path.join(root, "auto", "tokens"), { recursive: true });
  writeFileSync(path.join(root, "auto", "run.json"), JSON.stringify({ capture: "on" }));
  writeFileSync(path.join(root, "auto", "tokens", "e-0.tokens.jsonl"), "");
});

it("the run table's summary: trained with the no-capture warning", async () => {
  const layout = await getRun("run", root);
  const tokens = await listStore(layout.tokensDir as string, { stat: true });
  const inputs = await keyedInputs(layout, tokens, null, await readRolloutRecords(null));
  const summary = rolloutSummarySchema.parse(await summarizeRollout(inputs.get("e-0")!.input));
  expect(summary.has_capture).toBe(false);
  const served = applyRunFacts(summary, { policy_model: null, capture_expected: true });
  expect(served.severity).toBe("trained_with_warnings");
  expect(served.severity_reasons.map((r) => r.code)).toEqual(["no_capture"]);
});

it("the inspector: the same class and reason", async () => {
  const model = await inspectRollout(await getRun("run", root), "e-0", { other: "if-known" });
  expect(model.view.calls).toHaveLength(0);
  const sev = classifySeverity(severityInputOf(model.view));
  expect(sev.severity).toBe("trained_with_warnings");
  expect(sev.reasons.map((r) => r.code)).toEqual(["no_capture"]);
});

it("under auto, Gym main's answer: masked, no token records", async () => {
  const model = await inspectRollout(await getRun("auto", root), "e-0", { other: "if-known" });
  expect(model.view.verdict.profile).toBe("gym-v1");
  expect(model.view.verdict.mask_sample).toBe(true);
  expect(model.view.verdict.error).toBe("capture contains no token records");
  expect(classifySeverity(severityInputOf(model.view)).severity).toBe("masked");
});
