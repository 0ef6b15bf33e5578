// The few reads Gym main's freeze view makes of a rollout's files beyond the token store's own
// read (./gym-read): a size, a byte range of the token file, a side file's bytes, each read-only
// and bounded. Not responsible for what the bytes mean (./gym-freeze, ./gym-state).
import "server-only";
import path from "node:path";
import { confine, OutsideStoreError } from "./confine";
import { openRegular, readRegularFile, StalledReadError } from "./io";
import { MAX_LINE_BYTES } from "./jsonl";

/** The token file's size when the token store's read did not say; 0 when it has gone since. */
export async function sizeOf(p: string): Promise<number> {
  try {
    const f = await openRegular(p);
    await f.close();
    return f.size;
  } catch (err) {
    if (err instanceof StalledReadError) throw err;
    return 0;
  }
}

/** Most bytes re-read for Gym's view of a damaged file (the token store's own line limit). */
const MAX_REREAD = MAX_LINE_BYTES;
const CHUNK = 1 << 20;

/** Bytes [from, to) of a regular file in 1 MB reads; fewer when the file shrank meanwhile. */
export async function readRange(p: string, from: number, to: number): Promise<Buffer> {
  if (to - from > MAX_REREAD)
    throw new Error(`${path.basename(p)}: ${to - from} bytes to re-read for gym-v1; not read`);
  const f = await openRegular(p);
  try {
    const parts: Buffer[] = [];
    for (let pos = from; pos < to;) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, to - pos));
      const n = await f.read(buf, pos);
      if (n === 0) break;
      parts.push(buf.subarray(0, n));
      pos += n;
    }
    return Buffer.concat(parts);
  } finally {
    await f.close();
  }
}

/** A side file's bytes, null when missing, or the error string when it cannot be read. */
export async function bytesIfExists(dir: string, p: string): Promise<Buffer | null | string> {
  try {
    await confine(dir, p);
    return await readRegularFile(p, 16 << 20);
  } catch (err) {
    if (err instanceof StalledReadError) throw err;
    if (err instanceof OutsideStoreError) return `PermissionError: ${err.message}`;
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    return `OSError: ${(err as Error).message}`;
  }
}

/** An I/O failure of the token file as the consumer's error; a stalled read stays thrown. */
export function ioError(err: unknown): string {
  if (err instanceof StalledReadError) throw err;
  return `OSError: ${(err as Error).message}`;
}
