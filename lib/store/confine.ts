// Keeps reads inside the places they belong. A store file must resolve inside its store (regular
// files need one lstat, only symlinks pay for realpath). Every other path the server opens (run.json,
// its `paths`, the default layout's directories, a tokenizer) must resolve, through every symlink on
// the way, inside the runs root or a directory the user allowed with `--allow-path`.
import "server-only";
import path from "node:path";
import { lstatWithin as lstat, realpathWithin as realpath } from "./io";

import { OutsideStoreError } from "@/lib/errors";

export { OutsideStoreError };

/** How a refusal tells the user to widen what is served. */
const ALLOW_HINT =
  "(rollout-lens serve --allow-path DIR, or ROLLOUT_LENS_ALLOW_PATHS, allows more)";

export function isInside(base: string, target: string): boolean {
  const rel = path.relative(base, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * Throws OutsideStoreError for a symlink leaving `dir` (named `what` in the message); a missing file
 * is left to the reader. The message names the link, never what it points to or holds.
 */
export async function confine(dir: string, file: string, what = "the store"): Promise<void> {
  const st = await lstat(file).catch(() => null);
  if (!st?.isSymbolicLink()) return;
  const [base, real] = await Promise.all([realpath(dir), realpath(file).catch(() => null)]);
  if (real === null || !isInside(base, real))
    throw new OutsideStoreError(
      `${path.basename(file)}: a symlink that points outside ${what}; refused`,
    );
}

/** Directories allowed besides the runs root: ROLLOUT_LENS_ALLOW_PATHS, separated like PATH. */
export function allowedPaths(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.ROLLOUT_LENS_ALLOW_PATHS ?? "")
    .split(path.delimiter)
    .map((p) => p.trim())
    .filter((p) => p !== "")
    .map((p) => path.resolve(p));
}

/** Where paths may resolve: directories as given, their real paths, and how messages name them. */
export interface Confinement {
  dirs: readonly string[];
  real: readonly string[];
  what: string;
}

/** `primary` (named `what` in messages) plus the allowed directories; missing ones confine nothing. */
export async function confinementOf(
  primary: string,
  what: string,
  extra: readonly string[] = allowedPaths(),
): Promise<Confinement> {
  const dirs = [path.resolve(primary), ...extra];
  const real = await Promise.all(dirs.map((d) => realpath(d).catch(() => null)));
  return {
    dirs,
    real: real.filter((r): r is string => r !== null),
    what: extra.length > 0 ? `${what} and the --allow-path directories` : what,
  };
}

/** The real path of `p`; a missing tail is joined to the real path of its nearest existing parent. */
async function realpathOfExisting(p: string): Promise<string> {
  const tail: string[] = [];
  for (let head = p; ; head = path.dirname(head)) {
    try {
      return path.join(await realpath(head), ...tail);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== "ENOENT" && code !== "ENOTDIR") || path.dirname(head) === head) throw err;
      tail.unshift(path.basename(head));
    }
  }
}

/**
 * `rel` (relative to `from`, or absolute) resolved and checked against `c`: its real path must lie
 * inside one of the confinement's directories. Returns the resolved path (not the real one); throws
 * OutsideStoreError when it leaves them by `..`, an absolute path or a symlink anywhere on the way.
 * A missing file is checked through its nearest existing parent and left to the reader.
 */
export async function resolveConfined(from: string, rel: string, c: Confinement): Promise<string> {
  const file = path.resolve(from, rel);
  let real: string;
  try {
    real = await realpathOfExisting(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new OutsideStoreError(`${rel}: cannot be resolved (${code}); refused`);
  }
  if (c.real.some((base) => isInside(base, real))) return file;
  const named = c.dirs.some((dir) => isInside(dir, file));
  throw new OutsideStoreError(
    named
      ? `${rel}: a symlink that points outside ${c.what}; refused ${ALLOW_HINT}`
      : `${rel}: outside ${c.what}; refused ${ALLOW_HINT}`,
  );
}
