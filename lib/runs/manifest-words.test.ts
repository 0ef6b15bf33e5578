// run.json's problems in words: a syntax error at its line and column, a misspelled key with the
// valid key it is nearest. Expected positions are counted by hand in the texts below.
import { describe, expect, it } from "vitest";
import { runManifestSchema } from "@/lib/schema";
import {
  editDistance,
  jsonSyntaxWords,
  lineColumn,
  manifestIssueWords,
  nearestKey,
} from "./manifest-words";

const syntaxError = (text: string): Error => {
  try {
    JSON.parse(text);
  } catch (err) {
    return err as Error;
  }
  throw new Error("parsed");
};

describe("a run.json syntax error", () => {
  it("is told at its line and column, not its byte position", () => {
    // Line 3 is `  "capture": "on"` followed by a line that lacks the comma before it.
    const text = '{\n  "name": "x",\n  "capture": "on"\n  "builder_profile": "seed"\n}\n';
    const words = jsonSyntaxWords(text, syntaxError(text));
    expect(words).toMatch(/at line 4, column 3$/);
    expect(words).not.toMatch(/position/);
  });

  it("an unterminated file is told at its end", () => {
    const text = '{\n  "name": "x",\n  "capture": ';
    expect(jsonSyntaxWords(text, syntaxError(text))).toBe(
      "unexpected end of the file at line 3, column 14",
    );
  });

  it("lineColumn counts lines and columns from 1", () => {
    expect(lineColumn("ab\ncd", 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn("ab\ncd", 4)).toEqual({ line: 2, column: 2 });
  });
});

describe("a misspelled run.json key", () => {
  it("names the unknown key and the nearest valid one", () => {
    const parsed = runManifestSchema.safeParse({ builder_profle: "gym-v1", capture: "on" });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(manifestIssueWords(parsed.error)).toBe(
      "unknown key `builder_profle` — did you mean `builder_profile`?",
    );
  });

  it("names a key under paths with its prefix", () => {
    const parsed = runManifestSchema.safeParse({ paths: { rollout: "r.jsonl" } });
    if (parsed.success) throw new Error("parsed");
    expect(manifestIssueWords(parsed.error)).toBe(
      "unknown key `paths.rollout` — did you mean `paths.rollouts`?",
    );
  });

  it("offers no key when none is near", () => {
    const parsed = runManifestSchema.safeParse({ zzzzzzzz: 1 });
    if (parsed.success) throw new Error("parsed");
    expect(manifestIssueWords(parsed.error)).toBe("unknown key `zzzzzzzz`");
  });

  it("edit distance and the nearest key", () => {
    expect(editDistance("builder_profle", "builder_profile")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(nearestKey("tokenzier", ["tokenizer", "name"])).toBe("tokenizer");
  });
});
