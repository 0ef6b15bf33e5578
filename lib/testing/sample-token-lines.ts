// Every line of the sample runs' token stores (fixtures/runs/*/tokens/*.tokens.jsonl), as text and
// in file order, torn and empty lines included: the token entry check's test and bench read them.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const RUNS = path.join(process.cwd(), "fixtures", "runs");

export function sampleTokenLines(): string[] {
  const out: string[] = [];
  for (const run of readdirSync(RUNS)) {
    const dir = path.join(RUNS, run, "tokens");
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".tokens.jsonl")))
      out.push(...readFileSync(path.join(dir, f), "utf8").split("\n"));
  }
  return out;
}
