// Prints one plain closing line from Vitest's and Playwright's JSON reports and the package check's
// (scripts/pack-test.mjs); exits 1 on any failure.
import { existsSync, readFileSync } from "node:fs";

const [unitPath, e2ePath, packPath] = process.argv.slice(2);
const read = (p) => (p && existsSync(p) ? JSON.parse(readFileSync(p, "utf8")) : null);
const u = read(unitPath);
const e = read(e2ePath)?.stats;
const unit = u
  ? { p: u.numPassedTests, f: u.numFailedTests, s: u.numPendingTests + (u.numTodoTests ?? 0) }
  : { p: 0, f: 1, s: 0 };
const e2e = e ? { p: e.expected + e.flaky, f: e.unexpected, s: e.skipped } : { p: 0, f: 1, s: 0 };
const k = packPath ? read(packPath) : { passed: 0, failed: 0 };
const pack = k ? { p: k.passed, f: k.failed, s: 0 } : { p: 0, f: 1, s: 0 };
if (!k) console.log(`package: no report at ${packPath}`);
if (!u) console.log(`unit: no report at ${unitPath}`);
if (!e) console.log(`e2e: no report at ${e2ePath}`);
console.log(`unit: ${unit.p} passed, ${unit.f} failed, ${unit.s} skipped`);
console.log(`e2e: ${e2e.p} passed, ${e2e.f} failed, ${e2e.s} skipped`);
if (packPath) console.log(`package: ${pack.p} passed, ${pack.f} failed, 0 skipped`);
const [p, f, s] = [unit.p + e2e.p + pack.p, unit.f + e2e.f + pack.f, unit.s + e2e.s + pack.s];
console.log(`total: ${p} passed, ${f} failed, ${s} skipped`);
if (f > 0 || p === 0) process.exit(1);
