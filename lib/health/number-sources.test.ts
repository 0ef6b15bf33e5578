// A number shown in two places names its source: the records' mean reward vs the training curve.
import { describe, expect, it } from "vitest";
import { captureOffLine, curveSource, recordsSource } from "./number-sources";

describe("number sources", () => {
  it("names the records and the training curve with their counts", () => {
    expect(recordsSource(24)).toBe("records: 24 rollouts");
    expect(recordsSource(1)).toBe("records: 1 rollout");
    expect(curveSource(100)).toBe("training curve: 100 steps");
    expect(curveSource(12_000)).toBe("training curve: 12,000 steps");
  });

  it("a run of trainer logs alone says it holds no capture, never that capture is off", () => {
    expect(captureOffLine({ steps: 100, hasRecords: false, declared: false })).toBe(
      "No token capture in this run (no token store, model-call store or rollout records), so no verdicts, masks or chains to check; shown: its training curve (100 steps).",
    );
  });

  it("says in one line that capture is off and what the run has instead", () => {
    const line = captureOffLine({ steps: 100, hasRecords: false });
    expect(line).toMatch(/^Token capture is off for this run/);
    expect(line).toContain("its training curve (100 steps)");
    expect(line).not.toContain("records (below)");
    expect(captureOffLine({ steps: 0, hasRecords: true })).toContain("its rollout records");
    expect(captureOffLine({ steps: 0, hasRecords: false })).toContain(
      "no training curve or records",
    );
  });
});
