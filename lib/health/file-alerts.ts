// Alerts about a run's files rather than its rollouts: a rollouts.jsonl or metrics.jsonl that could
// not be read, NaN and Infinity values kept as gaps in the training curve (metrics.jsonl or the
// trainer logs' reward, with what their reader skipped), and store files the listing
// skipped. They stay on their own run's page (and count on the home page); nothing here reads files.
import "server-only";
import type { Alert } from "@/lib/schema";
import type { RunMetrics } from "@/lib/runs/metrics";
import type { IndexSnapshot } from "@/lib/runs/summary-index";
import { MAX_ROLLOUT_ID_LENGTH } from "@/lib/store/rollout-id";

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

export function fileAlerts(snap: IndexSnapshot, metrics: RunMetrics): Alert[] {
  const out: Alert[] = [];
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
    const where = first ? ` (first: line ${first.line}: ${first.reason})` : "";
    out.push(
      fileAlert(
        "warning",
        metrics.unreadable,
        `${metrics.unreadable} lines of \`${metrics.file}\` could not be read${where}.`,
      ),
    );
  }
  if (metrics.gaps.length > 0) out.push(gapsAlert(metrics));
  const notes = metrics.notes ?? [];
  if (notes.length > 0)
    out.push(fileAlert("warning", notes.length, `\`${metrics.file}\`: ${notes.join("; ")}.`));
  if (snap.skipped_files.length > 0) out.push(skippedAlert(snap.skipped_files));
  return out;
}

/** The run's file problems in one line, for the run list (which shows no alerts' text). */
export function fileProblems(snap: IndexSnapshot, metrics: RunMetrics): string | null {
  const problems = [snap.records_error, metrics.error].filter((p): p is string => p !== null);
  return problems.length > 0 ? `could not read ${problems.join("; ")}` : null;
}
