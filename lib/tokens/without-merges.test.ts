import { describe, expect, it } from "vitest";
import { mergesSpan, withoutMerges } from "./without-merges";

/** What the cut must equal: the file parsed whole, its model's merges emptied. */
function expected(text: string): unknown {
  const json = JSON.parse(text) as { model?: { merges?: unknown } };
  if (json.model && Array.isArray(json.model.merges)) json.model.merges = [];
  return json;
}

const tokenizer = (merges: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    version: "1.0",
    added_tokens: [{ id: 5, content: '<|"merges": [x]|>' }],
    merges: ["top-level merges are not the model's"],
    ...extra,
    model: {
      type: "BPE",
      vocab: { merges: 1, '"': 2, "\\": 3, "[": 4, "é 世界": 5 },
      nested: { merges: ["a deeper merges stays"] },
      merges,
      dropout: null,
    },
    decoder: { type: "ByteLevel" },
  });

describe("withoutMerges", () => {
  it("cuts model.merges and nothing else, strings, escapes and brackets in keys included", () => {
    for (const merges of [
      ["a b", "c d", '" ]', "\\", "[ {"],
      [
        ["a", "b"],
        ['\\"', "]]"],
      ],
      [],
    ]) {
      const text = tokenizer(merges);
      expect(JSON.parse(withoutMerges(Buffer.from(text)))).toEqual(expected(text));
    }
  });

  it("finds merges laid out with whitespace, as Hugging Face writes them", () => {
    const text = JSON.stringify(JSON.parse(tokenizer(["a b", "c d"])), null, 2);
    const span = mergesSpan(Buffer.from(text));
    expect(span).not.toBeNull();
    // Byte offsets (the vocabulary holds multi-byte text before it).
    const bytes = Buffer.from(text).subarray(span![0], span![1]);
    expect(JSON.parse(bytes.toString())).toEqual(["a b", "c d"]);
    expect(JSON.parse(withoutMerges(Buffer.from(text)))).toEqual(expected(text));
  });

  it("leaves a file without model merges, or one it cannot follow, whole", () => {
    for (const text of [
      tokenizer(null),
      tokenizer("not an array"),
      JSON.stringify({ model: { type: "WordPiece", vocab: { a: 0 } } }),
      tokenizer(["a b"]).slice(0, 150), // torn: its parse still fails as before
      "",
    ])
      expect(withoutMerges(Buffer.from(text))).toBe(text);
  });

  it("cuts the merges of a large file and keeps its vocabulary", () => {
    const merges = Array.from({ length: 300_000 }, (_, i) => `a${i % 97} b${i}`);
    const text = tokenizer(merges);
    const out = withoutMerges(Buffer.from(text));
    expect(out.length).toBeLessThan(1_000);
    expect(JSON.parse(out)).toEqual(expected(text));
  });
});
