// The token-store reader (the byte scanner of ./token-line with its JSON.parse fallback, read
// through ./jsonl as token-store reads) must agree with JSON.parse + the schema on every line of
// every fixture token file, a generated rollout and a seeded fuzz corpus (./reader-fuzz): the same
// accept/reject decision, the same values (Object.is: -0 is not 0) and the same error category.
// The expected side never touches the reader: TextDecoder, JSON.parse and the schema decide it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { syntheticRolloutLines } from "@/fixtures/generator/synthetic-rollout";
import { tokenEntrySchema } from "@/lib/schema";
import { tempStore } from "@/lib/testing/temp-store";
import { readJsonl, type JsonlLine } from "./jsonl";
import { fuzzCorpus } from "@/lib/testing/reader-fuzz";
import { resetPromptReuse, scanTokenLine } from "./token-line";
import { readRolloutCapture } from "./token-store";

type Verdict = { category: "utf8" | "json" | "schema" } | { entry: unknown };

/** The first place `a` and `b` differ (Object.is for numbers, key order counts), or null. */
function difference(a: unknown, b: unknown, at = "$"): string | null {
  // A scanned prompt is an Int32Array view (token-line's arena): compared as the list it holds.
  if (a instanceof Int32Array) a = Array.from(a);
  if (b instanceof Int32Array) b = Array.from(b);
  // A scanned routes envelope is the line's bytes (docs/experts.md): compared as the text it holds.
  if (a instanceof Uint8Array) a = Buffer.from(a).toString("utf8");
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null)
    return Object.is(a, b) ? null : `${at}: ${String(a)} vs ${String(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${at}: array vs object`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join("\u0000") !== kb.join("\u0000")) return `${at}: keys ${ka} vs ${kb}`;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of ka) {
    const d = difference(ra[k], rb[k], `${at}.${k}`);
    if (d) return d;
  }
  return null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const depth = (v: unknown): number =>
  typeof v !== "object" || v === null ? 0 : 1 + Math.max(0, ...Object.values(v).map(depth));

/**
 * What one line should read as, or null for a blank line: a NUL byte is damage (JSON.parse refuses
 * it too), bytes that are not UTF-8 are refused before parsing, then JSON.parse and the schema.
 */
function expected(bytes: Buffer): Verdict | null {
  if (bytes.includes(0)) return { category: "json" };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { category: "utf8" };
  }
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { category: "json" };
  }
  if (depth(value) > 1000) return { category: "json" };
  const parsed = tokenEntrySchema.safeParse(value);
  return parsed.success ? { entry: parsed.data } : { category: "schema" };
}

/** Expected verdict by 1-based line, and the torn tail's line (an unterminated line refused). */
function expectedFile(content: Buffer): { lines: Map<number, Verdict>; torn: number | null } {
  const lines = new Map<number, Verdict>();
  const pieces: Buffer[] = [];
  for (let from = 0; from < content.length;) {
    const nl = content.indexOf(0x0a, from);
    pieces.push(content.subarray(from, nl < 0 ? content.length : nl));
    from = nl < 0 ? content.length : nl + 1;
  }
  let torn: number | null = null;
  pieces.forEach((bytes, i) => {
    const v = expected(bytes);
    const unterminated = i === pieces.length - 1 && content[content.length - 1] !== 0x0a;
    if (unterminated && v && "category" in v && v.category !== "schema" && !bytes.includes(0))
      torn = i + 1;
    else if (v) lines.set(i + 1, v);
  });
  return { lines, torn };
}

/** The reader's verdict by line, as token-store reads: scan, fallback, schema, lists put back. */
async function readerFile(file: string) {
  const lines = new Map<number, Verdict>();
  let scanned = 0;
  const onLine = (l: JsonlLine) => {
    if (l.problem) {
      lines.set(l.line, { category: l.problem.startsWith("not valid UTF-8") ? "utf8" : "json" });
      return;
    }
    const parsed = tokenEntrySchema.safeParse(l.value);
    if (!parsed.success) return void lines.set(l.line, { category: "schema" });
    if (l.lists) scanned++;
    lines.set(l.line, { entry: l.lists ? Object.assign(parsed.data, l.lists) : parsed.data });
  };
  resetPromptReuse();
  const result = await readJsonl(file, onLine, undefined, undefined, scanTokenLine);
  return { lines, torn: result.tornTail?.line ?? null, scanned };
}

/** Holds the reader to the expected verdicts of `file`; returns what it saw, for coverage checks. */
async function expectAgreement(file: string) {
  const want = expectedFile(readFileSync(file));
  const got = await readerFile(file);
  expect(got.torn, `${file}: torn tail`).toBe(want.torn);
  expect([...got.lines.keys()], `${file}: lines read`).toEqual([...want.lines.keys()]);
  const categories = { utf8: 0, json: 0, schema: 0, entry: 0 };
  for (const [n, w] of want.lines) {
    const g = got.lines.get(n) as Verdict;
    const where = `${path.basename(file)} line ${n}`;
    if ("category" in w) {
      expect("category" in g ? g.category : "accepted", where).toBe(w.category);
      categories[w.category]++;
    } else {
      expect("entry" in g ? null : g.category, where).toBeNull();
      expect(difference("entry" in g ? g.entry : null, w.entry), where).toBeNull();
      categories.entry++;
    }
  }
  return { ...got, categories };
}

