// Parent digests computed ahead of the (synchronous) builder: on the thread pool (WebCrypto's
// digest), several at once, while this thread goes on reading. A chain's prompts repeat each other,
// so the ids already converted for one job are kept and the next job that repeats them (the reader
// says so: noteSharedPrefix) converts only its new ids. Answers are the digests tokenDigest gives.
import { webcrypto } from "node:crypto";
import { DOMAIN, digestKnown, fastIdBytes, header, idBytesSlow, rememberDigest } from "./digest";
import type { TokenIds } from "@/lib/schema";

/** The domain and header: 15 + 9 bytes, so the ids after them stay 8-byte aligned. */
const PREFIX = 24;
/** Digests in flight at once: each holds a copy of its bytes (up to 8 bytes a token). */
const IN_FLIGHT = 4;

/** ids -> the array whose first `length` ids it repeats (lib/store/token-line knows). */
const repeats = new WeakMap<TokenIds, { of: TokenIds; length: number }>();

/** Says `ids[0:length]` equals `of[0:length]` (same ids, read from the same bytes). */
export function noteSharedPrefix(ids: TokenIds, of: TokenIds, length: number) {
  repeats.set(ids, { of, length });
}

/** The last job's bytes: PREFIX bytes, then `tokens[0:count]` as u64 big-endian. */
let held: { tokens: TokenIds; count: number; bytes: Buffer } | null = null;

/** How many of the held ids `tokens` starts with, as far as is known without comparing. */
function reusable(tokens: TokenIds, length: number): number {
  if (!held) return 0;
  if (held.tokens === tokens) return Math.min(held.count, length);
  const r = repeats.get(tokens);
  return r && r.of === held.tokens ? Math.min(held.count, r.length, length) : 0;
}

/** PREFIX bytes then `tokens[0:length]` as u64 big-endian, reusing the held ids; null if invalid. */
function bytesOf(tokens: TokenIds, length: number): Buffer | null {
  const keep = reusable(tokens, length);
  const need = PREFIX + 8 * length;
  let bytes = held?.bytes ?? Buffer.alloc(0);
  if (bytes.length < need) {
    const grown = Buffer.allocUnsafe(Math.max(need, 2 * bytes.length));
    bytes.copy(grown, 0, 0, PREFIX + 8 * keep);
    bytes = grown;
  }
  const tail = bytes.subarray(PREFIX + 8 * keep, need);
  if (!fastIdBytes(tokens, keep, length, tail)) {
    try {
      idBytesSlow(tokens, keep, length, tail);
    } catch {
      held = null; // an id that cannot be digested: tokenDigest refuses it
      return null;
    }
  }
  held = { tokens, count: length, bytes };
  bytes.set(DOMAIN, 0);
  bytes.set(header(length), DOMAIN.length);
  return bytes.subarray(0, need);
}

/**
 * Starts the digest of `tokens[0:length]`; tokenDigest answers it from memory once done, for as
 * long as the array lives. Null when there is nothing to start: known already, an empty or too long
 * range, or an id that cannot be digested (left to tokenDigest, which refuses it as before).
 */
export function startDigest(tokens: TokenIds, length: number): Promise<void> | null {
  if (length <= 0 || length > tokens.length || digestKnown(tokens, length)) return null;
  const data = bytesOf(tokens, length);
  if (!data) return null;
  // WebCrypto copies its input when called, so the held bytes may change at once.
  return webcrypto.subtle
    .digest("SHA-256", data)
    .then((d) => rememberDigest(tokens, length, Buffer.from(d).toString("hex")));
}

/** Digests of each job's `tokens[0:length]` computed ahead, IN_FLIGHT at a time. */
export async function prehashDigests(
  jobs: ReadonlyArray<{ tokens: TokenIds; length: number }>,
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
