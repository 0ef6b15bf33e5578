// The values of the fuzz corpus (./reader-fuzz) as JSON text: token ids, log probs, strings, lists
// and nested values, each drawn from named forms (plain, unusual but valid, or invalid) so the
// corpus can say which forms it holds. Not responsible for whole lines (./reader-fuzz).

import { SeededRandom } from "@/lib/compare/prng";

type Forms = ReadonlyArray<readonly [string, () => string]>;

/** Seeded draws (lib/compare/prng), so a seed always gives the same corpus. `tags` collects the
 * forms drawn for the current line. */
export class Gen {
  private readonly random: SeededRandom;
  readonly tags = new Set<string>();
  constructor(seed: number) {
    this.random = new SeededRandom(seed);
  }
  /** Uniform in [0, 1). */
  next(): number {
    return this.random.next();
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
  /**
   * A form, tagged by its name: one of `bad` with probability `badRate`, else the first of `good`
   * with probability `plain`, else any good one.
   */
  form(good: Forms, plain: number, bad: Forms = [], badRate = 0): string {
    const [name, make] =
      bad.length > 0 && this.chance(badRate)
        ? this.pick(bad)
        : this.chance(plain)
          ? (good[0] as Forms[number])
          : this.pick(good);
    this.tags.add(name);
    return make();
  }
}

/** JSON whitespace, often none; tabs and CR included (a newline would end the line). */
export const ws = (g: Gen) =>
  g.chance(0.6) ? "" : g.pick([" ", "  ", "\t", "\r", " \t\r ", "\t\t"]);

const digits = (g: Gen, n: number) =>
  String(g.int(1, 9)) + Array.from({ length: n - 1 }, () => g.int(0, 9)).join("");

/** An id: the good forms are ids the schema takes; the bad ones it refuses, or JSON does. */
export function idText(g: Gen, badRate: number): string {
  const good: Forms = [
    ["id:plain", () => String(g.int(0, 200_000))],
    ["id:zero", () => "0"],
    ["id:2^31-1", () => "2147483647"],
    ["id:2^31", () => g.pick(["2147483648", "4294967296"])],
    ["id:10 digits", () => digits(g, 10)],
    ["id:2^53-1", () => "9007199254740991"],
    ["id:-0", () => g.pick(["-0", "-0.0", "-0e0"])],
    ["id:exponent", () => g.pick(["1e3", "1E+2", "10E-1", "0e5", "2e0"])],
    ["id:fraction", () => g.pick(["1.0", "0.0", "7.000"])],
  ];
  const bad: Forms = [
    ["id:2^53+1", () => "9007199254740993"],
    ["id:2^60", () => "1152921504606846976"],
    ["id:1e400", () => "1e400"],
    ["id:negative", () => `-${g.int(1, 50_000)}`],
    ["id:fraction", () => g.pick(["2.5", "1.5", "25e-1", "2.5e-3"])],
    ["id:leading zero", () => g.pick(["01", "00", "-01"])],
    ["id:not a number", () => g.pick(["null", '"7"', "true", "[1]", "{}", "NaN", "+1", ".5"])],
  ];
  return g.form(good, 0.95, bad, badRate);
}

/** A double of any magnitude, as its shortest text (up to 17 digits). */
const anyDouble = (g: Gen) => g.int(1, 1e9) * 10 ** g.int(-330, 310) * (1 + g.int(0, 1e6) / 1e6);

const EXTREME = [
  ...["1e400", "-1e400", "1e-400", "5e-324", "4.9e-324", "2.4703282292062327e-324"],
  ...["2.2250738585072014e-308", "1.7976931348623157e308", "1.7976931348623159e308"],
  ...["9007199254740993", "1.00000000000000011102230246251565404236316680908203125"],
  ...["0.30000000000000004", "1e22", "1e23", "1e-22", "1e-23", "999999999999999e22"],
  ...["123456789012345e-22", "9999999999999999e-22", "-" + "9".repeat(400), "1e-99999"],
];

/** A log prob: every good form is a JSON number (of any shape); the bad ones are not. */
export function floatText(g: Gen, badRate: number): string {
  const good: Forms = [
    ["lp:6 decimals", () => `-${g.int(0, 9)}.${String(g.int(0, 999_999)).padStart(6, "0")}`],
    ["lp:shortest double", () => String(-anyDouble(g))],
    ["lp:-0", () => g.pick(["-0", "-0.0", "-0e-0", "-0.000E+3", "0", "0.0"])],
    ["lp:exponent", () => g.pick(["1e3", "1E+2", "2.5e-3", "-1.5e-7", "1e0001", "1E-0"])],
    ["lp:fast path edge", () => `${digits(g, g.int(1, 16))}${g.pick(["e", "E"])}${g.int(-24, 24)}`],
    ["lp:decimal digits", () => `-0.${digits(g, g.int(1, 25))}`],
    ["lp:extreme", () => g.pick(EXTREME)],
    ["lp:integer", () => String(g.int(-5, 5))],
  ];
  const bad: Forms = [
    [
      "lp:not a number",
      () => g.pick(["null", '"-0.5"', "NaN", "-Infinity", ".5", "1.", "-", "1e", "01.5", "+1"]),
    ],
  ];
  return g.form(good, 0.7, bad, badRate);
}

/** A list of `item`s; one list in ten holds a bad element or two. */
export function listText(g: Gen, item: (g: Gen, badRate: number) => string): string {
  const n = g.chance(0.1)
    ? 0
    : g.chance(0.15)
      ? 1
      : g.chance(0.015)
        ? g.int(2000, 6000)
        : g.int(2, 40);
  g.tags.add(
    n === 0 ? "list:empty" : n === 1 ? "list:one" : n >= 2000 ? "list:long" : "list:short",
  );
  const badRate = n > 0 && g.chance(0.1) ? Math.min(1, 1.5 / n) : 0;
  const items = Array.from({ length: n }, () => ws(g) + item(g, badRate) + ws(g));
  return `[${ws(g)}${items.join(",")}${n === 0 ? ws(g) : ""}]`;
}

/** A string: the good forms are valid JSON strings, the bad ones are not. */
export function stringText(g: Gen): string {
  const good: Forms = [
    ["str:plain", () => `0-${g.int(0, 99)}`],
    ["str:escapes", () => g.pick(['a\\"b', "c\\\\", "\\u00e9\\n\\t", "\\/", "\\b\\f\\r"])],
    ["str:surrogates", () => g.pick(["\\ud83d\\ude00", "\\uD83D\\uDE00", "\\ud800", "\\udfff x"])],
    ["str:raw UTF-8", () => g.pick(["é", "💥", "日本", "\u2028"])],
    ["str:our keys inside", () => g.pick(['\\"prompt_token_ids\\":[1,2]', "]}[{", '\\\\\\"]'])],
  ];
  const bad: Forms = [
    ["str:bad escape", () => g.pick(["\\x41", "\\u12", "\\", "\\'"])],
    ["str:raw control", () => g.pick(["\t", "\u0001", "\u001f"])],
    ["str:unescaped quote", () => '"prompt_token_ids":[1,2]'],
  ];
  return `"${g.form(good, 0.7, bad, 0.02)}"`;
}

/** A value that holds our list keys below the top level, or another unusual value. */
export function otherValue(g: Gen): string {
  const forms: Forms = [
    ["nested namesakes", () => `{${ws(g)}"prompt_token_ids"${ws(g)}:${ws(g)}[9,9]${ws(g)}}`],
    [
      "nested namesakes",
      () => `[{"generation_log_probs":[0.5,"x"]},{"generation_token_ids":${listText(g, idText)}}]`,
    ],
    ["nested namesakes", () => `{"a":{"b":[[["prompt_token_ids"]]],"c":${stringText(g)}}}`],
    ["other value", () => g.pick(["null", "true", "-0", "1e400", "1234567890123456789012", "[]"])],
    ["other value", () => stringText(g)],
  ];
  return g.form(forms, 0);
}
