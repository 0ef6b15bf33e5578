// Reads of a run directory outside its stores: whether paths are directories or regular files,
// which subdirectories a runs root holds, and small text files (run.json, tokenizer.json). Like the
// rest of lib/store it only reads, and it never opens anything but a regular file (a FIFO or device
// would block the reader forever). Not responsible for what the files mean.
import "server-only";
import { readdir, readFile, realpath, stat } from "node:fs/promises";

export async function isDirectory(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

export async function isRegularFile(p: string): Promise<boolean> {
  return stat(p).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** Whether `dir` directly holds a token store (`*.tokens.jsonl`); false when unreadable. */
export async function holdsTokenFiles(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).some((n) => n.endsWith(".tokens.jsonl"));
  } catch {
    return false;
  }
}

/** Names of the directories directly under `dir`; empty when `dir` does not exist. */
export async function listSubdirectories(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true });
    return entries.filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/**
 * A small text file's contents. Throws ENOENT as Node does when it is missing, and refuses anything
 * that is not a regular file before opening it.
 */
export async function readTextFile(file: string): Promise<string> {
  const st = await stat(file);
  if (!st.isFile()) throw new Error(`${file}: not a regular file; refused`);
  return readFile(file, { encoding: "utf8", flag: "r" });
}

export { realpath };
