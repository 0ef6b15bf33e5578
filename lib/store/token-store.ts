// Reads one rollout of a token store into the snapshot the builder consumes, plus every problem
// found on the way (line numbers, torn tail, conflicting duplicates, dangling intents).
// Read-only: files are opened O_RDONLY (regular files only, ./io/file); nothing is locked or removed.
import "server-only";
import path from "node:path";
import {
  fastTokenEntry,
  MAX_SCHEMA_VERSION,
  tokenEntrySchema,
  type StoreState,
  type TokenEntry,
} from "@/lib/schema";
import type { CaptureSnapshot } from "@/lib/builder";
import { readJsonl, readLinesIfExists, type JsonlLine, type ReadProgress } from "./jsonl";
import { resetPromptReuse, scanTokenLine } from "./token-line";
import { storePath, type FileKind } from "./files";
import { confine, OutsideStoreError } from "./confine";
import { assertRolloutId } from "./rollout-id";
import { describeZodError } from "./zod-message";
import { LineIssues, mayBeEntry } from "./line-issues";
import { decodeEntryRoutes } from "./entry-routes";
import { parseIntents, readSide, readState } from "./token-side-files";
import { readGymFreeze, type GymLifecycle } from "./gym-read";
import { recordDuplicate } from "./duplicates";

export interface StoreIssue {
  file: string;
  line: number | null;
  severity: "error" | "warning";
  message: string;
}

export interface RolloutCapture {
  snapshot: CaptureSnapshot;
  /** 1-based line of each entry in `snapshot.entries`. */
  entryLines: number[];
  state: StoreState | null;
  intents: { ids: string[]; cancelled: string[] } | null;
  issues: StoreIssue[];
  /** The token file exists (a rollout can be only an intents file or a tombstone). */
  hasTokenFile: boolean;
  /** What Gym main's freeze would conclude and the lifecycle it read (docs/gym-v1-store.md). */
  lifecycle: GymLifecycle;
  /** 1-based line of each entry of `snapshot.gym.entries`. */
  gymEntryLines: number[];
}

/**
 * `present`: the rollout's files as a directory listing found them; files not in it are not opened
 * (a cold index of thousands of rollouts would otherwise spend its time on missing-file errors).
 * `onProgress`: told the token file's bytes as they are read (the side files are a few bytes).
 * `reader`: "scan" reads the token lists straight from the bytes (lib/store/token-line); "parse"
 * gives every line to JSON.parse. Both give the same capture; tests hold them to it.
 */
export async function readRolloutCapture(
  dir: string,
  rolloutId: string,
  signal?: AbortSignal,
  present?: ReadonlySet<FileKind>,
  onProgress?: ReadProgress,
  reader: "scan" | "parse" = "scan",
  onEntry?: (entry: TokenEntry) => void,
): Promise<RolloutCapture> {
  const has = (k: FileKind) => !present || present.has(k);
  assertRolloutId(rolloutId);
  const issues: StoreIssue[] = [];
  const tokens = await readTokenLines(storePath(dir, rolloutId, "tokens"), rolloutId, issues, {
    signal,
    onProgress,
    reader,
    onEntry,
  });
  const refused: string[] = [];
  const side = <T>(kind: FileKind, read: (p: string) => Promise<T | null>) =>
    has(kind) ? readSide(storePath(dir, rolloutId, kind), read, issues, refused) : null;
  const incompleteMarker = await side("incomplete", readLinesIfExists);
  const intentLines = await side("intents", readLinesIfExists);
  const state = await side("state", (p) => readState(p, issues));

  const intents = intentLines === null ? null : parseIntents(intentLines);
  const recorded = new Set(tokens.entries.map((e) => e.model_call_id));
  const danglingIntents = intents ? intents.ids.filter((id) => !recorded.has(id)) : [];
  const snapshot: CaptureSnapshot = {
    rollout_id: rolloutId,
    entries: tokens.entries,
    incompleteMarker,
    stateIncomplete: state?.incomplete ?? false,
    danglingIntents,
    retired: (state?.retired ?? false) && !tokens.exists,
    readError: tokens.readError ?? refused[0] ?? null,
    logProbMismatches: tokens.logProbMismatches,
    conflictingPayloads: tokens.conflicts,
    tornTail: tokens.tornTail,
  };
  const gym = await readGymFreeze(dir, rolloutId, has, {
    exists: tokens.exists,
    entries: tokens.entries,
    lines: tokens.lines,
    readError: tokens.readError,
    tornBytes: tokens.tornBytes,
    unreadableEnd: tokens.unreadableEnd,
    logProbMismatch: tokens.mismatchError,
    size: tokens.size,
  });
  snapshot.gym = gym.view;
  for (const o of gym.lifecycle.outsideIds) {
    const message = `token id ${o.digits} (${o.field}[${o.index}] of call ${o.model_call_id}) is outside 0 … 2^31−1: Gym main trains on it, no vocabulary holds it`;
    issues.push({ file: `${rolloutId}.tokens.jsonl`, line: o.line, severity: "warning", message });
  }
  return {
    snapshot,
    entryLines: tokens.lines,
    state,
    intents,
    issues,
    hasTokenFile: tokens.exists,
    lifecycle: gym.lifecycle,
    gymEntryLines: gym.entryLines,
  };
}

export interface TokenLines {
  exists: boolean;
  entries: TokenEntry[];
  lines: number[];
  readError: string | null;
  logProbMismatches: CaptureSnapshot["logProbMismatches"];
  conflicts: string[];
  tornTail: boolean;
  tornBytes: number | null;
  /** The final line, unreadable by its bytes, when it is the read's only error (see SeedTokenRead). */
  unreadableEnd: { offset: number } | null;
  /** The first log-prob count mismatch as gym-v1's entry read reports it. */
  mismatchError: string | null;
  /** The file's size as the read found it (it read to the end); null when it did not. */
  size: number | null;
}

