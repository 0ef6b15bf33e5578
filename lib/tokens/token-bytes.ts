// Every token's bytes in one flat table, read from a tiktoken rank file (one line per token: its
// bytes in base64, a space, its rank), as gpt-tokenizer ships the bundled encoding beside its code
// (`gpt-tokenizer/data/o200k_base.tiktoken`). Reading the 3.6 MB file and decoding it in place
// takes 35-70 ms of CPU; importing the package's rank module (a 2.4 MB array literal of 200,000
// strings) took 190-270 ms and left those strings on the heap of every thread that decodes.
// Not responsible for special tokens or display pieces (./decoder).
import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";

/** Token `id`'s bytes are `bytes[at[id] .. at[id] + length[id])`; `at[id]` is -1 for no token. */
export interface TokenBytes {
  bytes: Uint8Array;
  at: Int32Array;
  length: Uint16Array;
}

const BASE64 = new Int8Array(256).fill(-1);
for (const [i, c] of [
  ..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
].entries())
  BASE64[c.charCodeAt(0)] = i;
const SPACE = 0x20;
const NEWLINE = 0x0a;
const EQUALS = 0x3d;
/** No rank file we know goes past this; a larger rank is a damaged file. */
const MAX_RANK = 1 << 22;

/** The table of a tiktoken rank file's bytes; throws naming the line when one is malformed. */
export function parseTiktoken(file: Uint8Array): TokenBytes {
  // Base64 never decodes to more bytes than it has characters; ranks are the line numbers, in
  // the files we know (a larger one grows the table).
  const bytes = new Uint8Array(file.length);
  let lines = 0;
  for (let i = file.indexOf(NEWLINE); i >= 0; i = file.indexOf(NEWLINE, i + 1)) lines++;
  let at = new Int32Array(lines + 1).fill(-1);
  let length = new Uint16Array(lines + 1);
  let ids = 0;
  let used = 0;
  let line = 0;
  for (let i = 0; i < file.length;) {
    line++;
    const start = used;
    let acc = 0;
    let bits = 0;
    for (; i < file.length && file[i] !== SPACE && file[i] !== EQUALS; i++) {
      const v = BASE64[file[i] as number] as number;
      if (v < 0) throw new Error(`line ${line}: not base64 before the rank`);
      acc = ((acc << 6) | v) & 0xffffff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes[used++] = (acc >> bits) & 0xff;
      }
    }
    while (file[i] === EQUALS) i++;
    if (file[i] !== SPACE || used === start)
      throw new Error(`line ${line}: no token before a space`);
    let rank = 0;
    let digits = 0;
    for (i++; i < file.length && file[i] !== NEWLINE; i++, digits++) {
      const d = (file[i] as number) - 0x30;
      if (d < 0 || d > 9 || rank > MAX_RANK) throw new Error(`line ${line}: the rank is no number`);
      rank = rank * 10 + d;
    }
    if (digits === 0) throw new Error(`line ${line}: no rank`);
    if (rank >= at.length) {
      const size = Math.max(rank + 1, at.length * 2);
      const a = new Int32Array(size).fill(-1);
      a.set(at);
      const n = new Uint16Array(size);
      n.set(length);
      at = a;
      length = n;
    }
    if ((at[rank] as number) >= 0) throw new Error(`line ${line}: rank ${rank} given twice`);
    at[rank] = start;
    length[rank] = used - start;
    ids = Math.max(ids, rank + 1);
    i++; // the newline
  }
  return { bytes: bytes.slice(0, used), at: at.slice(0, ids), length: length.slice(0, ids) };
}

/**
 * The bundled encoding's table from the package's rank file, found under the server's working
 * directory as the store worker is (lib/rollout/pool: a clone's root, or the npm package's
 * standalone directory, whose tracing keeps the file: next.config.mjs); not resolved as a module,
 * which the bundler would try to bundle. Null when it cannot be read: the caller then imports the
 * rank module instead.
 */
export async function bundledTokenBytes(name: "o200k_base"): Promise<TokenBytes | null> {
  try {
    const file = path.join(
      /*turbopackIgnore: true*/ process.cwd(),
      "node_modules",
      "gpt-tokenizer",
      "data",
      `${name}.tiktoken`,
    );
    return parseTiktoken(await readFile(file));
  } catch {
    return null;
  }
}
