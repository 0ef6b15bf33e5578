import { describe, expect, it } from "vitest";
import { encodeEnvelope, nestRoutes } from "@/fixtures/generator/routes-envelope";
import { countCallRoutes, decodeRoutes, fallbackFraction, routeRow, rowCountProblem } from ".";

const SHAPE = [3, 2, 2] as const;
const VALUES = [0, 1, 2, 3, -1, -1, -1, -1, 7, 5, 6, 4];

describe("routes codec", () => {
  it.each(["int8", "int16", "int32"] as const)("round-trips a %s envelope", (dtype) => {
    const d = decodeRoutes(encodeEnvelope(dtype, SHAPE, VALUES));
    expect(d?.ok).toBe(true);
    if (!d?.ok) return;
    expect([d.routes.rows, d.routes.layers, d.routes.topk]).toEqual([3, 2, 2]);
    expect(Array.from(d.routes.data)).toEqual(VALUES);
    expect(routeRow(d.routes, 0)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(routeRow(d.routes, 1)).toBeNull(); // all −1: fallback
    expect(routeRow(d.routes, 3)).toBeNull(); // missing
  });

  it("keeps values past int8 in int16 and int32", () => {
    const wide = [300, -1, 32000, 5];
    const d = decodeRoutes(encodeEnvelope("int16", [1, 2, 2], wide));
    expect(d?.ok && Array.from(d.routes.data)).toEqual(wide);
    const d32 = decodeRoutes(encodeEnvelope("int32", [1, 2, 2], [70000, 1, 2, 3]));
    expect(d32?.ok && Array.from(d32.routes.data)).toEqual([70000, 1, 2, 3]);
  });

  it("reads the envelope from a line's bytes as from a string", () => {
    const text = encodeEnvelope("int8", SHAPE, VALUES);
    const d = decodeRoutes(Buffer.from(text));
    expect(d?.ok && Array.from(d.routes.data)).toEqual(VALUES);
  });

  it("reads nested lists as the envelope", () => {
    const d = decodeRoutes(nestRoutes(SHAPE, VALUES));
    expect(d?.ok && Array.from(d.routes.data)).toEqual(VALUES);
    expect(decodeRoutes(null)).toBeNull();
  });

  it.each([
    ["nrlre2:int8:1x1x1:AA==", /not an nrlre1/],
    ["nrlre1:float32:1x1x1:AAAAAA==", /unsupported dtype "float32"/],
    ["nrlre1:uint8:1x1x1:AA==", /unsupported dtype "uint8"/],
    ["nrlre1:int8:1x1:AA==", /shape "1x1" is not <S>x<L>x<K>/],
    ["nrlre1:int8:1xax1:AA==", /shape "1xax1"/],
    ["nrlre1:int8:2x1x2:AAA=", /int8 data holds 2 values, shape 2x1x2 needs 4/],
    ["nrlre1:int16:1x1x2:AAA=", /int16 data holds 1 values, shape 1x1x2 needs 2/],
    ["nrlre1:int8:1x1x3:AA!A", /base64 has "!" at character 2/],
    ["nrlre1:int8:1x1x1:AAA", /not a whole number of 4-character groups/],
    ["nrlre1:int8", /not an nrlre1/],
  ])("refuses %s", (text, message) => {
    const d = decodeRoutes(text);
    expect(d?.ok).toBe(false);
    if (d && !d.ok) expect(d.problem).toMatch(message);
  });

  it.each([
    [[[[1, 2]], [[3]]], /row 1 layer 0 has 1 experts, expected 2/],
    [
      [
        [[1, 2]],
        [
          [3, 4],
          [5, 6],
        ],
      ],
      /row 1 has 2 layers, row 0 has 1/,
    ],
    [[[[1, 2.5]]], /holds 2.5/],
    [[[[1, -2]]], /holds -2/],
    [[[1, 2]], /not lists of \[layer\]\[k\] integers/],
  ])("refuses nested lists %j", (value, message) => {
    const d = decodeRoutes(value);
    expect(d?.ok).toBe(false);
    if (d && !d.ok) expect(d.problem).toMatch(message);
  });

  it("refuses a field of another type", () => {
    const d = decodeRoutes({ a: 1 });
    expect(d?.ok === false && d.problem).toMatch(/routed_experts is object/);
  });
});

describe("routes against a call", () => {
  const routes = (rows: number, fallbackRows: number[] = []) => {
    const values: number[] = [];
    for (let r = 0; r < rows; r++)
      values.push(...(fallbackRows.includes(r) ? [-1, -1] : [r % 8, 1]));
    const d = decodeRoutes(encodeEnvelope("int8", [rows, 1, 2], values));
    if (!d?.ok) throw new Error("test routes");
    return d.routes;
  };

  it("accepts S = P + G − 1, P + G, or fewer rows; refuses more", () => {
    expect(rowCountProblem(routes(9), 6, 4)).toBeNull();
    expect(rowCountProblem(routes(10), 6, 4)).toBeNull();
    expect(rowCountProblem(routes(3), 6, 4)).toBeNull();
    expect(rowCountProblem(routes(12), 6, 4)).toBe(
      "12 route rows for 6 prompt + 4 generated tokens (at most 10: 9 or 10, fewer when rows are missing at the end)",
    );
  });

  it("counts fallback and missing rows over P + G − 1", () => {
    expect(countCallRoutes(routes(9, [2, 5]), 6, 4)).toEqual({ expected: 9, fallback: 2 });
    expect(countCallRoutes(routes(10, [9]), 6, 4)).toEqual({ expected: 9, fallback: 0 });
    expect(countCallRoutes(routes(6, [0]), 6, 4)).toEqual({ expected: 9, fallback: 4 });
    expect(countCallRoutes(null, 6, 4)).toEqual({ expected: 9, fallback: 9 });
  });

  it("is null, never 0, when no call carries routes", () => {
    expect(fallbackFraction([{ routes: null, prompt: 3, generated: 2 }]).fraction).toBeNull();
    const f = fallbackFraction([
      { routes: routes(4, [1]), prompt: 3, generated: 2 },
      { routes: null, prompt: 3, generated: 2 },
    ]);
    expect(f.fraction).toBe(5 / 8);
  });
});
