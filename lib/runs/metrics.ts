// A run's metrics.jsonl: one row per training step with `step`, `reward` and any other scalars.
// Read once per file version (the process-wide file cache). Python's json writes NaN and Infinity
// as bare literals: such a value becomes a gap (null) with a note naming its line and key, and the
// row is kept. Unreadable lines are counted, a file that cannot be read is an error for its run
// alone. Not responsible for downsampling (lib/health/run-health).
import "server-only";
import path from "node:path";
import { z } from "zod";
import { readTextFile, cachedOrError } from "@/lib/store";

export const metricsRowSchema = z.looseObject({ step: z.int(), reward: z.number().nullish() });

/** Larger than any metrics file a run writes (one line per step): refused, never read into memory. */
export const METRICS_MAX_BYTES = 256 << 20;

export interface MetricsRow {
  step: number;
  reward: number | null;
  scalars: Record<string, number>;
  /** Keys whose value was NaN or ±Infinity on this row (now null): gaps, not missing values. */
  nonFinite?: string[];
}

/** A NaN or ±Infinity value, kept as a gap. `key` is dotted for nested objects (`eval.loss`). */
export interface MetricsGap {
  line: number;
  /** Where it is when not a line of metrics.jsonl: "step 12" of a trainer log's series. */
  at?: string;
  key: string;
  value: string;
}

export interface RunMetrics {
  rows: MetricsRow[];
  unreadable: number;
  /** The first unreadable lines, with why. */
  problems: Array<{ line: number; reason: string }>;
  gaps: MetricsGap[];
  /** Why the file could not be read at all (then no rows); null when it was read. */
  error: string | null;
  /** The file's name, for messages (for a trainer log's curve, its tag and directory). */
  file: string;
  /** A trainer log's curve: what its reader skipped (torn tails, CRC mismatches), each naming its file. */
  notes?: string[];
  /** What `notes` are about (the trainer log directory, relative to the run), when not `file`. */
  notesSource?: string;
}

const MAX_PROBLEMS = 20;
/** Marks a non-finite literal inside the JSON text; no metric value starts with a NUL. */
const MARK = "\u0000non-finite:";
const NON_FINITE = ["-Infinity", "Infinity", "NaN"] as const;

/** `text` with every bare NaN/Infinity/-Infinity (outside strings) as a marked string; null if none. */
function markNonFinite(text: string): string | null {
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
    const literal = NON_FINITE.find((l) => text.startsWith(l, i));
    if (!literal) continue;
    out += text.slice(from, i) + JSON.stringify(MARK + literal);
    i += literal.length - 1;
    from = i + 1;
  }
  return from === 0 ? null : out + text.slice(from);
}

/** Replaces marked values by null (iteratively, nested objects too) and returns where they were. */
function unmark(value: unknown, line: number): MetricsGap[] {
  const gaps: MetricsGap[] = [];
  const stack: Array<[Record<string, unknown>, string]> = [];
  if (value !== null && typeof value === "object")
    stack.push([value as Record<string, unknown>, ""]);
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [obj, prefix] = top;
    for (const [k, v] of Object.entries(obj)) {
      const key = Array.isArray(obj) ? `${prefix}[${k}]` : prefix ? `${prefix}.${k}` : k;
      if (typeof v === "string" && v.startsWith(MARK)) {
        obj[k] = null;
        gaps.push({ line, key, value: v.slice(MARK.length) });
      } else if (v !== null && typeof v === "object")
        stack.push([v as Record<string, unknown>, key]);
    }
  }
  return gaps;
}

/** One line: its value and gaps, or why it does not parse. */
function parseMetricsLine(
  text: string,
  line: number,
): { value: unknown; gaps: MetricsGap[] } | { problem: string } {
  try {
    return { value: JSON.parse(text), gaps: [] };
  } catch (err) {
    const marked = markNonFinite(text);
    if (marked !== null)
      try {
        const value: unknown = JSON.parse(marked);
        return { value, gaps: unmark(value, line) };
      } catch {
        // not JSON even with the literals read: report the original error
      }
    return { problem: `not valid JSON (${(err as Error).message})` };
  }
}

function parseMetrics(text: string, name: string): RunMetrics {
  const out: RunMetrics = {
    rows: [],
    unreadable: 0,
    problems: [],
    gaps: [],
    error: null,
    file: name,
  };
  const lines = text.split("\n");
  // A last line without its newline that does not parse is torn (or a write in progress): its step
  // is missing from the curve, so it is counted and named like any other unreadable line.
  const torn = lines.length > 0 && !text.endsWith("\n") ? lines.length : -1;
  const fail = (line: number, reason: string) => {
    out.unreadable++;
    if (out.problems.length < MAX_PROBLEMS) out.problems.push({ line, reason });
  };
  lines.forEach((raw, i) => {
    const text = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (text.trim() === "") return;
    const parsed = parseMetricsLine(text, i + 1);
    if ("problem" in parsed)
      return void fail(
        i + 1,
        i + 1 === torn ? `unterminated last line (torn, or still being written)` : parsed.problem,
      );
    const row = metricsRowSchema.safeParse(parsed.value);
    out.gaps.push(...parsed.gaps);
    if (!row.success) return void fail(i + 1, "no integer `step`");
    const scalars: Record<string, number> = {};
    for (const [k, v] of Object.entries(row.data))
      if (typeof v === "number" && k !== "step") scalars[k] = v;
    out.rows.push({
      step: row.data.step,
      reward: row.data.reward ?? null,
      scalars,
      nonFinite: parsed.gaps.map((g) => g.key),
    });
  });
  out.rows.sort((a, b) => a.step - b.step);
  return out;
}

export async function readMetrics(file: string | null): Promise<RunMetrics> {
  const name = file ? path.basename(file) : "metrics.jsonl";
  const empty: RunMetrics = {
    rows: [],
    unreadable: 0,
    problems: [],
    gaps: [],
    error: null,
    file: name,
  };
  if (!file) return empty;
  const metrics = await cachedOrError("metrics", file, async (st) => {
    if (st.size > METRICS_MAX_BYTES)
      throw new Error(
        `${(st.size / 2 ** 20).toFixed(0)} MiB is more than a metrics file holds (at most ${METRICS_MAX_BYTES / 2 ** 20} MiB); not read`,
      );
    return parseMetrics(await readTextFile(file), name);
  });
  return metrics.value ?? { ...empty, error: metrics.error };
}
