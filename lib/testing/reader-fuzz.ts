// A seeded corpus of token-store lines for holding the scanning reader (./token-line) to JSON.parse:
// records written as text (not by JSON.stringify) with JSON whitespace anywhere, unusual numbers,
// escapes, duplicate and look-alike keys, nested namesakes, invalid UTF-8, NUL bytes, truncations,
// and chains of prompts that repeat the previous prompt's bytes (the reader's prefix reuse).
// It says nothing about what a line means: the agreement test asks JSON.parse for that.
import { floatText, Gen, idText, listText, otherValue, stringText, ws } from "./reader-fuzz-values";

/** One line's bytes (never a newline) and the generator's tags, for counting what was covered. */
export interface FuzzLine {
  bytes: Buffer;
  tags: string[];
}

/** The prompt list: often the previous prompt's text extended (or changed) in one of many ways. */
function promptText(g: Gen, prev: string | null): string {
  if (prev === null || g.chance(0.3)) return listText(g, idText);
  const ext = g.chance(0.4)
    ? "extend"
    : g.pick(["digits", "same", "respace", "bad tail", "shorter", "space tail", "last byte"]);
  g.tags.add(`reuse:${ext}`);
  const more = () => Array.from({ length: g.int(1, 30) }, () => String(g.int(0, 200_000)));
  switch (ext) {
    case "extend": // an empty prompt ("[" and spaces) takes no comma
      return `${prev}${ws(g)}${/^\[\s*$/.test(prev) ? "" : ","}${ws(g)}${more().join(`,${ws(g)}`)}]`;
    case "digits": // the prefix ends inside a number: "[1,2,3" then "[1,2,34"
      return `${prev}${g.int(0, 9)}${g.chance(0.5) ? "," + more().join(",") : ""}]`;
    case "same":
      return `${prev}]`;
    case "last byte": // all but the previous text's last byte: "[1,2,3" then "[1,2,4,5]"
      return `${prev.slice(0, -1)}${g.int(0, 9)}${g.chance(0.5) ? "," + more().join(",") : ""}]`;
    case "respace":
      return `${prev.replace(/,/g, g.pick([" ,", ", ", ",\t", ","]))}]`;
    case "bad tail":
      return `${prev},${g.pick(["-1", "1.5", "01", "1e2", "null", "", "2147483648"])}]`;
    case "shorter":
      return `${prev.slice(0, g.int(1, prev.length))}]`;
    default:
      return `${prev}${g.pick([" ", "\t", "\r "])}${g.pick(["]", ",5]", "5]"])}`;
  }
}

function shuffle<T>(g: Gen, items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = g.int(0, i);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

function recordText(g: Gen, prompt: string): string {
  const fields: string[][] = [
    ["rollout_id", g.chance(0.9) ? '"0-0"' : stringText(g)],
    ["model_call_id", g.chance(0.8) ? `"c${g.int(0, 1e6)}"` : stringText(g)],
    ["prompt_token_ids", prompt],
    ["generation_token_ids", listText(g, idText)],
    ["generation_log_probs", listText(g, floatText)],
  ];
  if (g.chance(0.3)) fields.push(["model", stringText(g)]);
  if (g.chance(0.3)) fields.push(["schema_version", g.pick(["1", "0", '"1"', "1.0", "-0"])]);
  if (g.chance(0.3)) fields.push(["output_items", `[{"text":${stringText(g)}}]`]);
  if (g.chance(0.3))
    fields.push([g.pick(["x", "meta", "output_items", "prompt_token_ids2"]), otherValue(g)]);
  const keyForms: Record<string, () => string> = {
    "key:escaped": () => '"prompt\\u005ftoken_ids"',
    "key:look-alike": () =>
      g.pick(['"prompt_token_ids "', '"Prompt_token_ids"', '"generation_log_prob"']),
  };
  if (g.chance(0.05)) fields.push([g.pick(Object.keys(keyForms)), "[1,2]"]);
  if (g.chance(0.08)) {
    g.tags.add("dup key");
    const f = g.pick(fields);
    fields.push([
      f[0] as string,
      g.chance(0.5) ? (f[1] as string) : f[0]?.includes("ids") ? listText(g, idText) : '"again"',
    ]);
  }
  if (g.chance(0.7)) shuffle(g, fields); // keys in any order
  const members = fields.map(([k, v]) => {
    if (k?.startsWith("key:")) g.tags.add(k);
    const key = k?.startsWith("key:") ? (keyForms[k] as () => string)() : `"${k}"`;
    return `${ws(g)}${key}${ws(g)}:${ws(g)}${v}${ws(g)}`;
  });
  return `${ws(g)}{${members.join(",")}}${ws(g)}`;
}

const BAD_UTF8 = [
  [0xff],
  [0xc0, 0x80],
  [0xed, 0xa0, 0x80],
  [0x80],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
];

/** Damage to a whole line's bytes: truncation, invalid UTF-8, NUL, a BOM, trailing garbage. */
function damage(g: Gen, bytes: Buffer): Buffer {
  const kind = g.pick([
    "truncated",
    "bad UTF-8 in a string",
    "bad UTF-8 anywhere",
    "NUL",
    "BOM",
    "garbage after",
  ]);
  g.tags.add(`damage:${kind}`);
  const at = g.int(0, bytes.length);
  const splice = (insert: number[], i = at) =>
    Buffer.concat([bytes.subarray(0, i), Buffer.from(insert), bytes.subarray(i)]);
  switch (kind) {
    case "truncated":
      return bytes.subarray(0, at);
    case "bad UTF-8 in a string": {
      const q = bytes.indexOf(0x22, g.int(0, bytes.length - 1));
      return splice(g.pick(BAD_UTF8), q < 0 ? at : q + 1);
    }
    case "bad UTF-8 anywhere":
      return splice(g.pick(BAD_UTF8));
    case "NUL":
      return splice([0]);
    case "BOM":
      return splice([0xef, 0xbb, 0xbf], 0);
    default:
      return Buffer.concat([bytes, Buffer.from(g.pick([" x", "{}", "]", ",", "\r\r"]))]);
  }
}

const ODD_LINES = ["", " ", "\t\r", "\r", "[]", "null", "1", '"s"', "{}", "[1,2]", "{,}", '{"a"}'];

function isList(text: string): boolean {
  try {
    return text.endsWith("]") && Array.isArray(JSON.parse(text));
  } catch {
    return false;
  }
}

/** `count` lines from `seed`: mostly records, some damaged, some not records at all. */
export function fuzzCorpus(seed: number, count: number): { lines: FuzzLine[]; tags: Set<string> } {
  const g = new Gen(seed);
  const lines: FuzzLine[] = [];
  let prev: string | null = null;
  for (let n = 0; n < count; n++) {
    g.tags.clear();
    let bytes: Buffer;
    if (g.chance(0.02)) {
      g.tags.add("odd line");
      bytes = Buffer.from(g.pick(ODD_LINES));
    } else {
      const prompt = promptText(g, prev);
      prev = isList(prompt) ? prompt.slice(0, -1) : null; // a chain goes on from a valid list
      bytes = Buffer.from(recordText(g, prompt));
      if (g.chance(0.12)) bytes = damage(g, bytes);
    }
    lines.push({ bytes, tags: [...g.tags] });
  }
  const tags = new Set(lines.flatMap((l) => l.tags));
  return { lines, tags };
}
