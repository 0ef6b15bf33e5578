// Keeps reads inside the directory a file belongs to (a store, a run directory). A store file that
// is a symlink must resolve inside its store: regular files need one lstat, only symlinks pay for
// realpath. A relative path from a manifest (a tokenizer) is resolved and checked in full.
import "server-only";
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
  if (real === null || !isInside(base, real))
    throw new OutsideStoreError(
      `${path.basename(file)}: a symlink that points outside the store; refused`,
    );
}

/**
 * `rel` resolved inside `dir`. Throws OutsideStoreError when it leaves `dir` by `..`, by an absolute
 * path or through a symlink anywhere on the way (file or directory); a missing file is left to the
 * reader. `what` names the directory in the message ("the run directory").
 */
export async function resolveInside(dir: string, rel: string, what: string): Promise<string> {
  const file = path.resolve(dir, rel);
  if (!isInside(path.resolve(dir), file))
    throw new OutsideStoreError(`${rel}: outside ${what}; refused`);
  const [base, real] = await Promise.all([realpath(dir), realpath(file).catch(() => null)]);
  if (real !== null && !isInside(base, real))
    throw new OutsideStoreError(`${rel}: a symlink that points outside ${what}; refused`);
  return file;
}
