// A text as find compares it: case folded with every UTF-16 unit kept in place, so an offset in the
// folded text is the same offset in the decoded one (lib/tokens textOf's token starts still hold).
// Not responsible for decoding (lib/tokens) or matching (./find).
import { textOf, type TokenDecoder } from "@/lib/tokens";

/** Token ids decoded and folded: the text find looks through and where each token starts. */
export interface FoldedText {
  folded: string;
  starts: Int32Array;
}

/**
 * Case folded for find, one UTF-16 unit for one: `İ` is the only character whose lower case is
 * longer (checked over every code point), so it folds to `i`; final sigma folds to sigma.
 */
export function foldCase(text: string): string {
  return text
    .replace(/\u0130/g, "i")
    .toLowerCase()
    .replace(/ς/g, "σ");
}

/** The ids' text, folded, with each token's start offset. */
export function foldedTextOf(decoder: TokenDecoder, ids: ArrayLike<number>): FoldedText {
  const { text, starts } = textOf(decoder, ids);
  return { folded: foldCase(text), starts };
}
