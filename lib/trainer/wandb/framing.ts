// The framing of a W&B run file (`run-<id>.wandb`, wandb's transaction log): a 7-byte header,
// then LevelDB-log 32 KiB blocks of chunks (crc32 | length | type | data), a record being one FULL
// chunk or a FIRST, MIDDLE…, LAST chain. Reading never throws on a record's bytes: a torn tail (a
// run still being written), a bad CRC or a broken chain becomes a note with the byte offset, and
// the read goes on where it can. Not responsible for what the records mean (./proto, ./read).
import CRC32 from "crc-32";

/** The header and block layout of wandb's `wandb/sdk/internal/datastore.py`. */
export const WANDB_HEADER = { ident: ":W&B", magic: 0xbee1, version: 0, length: 7 } as const;
export const BLOCK_LENGTH = 32768;
export const CHUNK_HEADER_LENGTH = 7;
export const CHUNK = { full: 1, first: 2, middle: 3, last: 4 } as const;

// Notes past this many say only how many more: a damaged file must not make a huge read.
const MAX_NOTES = 20;

// The stored CRC is zlib's CRC-32 of the data seeded with the CRC-32 of the type byte (that is, the
// CRC-32 of type byte then data), unmasked: what datastore.py and wandb-core both compute.
const TYPE_SEEDS = [0, 1, 2, 3, 4].map((t) => CRC32.buf([t]));

/** The CRC a chunk of type `type` with payload `data` carries, as an unsigned 32-bit integer. */
export function chunkCrc(type: number, data: Uint8Array): number {
  const seed = TYPE_SEEDS[type] ?? CRC32.buf([type & 0xff]);
  return CRC32.buf(data, seed) >>> 0;
}

/** A file this reader will not read: not a W&B run file, or one from a newer log version. */
export class WandbFileRefused extends Error {
  constructor(
    readonly reason: "not_wandb" | "newer_version",
    message: string,
  ) {
    super(message);
    this.name = "WandbFileRefused";
  }
}

export interface WandbFraming {
  /** Whole, checked records handed to the visitor. */
  records: number;
  notes: string[];
  /** Bytes up to the end of the last whole record: a torn tail starts at or after here. */
  readBytes: number;
}

/** What the header says: fine, torn (a prefix of a good header), or a refusal. */
function checkHeader(bytes: Uint8Array, rel: string): "ok" | "torn" {
  const good = new Uint8Array(WANDB_HEADER.length);
  good.set(Buffer.from(WANDB_HEADER.ident, "latin1"));
  new DataView(good.buffer).setUint16(4, WANDB_HEADER.magic, true);
  const have = bytes.subarray(0, WANDB_HEADER.length);
  const same = (from: number, to: number) =>
    have.subarray(from, to).every((b, i) => b === good[from + i]);
  if (have.length < WANDB_HEADER.length) {
    if (same(0, have.length)) return "torn";
    throw new WandbFileRefused(
      "not_wandb",
      `not a W&B run file: ${rel} is ${have.length} bytes and does not start with ":W&B"`,
    );
  }
  if (!same(0, 4))
    throw new WandbFileRefused(
      "not_wandb",
      `not a W&B run file: ${rel} does not start with ":W&B"`,
    );
  if (!same(4, 6)) {
    const magic = new DataView(have.buffer, have.byteOffset + 4, 2).getUint16(0, true);
    throw new WandbFileRefused(
      "not_wandb",
      `not a W&B run file: ${rel} has magic 0x${magic.toString(16)} where W&B writes 0xbee1`,
    );
  }
  const version = have[6]!;
  if (version !== WANDB_HEADER.version)
    throw new WandbFileRefused(
      "newer_version",
      `${rel}: written by a newer W&B (log version ${version}); this reader knows version 0`,
    );
  return "ok";
}

/** A multi-chunk record being put together. */
interface Chain {
  offset: number;
  parts: Uint8Array[];
  size: number;
}

/** Puts checked chunks together into records: a FULL alone, a FIRST with its MIDDLEs and LAST. */
class Records {
  records = 0;
  readBytes: number = WANDB_HEADER.length;
  chain: Chain | null = null;
  // After a bad chunk of a chain, its remaining MIDDLE/LAST chunks are skipped without a note each.
  private skipping = false;

  constructor(
    private readonly visit: (data: Uint8Array, offset: number) => void,
    private readonly note: (message: string) => void,
  ) {}

  /** The chain in progress given up for `why` at byte `at`; a lone chunk noted only if `alone`. */
  drop(at: number, why: string, alone = true): void {
    const chain = this.chain;
    if (chain)
      this.note(`byte ${chain.offset}: a record spanning blocks skipped: ${why} at byte ${at}`);
    else if (alone) this.note(`byte ${at}: ${why}; skipped`);
    this.chain = null;
    this.skipping = true;
  }

