// Fast zod types for the large numeric arrays in token records.
// Token arrays reach 200k elements per line, so a per-element zod schema is too slow;
// these check the whole array in one tight loop and still report the first bad index.
import { z } from "zod";

function checkArray(
  value: unknown,
  ctx: z.RefinementCtx,
  ok: (v: unknown) => boolean,
  describe: (i: number, v: unknown) => string,
): unknown[] | typeof z.NEVER {
  if (!Array.isArray(value)) {
    ctx.addIssue({
      code: "custom",
      message: `expected an array, received ${value === null ? "null" : typeof value}`,
    });
    return z.NEVER;
  }
  for (let i = 0; i < value.length; i++) {
    if (!ok(value[i])) {
      ctx.addIssue({ code: "custom", message: describe(i, value[i]), path: [i] });
      return z.NEVER;
    }
  }
  return value;
}

/**
 * An id as the message names it. Past 2^53 a double no longer holds the file's digits (2^60 reads
 * back as 1152921504606847000): say so rather than print digits the file never held.
 */
function describeId(t: unknown): string {
  if (typeof t === "number" && Number.isInteger(t) && !Number.isSafeInteger(t))
    return `an integer beyond ${t < 0 ? "−" : ""}2^53 (its exact digits are in the file)`;
  return JSON.stringify(t);
}

export const isTokenId = (t: unknown): boolean =>
  typeof t === "number" && Number.isSafeInteger(t) && t >= 0;

export const tokenIdArray = z
  .any()
  .transform(
    (v, ctx) =>
      checkArray(
        v,
        ctx,
        isTokenId,
        (i, t) => `token id at index ${i} is ${describeId(t)}: ids must be non-negative integers`,
      ) as number[],
  );

// Gym main's TokenEntry takes any integer (pydantic `list[int]`): -1 and 2^60 are read and trained
// on. Such ids are flagged as warnings by the gym-v1 reader, not refused.
const isAnyInteger = (t: unknown) => typeof t === "number" && Number.isInteger(t);

export const anyIntegerIdArray = z
  .any()
  .transform(
    (v, ctx) =>
      checkArray(
        v,
        ctx,
        isAnyInteger,
        (i, t) => `token id at index ${i} is ${JSON.stringify(t)}: ids must be integers`,
      ) as number[],
  );

// Python's json writes NaN/Infinity, which JSON.parse already rejects; a null or string here is refused too.
export const logProbArray = z.any().transform(
  (v, ctx) =>
    checkArray(
      v,
      ctx,
      (x) => typeof x === "number",
      (i, x) => `log prob at index ${i} is ${JSON.stringify(x)}: expected a number`,
    ) as number[],
);
