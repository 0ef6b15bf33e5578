// Streams a JSONL file line by line without ever opening it for writing. Works on bytes, so it
// can tell a torn final line (no trailing newline) from corruption and reject invalid UTF-8.
// It does not parse records against a schema; callers do.
import "server-only";
import { isUtf8 } from "node:buffer";
import { open, readFile } from "node:fs/promises";
import type { ScannedLists } from "./token-line";

const SMALL_FILE = 8 << 20;
/** Bytes between two progress reports: often enough for a bar, rare enough to cost nothing. */
const PROGRESS_EVERY = 4 << 20;

/**
 * Told how many bytes were read since its previous call (an increment, so one sink can sum the
 * several files of a rollout): at most every few MB while a large file streams, and once at the end.
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
}

function parseLine(buf: Buffer, line: number, scan?: LineScanner): JsonlLine | null {
  if (!isUtf8(buf))
    return { line, value: undefined, bytes: buf.length, problem: "not valid UTF-8" };
  const scanned = scan?.(buf);
  if (scanned) return { line, value: scanned.value, bytes: buf.length, lists: scanned.lists };
  let text = buf.toString("utf8");
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (text.trim() === "") return null;
  try {
    return { line, value: JSON.parse(text), bytes: buf.length };
  } catch (err) {
    return {
      line,
      value: undefined,
      bytes: buf.length,
      problem: `not valid JSON (${(err as Error).message})`,
    };
  }
}

/**
 * Calls `onLine` for every non-blank line in order. A final unterminated line that does not parse
 * is reported as the torn tail instead. I/O errors (a file removed mid-read) reject the promise.
 * `onProgress`, when given, is told the bytes read as they are (see ReadProgress); `scan`, when
 * given, reads each line first (see LineScanner).
 */
export async function readJsonl(
  filePath: string,
  onLine: (l: JsonlLine) => void,
  signal?: AbortSignal,
  onProgress?: ReadProgress,
  scan?: LineScanner,
): Promise<JsonlReadResult> {
  const stream = await openChunks(filePath, signal);
  const progress = onProgress ? progressCounter(onProgress) : null;
  try {
    return await readLines(stream, onLine, progress, scan);
  } finally {
    progress?.flush();
  }
}

async function readLines(
  stream: Iterable<Buffer> | AsyncIterable<Buffer>,
  onLine: (l: JsonlLine) => void,
  progress: ProgressCounter | null,
  scan: LineScanner | undefined,
): Promise<JsonlReadResult> {
  let pending: Buffer[] = [];
  let lineNo = 0;
  for await (const chunk of stream) {
    let from = 0;
    for (let nl = chunk.indexOf(0x0a, from); nl >= 0; nl = chunk.indexOf(0x0a, from)) {
      const piece = chunk.subarray(from, nl);
      const buf = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
      pending = [];
      lineNo++;
      const parsed = parseLine(buf, lineNo, scan);
      if (parsed) onLine(parsed);
      from = nl + 1;
    }
    if (from < chunk.length) pending.push(chunk.subarray(from));
    progress?.add(chunk.length);
  }
  if (pending.length === 0) return { tornTail: null };
  lineNo++;
  const last = parseLine(Buffer.concat(pending), lineNo, scan);
  if (last === null) return { tornTail: null };
  if (last.problem) return { tornTail: { line: lineNo, bytes: last.bytes } };
  onLine(last);
  return { tornTail: null };
}

interface ProgressCounter {
  add(bytes: number): void;
  /** Reports what was read since the last report (the end of the file, or of a failed read). */
  flush(): void;
}

function progressCounter(report: ReadProgress): ProgressCounter {
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
      if (unreported >= PROGRESS_EVERY) flush();
    },
    flush,
  };
}

/**
 * The file's bytes: small files (most rollouts) in one read, large ones streamed in 1 MB chunks.
 * The handle is closed on every path: after the one read, by the stream when it ends or is
 * destroyed, and here when `stat` or the read throws (an abort, a file removed mid-read).
 */
async function openChunks(
  filePath: string,
  signal?: AbortSignal,
): Promise<Iterable<Buffer> | AsyncIterable<Buffer>> {
  const fh = await open(filePath, "r");
  let streaming = false;
  try {
    if ((await fh.stat()).size <= SMALL_FILE) return [await fh.readFile({ signal })];
    streaming = true;
    return fh.createReadStream({ highWaterMark: 1 << 20, signal });
  } finally {
    if (!streaming) await fh.close();
  }
}

/** Reads a small text file of one item per line (markers, intents); null when it does not exist. */
export async function readLinesIfExists(filePath: string): Promise<string[] | null> {
  try {
    const text = await readFile(filePath, { encoding: "utf8", flag: "r" });
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    return lines.map((l) => l.replace(/\r$/, ""));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}
