// Gym main's freeze over a token file's bytes (docs/gym-v1-store.md §2, §4): the unindexed tail checked
// line by line (torn final line, corrupt line, raw-byte SHA-256 conflicts), then every line read
// and validated as its entry read does. Pure and read-only: where Gym would truncate, this reports.
// Not responsible for state.json or intents (gym-state) or for opening files (gym-read).
import { createHash } from "node:crypto";
import { isUtf8 } from "node:buffer";
import { gymTokenEntrySchema, MAX_SCHEMA_VERSION, type TokenEntry } from "@/lib/schema";
import { parsePyJson, type PyValue } from "./py-json";
import { MAX_DEPTH, withinDepth } from "./jsonl";
import { pyRepr, stripBytes } from "./gym-state";
import { describeZodError } from "./zod-message";

export interface TailScan {
  /** Lines of the tail Gym would index (each adds one to the snapshot version). */
  recovered: number;
  /** The torn final line Gym would drop: its file offset and length to the end of the file. */
  torn: { offset: number; bytes: number } | null;
  error: string | null;
}

type Parsed = { ok: true; entry: TokenEntry } | { ok: false; error: string };

/** orjson.loads then TokenEntry.model_validate on one stripped line; the consumer's error on failure. */
export function parseGymLine(payload: Buffer, where: string): Parsed {
  if (!isUtf8(payload))
    return { ok: false, error: `JSONDecodeError: str is not valid UTF-8: ${where}` };
  const text = payload.toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const orjson = parsePyJson(text);
    return {
      ok: false,
      error: orjson.ok ? `JSONDecodeError: ${(err as Error).message}` : orjson.error,
    };
  }
  if (!withinDepth(value, MAX_DEPTH))
    return {
      ok: false,
      error: `JSONDecodeError: ${where}: nested more than ${MAX_DEPTH} levels deep; not read`,
    };
  const version = (value as { schema_version?: unknown } | null)?.schema_version;
  if (typeof version === "number" && version > MAX_SCHEMA_VERSION)
    return {
      ok: false,
      error: `ValidationError: ${where}: schema_version ${version} is newer than this reader supports (${MAX_SCHEMA_VERSION})`,
    };
  const parsed = gymTokenEntrySchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, error: `ValidationError: ${where}: ${describeZodError(parsed.error)}` };
  const e = parsed.data;
  if (e.generation_log_probs.length !== e.generation_token_ids.length)
    return {
      ok: false,
      error: `ValidationError: ${where}: generation_log_probs has ${e.generation_log_probs.length} values for ${e.generation_token_ids.length} generated tokens (call ${e.model_call_id})`,
    };
  if (
    e.token_item_index !== null &&
    (e.token_item_index < 0 || e.token_item_index >= e.output_items.length)
  )
    return {
      ok: false,
      error: `ValidationError: ${where}: token_item_index ${e.token_item_index} is outside output_items (${e.output_items.length} items)`,
    };
  return { ok: true, entry: e };
}

export function lineDigest(payload: Buffer): string {
  return createHash("sha256").update(payload).digest("hex");
}

/**
 * `_sync_entry_index` on the bytes after `indexedSize`: a line that does not parse with only
 * whitespace after it is torn (dropped); with more after it, corrupt. A parsed line whose call id
 * has another digest conflicts. `digests` is the state's index (copied, not changed).
 */
export function scanTail(
  tail: Buffer,
  indexedSize: number,
  stateDigests: ReadonlyMap<string, PyValue>,
  rolloutId: string,
  file: string,
): TailScan {
  const digests = new Map(stateDigests);
  const out: TailScan = { recovered: 0, torn: null, error: null };
  let position = 0;
  while (position < tail.length) {
    const newline = tail.indexOf(0x0a, position);
    const end = newline === -1 ? tail.length : newline;
    const payload = stripBytes(tail.subarray(position, end));
    if (payload.length > 0) {
      const where = `${file} at byte ${indexedSize + position}`;
      if (!parsesAsJson(payload)) {
        const rest = newline === -1 ? Buffer.alloc(0) : tail.subarray(end + 1);
        if (stripBytes(rest).length > 0) {
          out.error = (parseGymLine(payload, where) as { error: string }).error;
          return out;
        }
        out.torn = { offset: indexedSize + position, bytes: tail.length - position };
        return out;
      }
      const parsed = parseGymLine(payload, where);
      if (!parsed.ok) {
        out.error = parsed.error;
        return out;
      }
      const id = parsed.entry.model_call_id;
      const digest = lineDigest(payload);
      const existing = digests.get(id);
      if (existing !== undefined && existing !== digest) {
        out.error = `ValueError: Model call id ${pyRepr(id)} has conflicting durable payloads for rollout ${pyRepr(rolloutId)}`;
        return out;
      }
      digests.set(id, digest);
      out.recovered++;
    }
    position = end + 1;
  }
  return out;
}

function parsesAsJson(payload: Buffer): boolean {
  if (!isUtf8(payload)) return false;
  try {
    JSON.parse(payload.toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

export interface GymEntries {
  entries: TokenEntry[];
  /** 1-based line of each entry. */
  lines: number[];
  error: string | null;
  /** Ids outside 0 … 2^31−1, with their exact digits (an id past 2^53 is not exact as a number). */
  outsideIds: OutsideId[];
}

export interface OutsideId {
  model_call_id: string;
  line: number;
  field: "prompt_token_ids" | "generation_token_ids";
  index: number;
  digits: string;
}

const MAX_OUTSIDE = 50;
const MAX_ID = 0x7fffffff;

/** `_read_entries_unlocked` over the bytes Gym would keep: every non-blank line, in file order. */
export function readGymEntries(bytes: Buffer, file: string): GymEntries {
  const out: GymEntries = { entries: [], lines: [], error: null, outsideIds: [] };
  let position = 0;
  let lineNo = 0;
  while (position < bytes.length) {
    const newline = bytes.indexOf(0x0a, position);
    const end = newline === -1 ? bytes.length : newline;
    lineNo++;
    const payload = stripBytes(bytes.subarray(position, end));
    position = end + 1;
    if (payload.length === 0) continue;
    const parsed = parseGymLine(payload, `${file}: line ${lineNo}`);
    if (!parsed.ok) {
      out.error = parsed.error;
      return out;
    }
    out.entries.push(parsed.entry);
    out.lines.push(lineNo);
    collectOutsideIds(parsed.entry, payload, lineNo, out.outsideIds);
  }
  return out;
}

function collectOutsideIds(e: TokenEntry, payload: Buffer, line: number, out: OutsideId[]): void {
  for (const field of ["prompt_token_ids", "generation_token_ids"] as const) {
    const ids = e[field];
    let exact: string[] | null = null;
    for (let i = 0; i < ids.length && out.length < MAX_OUTSIDE; i++) {
      const id = ids[i] as number;
      if (id >= 0 && id <= MAX_ID) continue;
      // Past 2^53 the number is rounded: take the digits from the line itself.
      if (!Number.isSafeInteger(id)) exact ??= listDigits(payload, field);
      const digits = exact?.[i] ?? String(id);
      out.push({ model_call_id: e.model_call_id, line, field, index: i, digits });
    }
  }
}

/** The items of `"key": [ … ]` in the line's text, as written (id lists hold no brackets). */
function listDigits(payload: Buffer, key: string): string[] | null {
  const m = new RegExp(`"${key}"\\s*:\\s*\\[([^\\]]*)\\]`).exec(payload.toString("utf8"));
  return m ? (m[1] as string).split(",").map((s) => s.trim()) : null;
}
