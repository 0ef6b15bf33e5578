// The one file-version key: a file's size and mtime, as a string. Every cache and index that must
// notice a changed file keys by this, so none of them can disagree about whether a file changed.
// Not responsible for reading the file.
import "server-only";
import path from "node:path";
import { statWithin } from "./io";

export interface FileStat {
  size: number;
  mtimeMs: number;
}

/** "size:mtime" (mtime in whole microseconds, so a float never differs by rounding), or "-". */
export function versionOf(st: FileStat | null | undefined): string {
  return st ? `${st.size}:${Math.round(st.mtimeMs * 1000)}` : "-";
}

/** The version of the regular file at `file`, or "-" when it is missing or not a regular file. */
export async function fileVersion(file: string | null): Promise<string> {
  if (!file) return "-";
  const st = await statWithin(file).catch(() => null);
  return st?.isFile() ? versionOf(st) : "-";
}

/**
 * The file's version and size, or why it cannot be read: a missing file is no error (version "-"),
 * anything else at its path (a directory, FIFO or device, a failed stat) is refused by name.
 */
export async function fileState(
  file: string,
): Promise<{ version: string; size: number; error: string | null }> {
  const name = path.basename(file);
  const st = await statWithin(file).catch((err: NodeJS.ErrnoException) => err);
  if (st instanceof Error) {
    if ((st as NodeJS.ErrnoException).code === "ENOENT")
      return { version: "-", size: 0, error: null };
    return { version: `! ${st.message}`, size: 0, error: `${name}: ${st.message}` };
  }
  if (st.isFile()) return { version: versionOf(st), size: st.size, error: null };
  const error = `${name}: not a regular file (a directory, FIFO or device); refused`;
  return { version: `! ${error}`, size: 0, error };
}