/** Every capture read both ways must be the same, field for field and message for message. */
async function expectSameCapture(dir: string, rollout: string): Promise<void> {
  const fast = await readRolloutCapture(dir, rollout, undefined, undefined, undefined, "scan");
  const slow = await readRolloutCapture(dir, rollout, undefined, undefined, undefined, "parse");
  expect(difference(fast, slow), `${dir} ${rollout}`).toBeNull();
}

function tokenFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".tokens.jsonl"))
    .map((f) => path.join(root, f));
}

const FIXTURES = path.join(__dirname, "..", "..", "fixtures");

describe("the token-store reader agrees with JSON.parse + the schema", () => {
  it("on every line of every fixture token file", async () => {
    const files = [
      ...tokenFiles(path.join(FIXTURES, "runs")),
      ...tokenFiles(path.join(FIXTURES, "gym-v1-cases")),
    ];
    let entries = 0;
    let scanned = 0;
    for (const file of files) {
      const seen = await expectAgreement(file);
      entries += seen.categories.entry;
      scanned += seen.scanned;
      await expectSameCapture(path.dirname(file), path.basename(file, ".tokens.jsonl"));
    }
    expect(files.length).toBeGreaterThan(100);
    // The fixtures must exercise the scanner, not only its fallback.
    expect(scanned).toBeGreaterThan(entries * 0.9);
  });

  it("on a generated 60-call rollout (prompts that repeat their parent's bytes)", async () => {
    const lines = syntheticRolloutLines({
      rolloutId: "0-0",
      calls: 60,
      lastPromptTokens: 30_000,
      recordedParents: true,
      seed: 11,
    });
    const dir = tempStore({ "0-0.tokens.jsonl": [...lines].join("\n") + "\n" });
    const seen = await expectAgreement(path.join(dir, "0-0.tokens.jsonl"));
    expect(seen.categories.entry).toBe(60);
    expect(seen.scanned).toBe(60);
    await expectSameCapture(dir, "0-0");
  });

  it("on a seeded fuzz corpus of 4,000 lines, line by line and as a capture", async () => {
    const { lines, tags } = fuzzCorpus(17, 4000);
    const content = Buffer.concat(lines.flatMap((l) => [l.bytes, Buffer.from("\n")]));
    const dir = tempStore({ "0-0.tokens.jsonl": content });
    const seen = await expectAgreement(path.join(dir, "0-0.tokens.jsonl"));
    // Every category is met often enough to mean something, and the scanner reads most records.
    for (const [c, n] of Object.entries(seen.categories)) expect(n, c).toBeGreaterThan(50);
    expect(seen.scanned).toBeGreaterThan(1000);
    for (const tag of COVERED) expect(tags.has(tag), tag).toBe(true);
    await expectSameCapture(dir, "0-0");
  });
});

/** Generator forms the corpus must hold (its tags; see reader-fuzz). */
const COVERED = [
  ...["id:2^53+1", "id:1e400", "id:negative", "id:-0", "id:exponent", "id:fraction"],
  ...["id:2^31", "id:leading zero", "id:not a number"],
  ...["lp:-0", "lp:exponent", "lp:fast path edge", "lp:extreme", "lp:decimal digits"],
  ...["lp:shortest double", "lp:not a number"],
  ...["str:escapes", "str:surrogates", "str:raw UTF-8", "str:our keys inside", "str:bad escape"],
  ...["str:raw control", "key:escaped", "key:look-alike", "dup key", "nested namesakes"],
  ...["list:empty", "list:one", "list:long", "odd line"],
  ...["reuse:extend", "reuse:digits", "reuse:same", "reuse:respace", "reuse:bad tail"],
  ...["reuse:shorter", "reuse:space tail", "reuse:last byte"],
  ...["damage:truncated", "damage:bad UTF-8 in a string", "damage:bad UTF-8 anywhere"],
  ...["damage:NUL", "damage:BOM", "damage:garbage after"],
];

describe("numbers as JSON.parse reads them", () => {
  const read = (text: string) => {
    resetPromptReuse();
    const r = scanTokenLine(Buffer.from(text));
    return r && { ...r.value, ...r.lists };
  };

  it("negative zero: JSON.parse gives -0 for -0 and -0.0, and so does the scanner", () => {
    expect(Object.is(JSON.parse("-0"), -0)).toBe(true);
    expect(Object.is(JSON.parse("-0.0"), -0)).toBe(true);
    const got = read('{"generation_log_probs":[-0,-0.0,0,-0e5,0.0]}');
    expect(got?.generation_log_probs?.map((x) => Object.is(x, -0))).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
  });

  it("log probs: 20,000 decimals around the fast path's limits, each JSON.parse's double", () => {
    let seed = 1;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const texts: string[] = [];
    for (let k = 0; k < 20_000; k++) {
      const mantissa = (String(next()) + String(next())).slice(0, 1 + (next() % 18));
      const point = next() % (mantissa.length + 1);
      const m = `${mantissa.slice(0, point) || "0"}${point < mantissa.length ? "." + mantissa.slice(point) : ""}`;
      const e = next() % 3 === 0 ? `e${(next() % 61) - 30}` : "";
      texts.push(`${next() % 2 ? "-" : ""}${m.replace(/^0+(?=\d)/, "")}${e}`);
    }
    const line = `{"generation_log_probs":[${texts.join(",")}]}`;
    const got = read(line)?.generation_log_probs;
    const want = JSON.parse(line).generation_log_probs as number[];
    expect(got?.length).toBe(want.length);
    want.forEach((w, i) => expect(Object.is(got?.[i], w), texts[i]).toBe(true));
  });
});
