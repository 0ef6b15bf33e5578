// Prints one plain closing line from Vitest's and Playwright's JSON reports and the package check's
// (scripts/pack-test.mjs); exits 1 on any failure. A count can only err towards "failed":
// - a test file that fails to load (an import error, a syntax error) runs no test, so Vitest
//   counts it in numFailedTestSuites but not in numFailedTests: each such file is one failure;
// - Playwright's top-level errors (global setup, a spec that fails to load) are one failure each;
// - a test that passed only on retry is counted as passed but named "flaky" on its own line;
// - every failed test is named on its own line with its error's first line, so the closing lines
//   say what failed even where only the log's tail is kept;
// - every skip is named with its reason; a skip that gives none is a failure. A unit test gives it
//   in its title, "(skipped when …)"; a Playwright test in its skip annotation's description.
// Unit and browser tests each run in two passes (what is timed alone, then the rest on two
// workers), so the unit and e2e arguments may each name several reports, comma-separated; each
// missing one is a failure.
import { existsSync, readFileSync } from "node:fs";

const [unitPath, e2ePaths, packPath] = process.argv.slice(2);
const read = (p) => (p && existsSync(p) ? JSON.parse(readFileSync(p, "utf8")) : null);

/** Vitest's JSON report: assertions, plus every file that failed with no failed assertion. */
export function unitCounts(u) {
  if (!u) return { p: 0, f: 1, s: 0, notes: [] };
  const notes = [];
  let fileFailures = 0;
  for (const file of u.testResults ?? []) {
    const failedInside = (file.assertionResults ?? []).some((a) => a.status === "failed");
    if (file.status === "failed" && !failedInside) {
      fileFailures += 1;
      const why = String(file.message ?? "")
        .split("\n")[0]
        .slice(0, 200);
      notes.push(`unit: ${file.name} failed to run: ${why || "no test result"}`);
    }
  }
  for (const file of u.testResults ?? [])
    for (const a of file.assertionResults ?? [])
      if (a.status === "failed")
        notes.push(
          `unit: failed ${file.name} › ${a.fullName ?? a.title}: ${firstLine(a.failureMessages?.[0])}`,
        );
  let unexplained = 0;
  for (const file of u.testResults ?? [])
    for (const a of file.assertionResults ?? []) {
      if (a.status !== "skipped" && a.status !== "pending" && a.status !== "todo") continue;
      const why = /\(skipped when ([^)]+)\)/.exec(a.fullName ?? a.title ?? "")?.[1];
      if (!why) unexplained += 1;
      notes.push(`unit: skipped ${a.fullName ?? a.title}: ${why ?? "no reason given (a failure)"}`);
    }
  return {
    p: u.numPassedTests,
    f: u.numFailedTests + fileFailures + unexplained,
    s: u.numPendingTests + (u.numTodoTests ?? 0),
    notes,
  };
}

/** Playwright's JSON report: unexpected results, plus each top-level error; flaky named. */
export function e2eCounts(r) {
  const e = r?.stats;
  if (!e) return { p: 0, f: 1, s: 0, notes: [] };
  const notes = [];
  const errors = r.errors ?? [];
  for (const err of errors) {
    const why = String(err.message ?? err.value ?? "")
      .split("\n")[0]
      .slice(0, 200);
    notes.push(`e2e: top-level error: ${why}`);
  }
  if (e.flaky > 0) notes.push(`e2e: ${e.flaky} flaky (passed only on retry)`);
  for (const { title, where, test } of e2eTests(r.suites ?? [])) {
    if (test.status !== "unexpected" && test.status !== "flaky") continue;
    const error = (test.results ?? []).map((x) => x.error?.message).find(Boolean);
    const what = test.status === "flaky" ? "flaky" : "failed";
    notes.push(`e2e: ${what} [${test.projectName}] ${where} › ${title}: ${firstLine(error)}`);
  }
  let unexplained = 0;
  for (const { title, test } of e2eTests(r.suites ?? [])) {
    if (!(test.results ?? []).every((x) => x.status === "skipped") || !test.results?.length)
      continue;
    const annotations = [
      ...(test.annotations ?? []),
      ...test.results.flatMap((x) => x.annotations ?? []),
    ];
    const why = annotations.find((a) => a.type === "skip" && a.description)?.description;
    if (!why) unexplained += 1;
    notes.push(`e2e: skipped ${title}: ${why ?? "no reason given (a failure)"}`);
  }
  return {
    p: e.expected + e.flaky,
    f: e.unexpected + errors.length + unexplained,
    s: e.skipped,
    notes,
  };
}

/** Every test of a Playwright report, with its spec's title. */
function* e2eTests(suites) {
  for (const suite of suites) {
    yield* e2eTests(suite.suites ?? []);
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        yield { title: spec.title, where: `${spec.file}:${spec.line}`, test };
  }
}

/** An error's first non-empty line, without terminal colours, at most 200 characters. */
function firstLine(message) {
  const plain = String(message ?? "").replace(/\u001b\[[0-9;]*m/g, "");
  return (plain.split("\n").find((l) => l.trim()) ?? "no message").trim().slice(0, 200);
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const unit = { p: 0, f: 0, s: 0, notes: [] };
  for (const path of (unitPath ?? "").split(",")) {
    const u = read(path);
    if (!u) console.log(`unit: no report at ${path}`);
    const c = unitCounts(u);
    [unit.p, unit.f, unit.s] = [unit.p + c.p, unit.f + c.f, unit.s + c.s];
    unit.notes.push(...c.notes);
  }
  const e2e = { p: 0, f: 0, s: 0, notes: [] };
  for (const e2ePath of (e2ePaths ?? "").split(",")) {
    const r = read(e2ePath);
    if (!r?.stats) console.log(`e2e: no report at ${e2ePath}`);
    const c = e2eCounts(r);
    [e2e.p, e2e.f, e2e.s] = [e2e.p + c.p, e2e.f + c.f, e2e.s + c.s];
    e2e.notes.push(...c.notes);
  }
  const k = packPath ? read(packPath) : { passed: 0, failed: 0 };
  const pack = k ? { p: k.passed, f: k.failed, s: 0 } : { p: 0, f: 1, s: 0 };
  if (!k) console.log(`package: no report at ${packPath}`);
  for (const note of [...unit.notes, ...e2e.notes]) console.log(note);
  console.log(`unit: ${unit.p} passed, ${unit.f} failed, ${unit.s} skipped`);
  console.log(`e2e: ${e2e.p} passed, ${e2e.f} failed, ${e2e.s} skipped`);
  if (packPath) console.log(`package: ${pack.p} passed, ${pack.f} failed, 0 skipped`);
  const [p, f, s] = [unit.p + e2e.p + pack.p, unit.f + e2e.f + pack.f, unit.s + e2e.s + pack.s];
  console.log(`total: ${p} passed, ${f} failed, ${s} skipped`);
  if (f > 0 || p === 0) process.exit(1);
}
