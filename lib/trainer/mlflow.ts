// MLflow file-store metrics: `mlruns/<experiment>/<run>/metrics/<key>`, one line per logged value,
// "timestamp value step" (timestamp in milliseconds; files of old MLflow versions have no step, then
// 0). A key with slashes is a nested path (`train/reward` is `metrics/train/reward`). Python writes
// NaN and infinities as `nan`, `inf`, `-inf`: kept as gaps. A torn last line (no newline) is a write
// in progress and ignored; other unreadable lines are noted, never fatal. Pure.
import { pointOf, type PointSink } from "./scalar-series";

export interface MetricFileRead {
  file: string;
  lines: number;
  notes: string[];
}

const NON_FINITE: Record<string, number> = {
  nan: NaN,
  inf: Infinity,
  infinity: Infinity,
  "+inf": Infinity,
  "-inf": -Infinity,
  "-infinity": -Infinity,
};

function numberOf(text: string): number | null {
  const special = NON_FINITE[text.toLowerCase()];
  if (special !== undefined) return special;
  const n = Number(text);
  return text !== "" && !Number.isNaN(n) ? n : null;
}

/** Adds the points of one metric file (`text`, named `file`, logged under `tag`) to `into`. */
export function readMlflowMetric(
  text: string,
  tag: string,
  file: string,
  into: PointSink,
): MetricFileRead {
  const out: MetricFileRead = { file, lines: 0, notes: [] };
  // Line by line through the text (a 100 MB file is never split into an array of lines).
  for (let start = 0, i = 0; start < text.length; i++) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    const torn = nl < 0;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (line === "") continue;
    const parts = line.split(/\s+/);
    const [ts, value, step] = [parts[0] ?? "", parts[1] ?? "", parts[2] ?? "0"];
    const t = Number(ts),
      v = numberOf(value),
      s = Number(step);
    if (parts.length > 3 || !Number.isFinite(t) || v === null || !Number.isSafeInteger(s)) {
      if (!torn) out.notes.push(`${file}: line ${i + 1}: not "timestamp value step"; skipped`);
      continue;
    }
    into.add(tag, file, pointOf(s, t / 1000, v));
    out.lines++;
  }
  return out;
}
