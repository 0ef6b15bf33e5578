// Routed experts as a token entry carries them (docs/experts.md): NeMo-RL's envelope
// `nrlre1:<int8|int16|int32>:<S>x<L>x<K>:<base64>` or nested lists [S][L][K], decoded once into one
// typed array (never a JS number per route). Not responsible for judging S against the call's
// tokens (./routes) nor for where the entry came from (lib/store reads it).

/** A call's routes, row-major [row][layer][k]; plain data, so a worker can clone or move it. */
export interface Routes {
  rows: number;
  layers: number;
  topk: number;
  data: Int8Array | Int16Array | Int32Array;
}

export type Decoded = { ok: true; routes: Routes } | { ok: false; problem: string };

const MAGIC = "nrlre1";
const DTYPES = { int8: 1, int16: 2, int32: 4 } as const;
export type RoutesDtype = keyof typeof DTYPES;
/** More routes than this in one call is refused rather than allocated (2^31 bytes of int8). */
const MAX_ELEMENTS = 0x7fffffff;

const B64 = new Int16Array(256).fill(-1);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
  .split("")
  .forEach((c, i) => (B64[c.charCodeAt(0)] = i));
const EQ = 0x3d;
const COLON = 0x3a;

const fail = (problem: string): Decoded => ({ ok: false, problem });

/** An envelope's text as bytes: the line's own, or a string's (base64 is ASCII). */
type Bytes = Uint8Array;

function field(b: Bytes, from: number): number {
  let i = from;
  while (i < b.length && b[i] !== COLON) i++;
  return i;
}

const ascii = (b: Bytes, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/**
 * The envelope's routes. Little-endian, as NeMo-RL writes them (numpy on x86 and ARM); typed
 * arrays read the platform's order, which is little-endian on every platform Node ships for.
 */
export function decodeEnvelope(b: Bytes): Decoded {
  const m = field(b, 0);
  const d = field(b, m + 1);
  const s = field(b, d + 1);
  if (ascii(b, 0, Math.min(m, 16)) !== MAGIC || s >= b.length)
    return fail(`not an ${MAGIC}:<dtype>:<S>x<L>x<K>:<base64> envelope`);
  const dtype = ascii(b, m + 1, Math.min(d, m + 17));
  if (!Object.hasOwn(DTYPES, dtype))
    return fail(`unsupported dtype ${JSON.stringify(dtype)} (int8, int16 or int32)`);
  const shapeText = ascii(b, d + 1, Math.min(s, d + 64));
  const shape = /^(\d{1,10})x(\d{1,10})x(\d{1,10})$/.exec(shapeText);
  if (!shape) return fail(`shape ${JSON.stringify(shapeText)} is not <S>x<L>x<K>`);
  const [rows, layers, topk] = [Number(shape[1]), Number(shape[2]), Number(shape[3])];
  const size = DTYPES[dtype as RoutesDtype];
  const elements = rows * layers * topk;
  if (elements * size > MAX_ELEMENTS) return fail(`shape ${shapeText} is too large to read`);
  const bytes = decodeBase64(b, s + 1, elements * size);
  if (typeof bytes === "string") return fail(bytes);
  if (typeof bytes === "number")
    return fail(`${dtype} data holds ${bytes / size} values, shape ${shapeText} needs ${elements}`);
  const data =
    dtype === "int8"
      ? new Int8Array(bytes.buffer, 0, elements)
      : dtype === "int16"
        ? new Int16Array(bytes.buffer, 0, elements)
        : new Int32Array(bytes.buffer, 0, elements);
  return { ok: true, routes: { rows, layers, topk, data } };
}

/**
 * Standard base64 (with its padding) from `b[from…]` into a fresh buffer (aligned for int16/int32
 * views); the byte count it holds when that is not `expect`; a message when it is not base64.
 */
function decodeBase64(b: Bytes, from: number, expect: number): Uint8Array | number | string {
  let end = b.length;
  let pad = 0;
  while (end > from && b[end - 1] === EQ && pad < 2) {
    end--;
    pad++;
  }
  const chars = end - from;
  if ((chars + pad) % 4 !== 0 || (pad > 0 && chars % 4 === 0))
    return `base64 of ${chars + pad} characters is not a whole number of 4-character groups`;
  const length = Math.floor((chars * 3) / 4);
  if (length !== expect) return length;
  const out = new Uint8Array(length);
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = from; i < end; i++) {
    const v = B64[b[i] as number] as number;
    if (v < 0)
      return `base64 has ${JSON.stringify(String.fromCharCode(b[i] as number))} at character ${i - from}`;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** Nested lists [S][L][K] of integers as one Int32Array (the lists JSON.parse made are dropped). */
export function decodeNested(value: readonly unknown[]): Decoded {
  const rows = value.length;
  const first = value[0];
  const layers = Array.isArray(first) ? first.length : 0;
  const topk = Array.isArray(first) && Array.isArray(first[0]) ? (first[0] as unknown[]).length : 0;
  if (rows > 0 && (layers === 0 || topk === 0))
    return fail("nested routes are not lists of [layer][k] integers");
  const data = new Int32Array(rows * layers * topk);
  let o = 0;
  for (let r = 0; r < rows; r++) {
    const row = value[r];
    if (!Array.isArray(row) || row.length !== layers)
      return fail(
        `row ${r} has ${Array.isArray(row) ? row.length : "no"} layers, row 0 has ${layers}`,
      );
    for (let l = 0; l < layers; l++) {
      const ks: unknown = row[l];
      if (!Array.isArray(ks) || ks.length !== topk)
        return fail(
          `row ${r} layer ${l} has ${Array.isArray(ks) ? ks.length : "no"} experts, expected ${topk}`,
        );
      for (const x of ks) {
        if (typeof x !== "number" || !Number.isInteger(x) || x < -1 || x > 0x7fffffff)
          return fail(`row ${r} layer ${l} holds ${JSON.stringify(x)}, not an expert index or -1`);
        data[o++] = x;
      }
    }
  }
  return { ok: true, routes: { rows, layers, topk, data } };
}

/** Whether `v` is already decoded routes (an entry read by lib/store). */
export function isRoutes(v: unknown): v is Routes {
  return (
    typeof v === "object" &&
    v !== null &&
    "data" in v &&
    (v.data instanceof Int8Array || v.data instanceof Int16Array || v.data instanceof Int32Array)
  );
}

/**
 * An entry's `routed_experts` as routes: null when absent; already decoded routes as they are; the
 * envelope as a string or as the line's bytes; nested lists. Anything else is a problem.
 */
export function decodeRoutes(raw: unknown): Decoded | null {
  if (raw === null || raw === undefined) return null;
  if (isRoutes(raw)) return { ok: true, routes: raw };
  if (raw instanceof Uint8Array) return decodeEnvelope(raw);
  // Base64 is ASCII: its UTF-8 bytes are its characters.
  if (typeof raw === "string") return decodeEnvelope(new TextEncoder().encode(raw));
  if (Array.isArray(raw)) return decodeNested(raw);
  return fail(`routed_experts is ${typeof raw}, neither an envelope string nor nested lists`);
}
