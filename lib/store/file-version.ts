// The one file-version key: a file's size and mtime, as a string. Every cache and index that must
// notice a changed file keys by this, so none of them can disagree about whether a file changed.
// Not responsible for reading the file.
import "server-only";
import { statWithin } from "./io-file";

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
