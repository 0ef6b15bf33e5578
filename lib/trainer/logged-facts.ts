// A logger's run facts (W&B config and summary, MLflow params and the run's own fields) as the run
// page shows them: key and value as text, sorted by key, each value cut to a readable length and
// the list bounded, what was left counted. Pure; what the facts are is each reader's.
import type { LoggedFacts } from "@/lib/schema";

/** Entries one list sends; the rest are counted in `more`. */
export const FACTS_SHOWN = 300;
/** A value longer than this is cut (a config may hold a whole prompt template). */
const VALUE_CHARS = 500;

function text(value: unknown): string {
  const s = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return s.length > VALUE_CHARS ? `${s.slice(0, VALUE_CHARS)}… (${s.length} characters)` : s;
}

/** The facts `values` as a list of `kind` from `source`; null when there are none. */
export function loggedFacts(
  source: string,
  kind: LoggedFacts["kind"],
  values: Readonly<Record<string, unknown>>,
  shown = FACTS_SHOWN,
): LoggedFacts | null {
  const keys = Object.keys(values).sort();
  if (keys.length === 0) return null;
  const entries = keys.slice(0, shown).map((key) => ({ key, value: text(values[key]) }));
  return { source, kind, entries, more: Math.max(0, keys.length - shown) };
}