interface ReadOptions {
  signal: AbortSignal | undefined;
  onProgress: ReadProgress | undefined;
  reader: "scan" | "parse";
  /** Told each entry as it is accepted (the builder's digests start while the file is read). */
  onEntry: ((entry: TokenEntry) => void) | undefined;
}

async function readTokenLines(
  filePath: string,
  rolloutId: string,
  issues: StoreIssue[],
  { signal, onProgress, reader, onEntry }: ReadOptions,
): Promise<TokenLines> {
  const file = path.basename(filePath);
  const out: TokenLines = {
    exists: true,
    entries: [],
    lines: [],
    readError: null,
    logProbMismatches: [],
    conflicts: [],
    tornTail: false,
    tornBytes: null,
    unreadableEnd: null,
    mismatchError: null,
    size: null,
  };
  const firstLineOf = new Map<string, number>();
  const listed = new LineIssues(issues, file);
  /** A line that is not an entry; its message is built only while it is listed or the first. */
  let errorLine: number | null = null;
  const problem = (line: number, type: string, message: string | (() => string)) => {
    errorLine ??= line;
    if (listed.full && out.readError !== null) return listed.count("error");
    const text = typeof message === "string" ? message : message();
    listed.note(line, "error", text);
    out.readError ??= `${type}: ${file}: line ${line}: ${text}`;
  };
  const onLine = (l: JsonlLine) => {
    // Past the listed issues, a line that cannot be an entry is only counted: the schema's error
    // for each of a million bad lines cost a minute.
    if (listed.full && out.readError !== null && (l.problem || !mayBeEntry(l.value)))
      return listed.count("error");
    if (l.problem)
      return problem(
        l.line,
        l.problem.startsWith("not valid UTF-8") ? "UnicodeDecodeError" : "JSONDecodeError",
        l.problem,
      );
    const version = (l.value as { schema_version?: unknown } | null)?.schema_version;
    if (typeof version === "number" && version > MAX_SCHEMA_VERSION) {
      return problem(
        l.line,
        "ValidationError",
        `schema_version ${version} is newer than this reader supports (${MAX_SCHEMA_VERSION})`,
      );
    }
    // A plainly well-formed line is shaped in one pass; any other goes to the schema, which
    // accepts it or names its fault (lib/schema/token-entry-fast).
    let e = fastTokenEntry(l.value);
    if (e === null) {
      const parsed = tokenEntrySchema.safeParse(l.value);
      if (!parsed.success)
        return problem(l.line, "ValidationError", () => describeZodError(parsed.error));
      e = parsed.data;
    }
    // The scanned lists replace the empty arrays that were validated in their place (same keys, so
    // the record's key order is JSON.parse's); routes are decoded before the line is reused.
    if (l.lists) Object.assign(e, l.lists);
    decodeEntryRoutes(e, l.line, listed);
    if (
      e.token_item_index !== null &&
      (e.token_item_index < 0 || e.token_item_index >= e.output_items.length)
    ) {
      return problem(
        l.line,
        "ValidationError",
        `token_item_index ${e.token_item_index} is outside output_items (${e.output_items.length} items)`,
      );
    }
    if (e.generation_log_probs.length !== e.generation_token_ids.length) {
      out.mismatchError ??= `ValidationError: ${file}: line ${l.line}: generation_log_probs has ${e.generation_log_probs.length} values for ${e.generation_token_ids.length} generated tokens (call ${e.model_call_id})`;
      out.logProbMismatches.push({
        file,
        line: l.line,
        model_call_id: e.model_call_id,
        log_probs: e.generation_log_probs.length,
        tokens: e.generation_token_ids.length,
      });
      listed.note(
        l.line,
        "error",
        () =>
          `${e.generation_log_probs.length} log probs for ${e.generation_token_ids.length} generated tokens (call ${e.model_call_id})`,
      );
    }
    if (e.rollout_id !== rolloutId)
      listed.note(
        l.line,
        "warning",
        () => `record says rollout_id ${JSON.stringify(e.rollout_id)}, file is for ${rolloutId}`,
      );
    const earlier = firstLineOf.get(e.model_call_id);
    if (earlier !== undefined) recordDuplicate(out, listed, e, earlier, l.line);
    else firstLineOf.set(e.model_call_id, out.entries.length);
    out.entries.push(e);
    out.lines.push(l.line);
    onEntry?.(e);
  };
  try {
    await confine(path.dirname(filePath), filePath);
    const scan = reader === "scan" ? scanTokenLine : undefined;
    resetPromptReuse(); // only this file's prompts are reused, parsed moments before

    const result = await readJsonl(filePath, onLine, signal, onProgress, scan);
    out.size = result.bytes;
    const end = result.unreadableEnd;
    if (end !== null && errorLine === end.line) out.unreadableEnd = { offset: end.offset };
    listed.close();
    if (result.tornTail) {
      out.tornTail = true;
      out.tornBytes = result.tornTail.bytes;
      issues.push({
        file,
        line: result.tornTail.line,
        severity: "warning",
        message: `torn final line (${result.tornTail.bytes} bytes, no newline): a write in progress, ignored`,
      });
    }
  } catch (err) {
    listed.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      out.exists = false;
      return out;
    }
    if ((err as Error).name === "AbortError") throw err;
    if (err instanceof OutsideStoreError) {
      out.readError = `PermissionError: ${err.message}`;
      issues.push({ file, line: null, severity: "error", message: err.message });
      return out;
    }
    out.readError = `OSError: ${file}: ${(err as Error).message}`;
    issues.push({ file, line: null, severity: "error", message: (err as Error).message });
  }
  return out;
}
