// A tokenizer.json's text with its BPE merges (`model.merges`, most of a large file's bytes, never
// used to decode) cut out before anything is parsed: a byte scan that follows strings and brackets
// only, so a 200 MB file is never held as a 200 MB string or as millions of merge strings. What
// is left is parsed as usual; a file the scan does not understand is returned whole, unchanged.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The index after the string starting at `i` (its opening quote); b.length if it never ends. */
function afterString(b: Uint8Array, i: number): number {
  for (let j = i + 1; j < b.length; j++) {
    const c = b[j];
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return b.length;
}

/** The index after the array or object starting at `i`; -1 if it never closes. */
function afterValue(b: Uint8Array, i: number): number {
  let depth = 0;
  for (let j = i; j < b.length; j++) {
    const c = b[j];
    if (c === QUOTE) j = afterString(b, j) - 1;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
    else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

/** Where `model.merges`'s array value is in the file: [start, end), or null. */
export function mergesSpan(b: Uint8Array): [number, number] | null {
  // keys[d]: the key whose value is being read at object depth d (only short keys are decoded).
  const keys: string[] = [];
  let depth = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (c === QUOTE) {
      const end = afterString(b, i);
      let k = end;
      while (k < b.length && isSpace(b[k]!)) k++;
      if (b[k] === COLON) {
        keys[depth] = end - i <= 16 ? Buffer.from(b.subarray(i + 1, end - 1)).toString() : "";
        k++;
        while (k < b.length && isSpace(b[k]!)) k++;
        if (depth === 2 && keys[1] === "model" && keys[2] === "merges" && b[k] === OPEN_ARRAY) {
          const close = afterValue(b, k);
          return close < 0 ? null : [k, close];
        }
        // A value at depth ≥ 2 outside the model is skipped whole: nothing below it matters.
        if (
          (b[k] === OPEN_ARRAY || b[k] === OPEN_OBJECT) &&
          !(depth === 1 && keys[1] === "model")
        ) {
          const close = afterValue(b, k);
          if (close < 0) return null;
          i = close - 1;
          continue;
        }
      }
      i = end - 1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return null;
}

/** The file's text with `model.merges` replaced by `[]` (the whole text when it has none). */
export function withoutMerges(b: Buffer): string {
  const span = mergesSpan(b);
  if (!span) return b.toString("utf8");
  return b.toString("utf8", 0, span[0]) + "[]" + b.toString("utf8", span[1]);
}