  chunk(type: number, data: Uint8Array, at: number, end: number): void {
    if (type === CHUNK.full || type === CHUNK.first) {
      if (this.chain) this.drop(at, "no last part before the next record");
      this.skipping = false;
      if (type === CHUNK.first) this.chain = { offset: at, parts: [data], size: data.length };
      else this.done(data, at, end);
      return;
    }
    if (type !== CHUNK.middle && type !== CHUNK.last) {
      this.drop(at, `an unknown record type ${type}`);
      return;
    }
    const chain = this.chain;
    if (!chain) {
      if (!this.skipping)
        this.note(`byte ${at}: a record's later part without its first part; skipped`);
      return;
    }
    if (type === CHUNK.middle) {
      chain.parts.push(data);
      chain.size += data.length;
      return;
    }
    const out = new Uint8Array(chain.size + data.length);
    let k = 0;
    for (const p of [...chain.parts, data]) {
      out.set(p, k);
      k += p.length;
    }
    this.chain = null;
    this.done(out, chain.offset, end);
  }

  private done(data: Uint8Array, offset: number, end: number): void {
    this.records++;
    this.readBytes = end;
    this.visit(data, offset);
  }
}

/**
 * Each whole, checked record of the run file `bytes` (named `rel`) handed to `visit` in order with
 * the offset of its first chunk. A one-chunk record's payload is a view of `bytes`, valid during
 * the call; only records that span blocks are copied. Throws `WandbFileRefused` for a header that
 * is not W&B's or a newer log version, and for nothing else.
 */
export function eachWandbRecord(
  bytes: Uint8Array,
  rel: string,
  visit: (data: Uint8Array, offset: number) => void,
): WandbFraming {
  const notes: string[] = [];
  let dropped = 0;
  const say = (message: string) =>
    notes.length < MAX_NOTES ? notes.push(`${rel}: ${message}`) : dropped++;
  const records = new Records(visit, say);
  // Where the partial record at the end begins: its first chunk, or the padding written before it.
  let tornAt: number | null = null;
  let headed = false;
  if (bytes.length === 0) say("empty (0 bytes): no records yet");
  else if (checkHeader(bytes, rel) === "torn") tornAt = 0;
  else {
    headed = true;
    tornAt = walk(bytes, records, say);
  }
  const open = records.chain;
  if (tornAt === null && open) tornAt = open.offset;
  if (tornAt !== null)
    say(`ends in a partial record at byte ${tornAt} (a run still being written); read up to there`);
  if (dropped > 0) notes.push(`${rel}: …and ${dropped} more problems`);
  return { records: records.records, notes, readBytes: headed ? records.readBytes : 0 };
}

/** Walks the chunks after the header; returns where a torn tail begins, or null. */
function walk(bytes: Uint8Array, records: Records, say: (m: string) => void): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let at: number = WANDB_HEADER.length;
  // Where the write of the chunk at `at` began: before the padding a writer puts ahead of it.
  let writeStart = at;
  const tornHere = () => records.chain?.offset ?? writeStart;
  while (at < bytes.length) {
    const blockEnd = (Math.floor(at / BLOCK_LENGTH) + 1) * BLOCK_LENGTH;
    if (blockEnd - at < CHUNK_HEADER_LENGTH) {
      // A block's tail too short for a chunk header is zero padding, written just before the
      // next chunk: a file that ends in it ends in a partial record.
      if (bytes.subarray(at, Math.min(blockEnd, bytes.length)).some((b) => b !== 0))
        say(`byte ${at}: a block's padding is not zeros; ignored`);
      writeStart = at;
      at = blockEnd;
      if (at >= bytes.length) return tornHere();
      continue;
    }
    if (bytes.length - at < CHUNK_HEADER_LENGTH) return tornHere();
    const crc = view.getUint32(at, true);
    const length = view.getUint16(at + 4, true);
    const type = bytes[at + 6]!;
    const end = at + CHUNK_HEADER_LENGTH + length;
    if (crc === 0 && length === 0 && type === 0) {
      // A zeroed header is unwritten space (a preallocated or mapped file): the rest of its
      // block holds nothing.
      if (records.chain) records.drop(at, "zeroed bytes");
      at = writeStart = blockEnd;
    } else if (end > blockEnd) {
      // No writer makes a chunk cross its block: the header is damaged, its length garbage.
      records.drop(at, "a damaged record header", false);
      say(
        `byte ${at}: a record header claims ${length} bytes, past the end of its block; resuming at byte ${blockEnd}`,
      );
      at = writeStart = blockEnd;
    } else if (end > bytes.length) return tornHere();
    else {
      const data = bytes.subarray(at + CHUNK_HEADER_LENGTH, end);
      if (chunkCrc(type, data) === crc) records.chunk(type, data, at, end);
      else records.drop(at, "the record's CRC does not match");
      at = writeStart = end;
    }
  }
  return null;
}
