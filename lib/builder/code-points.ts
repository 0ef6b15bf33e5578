// String order as Python compares str (by Unicode code point), which both profiles' reference
// builders use for call ids. JavaScript's `<` compares UTF-16 units, which puts an id with a
// character past U+FFFF before one with U+E000–U+FFFF; this does not.

/** Negative, zero or positive as `a` sorts before, with or after `b` by code point. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    // A surrogate unit starts a code point past U+FFFF: greater than any unit that is not one.
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
