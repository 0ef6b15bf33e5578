// Token ids that cannot be in any vocabulary (docs/gym-v1-store.md §4): Gym trains on whatever
// integers a record holds, so these keep the verdict and raise a warning. Decoding is lib/tokens'.

/** The largest id any vocabulary can hold: token ids are int32 in every serving stack. */
export const MAX_TOKEN_ID = 2 ** 31 - 1;

/**
 * True when `id` lies outside 0 … 2^31−1, or at or past `vocabSize` when the tokenizer is known.
 * Ids past 2^53 arrive as bigints or digit strings (a double cannot hold them exactly).
 */
export function isOutsideVocabulary(
  id: number | bigint | string,
  vocabSize: number | null = null,
): boolean {
  const limit = vocabSize !== null ? Math.min(vocabSize - 1, MAX_TOKEN_ID) : MAX_TOKEN_ID;
  if (typeof id === "number") return !Number.isInteger(id) || id < 0 || id > limit;
  let big: bigint;
  try {
    big = BigInt(id);
  } catch {
    return true; // not an integer at all
  }
  return big < BigInt(0) || big > BigInt(limit);
}

export function countOutsideVocabulary(
  ids: Iterable<number | bigint | string>,
  vocabSize: number | null = null,
): number {
  let n = 0;
  for (const id of ids) if (isOutsideVocabulary(id, vocabSize)) n++;
  return n;
}
