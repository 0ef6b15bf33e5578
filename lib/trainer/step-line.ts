// One line of NeMo-RL's step logs (./step-data) as a sample: Python's bare non-finite numbers, the
// line's schema (every value a batch of one) and the per-token lists lined up with `token_ids`.
// Pure: no reading; the file's reader (./step-data) and the hotspots' whole-file pass share it.
import path from "node:path";
import { z } from "zod";
import { describeZodError, type JsonlLine, type ScannedLists } from "@/lib/store";

export type StepFileKind = "train" | "val";

export interface StepFile {
  kind: StepFileKind;
  /** The N of the name: NeMo-RL writes train files as `total_steps + 1` (1-based), val as `step`. */
  step: number;
  file: string;
}

export interface StepSample {
  step: number;
  kind: StepFileKind;
  /** The file's base name and the 1-based line, for every message about this sample. */
  file: string;
  line: number;
  idx: number | null;
  /** `input_lengths`: the real length; token lists below are cut to it (the rest is padding). */
  inputLength: number | null;
  tokenIds: number[] | null;
  tokenLossMask: number[] | null;
  sampleLossMask: number | null;
  advantages: number[] | null;
  generationLogprobs: number[] | null;
  prevLogprobs: number[] | null;
  reward: number | null;
  agentName: string | null;
  content: unknown;
  /** Keys this reader does not know, as written (each still a batch of one). */
  extra: Record<string, unknown>;
}

// Python's json.dumps writes NaN, Infinity and -Infinity bare; they are kept as numbers.
const PY_NUMBER = /(?<![\w"])(-?Infinity|NaN)(?![\w"])/g;
const pyNumbers = new Map([
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
]);

/** Parses a line that JSON.parse refuses only for Python's non-finite numbers; null otherwise. */
export function scanPythonNumbers(buf: Buffer): { value: unknown; lists: ScannedLists } | null {
  if (!buf.includes("NaN") && !buf.includes("Infinity")) return null;
  const text = buf.toString("utf8");
  const mark = "\u0001py:";
  const marked = replaceOutsideStrings(text, (chunk) =>
    chunk.replace(PY_NUMBER, (s) => JSON.stringify(mark + s)),
  );
  try {
    const value: unknown = JSON.parse(marked, (_k, v: unknown) =>
      typeof v === "string" && v.startsWith(mark) ? pyNumbers.get(v.slice(mark.length)) : v,
    );
    return { value, lists: {} };
  } catch {
    return null; // JSON.parse of the original then names the error
  }
}

/** Applies `f` to the parts of a JSON text outside string literals. */
function replaceOutsideStrings(text: string, f: (chunk: string) => string): string {
  let out = "";
  let start = 0;
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '"') {
      i++;
      continue;
    }
    out += f(text.slice(start, i));
    let j = i + 1;
    while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
    out += text.slice(i, j + 1);
    start = i = j + 1;
  }
  return out + f(text.slice(start));
}

/** A batch of one: `[value]`. */
const one = <T extends z.ZodType>(inner: T) => z.tuple([inner]).optional();
// NaN and ±Infinity pass (z.number() refuses them): non-finite log probs are evidence, not errors.
const num = z.custom<number>((v) => typeof v === "number", "expected a number");
// Per-token lists are checked in one loop each, not element by element through zod: a step file
// holds millions of these values and is read in one pass (docs/hotspots.md).
const everyOf = (v: unknown, ok: (x: unknown) => boolean) => {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (!ok(v[i])) return false;
  return true;
};
const ints = z.custom<number[]>(
  (v) => everyOf(v, Number.isSafeInteger),
  "expected a list of integers",
);
const nums = z.custom<number[]>(
  (v) => everyOf(v, (x) => typeof x === "number"),
  "expected a list of numbers",
);

const stepLineSchema = z.looseObject({
  idx: z.int().nonnegative().optional(),
  input_lengths: one(z.int().nonnegative()),
  token_ids: one(ints),
  token_loss_mask: one(nums),
  sample_loss_mask: one(num),
  advantages: one(nums),
  generation_logprobs: one(nums),
  prev_logprobs: one(nums),
  rewards: one(num),
  content: one(z.unknown()),
  agent_ref: one(z.looseObject({ name: z.string().optional() }).nullable()),
});

const KNOWN = new Set(Object.keys(stepLineSchema.shape));
const PER_TOKEN = [
  "token_loss_mask",
  "advantages",
  "generation_logprobs",
  "prev_logprobs",
] as const;

type StepLine = z.infer<typeof stepLineSchema>;

/** Why the per-token lists cannot be lined up with `token_ids`; null when they can. */
function raggedness(v: StepLine): string | null {
  const ids = v.token_ids?.[0];
  const len = v.input_lengths?.[0];
  if (ids && len !== undefined && len > ids.length)
    return `input_lengths is ${len} but token_ids holds ${ids.length} ids`;
  if (!ids) return v.input_lengths ? "input_lengths without token_ids" : null;
  if (len === undefined) return "token_ids without input_lengths";
  for (const key of PER_TOKEN) {
    const list = v[key]?.[0];
    if (list && list.length !== ids.length)
      return `ragged lists: token_ids holds ${ids.length} entries but ${key} ${list.length}`;
  }
  return null;
}

function toSample(v: StepLine, f: StepFile, line: number): StepSample {
  const len = v.input_lengths?.[0] ?? null;
  // Cut in place: the lists are this line's own, fresh from JSON.parse (a copy costs a step file's
  // every value once more).
  const cut = (xs: number[] | undefined) => {
    if (!xs || len === null) return null;
    if (xs.length > len) xs.length = len;
    return xs;
  };
  const extra: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) if (!KNOWN.has(k)) extra[k] = val;
  return {
    step: f.step,
    kind: f.kind,
    file: path.basename(f.file),
    line,
    idx: v.idx ?? null,
    inputLength: len,
    tokenIds: cut(v.token_ids?.[0]),
    tokenLossMask: cut(v.token_loss_mask?.[0]),
    sampleLossMask: v.sample_loss_mask?.[0] ?? null,
    advantages: cut(v.advantages?.[0]),
    generationLogprobs: cut(v.generation_logprobs?.[0]),
    prevLogprobs: cut(v.prev_logprobs?.[0]),
    reward: v.rewards?.[0] ?? null,
    agentName: v.agent_ref?.[0]?.name ?? null,
    content: v.content?.[0],
    extra,
  };
}

/** The line's sample, or why it cannot be read (the reader names the file and line). */
export function sampleOfLine(l: JsonlLine, f: StepFile): StepSample | string {
  if (l.problem) return l.problem;
  const parsed = stepLineSchema.safeParse(l.value);
  if (!parsed.success) return describeZodError(parsed.error);
  return raggedness(parsed.data) ?? toSample(parsed.data, f, l.line);
}
