// Streams a JSONL file line by line without ever opening it for writing. Works on bytes, so it
// can tell a torn final line (no trailing newline) from corruption and reject invalid UTF-8.
// Only regular files are read, under the read deadline (./io/file). A line holding NUL bytes (a
// zero-filled or sparse region), longer than a string can be, or nested deeper than any writer
// nests is reported as unreadable with its line number, never buffered whole or parsed.
// It does not parse records against a schema; callers do.
import "server-only";
import { isUtf8 } from "node:buffer";
import { readChunks, readRegularFile } from "./io";
import type { ScannedLists } from "./token-line";

/** Longer than V8's longest string: such a line cannot be JSON, so it is not held in memory. */
export const MAX_LINE_BYTES = 512 << 20;
/** Deeper than Python's json module writes (its recursion limit is 1,000). */
export const MAX_DEPTH = 1000;
/** Bytes between two progress reports: often enough for a bar, rare enough to cost nothing. */
const PROGRESS_EVERY = 4 << 20;

/**
 * Told how many bytes were read since its previous call (an increment, so one sink can sum the
 * several files of a rollout): at most every few MB while a large file streams, and once at the end.
 * A read given its own `chunk` size is told after each chunk's lines, before the event loop turns.
 */
export type ReadProgress = (bytesRead: number) => void;

export interface JsonlLine {
  /** 1-based line number in the file. */
  line: number;
  /** Parsed JSON value; undefined when `problem` is set. */
  value: unknown;
  /** Byte length of the line without its newline. */
  bytes: number;
  problem?: string;
  /**
   * Lists a LineScanner read straight from the bytes: `value` holds an empty array in their place
   * (the caller validates `value`, then puts these back).
   */
  lists?: ScannedLists;
}

/**
 * Reads a line faster than JSON.parse, or returns null to leave it to JSON.parse (which then gives
 * the value or the error message). Only called on valid UTF-8 lines.
 */
export type LineScanner = (buf: Buffer) => { value: unknown; lists: ScannedLists } | null;

export interface JsonlReadResult {
  /** The final line had no trailing newline and did not parse: a write in progress, ignored. */
  tornTail: { line: number; bytes: number } | null;
  /**
   * The file's last non-blank line, when its bytes made it unreadable (NUL bytes, not UTF-8) and it
   * went to `onLine` as a problem: damage to the seed reader, a torn tail to Gym main's (gym-read).
   */
  unreadableEnd: { line: number; offset: number } | null;
  /** Where the read ended: the file's size as this read found it (a range's end). */
  bytes: number;
}

const NUL_LINE = "holds NUL bytes (a zero-filled or sparse region: the file is damaged)";
const NOT_UTF8 = "not valid UTF-8";
const unreadableBytes = (problem: string | undefined) =>
  problem === NUL_LINE || problem === NOT_UTF8;

function parseLine(buf: Buffer, line: number, scan?: LineScanner): JsonlLine | null {
  if (!isUtf8(buf)) return { line, value: undefined, bytes: buf.length, problem: NOT_UTF8 };
  const scanned = scan?.(buf);
  let parsed: JsonlLine;
  if (scanned) parsed = { line, value: scanned.value, bytes: buf.length, lists: scanned.lists };
  else {
    let text = buf.toString("utf8");
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return null;
    try {
      parsed = { line, value: JSON.parse(text), bytes: buf.length };
    } catch (err) {
      const problem = `not valid JSON (${(err as Error).message})`;
      return { line, value: undefined, bytes: buf.length, problem };
    }
  }
  if (!withinDepth(parsed.value, MAX_DEPTH))
    return { line, value: undefined, bytes: buf.length, problem: tooDeep() };
  return parsed;
}

export const tooDeep = () =>
  `nested more than ${MAX_DEPTH} levels deep (no writer nests this deep); not read`;

/** Whether `value` nests at most `max` arrays and objects deep; iterative, stops at the first too deep. */
export function withinDepth(value: unknown, max: number): boolean {
  if (value === null || typeof value !== "object") return true;
  const stack: Array<[object, number]> = [[value, 1]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [v, depth] = top;
    if (depth > max) return false;
    // An index loop: a trainer's step line holds millions of numbers, each looked at once here.
    const items: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item !== null && typeof item === "object") stack.push([item, depth + 1]);
    }
  }
  return true;
}

/**
 * A stretch of a file's lines (./line-ranges): from byte `from`, where line `firstLine` starts, to
 * byte `to` (a line's start), or to the end when `to` is null.
 */
export interface LineRange {
  from: number;
  to: number | null;
  firstLine: number;
}

