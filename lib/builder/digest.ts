// Token digest (capture-format.md §5.1): sha256("nemo-gym-tokens" ++ 0x01 ++ u64be count ++ u64be ids).
// The empty sequence hashes the domain bytes alone. Used to verify recorded parent links.
// startDigest computes a rollout's likely digests off this thread ahead of the (synchronous)
// builder, which then finds them by the very array and length; anything else is hashed here.
import { createHash, webcrypto } from "node:crypto";

const DOMAIN = Buffer.from("nemo-gym-tokens", "ascii");
const DIGEST_VERSION = 1;
const TWO_32 = 4294967296;

// One growable scratch buffer: digests are synchronous, so it is never shared between calls.
let scratch = new ArrayBuffer(1 << 16);

/** Digests of `tokens[0:length]` computed ahead by prehashDigests: array -> length -> hex. */
const ahead = new WeakMap<readonly number[], Map<number, string>>();

/** Digest of `tokens[start:end]` (defaults: the whole array). Throws on a negative or non-integer id. */
export function tokenDigest(tokens: readonly number[], start = 0, end = tokens.length): string {
  const known = start === 0 ? ahead.get(tokens)?.get(end) : undefined;
  if (known !== undefined) return known;
  const hash = createHash("sha256").update(DOMAIN);
  const count = end - start;
  if (count <= 0) return hash.digest("hex");
  hash.update(header(count));
  return hash.update(idBytes(tokens, start, end)).digest("hex");
}

/** The version byte and the u64 big-endian count. */
function header(count: number): Uint8Array {
  const view = new DataView(new ArrayBuffer(9));
  view.setUint8(0, DIGEST_VERSION);
  view.setUint32(1, Math.floor(count / TWO_32));
  view.setUint32(5, count >>> 0);
  return new Uint8Array(view.buffer);
}

/** The domain and header: 15 + 9 bytes, so the ids after them stay 8-byte aligned. */
const PREFIX = 24;

/** Digests in flight at once: each holds a copy of its bytes (up to 8 bytes a token). */
const IN_FLIGHT = 4;

/**
 * Starts the digest of `tokens[0:length]` on the thread pool (WebCrypto's digest); tokenDigest then
 * answers it from memory for as long as the array lives. Null when there is nothing to start: known
 * already, an empty or too long range, or an id that cannot be digested (left to tokenDigest, which
 * refuses it as before). The answer is the same digest, only computed earlier.
 */
export function startDigest(tokens: readonly number[], length: number): Promise<void> | null {
  if (length <= 0 || length > tokens.length || ahead.get(tokens)?.has(length)) return null;
  let data: Buffer;
  try {
    data = idBytes(tokens, 0, length, PREFIX);
  } catch {
    return null;
  }
  data.set(DOMAIN, 0);
  data.set(header(length), DOMAIN.length);
  // WebCrypto copies its input when called, so the scratch buffer is free again at once.
  return webcrypto.subtle.digest("SHA-256", data).then((d) => {
    let byLength = ahead.get(tokens);
    if (!byLength) ahead.set(tokens, (byLength = new Map()));
    byLength.set(length, Buffer.from(d).toString("hex"));
  });
}

/** Digests of each job's `tokens[0:length]` computed ahead, IN_FLIGHT at a time (startDigest). */
export async function prehashDigests(
  jobs: ReadonlyArray<{ tokens: readonly number[]; length: number }>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  for (const { tokens, length } of jobs) {
    const job = startDigest(tokens, length);
    if (!job) continue;
    const tracked = job.finally(() => running.delete(tracked));
    running.add(tracked);
    if (running.size >= IN_FLIGHT) await Promise.race(running);
  }
  await Promise.all(running);
}

/**
 * The ids as u64 big-endian in the scratch buffer after `skip` bytes (a multiple of 8 the caller
 * fills: prehash's domain and header), valid until the next call; the returned view starts at 0.
 */
function idBytes(tokens: readonly number[], start: number, end: number, skip = 0): Buffer {
  const bytes = skip + 8 * (end - start);
  if (scratch.byteLength < bytes)
    scratch = new ArrayBuffer(Math.max(bytes, scratch.byteLength * 2));
  // Ids below 2^32 (every real vocabulary): [0, id] as native words, then each word byte-swapped
  // at once, which on a little-endian machine is the big-endian u64. Anything else: DataView.
  const words = new Uint32Array(scratch, 0, bytes / 4);
  const all = Buffer.from(scratch, 0, bytes);
  const ids = all.subarray(skip);
  let w = skip / 4;
  for (let i = start; i < end; i++) {
    const t = tokens[i] as number;
    if (!(t >= 0 && t <= 0xffffffff && Math.floor(t) === t) || !LITTLE_ENDIAN) {
      idBytesSlow(tokens, start, end, ids);
      return skip === 0 ? ids : all;
    }
    words[w] = 0;
    words[w + 1] = t;
    w += 2;
  }
  ids.swap32();
  return skip === 0 ? ids : all;
}

function idBytesSlow(tokens: readonly number[], start: number, end: number, out: Buffer): Buffer {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let off = 0;
  for (let i = start; i < end; i++) {
    const t = tokens[i] as number;
    if (!Number.isSafeInteger(t) || t < 0)
      throw new RangeError(`token id ${t} at index ${i} cannot be digested`);
    view.setUint32(off, Math.floor(t / TWO_32));
    view.setUint32(off + 4, t >>> 0);
    off += 8;
  }
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
