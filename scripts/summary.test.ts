import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { e2eCounts, unitCounts } from "./summary.mjs";

// Report shapes as Vitest 4 and Playwright 1.65 write them (checked against real reports: a test
// file importing a missing module gives status "failed", a message and no assertion results).
describe("the closing line's counts", () => {
  it("counts a test file that failed to load as a failure, not as 0 failed", () => {
    const report = {
      numPassedTests: 1,
      numFailedTests: 0,
      numPendingTests: 0,
      numTodoTests: 0,
      testResults: [
        {
          name: "/r/a.test.ts",
          status: "failed",
          message: "Cannot find module './nope.js' imported from /r/a.test.ts",
          assertionResults: [],
        },
        {
          name: "/r/b.test.ts",
          status: "passed",
          message: "",
          assertionResults: [{ status: "passed" }],
        },
      ],
    };
    const c = unitCounts(report);
    expect([c.p, c.f, c.s]).toEqual([1, 1, 0]);
    expect(c.notes[0]).toContain("/r/a.test.ts failed to run: Cannot find module");
  });

  it("does not count a file twice when its failure is an assertion", () => {
    const report = {
      numPassedTests: 0,
      numFailedTests: 1,
      numPendingTests: 0,
      testResults: [
        {
          name: "/r/c.test.ts",
          status: "failed",
          message: "",
          assertionResults: [{ status: "failed" }],
        },
      ],
    };
    expect(unitCounts(report).f).toBe(1);
  });

  it("counts Playwright's top-level errors and names tests that passed only on retry", () => {
    const report = {
      stats: { expected: 10, unexpected: 0, flaky: 2, skipped: 1 },
      errors: [{ message: "Error: globalSetup failed\n    at x" }],
    };
    const c = e2eCounts(report);
    expect([c.p, c.f, c.s]).toEqual([12, 1, 1]);
    expect(c.notes).toEqual([
      "e2e: top-level error: Error: globalSetup failed",
      "e2e: 2 flaky (passed only on retry)",
    ]);
  });

  it("a missing report is a failure", () => {
    expect(unitCounts(null).f).toBe(1);
    expect(e2eCounts(null).f).toBe(1);
  });
});
