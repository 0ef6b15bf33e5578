// The token store's side files as the store reader shows them: intents with `-id` cancel lines
// (kept for the views; Gym main's freeze reads intents without cancels, see gym-state) and
// `state.json` checked against its schema, ignored with a warning when it does not match. A side
// file that cannot be read at all is an issue of the rollout's read, never a failed read.
import "server-only";
import path from "node:path";
import { storeStateSchema, type StoreState } from "@/lib/schema";
import { confine, OutsideStoreError } from "./confine";
import { readRegularFile } from "./io";
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
    // A regular file only (a FIFO would block the read forever), and never a large one.
    text = (await readRegularFile(filePath, 16 << 20)).toString("utf8");
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

/**
 * A side file, through the same confinement as the token file. One that cannot be read (a symlink
 * out of the store, a FIFO or device, an I/O error, a stall) is reported as an issue naming it
 * and makes the read an error (the rollout's lifecycle is then unknown); it never fails the read.
 */
export async function readSide<T>(
  p: string,
  read: (p: string) => Promise<T | null>,
  issues: StoreIssue[],
  refused: string[],
): Promise<T | null> {
  const file = path.basename(p);
  try {
    await confine(path.dirname(p), p);
    return await read(p);
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    const text = (err as Error).message;
    const message = text.startsWith(`${file}: `) ? text : `${file}: ${text}`;
    issues.push({ file, line: null, severity: "error", message });
    const kind = err instanceof OutsideStoreError ? "PermissionError" : "OSError";
    refused.push(`${kind}: ${message}`);
    return null;
  }
}
