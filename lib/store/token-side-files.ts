// The token store's side files as the store reader shows them: intents with `-id` cancel lines
// (kept for the views; Gym main's freeze reads intents without cancels, see gym-state) and
// `state.json` checked against its schema, ignored with a warning when it does not match.
import "server-only";
import path from "node:path";
import { readFile } from "node:fs/promises";
import { storeStateSchema, type StoreState } from "@/lib/schema";
import { describeZodError } from "./zod-message";
import type { StoreIssue } from "./token-store";

export function parseIntents(lines: string[]): { ids: string[]; cancelled: string[] } {
  const cancelled = new Set<string>();
  for (const l of lines) if (l.startsWith("-")) cancelled.add(l.slice(1));
  const ids = [...new Set(lines.filter((l) => l !== "" && !l.startsWith("-")))].filter(
    (id) => !cancelled.has(id),
  );
  return { ids, cancelled: [...cancelled] };
}

export async function readState(
  filePath: string,
  issues: StoreIssue[],
): Promise<StoreState | null> {
  let text: string;
  try {
    text = await readFile(filePath, { encoding: "utf8", flag: "r" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  const file = path.basename(filePath);
  try {
    const parsed = storeStateSchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
    issues.push({
      file,
      line: null,
      severity: "warning",
      message: `state file ignored: ${describeZodError(parsed.error)}`,
    });
  } catch (err) {
    issues.push({
      file,
      line: null,
      severity: "warning",
      message: `state file ignored: not valid JSON (${(err as Error).message})`,
    });
  }
  return null;
}
