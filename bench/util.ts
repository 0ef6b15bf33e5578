// Shared benchmark helpers: timing with warm-up, and writing generated files once per run.
import { createWriteStream, existsSync, mkdirSync, renameSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const OUT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "out");

export async function writeLines(file: string, lines: Iterable<string>): Promise<string> {
  mkdirSync(path.dirname(file), { recursive: true });
  if (existsSync(file)) return file;
  const out = createWriteStream(file + ".part");
  for (const l of lines) if (!out.write(l)) await new Promise<void>((r) => out.once("drain", () => r()));
  await new Promise<void>((r) => out.end(r));
  renameSync(file + ".part", file);
  return file;
}

/** Median wall time of `runs` calls after one warm-up, in milliseconds. */
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
