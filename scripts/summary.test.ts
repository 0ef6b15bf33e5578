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

  it("names every skip with its reason, and counts a skip without one as a failure", () => {
    const file = (title: string) => ({
      name: "/r/c.test.ts",
      status: "passed",
      message: "",
      assertionResults: [{ status: "skipped", title, fullName: `c > ${title}` }],
    });
    const explained = unitCounts({
      numPassedTests: 0,
      numFailedTests: 0,
      numPendingTests: 1,
      testResults: [file("matches the spec (skipped when ../shared is not beside the clone)")],
    });
    expect([explained.f, explained.s]).toEqual([0, 1]);
    expect(explained.notes).toEqual([
      "unit: skipped c > matches the spec (skipped when ../shared is not beside the clone): ../shared is not beside the clone",
    ]);
    const silent = unitCounts({
      numPassedTests: 0,
      numFailedTests: 0,
      numPendingTests: 1,
      testResults: [file("matches the spec")],
    });
    expect(silent.f).toBe(1);
    const spec = (annotations: Array<{ type: string; description?: string }>) => ({
      stats: { expected: 0, unexpected: 0, flaky: 0, skipped: 1 },
      errors: [],
      suites: [
        {
          suites: [
            {
              specs: [
                {
                  title: "the light theme",
                  tests: [{ annotations, results: [{ status: "skipped" }] }],
                },
              ],
            },
          ],
        },
      ],
    });
    const said = e2eCounts(
      spec([{ type: "skip", description: "the same palette as the system's" }]),
    );
    expect([said.f, said.notes]).toEqual([
      0,
      ["e2e: skipped the light theme: the same palette as the system's"],
    ]);
    expect(e2eCounts(spec([{ type: "skip" }])).f).toBe(1);
  });

  it("names each failed test with its error's first line, and each flaky one", () => {
    const unit = unitCounts({
      numPassedTests: 0,
      numFailedTests: 1,
      numPendingTests: 0,
      testResults: [
        {
          name: "/r/d.test.ts",
          status: "failed",
          message: "",
          assertionResults: [
            {
              status: "failed",
              fullName: "d > is quick",
              failureMessages: [
                "\u001b[31mAssertionError: expected 148 to be less than 100\u001b[39m\n    at d",
              ],
            },
          ],
        },
      ],
    });
    expect(unit.notes).toEqual([
      "unit: failed /r/d.test.ts › d > is quick: AssertionError: expected 148 to be less than 100",
    ]);
    const test = (status: string, message: string) => ({
      projectName: "timed",
      status,
      results: [{ status: "failed", error: { message } }, { status: "passed" }],
    });
    const e2e = e2eCounts({
      stats: { expected: 1, unexpected: 1, flaky: 1, skipped: 0 },
      suites: [
        {
          specs: [
            {
              title: "a click",
              file: "nav.spec.ts",
              line: 184,
              tests: [test("unexpected", "\nError: 547 ms")],
            },
            { title: "a load", file: "nav.spec.ts", line: 90, tests: [test("flaky", "Timeout")] },
            {
              title: "fine",
              file: "nav.spec.ts",
              line: 9,
              tests: [{ status: "expected", results: [] }],
            },
          ],
        },
      ],
    });
    expect(e2e.notes).toEqual([
      "e2e: 1 flaky (passed only on retry)",
      "e2e: failed [timed] nav.spec.ts:184 › a click: Error: 547 ms",
      "e2e: flaky [timed] nav.spec.ts:90 › a load: Timeout",
    ]);
  });
});
