// The run page's words about a text search: a search with no row names what it looked for, and a
// partial index is said to be partial.
import { describe, expect, it } from "vitest";
import { noTextMatchWords, textIndexedWords } from "./search-words";

describe("text search words", () => {
  it("says which text no rollout holds, where it was looked for, and that filters narrowed it", () => {
    expect(noTextMatchWords({ needles: ["traceback"], kinds: null }, false)).toBe(
      "No rollout's text contains “traceback”.",
    );
    expect(
      noTextMatchWords({ needles: ["rm", "-rf", "no such file"], kinds: ["e", "i"] }, true),
    ).toBe(
      "No rollout's text contains “rm”, “-rf” and “no such file” in error bodies or input (tool output, user turns) among the rollouts the other filters select.",
    );
    expect(noTextMatchWords({ needles: [], kinds: ["e"] }, false)).toBe(
      "No rollout has error bodies.",
    );
  });

  it("says how much text is indexed while the index runs, and nothing once it is complete", () => {
    expect(textIndexedWords(1234, 10000)).toBe(
      "1,234 of 10,000 rollouts' text indexed so far: a search lists matches among those only",
    );
    expect(textIndexedWords(40, null)).toBeNull();
  });
});
