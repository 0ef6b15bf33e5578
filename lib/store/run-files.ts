// Reads of a run directory outside its stores: whether paths are directories or regular files,
// which subdirectories a runs root holds, and small text files (run.json, tokenizer.json). Like the
// rest of lib/store it only reads, and it never opens anything but a regular file (a FIFO or device
// would block the reader forever); every call is under the read deadline (./io/file), since on a
// stalled mount even a stat never returns. Not responsible for what the files mean.
import "server-only";
import { SUFFIXES } from "./files";
import { lstatWithin, readdirWithin, readRegularFile, realpathWithin, statWithin } from "./io";

/** Whether anything is at `p` (a file, a directory, a FIFO, a link): a reader then says what. */
export async function existsAt(p: string): Promise<boolean> {
  return lstatWithin(p).then(
    () => true,
    () => false,
  );
}

export async function isDirectory(p: string): Promise<boolean> {
  return statWithin(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

export async function isRegularFile(p: string): Promise<boolean> {
  return statWithin(p).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Whether a file name is a token store's rollout file (`<rollout_id>.tokens.jsonl`). */
export const isTokenFileName = (name: string): boolean => name.endsWith(SUFFIXES.tokens);

/** Whether `dir` directly holds a token store (`*.tokens.jsonl`); false when unreadable. */
export async function holdsTokenFiles(dir: string): Promise<boolean> {
  try {
    return (await readdirWithin(dir)).some((d) => isTokenFileName(d.name));
  } catch {
    return false;
  }
}

/** Names of the directories directly under `dir`; empty when `dir` does not exist. */
export async function listSubdirectories(dir: string): Promise<string[]> {
  try {
    const entries = await readdirWithin(dir);
    return entries.filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/**
 * A text file's contents. Throws ENOENT as Node does when it is missing; refuses anything that is
 * not a regular file (opened without blocking, checked with fstat before reading).
 */
export async function readTextFile(file: string): Promise<string> {
  return (await readRegularFile(file)).toString("utf8");
}

export { realpathWithin as realpath };
