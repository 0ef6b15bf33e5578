// Runs one measurement in a fresh Node process (bench/fresh-child.ts): nothing JIT-compiled, no
// decoder, record hash or build cached, no heap left over from other measurements. The child prints
// one JSON line; this returns it parsed.
import { spawn } from "node:child_process";

export type FreshTask =
  | { task: "read-parse"; file: string }
  | { task: "build"; file: string; profile: "seed" | "gym-v1"; patterns: string[] }
  | { task: "plain-read-dir"; dir: string }
  | { task: "index"; runsRoot: string; run: string; db: string };

export function runFresh<T>(t: FreshTask): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--max-old-space-size=8192",
        "--conditions=react-server",
        "--import",
        "tsx",
        "bench/fresh-child.ts",
        JSON.stringify(t),
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const last = out.trim().split("\n").pop() ?? "";
      if (code !== 0)
        return reject(new Error(`fresh ${t.task} exited ${code}: ${out.slice(-500)}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`fresh ${t.task} printed no JSON: ${out.slice(-500)}`));
      }
    });
  });
}
