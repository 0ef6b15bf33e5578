// The text files W&B keeps beside a run file in the run's `files/`: `wandb-summary.json` (the
// final summary), `config.yaml` (each key as {desc, value}, plus W&B's own `_wandb`) and
// `wandb-metadata.json` (program, host, start time, hardware). Pure parsers of their text; a
// file that does not parse is a note naming it and the line, never a throw. Not responsible for
// finding or reading the files, nor for preferring the run file's facts (./facts' mergeFacts).
import { parseDocument } from "yaml";
import { z } from "zod";
import { FactValues, isWandbConfigKey, MAX_VALUE_CHARS, type WandbMetadata } from "./facts";
import { jsonErrorOffset, parseWandbJson } from "./json-value";

export interface SideFileRead<T> {
  value: T;
  notes: string[];
}

// Aliases a config.yaml may expand: W&B's writers repeat a shared object at most a few times.
const MAX_ALIASES = 100;
const MAX_ARGS = 200;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The line (1-based) of character `at` of `text`. */
function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** A JSON object file as an object, or a note on why it is not one. */
function jsonObject(text: string, rel: string): SideFileRead<Record<string, unknown> | undefined> {
  const parsed = parseWandbJson(text);
  if (!parsed.ok) {
    const at = jsonErrorOffset(text);
    const where = at >= 0 ? `line ${lineOf(text, at)}: ` : "";
    return {
      value: undefined,
      notes: [`${rel}: ${where}not valid JSON (${parsed.error}); not read`],
    };
  }
  if (!isObject(parsed.value))
    return { value: undefined, notes: [`${rel}: line 1: not a JSON object; not read`] };
  return { value: parsed.value, notes: [] };
}

/** `wandb-summary.json`: the run's final summary by key, bounded like the run file's. */
export function parseSummaryJson(text: string, rel: string): SideFileRead<Record<string, unknown>> {
  const obj = jsonObject(text, rel);
  const summary = new FactValues();
  for (const [k, v] of Object.entries(obj.value ?? {})) summary.set(k, v);
  return { value: summary.record(), notes: [...obj.notes, ...summary.notes("summary", rel)] };
}

/** `config.yaml`: each key's `value` (W&B writes `key: {desc: null, value: X}`), not `_wandb`. */
export function parseConfigYaml(text: string, rel: string): SideFileRead<Record<string, unknown>> {
  let data: unknown;
  try {
    const doc = parseDocument(text);
    const err = doc.errors[0];
    if (err) {
      const line = err.linePos?.[0].line ?? lineOf(text, err.pos[0]);
      const why = err.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
      return { value: {}, notes: [`${rel}: line ${line}: not valid YAML (${why}); not read`] };
    }
    data = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (err) {
    return { value: {}, notes: [`${rel}: not read (${(err as Error).message})`] };
  }
  if (data === null || data === undefined) return { value: {}, notes: [] };
  if (!isObject(data))
    return { value: {}, notes: [`${rel}: line 1: not a mapping of keys; not read`] };
  const config = new FactValues();
  for (const [k, entry] of Object.entries(data)) {
    if (isWandbConfigKey(k)) continue;
    // A key not in W&B's {desc, value} form (a hand-written file) is kept as written.
    config.set(k, isObject(entry) && Object.hasOwn(entry, "value") ? entry.value : entry);
  }
  return { value: config.record(), notes: config.notes("config", rel) };
}

// Each field read alone: one of an unexpected type is left out, never the whole file.
const text = z
  .string()
  .transform((s) => (s.length > MAX_VALUE_CHARS ? `${s.slice(0, MAX_VALUE_CHARS)}…` : s))
  .optional()
  .catch(undefined);
const count = z.number().int().nonnegative().optional().catch(undefined);
const metadataSchema = z.object({
  program: text,
  codePath: text,
  host: text,
  startedAt: text,
  args: z
    .array(z.string())
    .transform((a) => a.slice(0, MAX_ARGS).map((s) => s.slice(0, MAX_VALUE_CHARS)))
    .optional()
    .catch(undefined),
  os: text,
  python: text,
  executable: text,
  gpu: text,
  gpu_count: count,
  cpu_count: count,
  cuda_version: text,
  git: z.object({ remote: text, commit: text }).optional().catch(undefined),
});

/** `wandb-metadata.json`: the program, host, start time and hardware W&B recorded. */
export function parseMetadataJson(json: string, rel: string): SideFileRead<WandbMetadata> {
  const obj = jsonObject(json, rel);
  const m = metadataSchema.parse(obj.value ?? {});
  const all: WandbMetadata = {
    program: m.program,
    code_path: m.codePath,
    host: m.host,
    started_at: m.startedAt,
    args: m.args,
    os: m.os,
    python: m.python,
    executable: m.executable,
    gpu: m.gpu,
    gpu_count: m.gpu_count,
    cpu_count: m.cpu_count,
    cuda_version: m.cuda_version,
    git_remote: m.git?.remote,
    git_commit: m.git?.commit,
  };
  // Only the facts the file has: absent ones stay absent, not `undefined` keys.
  for (const [k, v] of Object.entries(all)) if (v === undefined) Reflect.deleteProperty(all, k);
  return { value: all, notes: obj.notes };
}
