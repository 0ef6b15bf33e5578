// The number lists of a token-store line read straight from its bytes: token ids (small
// non-negative integers) and log probs (any JSON number, converted to the very double JSON.parse
// gives). Anything these do not read exactly is refused (-1), never guessed: the caller then leaves
// the list to JSON.parse. Not responsible for where lists are in a line (./token-line).

export const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COMMA = 0x2c,
  COLON = 0x3a,
  OPEN_BRACE = 0x7b,
  CLOSE_BRACE = 0x7d,
  OPEN_BRACKET = 0x5b,
  CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d,
  PLUS = 0x2b,
  DOT = 0x2e,
  ZERO = 0x30,
  LOWER_E = 0x65,
  UPPER_E = 0x45;

export const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

export function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length && isSpace(b[i] as number)) i++;
  return i;
}

/** Largest id kept on the fast path: ids are stored as small integers, as JSON.parse stores them. */
const MAX_ID = 0x7fffffff;

/**
 * Ids from `i` (at a value) through the closing `]`, written to `ids` from index `k`; the index of
 * `]`, or -1 for anything but plain integers 0 … 2^31−1 (a sign, a fraction, an exponent, a leading
 * zero, a larger number, another value). `ids` ends with exactly the ids read.
 */
export function scanIdsInto(b: Uint8Array, i: number, ids: number[], k: number): number {
  for (;;) {
    const start = i;
    let n = (b[i] as number) - ZERO;
    if (!(n >= 0 && n <= 9)) return -1;
    let c = b[++i] as number;
    if (n !== 0) {
      // Up to 10 digits the sum is exact; the bound is checked once per id, not per digit.
      for (let d = c - ZERO; d >= 0 && d <= 9; d = (c = b[++i] as number) - ZERO) n = n * 10 + d;
      if (i - start > 10 || n > MAX_ID) return -1;
    } else if (c >= ZERO && c <= ZERO + 9) return -1; // a leading zero is not JSON
    if (c === DOT || c === LOWER_E || c === UPPER_E) return -1;
    ids[k++] = n; // past the capacity, the array grows as push would
    if (c !== COMMA && c !== CLOSE_BRACKET) c = b[(i = skipSpace(b, i))] as number;
    if (c === CLOSE_BRACKET) break;
    if (c !== COMMA) return -1;
    i = skipSpace(b, i + 1);
  }
  ids.length = k;
  return i;
}

/** 10^0 … 10^22: every one is a double exactly (10^23 is not). */
const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
  1e18, 1e19, 1e20, 1e21, 1e22,
];

/** Where the last readNumber stopped: the index after the number, or -1 when it was not one. */
let numberEnd = 0;

/**
 * The JSON number at `i` (its grammar exactly; numberEnd says where it ends, -1 when it is not
 * one). A mantissa of at most 15 digits is an exact double, and so is 10^|e| for |e| ≤ 22, so one
 * IEEE multiply or divide rounds the exact value once: the double JSON.parse gives (Clinger's
 * fast path), -0 included. Any other number goes to Number() of its text, which JSON.parse shares.
 */
function readNumber(b: Buffer, i: number): number {
  const start = i;
  const negative = b[i] === MINUS;
  if (negative) i++;
  let m = 0;
  let digits = 0;
  let scale = 0;
  let c = b[i] as number;
  if (c === ZERO) c = b[++i] as number;
  else if (c > ZERO && c <= ZERO + 9)
    for (; c >= ZERO && c <= ZERO + 9; c = b[++i] as number, digits++) m = m * 10 + (c - ZERO);
  else return (numberEnd = -1);
  if (c === DOT) {
    c = b[++i] as number;
    if (!(c >= ZERO && c <= ZERO + 9)) return (numberEnd = -1);
    for (; c >= ZERO && c <= ZERO + 9; c = b[++i] as number, digits++, scale--)
      m = m * 10 + (c - ZERO);
  }
  if (c === LOWER_E || c === UPPER_E) {
    c = b[++i] as number;
    const down = c === MINUS;
    if (down || c === PLUS) c = b[++i] as number;
    if (!(c >= ZERO && c <= ZERO + 9)) return (numberEnd = -1);
    let e = 0;
    // Past 9999 the exponent only says "overflow" or "underflow"; Number() below decides.
    for (; c >= ZERO && c <= ZERO + 9; c = b[++i] as number) if (e < 10000) e = e * 10 + (c - ZERO);
    scale += down ? -e : e;
  }
  numberEnd = i;
  if (digits > 15 || scale < -22 || scale > 22) return Number(b.toString("latin1", start, i));
  const v = scale < 0 ? m / (POW10[-scale] as number) : m * (POW10[scale] as number);
  return negative ? -v : v;
}

/**
 * A list of JSON numbers at `i` (its `[`) into `values` (whose length is only a capacity); the index
 * after `]`, or -1 when any element is not a JSON number (JSON.parse then decides the line).
 */
export function scanFloatsInto(b: Buffer, i: number, values: number[]): number {
  let k = 0;
  i = skipSpace(b, i + 1);
  if (b[i] !== CLOSE_BRACKET) {
    for (;;) {
      const v = readNumber(b, i);
      if (numberEnd < 0) return -1;
      values[k++] = v;
      i = numberEnd;
      let c = b[i];
      if (c !== COMMA && c !== CLOSE_BRACKET) c = b[(i = skipSpace(b, i))];
      if (c === CLOSE_BRACKET) break;
      if (c !== COMMA) return -1;
      i = skipSpace(b, i + 1);
    }
  }
  values.length = k;
  return i + 1;
}
