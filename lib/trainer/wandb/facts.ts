// What a W&B run says about itself besides its curves: ids and names, start time, exit code,
// config and summary (user data, kept as parsed JSON but bounded: at most 500 keys, each value's
// JSON at most 2,000 characters), and a few facts of wandb-metadata.json. Also the one rule for
// filling what a run file lacks from the side files. Not responsible for reading either (./read,
// ./side-files).

export const MAX_FACT_KEYS = 500;
export const MAX_VALUE_CHARS = 2000;

/** The few facts of `files/wandb-metadata.json` worth showing beside a run. */
export interface WandbMetadata {
  program?: string;
  code_path?: string;
  host?: string;
  /** ISO 8601, as W&B writes it. */
  started_at?: string;
  args?: string[];
  os?: string;
  python?: string;
  executable?: string;
  gpu?: string;
  gpu_count?: number;
  cpu_count?: number;
  cuda_version?: string;
  git_remote?: string;
  git_commit?: string;
}

export interface WandbFacts {
  run_id?: string;
  project?: string;
  entity?: string;
  display_name?: string;
  run_group?: string;
  job_type?: string;
  tags?: string[];
  /** Seconds since the epoch. */
  start_time?: number;
  /** Hyperparameters by key (a nested key joined with "."): the value itself, not {value, desc}. */
  config: Record<string, unknown>;
  /** The run's final values by key (a nested key joined with "."). */
  summary: Record<string, unknown>;
  exit_code?: number;
  metadata?: WandbMetadata;
}

/** What the text files beside a run file say (./side-files). */
export interface WandbSideFacts {
  config?: Record<string, unknown>;
  summary?: Record<string, unknown>;
  metadata?: WandbMetadata;
}

/** W&B's own entries in a run's config (version, telemetry under `_wandb`): not hyperparameters. */
export function isWandbConfigKey(key: string): boolean {
  return key === "_wandb" || key.startsWith("_wandb.") || key === "wandb_version";
}

/** A value as kept: non-finite numbers as W&B's literals, long JSON cut to a marked string. */
function bounded(value: unknown): { value: unknown; cut: boolean } {
  if (typeof value === "number" && !Number.isFinite(value))
    return {
      value: Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity",
      cut: false,
    };
  if (typeof value === "string")
    return value.length > MAX_VALUE_CHARS
      ? { value: `${value.slice(0, MAX_VALUE_CHARS)}…`, cut: true }
      : { value, cut: false };
  if (value === null || typeof value !== "object") return { value, cut: false };
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch {
    // A value that refers to itself (a YAML alias of its own parent) has no JSON.
    return { value: "[a value that contains itself]", cut: true };
  }
  return json.length > MAX_VALUE_CHARS
    ? { value: `${json.slice(0, MAX_VALUE_CHARS)}…`, cut: true }
    : { value, cut: false };
}

/** Values by key, updated and removed in the order a run wrote them, within the bounds. */
export class FactValues {
  private readonly values = new Map<string, unknown>();
  private cut = 0;
  private dropped = 0;

  set(key: string, value: unknown): void {
    if (!key) return;
    if (!this.values.has(key) && this.values.size >= MAX_FACT_KEYS) {
      this.dropped++;
      return;
    }
    const kept = bounded(value);
    if (kept.cut) this.cut++;
    this.values.set(key, kept.value);
  }

  /** Removes `key` and what nested keys set under it (`key.sub`), as W&B removes a subtree. */
  remove(key: string): void {
    this.values.delete(key);
    const under = `${key}.`;
    for (const k of this.values.keys()) if (k.startsWith(under)) this.values.delete(k);
  }

  record(): Record<string, unknown> {
    return Object.fromEntries(this.values);
  }

  /** Notes on what the bounds cost, naming the section ("config", "summary") and the file. */
  notes(section: string, rel: string): string[] {
    const out: string[] = [];
    if (this.cut > 0)
      out.push(
        `${rel}: ${section}: ${this.cut} values longer than ${MAX_VALUE_CHARS} characters were cut`,
      );
    if (this.dropped > 0)
      out.push(
        `${rel}: ${section}: ${this.dropped} more keys past the first ${MAX_FACT_KEYS} were not kept`,
      );
    return out;
  }
}

/** `side`'s keys that `binary` lacks, added; a key the binary holds nested (`k.sub`) is not. */
function fillKeys(
  binary: Record<string, unknown>,
  side: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!side) return binary;
  // A Map, not assignment into an object: a user's key may be "__proto__".
  const out = new Map(Object.entries(binary));
  const prefixes = new Set<string>();
  for (const k of out.keys())
    for (let i = k.indexOf("."); i > 0; i = k.indexOf(".", i + 1)) prefixes.add(k.slice(0, i));
  for (const [k, v] of Object.entries(side)) {
    if (out.size >= MAX_FACT_KEYS) break;
    if (!out.has(k) && !prefixes.has(k)) out.set(k, v);
  }
  return Object.fromEntries(out);
}

/**
 * The run file's facts with what it lacks filled from the side files: a missing id, name or time,
 * the config and summary keys it has not got. Where both say something, the run file wins: it is
 * the record of what the run did, the side files a snapshot W&B writes beside it.
 */
export function mergeFacts(binary: WandbFacts, side: WandbSideFacts): WandbFacts {
  const out: WandbFacts = {
    ...binary,
    config: fillKeys(binary.config, side.config),
    summary: fillKeys(binary.summary, side.summary),
  };
  const meta = side.metadata;
  if (meta && !binary.metadata) out.metadata = meta;
  if (out.start_time === undefined && meta?.started_at !== undefined) {
    // W&B writes UTC, older versions without a zone ("2021-02-16T23:44:07.003488"), which
    // Date.parse would take as local time.
    const zoned = /(?:Z|[+-]\d\d:?\d\d)$/i.test(meta.started_at);
    const ms = Date.parse(zoned ? meta.started_at : `${meta.started_at}Z`);
    if (Number.isFinite(ms)) out.start_time = ms / 1000;
  }
  return out;
}
