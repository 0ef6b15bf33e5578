// The JSON W&B writes in a run file's `value_json` and in `wandb-summary.json`: JSON plus the bare
// tokens NaN, Infinity and -Infinity (Python's encoder and wandb-core's both emit them for
// non-finite floats), which JSON.parse refuses. Non-finite values come back as those literal
// strings, the way W&B's own backend keeps them. Not responsible for which values are series
// (./history).

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
// A Map, not an object: "constructor" must not find Object.prototype's.
const NON_FINITE = new Map<string, number>([
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
  ['"NaN"', NaN],
  ['"Infinity"', Infinity],
  ['"-Infinity"', -Infinity],
]);

/**
 * The number a `value_json` holds, NaN and ±Infinity included (bare or as W&B's quoted literals);
 * null when it holds something else. The quick path for history, where nearly every value is one.
 */
export function jsonNumber(text: string): number | null {
  const t = text.trim();
  if (NUMBER.test(t)) return Number(t);
  return NON_FINITE.get(t) ?? null;
}

/** `text` with each bare NaN / Infinity / -Infinity token (outside strings) quoted. */
function quoteNonFinite(text: string): string {
  let out = "";
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    for (const token of ["-Infinity", "Infinity", "NaN"]) {
      if (text.startsWith(token, i)) {
        out += `${text.slice(from, i)}"${token}"`;
        i += token.length - 1;
        from = i + 1;
        break;
      }
    }
  }
  return out + text.slice(from);
}

/** `text` parsed as W&B's JSON; never throws. */
export function parseWandbJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    if (/NaN|Infinity/.test(text)) {
      try {
        return { ok: true, value: JSON.parse(quoteNonFinite(text)) };
      } catch {
        // Fall through to the first error: it names the text as written.
      }
    }
    return { ok: false, error: (err as Error).message };
  }
}

/** W&B's JSON of `value`: JSON.stringify, but non-finite numbers as the bare tokens W&B writes. */
export function toWandbJson(value: unknown): string {
  const mark = "\u0000";
  const text =
    JSON.stringify(value, (_key, v: unknown) =>
      typeof v === "number" && !Number.isFinite(v)
        ? `${mark}${Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity"}${mark}`
        : v,
    ) ?? "null";
  return text.replace(/"\\u0000(NaN|Infinity|-Infinity)\\u0000"/g, "$1");
}

const LITERAL =
  /-Infinity|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|NaN|Infinity/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const SPACE = /[ \t\n\r]*/y;

/**
 * Where `text` stops being W&B's JSON (the offset of the first bad character, `text.length` when it
 * ends too soon), or -1 when it is whole: V8's messages do not always say. A loop with a stack of
 * open brackets, not recursion, so a deeply nested file cannot exhaust the call stack.
 */
export function jsonErrorOffset(text: string): number {
  const open: string[] = [];
  let want: "value" | "value_or_close" | "key" | "key_or_close" | "colon" | "next" | "done" =
    "value";
  const match = (re: RegExp, at: number) => {
    re.lastIndex = at;
    return re.exec(text) ? re.lastIndex : -1;
  };
  let i = 0;
  for (;;) {
    i = match(SPACE, i);
    if (i >= text.length) return want === "done" ? -1 : text.length;
    const c = text[i];
    if (c === "}" || c === "]") {
      const closes = c === "}" ? "{" : "[";
      const ends = want === "next" || want === (c === "}" ? "key_or_close" : "value_or_close");
      if (!ends || open[open.length - 1] !== closes) return i;
      open.pop();
      i++;
      want = open.length === 0 ? "done" : "next";
    } else if (want === "value" || want === "value_or_close") {
      if (c === "{" || c === "[") {
        open.push(c);
        i++;
        want = c === "{" ? "key_or_close" : "value_or_close";
        continue;
      }
      const end = match(c === '"' ? STRING : LITERAL, i);
      if (end < 0) return i;
      i = end;
      want = open.length === 0 ? "done" : "next";
    } else if (want === "key" || want === "key_or_close") {
      const end = c === '"' ? match(STRING, i) : -1;
      if (end < 0) return i;
      i = end;
      want = "colon";
    } else if (want === "colon" && c === ":") {
      i++;
      want = "value";
    } else if (want === "next" && c === ",") {
      i++;
      want = open[open.length - 1] === "{" ? "key" : "value";
    } else return i;
  }
}
