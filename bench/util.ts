// Shared benchmark helpers: timing with warm-up, formatting, figures checked against their
// targets (PASS/FAIL per figure; `npm run bench` exits non-zero when any figure misses), and the
// scratch directories the benches' index caches go to.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const scratch: string[] = [];
process.once("exit", () => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh directory under the system's temporary directory, removed when the bench process exits:
 * a 1M-record index is a gigabyte, and the caches of every run left behind once filled the disk.
 */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/**
 * Median wall time of `runs` calls after one warm-up, in milliseconds (use an odd count: with an
 * even one this is the slower of the two middle times).
 */
export async function time<T>(fn: () => T | Promise<T>, runs = 3): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

export function fmt(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}

export const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

export interface Figure {
  name: string;
  value: number;
  /** The figure passes when value ≤ max. */
  max: number;
  text: string;
  pass: boolean;
}

const figures: Figure[] = [];

/** Records a figure with its target and prints it as `PASS|FAIL name: value (target ≤ max)`. */
export function figure(
  name: string,
  value: number,
  max: number,
  show: (v: number) => string = (v) => v.toFixed(3),
): Figure {
  const pass = Number.isFinite(value) && value <= max;
  const f = { name, value, max, text: `${name}: ${show(value)} (target ≤ ${show(max)})`, pass };
  figures.push(f);
  console.log(`${pass ? "PASS" : "FAIL"}  ${f.text}`);
  return f;
}

/** A benchmark that threw: one failing figure, so the run exits non-zero. */
export function crashed(bench: string, e: unknown): void {
  const text = `${bench} crashed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
  figures.push({ name: bench, value: NaN, max: NaN, text, pass: false });
  console.log(`FAIL  ${text}`);
}

/** Prints every figure once more and sets the exit code: 1 when any missed its target. */
export function summarise(): void {
  const failed = figures.filter((f) => !f.pass);
  console.log(
    `\n=== bench summary: ${figures.length - failed.length} of ${figures.length} figures met their targets`,
  );
  for (const f of figures) console.log(`${f.pass ? "PASS" : "FAIL"}  ${f.text}`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

/** Runs one benchmark file on its own (`tsx bench/x.bench.ts`) with the same PASS/FAIL exit. */
export function runAlone(file: string, name: string, bench: () => Promise<unknown>): void {
  if (!process.argv[1]?.endsWith(file)) return;
  bench().then(summarise, (e: unknown) => {
    crashed(name, e);
    summarise();
  });
}
