// Alerts about a run's files rather than its rollouts: a rollouts.jsonl or metrics.jsonl that could
// not be read, NaN and Infinity values kept as gaps in the training curve (metrics.jsonl or the
// trainer logs' reward, with what their reader skipped), and store files the listing
// skipped. They stay on their own run's page (and count on the home page); nothing here reads files.
import "server-only";
import type { Alert } from "@/lib/schema";
import type { RunMetrics } from "@/lib/runs";
import type { IndexSnapshot } from "@/lib/index";
import { MAX_ROLLOUT_ID_LENGTH } from "@/lib/store";

/** How many gaps or skipped files an alert names before "… N more". */
const NAMED = 5;

const fileAlert = (severity: Alert["severity"], count: number, message: string): Alert => ({
  kind: "unreadable",
  severity,
  verdict: null,
  count,
  message,
  rollout_ids: [],
});

const more = (n: number) => (n > NAMED ? ` … ${n - NAMED} more` : "");

/** The listing skips exactly the names whose rollout id is not valid: one reason for all. */
function skippedAlert(skipped: string[]): Alert {
  const named = skipped.slice(0, NAMED).map((name) => `\`${name}\``);
  const files = skipped.length === 1 ? "1 store file was" : `${skipped.length} store files were`;
  return fileAlert(
    "warning",
    skipped.length,
    `${files} skipped: ${named.join(", ")}${more(skipped.length)} — not a valid rollout id (letters, digits, '.', '_' and '-', starting with a letter or digit, at most ${MAX_ROLLOUT_ID_LENGTH} long).`,
  );
}

function gapsAlert(metrics: RunMetrics): Alert {
  const n = metrics.gaps.length;
  const named = metrics.gaps
    .slice(0, NAMED)
    .map((g) => `${g.at ?? `line ${g.line}`} \`${g.key}\` is ${g.value}`);
  const values = n === 1 ? "1 value is" : `${n} values are`;
  return fileAlert(
    "warning",
    n,
    `\`${metrics.file}\`: ${values} not a finite number, kept as gaps in the charts: ${named.join("; ")}${more(n)}.`,
  );
}

/** "lines 3, 7 and 9", "line 4": the first NAMED line numbers of `count`. */
function linesNamed(lines: readonly number[], count: number): string {
  const named = lines.slice(0, NAMED);
  const list =
    named.length <= 1 ? String(named[0]) : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
  return `${named.length === 1 ? "line" : "lines"} ${list}${more(count)}`;
}

/**
 * rollouts.jsonl's lines that could not be read, and a torn last line (unterminated, not parseable):
 * each is a rollout's record missing, so its reward is not in the run's mean.
 */
function recordLinesAlert(snap: IndexSnapshot): Alert | null {
  const torn = snap.records_torn_line;
  const count = snap.unreadable_count + (torn === null ? 0 : 1);
  if (count === 0) return null;
  const lines = [...snap.unreadable_records.map((u) => u.line), ...(torn === null ? [] : [torn])];
  const first = snap.unreadable_records[0];
  const why = first ? `; first: line ${first.line}: ${first.reason}` : "";
  const tornWords =
    torn === null
      ? ""
      : ` Line ${torn} is the last and is unterminated (torn, or still being written).`;
  return {
    ...fileAlert(
      "warning",
      count,
      `${count === 1 ? "1 line" : `${count} lines`} of \`rollouts.jsonl\` could not be read (${linesNamed(lines, count)}${why}): their records (reward, step, masks) are missing from the run's numbers.${tornWords}`,
    ),
    kind: "unreadable_records",
  };
}

/** run.json could not be used (or a path it names was refused): the run is read without it. */
function manifestAlert(error: string): Alert {
  return { ...fileAlert("error", 1, error.endsWith(".") ? error : `${error}.`), kind: "manifest" };
}

export function fileAlerts(
  snap: IndexSnapshot,
  metrics: RunMetrics,
  manifestError: string | null = null,
): Alert[] {
  const out: Alert[] = [];
  if (manifestError) out.push(manifestAlert(manifestError));
  const records = recordLinesAlert(snap);
  if (records) out.push(records);
  if (snap.records_error)
    out.push({
      ...fileAlert(
        "error",
        1,
        `\`${snap.records_error}\`: the run's rollouts are shown from the token store alone, without their records (reward, step, masks).`,
      ),
      kind: "unreadable_records",
    });
  if (metrics.error)
    out.push(
      fileAlert("error", 1, `\`${metrics.error}\`: no training metrics are shown for this run.`),
    );
  if (metrics.unreadable > 0) {
    const first = metrics.problems[0];
    const n = metrics.unreadable;
    const lines = linesNamed(
      metrics.problems.map((p) => p.line),
      n,
    );
    const where = first ? ` (${lines}; first: line ${first.line}: ${first.reason})` : "";
    out.push(
      fileAlert(
        "warning",
        n,
        `${n === 1 ? "1 line" : `${n} lines`} of \`${metrics.file}\` could not be read${where}: their steps are missing from the training curve.`,
      ),
    );
  }
  if (metrics.gaps.length > 0) out.push(gapsAlert(metrics));
  const notes = metrics.notes ?? [];
  if (notes.length > 0)
    out.push(
      fileAlert(
        "warning",
        notes.length,
        `\`${metrics.notesSource ?? metrics.file}\`: ${notes.join("; ")}.`,
      ),
    );
  if (snap.skipped_files.length > 0) out.push(skippedAlert(snap.skipped_files));
  return out;
}

/** The run's file problems in one line, for the run list (which shows no alerts' text). */
export function fileProblems(snap: IndexSnapshot, metrics: RunMetrics): string | null {
  const problems = [snap.records_error, metrics.error].filter((p): p is string => p !== null);
  return problems.length > 0 ? `could not read ${problems.join("; ")}` : null;
}
