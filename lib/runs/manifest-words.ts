// What is wrong with a run's run.json, in words a user can act on: a JSON syntax error at its line
// and column (not a byte position), and a misspelled key with the nearest valid one ("unknown key
// `builder_profle` — did you mean `builder_profile`?"). Pure; the reader is ./root.
import type { z } from "zod";
import { runManifestSchema } from "@/lib/schema";
import { describeZodError } from "@/lib/store/pure";

/** The 1-based line and column of character `pos` in `text`. */
export function lineColumn(text: string, pos: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(pos, text.length)));
  const start = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: before.length - start + 1 };
}

/** JSON.parse's message with "position N" told as "line L, column C" (Node 20 gives only the position). */
export function jsonSyntaxWords(text: string, err: Error): string {
  const message = err.message.replace(/\s*\(line \d+ column \d+\)/, "");
  const m = /at position (\d+)/.exec(message);
  if (m) {
    const { line, column } = lineColumn(text, Number(m[1]));
    return `${message.replace(/\s*in JSON at position \d+/, "")} at line ${line}, column ${column}`;
  }
  if (/Unexpected end of JSON input/.test(message)) {
    const { line, column } = lineColumn(text, text.length);
    return `unexpected end of the file at line ${line}, column ${column}`;
  }
  return message;
}

/** The edit distance between `a` and `b` (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const swap = (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, swap));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** The valid key nearest `key`, when one is near enough to be a misspelling of it. */
export function nearestKey(key: string, valid: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const v of valid) {
    const d = editDistance(key.toLowerCase(), v.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [v, d];
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : null;
}

const TOP_KEYS = Object.keys(runManifestSchema.shape);
const PATH_KEYS = Object.keys(runManifestSchema.shape.paths.unwrap().shape);

/** Each issue in words; an unknown key names itself and the valid key it is nearest. */
export function manifestIssueWords(error: z.ZodError): string {
  const words = error.issues.map((i) => {
    if (i.code !== "unrecognized_keys") return describeZodError({ issues: [i] } as z.ZodError);
    const inPaths = i.path.length === 1 && i.path[0] === "paths";
    const valid = inPaths ? PATH_KEYS : TOP_KEYS;
    return i.keys
      .map((k) => {
        const name = inPaths ? `paths.${k}` : k;
        const near = nearestKey(k, valid);
        const hint = near ? ` — did you mean \`${inPaths ? `paths.${near}` : near}\`?` : "";
        return `unknown key \`${name}\`${hint}`;
      })
      .join("; ");
  });
  return words.join("; ");
}
