// The search box's text as a query: words, "phrases", kind:, and every other character literal;
// the FTS5 expression only narrows (each trigram quoted, so no user text is FTS5 syntax).
import { describe, expect, it } from "vitest";
import { parseTextQuery } from "./parse";

describe("parseTextQuery", () => {
  it("takes plain words and quoted phrases, lower-cased, each once", () => {
    expect(parseTextQuery('rm  "Traceback (most"  RM')?.needles).toEqual(["rm", "traceback (most"]);
  });

  it("runs an unclosed quote to the end and holds nothing for a lone quote or blanks", () => {
    expect(parseTextQuery('"no module named')?.needles).toEqual(["no module named"]);
    expect(parseTextQuery('"')).toBeNull();
    expect(parseTextQuery('  ""  ')).toBeNull();
    expect(parseTextQuery("")).toBeNull();
  });

  it("limits where with kind:, and keeps an unknown kind as text", () => {
    expect(parseTextQuery("kind:error kind:TOOL 503")).toMatchObject({
      needles: ["503"],
      kinds: ["e", "i"],
    });
    expect(parseTextQuery("kind:nothing")).toMatchObject({
      needles: ["kind:nothing"],
      kinds: null,
      unknownKinds: ["kind:nothing"], // the box says it is looked for as text
    });
    // A place alone: rollouts with text of that kind (a failed call's body, for kind:error).
    expect(parseTextQuery("kind:error")).toEqual({
      needles: [],
      kinds: ["e"],
      fts: null,
      unknownKinds: [],
    });
  });

  it("quotes every trigram, doubling quotes, so FTS5 reads none of the user's text as syntax", () => {
    const q = parseTextQuery('a"b OR');
    expect(q?.needles).toEqual(['a"b', "or"]);
    expect(q?.fts).toBe('"a""b"'); // "or" has no trigram: it narrows nothing, the check still needs it
  });

  it("counts trigrams by code point and gives none for needles under three characters", () => {
    expect(parseTextQuery("操作")?.fts).toBeNull();
    expect(parseTextQuery("不支持")?.fts).toBe('"不支持"');
    expect(parseTextQuery("NEAR(")?.fts).toBe('"nea" AND "ear" AND "ar("');
  });

  it("drops control characters, which separate a rollout's segments in the index", () => {
    expect(parseTextQuery("a\u0001b")?.needles).toEqual(["a", "b"]);
  });
});
