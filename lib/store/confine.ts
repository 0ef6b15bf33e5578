// Keeps reads inside a store: a store file that is a symlink must resolve to a path inside the
// store directory. Regular files need one lstat; only symlinks pay for realpath.
import { lstat, realpath } from "node:fs/promises";
import path from "node:path";

import { OutsideStoreError } from "@/lib/errors";

export { OutsideStoreError };

export function isInside(base: string, target: string): boolean {
  const rel = path.relative(base, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Throws OutsideStoreError for a symlink leaving `dir`; a missing file is left to the reader. */
export async function confine(dir: string, file: string): Promise<void> {
  const st = await lstat(file).catch(() => null);
  if (!st?.isSymbolicLink()) return;
  const [base, real] = await Promise.all([realpath(dir), realpath(file).catch(() => null)]);
  if (real === null || !isInside(base, real)) throw new OutsideStoreError(`${path.basename(file)}: a symlink that points outside the store; refused`);
}
