// Record fields over hand-made records: which paths are scalar fields (depth, arrays, nulls, odd
// keys), the value at a path, and a column that is not a field refused with the allowed ones.
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "@/lib/errors";
import {
  discoverFields,
  fieldValue,
  MAX_FIELDS,
  parseRecordColumnsQuery,
  recordColumns,
} from "./record-fields";

const a = {
  reward: 1,
  scenario: "compaction",
  agent_ref: { name: "swe" },
  responses_create_params: { metadata: { difficulty: "hard", deep: { too: 1 } } },
  response: { output: [{ type: "message" }], status: "completed" },
  step: null,
  "x.y": 3,
  nan: Number.NaN,
};
const b = { reward: 0.5, scenario: 7, mask_sample: true, agent_ref: { name: "swe" } };

describe("discoverFields", () => {
  it("lists scalars at the top level and up to two objects down, never arrays or nulls", () => {
    expect(discoverFields([a, b])).toEqual([
      { path: "agent_ref.name", types: ["string"], records: 2 },
      { path: "mask_sample", types: ["boolean"], records: 1 },
      { path: "response.status", types: ["string"], records: 1 },
      { path: "responses_create_params.metadata.difficulty", types: ["string"], records: 1 },
      { path: "reward", types: ["number"], records: 2 },
      { path: "scenario", types: ["number", "string"], records: 2 },
    ]);
  });

  it("stops listing new fields at MAX_FIELDS", () => {
    const wide = Object.fromEntries(
      Array.from({ length: MAX_FIELDS + 50 }, (_, i) => [`k${i}`, i]),
    );
    expect(discoverFields([wide])).toHaveLength(MAX_FIELDS);
  });
});

describe("fieldValue", () => {
  it("reads the scalar at a dotted path, null for anything else", () => {
    expect(fieldValue(a, "responses_create_params.metadata.difficulty")).toBe("hard");
    expect(fieldValue(a, "agent_ref")).toBeNull();
    expect(fieldValue(a, "response.output")).toBeNull();
    expect(fieldValue(a, "nan")).toBeNull();
    expect(fieldValue(a, "missing.path")).toBeNull();
    expect(fieldValue(b, "mask_sample")).toBe(true);
  });
});

describe("recordColumns", () => {
  const records = new Map<string, Record<string, unknown>>([
    ["0-0", a],
    ["1-0", b],
  ]);
  const q = (qs: string) => parseRecordColumnsQuery(new URLSearchParams(qs));

  it("answers each asked id's values at the asked columns; ids without a record are left out", () => {
    const got = recordColumns(records, q("columns=scenario,agent_ref.name&id=0-0&id=1-0&id=9-9"));
    expect(got.values).toEqual({
      "0-0": { scenario: "compaction", "agent_ref.name": "swe" },
      "1-0": { scenario: 7, "agent_ref.name": "swe" },
    });
    expect(got.fields.map((f) => f.path)).toContain("scenario");
  });

  it("refuses a column that is not a scalar field, listing the allowed ones", () => {
    const run = () => recordColumns(records, q("columns=scenario,response.output&id=0-0"));
    expect(run).toThrow(InvalidInputError);
    expect(run).toThrow(/columns: "response.output" is not a scalar field.*allowed: .*"scenario"/);
  });

  it("refuses more than 500 ids", () => {
    const many = Array.from({ length: 501 }, (_, i) => `id=${i}`).join("&");
    expect(() => q(`columns=reward&${many}`)).toThrow(/id: at most 500/);
  });
});
