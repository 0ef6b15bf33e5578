// Reads NeMo-RL's per-step sample logs, `<log_dir>/train_data_step{N}.jsonl` and `val_data_step{N}.jsonl`:
// one line per sample, every value a batch of one (`[[…ids]]`, `[0.5]`), `idx` the sample's place in
// the step's batch. A bad line names its file and line and costs only that sample; unknown keys are
// kept. Reads through lib/store's confined, deadline-guarded readers; not responsible for joining.
import "server-only";
import { isUtf8 } from "node:buffer";
import path from "node:path";
import {
  sampleOfLine,
  scanPythonNumbers,
  type StepFile,
  type StepFileKind,
  type StepSample,
} from "./step-line";
import {
  readJsonl,
  type JsonlLine,
  cachedOrError,
  confine,
  OutsideStoreError,
  readdirWithin,
  isDirectory,
  fileState,
  readRegularFile,
  MAX_DEPTH,
  tooDeep,
  withinDepth,
} from "@/lib/store";

export type { StepFile, StepFileKind, StepSample } from "./step-line";

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

/**
 * Loss-mask tokens whose logged advantage is not 0: the ones the policy gradient moves (the
 * ledger's advantage stage, docs/ledger.md). Null when the line has no token_loss_mask or no
 * `advantages` (the ledger then falls back to the groups' rewards).
 */
export function advantageTokensOf(
  s: Pick<StepSample, "tokenLossMask" | "sampleLossMask" | "advantages">,
): number | null {
  const [mask, adv] = [s.tokenLossMask, s.advantages];
  if (!mask || !adv) return null;
  if (s.sampleLossMask === 0) return 0;
  let n = 0;
  for (let t = 0; t < mask.length; t++) if (mask[t] !== 0 && (adv[t] ?? 0) !== 0) n++;
  return n;
}

/**
 * The sample's logged advantage: `advantages` at its first loss-mask token (GRPO logs one value per
 * sample, repeated over its tokens), or at its first token when no token is in the loss. Null when
 * the line has no `advantages`, none at that token, or it is not finite.
 */
export function loggedAdvantageOf(
  s: Pick<StepSample, "tokenLossMask" | "advantages">,
): number | null {
  const adv = s.advantages;
  if (!adv || adv.length === 0) return null;
  const first = s.tokenLossMask ? s.tokenLossMask.findIndex((m) => m !== 0) : -1;
  // A loss token past the logged values (a cut list) has none: never another token's instead.
  const v = adv[first >= 0 ? first : 0];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
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

function readLine(l: JsonlLine, f: StepFile, out: StepSink): void {
  const read = sampleOfLine(l, f);
  if (typeof read !== "string") return out.onSample(read);
  const file = path.basename(f.file);
  out.issues.push({ file, line: l.line, message: `${file} line ${l.line}: ${read}` });
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
  if (read.tornTail) out.issues.push(tornTail(file, read.tornTail.line));
  return out.issues;
}

const tornTail = (file: string, line: number): StepIssue => ({
  file,
  line,
  message: `${file} line ${line}: a torn final line (a write in progress), not read`,
});

/** Files up to this size are read whole by eachStepSample; a larger one streams. */
const WHOLE_FILE_MAX = 64 << 20;

/** One line of a whole file's text as lib/store's reader would give it; null when blank. */
function lineAt(text: string, from: number, end: number, line: number): JsonlLine | null {
  const s = text.slice(from, text.charCodeAt(end - 1) === 13 ? end - 1 : end);
  if (s.length === 0 || (s.charCodeAt(0) <= 32 && s.trim() === "")) return null;
  try {
    return { line, value: JSON.parse(s), bytes: end - from };
  } catch (err) {
    const py = scanPythonNumbers(Buffer.from(s));
    if (py) return { line, value: py.value, bytes: end - from };
    return {
      line,
      value: undefined,
      bytes: end - from,
      problem: `not valid JSON (${(err as Error).message})`,
    };
  }
}

/**
 * Each sample of one step file in turn, kept by no one: a one-pass reader's way (the hotspots,
 * docs/hotspots.md). Confined like readStepFile; not cached. The file is read whole: one read, one
 * UTF-8 check and one decode, then JSON.parse per line, with the samples and issues of the
 * streaming reader. A file with NUL bytes or invalid UTF-8, or past WHOLE_FILE_MAX, streams
 * instead. Only the values it does not check number by number (content, unknown keys) are walked
 * for depth: V8's JSON.parse nests iteratively; the walk guards code that recurses (a clone).
 */
export async function eachStepSample(
  f: StepFile,
  onSample: (s: StepSample) => void,
): Promise<StepIssue[]> {
  const refusal = await refused(f);
  if (refusal) return [refusal];
  if ((await fileState(f.file)).size > WHOLE_FILE_MAX) return readSamples(f, onSample);
  const buf = await readRegularFile(f.file, WHOLE_FILE_MAX);
  if (buf.indexOf(0) >= 0 || !isUtf8(buf)) return readSamples(f, onSample);
  const text = buf.toString("utf8");
  const file = path.basename(f.file);
  const issues: StepIssue[] = [];
  let line = 0;
  for (let from = 0; from < text.length;) {
    const nl = text.indexOf("\n", from);
    const end = nl < 0 ? text.length : nl;
    const l = lineAt(text, from, end, ++line);
    from = end + 1;
    if (!l) continue;
    if (nl < 0 && l.problem) issues.push(tornTail(file, line));
    else {
      const read = sampleOfLine(l, f);
      const why =
        typeof read === "string"
          ? read
          : withinDepth(read.content, MAX_DEPTH - 2) && withinDepth(read.extra, MAX_DEPTH)
            ? null
            : tooDeep();
      if (why === null) onSample(read as StepSample);
      else issues.push({ file, line, message: `${file} line ${line}: ${why}` });
    }
  }
  return issues;
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
