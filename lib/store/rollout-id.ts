// Rollout ids become file names, so they are checked before any path is built (docs/capture-format.md
// §2.1): letters, digits, '.', '_' and '-', starting with a letter or digit, at most 200 long.
// Pure; run ids follow the same rule (lib/runs/root).
import { InvalidRolloutIdError } from "@/lib/errors";

const ROLLOUT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const MAX_ROLLOUT_ID_LENGTH = 200;

export function isValidRolloutId(id: string): boolean {
  return id.length <= MAX_ROLLOUT_ID_LENGTH && ROLLOUT_ID.test(id);
}

export { InvalidRolloutIdError };

export function assertRolloutId(id: string): void {
  if (!isValidRolloutId(id)) throw new InvalidRolloutIdError(id);
}

/** Rollout ids in natural order ("2-0" before "10-0"): the table's default and every tie-break. */
export function compareIds(a: string, b: string): number {
  return a.localeCompare(b, "en", { numeric: true });
}