/**
 * Calls `onLine` for every non-blank line in order. A final unterminated line that does not parse
 * is reported as the torn tail instead. I/O errors (a file removed mid-read) reject the promise.
 * `onProgress`, when given, is told the bytes read as they are (see ReadProgress); `scan`, when
 * given, reads each line first (see LineScanner). `chunk` bounds the bytes read (and so the lines
 * handled) between two turns of the event loop (1 MB by default); with it, progress is told after
 * every chunk. `range` reads that stretch alone, its lines numbered as in the whole file.
 */
export async function readJsonl(
  filePath: string,
  onLine: (l: JsonlLine) => void,
  signal?: AbortSignal,
  onProgress?: ReadProgress,
  scan?: LineScanner,
  chunk?: number,
  range: LineRange = { from: 0, to: null, firstLine: 1 },
): Promise<JsonlReadResult> {
  const stream = readChunks(filePath, signal, chunk, range);
  const every = chunk === undefined ? PROGRESS_EVERY : Math.min(chunk, PROGRESS_EVERY);
  const progress = onProgress ? progressCounter(onProgress, every) : null;
  try {
    return await readLines(stream, onLine, progress, scan, range);
  } finally {
    progress?.flush();
  }
}

/** A line being gathered across chunks, or skipped (NUL bytes, too long) with why. */
interface Gathering {
  parts: Buffer[];
  bytes: number;
  skip: string | null;
}

async function readLines(
  stream: AsyncIterable<Buffer>,
  onLine: (l: JsonlLine) => void,
  progress: ProgressCounter | null,
  scan: LineScanner | undefined,
  range: LineRange,
): Promise<JsonlReadResult> {
  const g: Gathering = { parts: [], bytes: 0, skip: null };
  let lineNo = range.firstLine - 1;
  let read = range.from;
  let lineStart = range.from;
  let end: JsonlReadResult["unreadableEnd"] = null;
  const emit = (l: JsonlLine, offset: number) => {
    end = unreadableBytes(l.problem) ? { line: l.line, offset } : null;
    onLine(l);
  };
  const finish = (): JsonlLine | null => {
    const { parts, bytes, skip } = g;
    Object.assign(g, { parts: [], bytes: 0, skip: null });
    if (skip) return { line: lineNo, value: undefined, bytes, problem: skip };
    return parseLine(
      parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts),
      lineNo,
      scan,
    );
  };
  for await (const chunk of stream) {
    const nul = chunk.indexOf(0) >= 0;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      gather(g, chunk.subarray(from, nl < 0 ? chunk.length : nl), nul);
      if (nl < 0) break;
      lineNo++;
      const parsed = finish();
      if (parsed) emit(parsed, lineStart);
      from = nl + 1;
      lineStart = read + from;
    }
    progress?.add(chunk.length);
    read += chunk.length;
  }
  if (g.bytes === 0 && !g.skip) return { tornTail: null, unreadableEnd: end, bytes: read };
  lineNo++;
  const skipped = g.skip !== null;
  const last = finish();
  if (last === null) return { tornTail: null, unreadableEnd: end, bytes: read };
  // A damaged tail (NUL bytes, an endless line) is damage, not a write in progress.
  if (last.problem && !skipped)
    return { tornTail: { line: lineNo, bytes: last.bytes }, unreadableEnd: null, bytes: read };
  emit(last, lineStart);
  return { tornTail: null, unreadableEnd: end, bytes: read };
}

function gather(g: Gathering, piece: Buffer, chunkHasNul: boolean): void {
  g.bytes += piece.length;
  if (g.skip) return;
  if (chunkHasNul && piece.indexOf(0) >= 0) g.skip = NUL_LINE;
  else if (g.bytes > MAX_LINE_BYTES) g.skip = `longer than ${MAX_LINE_BYTES >> 20} MiB`;
  if (g.skip) g.parts = [];
  else if (piece.length > 0) g.parts.push(piece);
}

interface ProgressCounter {
  add(bytes: number): void;
  /** Reports what was read since the last report (the end of the file, or of a failed read). */
  flush(): void;
}

function progressCounter(report: ReadProgress, every: number): ProgressCounter {
  let unreported = 0;
  const flush = () => {
    if (unreported === 0) return;
    const n = unreported;
    unreported = 0;
    report(n);
  };
  return {
    add(bytes) {
      unreported += bytes;
      if (unreported >= every) flush();
    },
    flush,
  };
}

/** Reads a small text file of one item per line (markers, intents); null when it does not exist. */
export async function readLinesIfExists(filePath: string): Promise<string[] | null> {
  try {
    const text = (await readRegularFile(filePath)).toString("utf8");
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    return lines.map((l) => l.replace(/\r$/, ""));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}
