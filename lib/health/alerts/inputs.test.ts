// Every input problem is an alert with its words, on the run page (runHealth) and counted on the
// home page (describeRun): a run.json with a misspelled key or a syntax error, a torn or invalid line
// of rollouts.jsonl or metrics.jsonl. The runs are written here, so the lines named are known.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRun } from "@/lib/runs/root";
import { line } from "@/lib/testing/temp-store";
import { describeRun } from "../run-overview";
import { runHealth } from "../run-health";

const saved = process.env.ROLLOUT_LENS_CACHE;
let root = "";

const record = (task: number, reward: number) =>
  line({ _ng_task_index: task, _ng_rollout_index: 0, reward, mask_sample: false });

beforeAll(() => {
  process.env.ROLLOUT_LENS_CACHE = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-cache-"));
  root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-inputs-"));
  const run = (id: string, files: Record<string, string>) => {
    mkdirSync(path.join(root, id));
    for (const [name, text] of Object.entries(files))
      writeFileSync(path.join(root, id, name), text);
  };
  run("misspelled", {
    "run.json": JSON.stringify({ name: "m", builder_profle: "gym-v1" }),
    "rollouts.jsonl": record(0, 1),
  });
  run("syntax", {
    "run.json": '{\n  "name": "s"\n  "capture": "off"\n}\n',
    "rollouts.jsonl": record(0, 1),
  });
  // Lines 1-3 are records (rewards 1, 0, 1); line 4 is not JSON; line 5 is torn (no newline).
  run("torn", {
    "rollouts.jsonl":
      record(0, 1) + record(1, 0) + record(2, 1) + "not json\n" + '{"_ng_task_index": 3, "rew',
    "metrics.jsonl":
      line({ step: 0, reward: 0.5 }) + line({ step: 1, reward: 0.6 }) + '{"step": 2,',
  });
  run("clean", { "rollouts.jsonl": record(0, 1) + record(1, 0) });
});

afterAll(() => {
  if (saved === undefined) delete process.env.ROLLOUT_LENS_CACHE;
  else process.env.ROLLOUT_LENS_CACHE = saved;
});

const health = async (id: string) => runHealth(await getRun(id, root), 30_000);

describe("input problems are alerts", () => {
  it("a misspelled run.json key is a red alert naming the key and the nearest valid one", async () => {
    const h = await health("misspelled");
    const alert = h.alerts.find((a) => a.kind === "manifest");
    expect(alert?.severity).toBe("error");
    expect(alert?.message).toContain(
      "unknown key `builder_profle` — did you mean `builder_profile`?",
    );
    const row = await describeRun(await getRun("misspelled", root));
    expect(row.alerts).toBe(h.alerts.length);
    expect(row.alerts).toBeGreaterThan(0);
  });

  it("a run.json syntax error is told at its line and column", async () => {
    const alert = (await health("syntax")).alerts.find((a) => a.kind === "manifest");
    // Line 3 column 3 is where `"capture"` starts after the missing comma.
    expect(alert?.message).toMatch(/not valid JSON \(.* at line 3, column 3\)/);
    expect(alert?.message).not.toMatch(/position/);
  });

  it("a torn and an invalid line of rollouts.jsonl are one alert naming both lines", async () => {
    const h = await health("torn");
    expect(h.rollouts).toBe(3);
    const alert = h.alerts.find((a) => a.kind === "unreadable_records");
    expect(alert?.count).toBe(2);
    expect(alert?.message).toMatch(
      /^2 lines of `rollouts\.jsonl` could not be read \(lines 4 and 5;/,
    );
    expect(alert?.message).toContain("Line 5 is the last and is unterminated");
  });

  it("a torn last line of metrics.jsonl is counted and named", async () => {
    const h = await health("torn");
    expect(h.metrics.map((m) => m.step)).toEqual([0, 1]);
    expect(h.metrics_unreadable).toBe(1);
    const alert = h.alerts.find((a) => a.message.includes("`metrics.jsonl` could not be read"));
    expect(alert?.message).toMatch(/^1 line of `metrics\.jsonl` could not be read \(line 3;/);
  });

  it("a run without input problems has none of these alerts", async () => {
    const kinds = (await health("clean")).alerts.map((a) => a.kind);
    expect(kinds).not.toContain("manifest");
    expect(kinds).not.toContain("unreadable_records");
  });
});
