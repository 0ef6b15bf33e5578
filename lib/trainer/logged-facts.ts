// A logger's run facts (W&B config and summary, MLflow params and the run's own fields) as the run
// page shows them: nested objects flattened to dotted keys (`grpo.seed`, as W&B's UI names them),
// key and value as text, sorted by key, each value cut to a readable length and the list bounded,
// what was left counted. Pure; what the facts are is each reader's.
import type { LoggedFacts } from "@/lib/schema";

/** Entries one list sends; the rest are counted in `more`. */
export const FACTS_SHOWN = 300;
/** A value longer than this is cut (a config may hold a whole prompt template). */
const VALUE_CHARS = 500;

function text(value: unknown): string {
  const s = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return s.length > VALUE_CHARS ? `${s.slice(0, VALUE_CHARS)}… (${s.length} characters)` : s;
}

/** Flattening stops this deep (a config nests a few levels; a cycle never reaches here: JSON). */
const MAX_DEPTH = 8;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `values` with nested objects as dotted keys; lists and leaves kept as they are. */
function flatten(values: Readonly<Record<string, unknown>>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  // A stack, not recursion: the depth is bounded, but the loop reads the same either way.
  const stack: [string, unknown, number][] = Object.entries(values).map(([k, v]) => [k, v, 0]);
  while (stack.length > 0) {
    const [key, value, depth] = stack.pop()!;
    if (isPlainObject(value) && depth < MAX_DEPTH && Object.keys(value).length > 0)
      for (const [k, v] of Object.entries(value)) stack.push([`${key}.${k}`, v, depth + 1]);
    else out.set(key, value);
  }
  return out;
}

/** The facts `values` as a list of `kind` from `source`; null when there are none. */
export function loggedFacts(
  source: string,
  kind: LoggedFacts["kind"],
  values: Readonly<Record<string, unknown>>,
  shown = FACTS_SHOWN,
): LoggedFacts | null {
  const flat = flatten(values);
  const keys = [...flat.keys()].sort();
  if (keys.length === 0) return null;
  const entries = keys.slice(0, shown).map((key) => ({ key, value: text(flat.get(key)) }));
  return { source, kind, entries, more: Math.max(0, keys.length - shown) };
}
