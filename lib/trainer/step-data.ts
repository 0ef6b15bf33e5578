// Reads NeMo-RL's per-step sample logs, `<log_dir>/train_data_step{N}.jsonl` and `val_data_step{N}.jsonl`:
// one line per sample, every value a batch of one (`[[…ids]]`, `[0.5]`), `idx` the sample's place in
// the step's batch. A bad line names its file and line and costs only that sample; unknown keys are
// kept. Reads through lib/store's confined, deadline-guarded readers; not responsible for joining.
import "server-only";
import path from "node:path";
import { z } from "zod";
import {
  readJsonl,
  type JsonlLine,
  cachedOrError,
  confine,
  OutsideStoreError,
  readdirWithin,
  isDirectory,
  type ScannedLists,
  describeZodError,
} from "@/lib/store";

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

export interface StepIssue {
  file: string;
  line: number | null;
  message: string;
}

export interface StepRead {
  samples: StepSample[];
  issues: StepIssue[];
}

/**
 * Tokens the sample's loss counts (token_loss_mask non-zero, the sample's mask not 0): the signal
 * ledger's loss-mask stage (docs/ledger.md). Null when the line has no token_loss_mask.
 */
export function lossTokensOf(
  s: Pick<StepSample, "tokenLossMask" | "sampleLossMask">,
): number | null {
  if (!s.tokenLossMask) return null;
  if (s.sampleLossMask === 0) return 0;
  let n = 0;
  for (const m of s.tokenLossMask) if (m !== 0) n++;
  return n;
}

const STEP_FILE = /^(train|val)_data_step(\d+)\.jsonl$/;

/** NeMo-RL's step logs in `dir`, by kind then step; empty when `dir` is missing or unreadable. */
export async function listStepFiles(dir: string): Promise<StepFile[]> {
  if (!(await isDirectory(dir))) return [];
  const entries = await readdirWithin(dir).catch(() => []);
  const out: StepFile[] = [];
  for (const d of entries) {
    const m = STEP_FILE.exec(d.name);
    if (!m || d.isDirectory()) continue;
    out.push({ kind: m[1] as StepFileKind, step: Number(m[2]), file: path.join(dir, d.name) });
  }
  return out.sort((a, b) => a.kind.localeCompare(b.kind) || a.step - b.step);
}

// Python's json.dumps writes NaN, Infinity and -Infinity bare; they are kept as numbers.
const PY_NUMBER = /(?<![\w"])(-?Infinity|NaN)(?![\w"])/g;
const pyNumbers = new Map([
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
]);

/** Parses a line that JSON.parse refuses only for Python's non-finite numbers; null otherwise. */
function scanPythonNumbers(buf: Buffer): { value: unknown; lists: ScannedLists } | null {
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
// holds millions of these values and is read in one pass (docs/trainer-logs.md "Mismatch hotspots").
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

function readLine(l: JsonlLine, f: StepFile, out: StepSink): void {
  const file = path.basename(f.file);
  const refuse = (why: string) =>
    void out.issues.push({ file, line: l.line, message: `${file} line ${l.line}: ${why}` });
  if (l.problem) return refuse(l.problem);
  const parsed = stepLineSchema.safeParse(l.value);
  if (!parsed.success) return refuse(describeZodError(parsed.error));
  const ragged = raggedness(parsed.data);
  if (ragged) return refuse(ragged);
  out.onSample(toSample(parsed.data, f, l.line));
}

interface StepSink {
  onSample: (s: StepSample) => void;
  issues: StepIssue[];
}

/** Why the step file is refused unread (it links out of its directory), or null. */
async function refused(f: StepFile): Promise<StepIssue | null> {
  // A step file may link only within its directory: one leading out is refused unread, by name.
  try {
    await confine(path.dirname(f.file), f.file, "the run's log directory");
    return null;
  } catch (err) {
    if (!(err instanceof OutsideStoreError)) throw err;
    return { file: path.basename(f.file), line: null, message: err.message };
  }
}

async function readSamples(f: StepFile, onSample: (s: StepSample) => void): Promise<StepIssue[]> {
  const file = path.basename(f.file);
  const out: StepSink = { onSample, issues: [] };
  const onLine = (l: JsonlLine) => readLine(l, f, out);
  const read = await readJsonl(f.file, onLine, undefined, undefined, scanPythonNumbers);
  if (read.tornTail)
    out.issues.push({
      file,
      line: read.tornTail.line,
      message: `${file} line ${read.tornTail.line}: a torn final line (a write in progress), not read`,
    });
  return out.issues;
}

/**
 * Each sample of one step file in turn, kept by no one (a one-pass reader's way: ./hotspots);
 * returns the lines that could not be read. Confined like readStepFile; not cached.
 */
export async function eachStepSample(
  f: StepFile,
  onSample: (s: StepSample) => void,
): Promise<StepIssue[]> {
  const refusal = await refused(f);
  return refusal ? [refusal] : readSamples(f, onSample);
}

/** One step file's samples and the lines that could not be read, once per file version. */
export async function readStepFile(f: StepFile): Promise<StepRead> {
  const refusal = await refused(f);
  if (refusal) return { samples: [], issues: [refusal] };
  const res = await cachedOrError(`nemo-rl-step:${f.kind}:${f.step}`, f.file, async () => {
    const samples: StepSample[] = [];
    const issues = await readSamples(f, (s) => void samples.push(s));
    return { samples, issues };
  });
  if (res.value) return res.value;
  const file = path.basename(f.file);
  return { samples: [], issues: res.error ? [{ file, line: null, message: res.error }] : [] };
}
