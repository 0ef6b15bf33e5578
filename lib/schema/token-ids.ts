// Fast zod types for the large numeric arrays in token records.
// Token arrays reach 200k elements per line, so a per-element zod chain is too slow;
// these check the whole array in one tight loop and still report the first bad index.
import { z } from "zod";

function firstBadTokenId(value: unknown[]): number {
  for (let i = 0; i < value.length; i++) {
    const t = value[i];
    if (typeof t !== "number" || !Number.isSafeInteger(t) || t < 0) return i;
  }
  return -1;
}

export const tokenIdArray = z.array(z.unknown()).transform((value, ctx) => {
  const bad = firstBadTokenId(value);
  if (bad >= 0) {
    ctx.addIssue({
      code: "custom",
      message: `token id at index ${bad} is ${JSON.stringify(value[bad])}: ids must be non-negative integers`,
      path: [bad],
    });
    return z.NEVER;
  }
  return value as number[];
});

export const logProbArray = z.array(z.unknown()).transform((value, ctx) => {
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    // Python's json writes NaN/Infinity which JSON.parse rejects earlier; a null here means
    // the writer had no value, which upstream readers refuse as well.
    if (typeof v !== "number") {
      ctx.addIssue({ code: "custom", message: `log prob at index ${i} is ${JSON.stringify(v)}: expected a number`, path: [i] });
      return z.NEVER;
    }
  }
  return value as number[];
});
