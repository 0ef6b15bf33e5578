// The token store's fast path against the schema it stands in for: on every line of the sample
// runs' token stores it answers, with the schema's entry key for key and in the same order; on
// thousands of lines varied field by field (absent, null, other types, extra and odd keys) it
// either gives the schema's entry or steps aside, and never accepts a line the schema rejects.
import { describe, expect, it } from "vitest";
import { fastTokenEntry } from "./token-entry-fast";
import { tokenEntrySchema } from "./token-entry";
import { sampleTokenLines } from "@/lib/testing/sample-token-lines";

const tokenLines = () => sampleTokenLines().filter(Boolean);

/** The same values and the same key order (JSON text), or a disagreement named. */
function agrees(value: unknown): "fast" | "schema" {
  const fast = fastTokenEntry(value);
  const schema = tokenEntrySchema.safeParse(value);
  if (fast === null) return "schema";
  expect(schema.success, `fast accepted what the schema rejects: ${JSON.stringify(value)}`).toBe(
    true,
  );
  expect(JSON.stringify(fast)).toBe(JSON.stringify(schema.data));
  return "fast";
}

/** A small deterministic generator (no Math.random: a failure replays). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const VARIANTS: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  2 ** 53,
  "",
  "x",
  true,
  false,
  [],
  [1, 2],
  [-1],
  [1.5],
  ["a"],
  [null],
  {},
  { a: 1 },
  [{ type: "message" }],
  [[1]],
  [null, {}],
  NaN,
];

describe("fastTokenEntry", () => {
  it("answers every line of the sample runs' token stores as the schema does", () => {
    const lines = tokenLines();
    expect(lines.length).toBeGreaterThan(100);
    let fast = 0;
    for (const l of lines) {
      let v: unknown;
      try {
        v = JSON.parse(l);
      } catch {
        continue; // a torn line: the reader's, before either
      }
      if (agrees(v) === "fast") fast++;
    }
    // Every whole line of the samples is plainly well-formed: none needs the schema's path.
    expect(fast).toBeGreaterThan(lines.length - 10);
  });

  it("on lines varied field by field, gives the schema's entry or steps aside", () => {
    const lines = tokenLines().slice(0, 50);
    const next = rng(7);
    const keys = [
      ...Object.keys(JSON.parse(lines[0]!) as object),
      "schema_version",
      "zz_extra",
      "__proto__",
      "constructor",
    ];
    let fast = 0,
      schema = 0;
    for (let i = 0; i < 6000; i++) {
      const fields = new Map(Object.entries(JSON.parse(lines[i % lines.length]!) as object));
      const n = 1 + Math.floor(next() * 3);
      for (let k = 0; k < n; k++) {
        const key = keys[Math.floor(next() * keys.length)]!;
        const pick = Math.floor(next() * (VARIANTS.length + 1));
        if (pick === VARIANTS.length) fields.delete(key);
        else fields.set(key, VARIANTS[pick]);
      }
      // As the reader gets a line: JSON text, parsed (an own "__proto__" key is a property then).
      const text = [...fields]
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`);
      const v: unknown = JSON.parse(`{${text.join(",")}}`);
      if (agrees(v) === "fast") fast++;
      else schema++;
    }
    // Both paths taken often (about 1,000 and 5,000 of 6,000 with this seed).
    expect(fast).toBeGreaterThan(500);
    expect(schema).toBeGreaterThan(500);
  });
});
