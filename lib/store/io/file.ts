// Opens store files so that no file can hang the server. Only regular files are read: each is
// opened O_RDONLY | O_NONBLOCK (a FIFO without a writer opens at once) and fstat'ed before the
// first read, and FIFOs, sockets, devices and directories are refused by type. On the main thread
// every call races the read deadline; on a store worker (./pool) calls are synchronous, so a hung
// mount holds that worker's own thread (which the pool abandons), never one of the process's
// shared libuv I/O threads. Not responsible for what the bytes mean (./jsonl).
import "server-only";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
  type Dirent,
  type Stats,
} from "node:fs";
import { lstat, open, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";

export const DEFAULT_READ_DEADLINE_MS = 10_000;
const CHUNK = 1 << 20;
/** What the read after a short read asks for (a file that grew is then read on in chunks). */
const PROBE = 4 << 10;

/** How long a read may make no progress: ROLLOUT_LENS_READ_DEADLINE_MS, else 10 s. */
export function readDeadlineMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.ROLLOUT_LENS_READ_DEADLINE_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_READ_DEADLINE_MS;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${+(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** A read that made no progress within its deadline, abandoned. */
export class StalledReadError extends Error {
  constructor(file: string, ms = readDeadlineMs()) {
    super(
      `${path.basename(file)}: no data for ${formatMs(ms)}: is this a FIFO or a stalled mount?`,
    );
    this.name = "StalledReadError";
  }
}

/** A path that exists but is not a regular file; `code` lets callers tell it from ENOENT. */
export class NotRegularFileError extends Error {
  readonly code = "ENOTREG";
  constructor(file: string, what: string) {
    super(`${path.basename(file)}: ${what}, not a regular file; refused`);
    this.name = "NotRegularFileError";
  }
}

function kindOf(st: Stats): string | null {
  if (st.isFile()) return null;
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isDirectory()) return "a directory";
  return "not a file";
}

/** Marks the synchronous calls of a store worker, so its pool can see one that hangs. */
export interface BlockingWatch {
  begin(file: string): void;
  end(): void;
}

let watch: BlockingWatch | null = null;

/** Set on a store worker: from then on reads are synchronous and bracketed by `w`. */
export function watchBlockingCalls(w: BlockingWatch | null): void {
  watch = w;
}

/** Whether this thread is a store worker (then its reads are already off the main thread). */
export function onStoreWorker(): boolean {
  return watch !== null;
}

/** `p`, or StalledReadError when it takes longer than the deadline (its late value is `dispose`d). */
export function withDeadline<T>(p: Promise<T>, file: string, dispose?: (v: T) => void): Promise<T> {
  const ms = readDeadlineMs();
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new StalledReadError(file, ms));
    }, ms);
    timer.unref?.();
    p.then(
      (v) => (late ? dispose?.(v) : (clearTimeout(timer), resolve(v))),
      (err: unknown) => (late ? undefined : (clearTimeout(timer), reject(err))),
    );
  });
}

function blocking<T>(file: string, w: BlockingWatch, call: () => T): T {
  w.begin(file);
  try {
    return call();
  } finally {
    w.end();
  }
}

/** An open regular file. `read` fills `buf` from `position` and gives the bytes read (0 at the end). */
export interface RegularFile {
  readonly size: number;
  read(buf: Buffer, position: number): Promise<number>;
  close(): Promise<void>;
}

const FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;

/** Opens `file` for reading if it is a regular file; ENOENT as Node throws it when missing. */
export async function openRegular(file: string): Promise<RegularFile> {
  const w = watch;
  try {
    return w ? openSyncWatched(file, w) : await openAsync(file);
  } catch (err) {
    // open(2) of a Unix socket fails ENXIO: say what it is.
    if ((err as NodeJS.ErrnoException).code === "ENXIO")
      throw new NotRegularFileError(file, "a socket");
    throw err;
  }
}

function openSyncWatched(file: string, w: BlockingWatch): RegularFile {
  const fd = blocking(file, w, () => openSync(file, FLAGS));
  try {
    const st = blocking(file, w, () => fstatSync(fd));
    const what = kindOf(st);
    if (what) throw new NotRegularFileError(file, what);
    return {
      size: st.size,
      read: async (buf, position) =>
        blocking(file, w, () => readSync(fd, buf, 0, buf.length, position)),
      close: async () => closeSync(fd),
    };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

async function openAsync(file: string): Promise<RegularFile> {
  const fh = await withDeadline(open(file, FLAGS), file, (h) => void h.close().catch(() => {}));
  try {
    const st = await withDeadline(fh.stat(), file);
    const what = kindOf(st);
    if (what) throw new NotRegularFileError(file, what);
    return {
      size: st.size,
      read: async (buf, position) =>
        (await withDeadline(fh.read(buf, 0, buf.length, position), file)).bytesRead,
      close: () => fh.close(),
    };
  } catch (err) {
    // A handle whose call stalled may never close; do not wait for it.
    void fh.close().catch(() => {});
    throw err;
  }
}

/**
 * The file's bytes in chunks of up to `chunk` bytes (1 MB; one chunk for a small file), each a
 * fresh buffer.
 * Reads to the end whatever the size says (/proc files say 0); checks `signal` between chunks.
 * The next chunk's read is started before a chunk is handed out, so a cold file's disk reads run
 * while the caller parses (a 330 MB rollout: about 0.25 s of reading hidden behind the parse).
 * `range` reads from byte `from` and, when `to` is not null, no further than byte `to`.
 */
export async function* readChunks(
  file: string,
  signal?: AbortSignal,
  chunk: number = CHUNK,
  range: { from: number; to: number | null } = { from: 0, to: null },
): AsyncGenerator<Buffer> {
  signal?.throwIfAborted();
  const f = await openRegular(file);
  const end = range.to ?? Infinity;
  const readAt = (position: number, size: number): Promise<Buffer> => {
    if (position >= end) return Promise.resolve(Buffer.alloc(0));
    const buf = Buffer.allocUnsafe(Math.min(size, end - position));
    const read = f.read(buf, position).then((n) => buf.subarray(0, n));
    // Handled at once: a read-ahead that fails while the caller parses is not an unhandled
    // rejection (which ends the process); the loop's await still throws it.
    read.catch(() => undefined);
    return read;
  };
  // A small file in one read (plus the read that finds its end).
  let asked = f.size > 0 && f.size < chunk ? f.size + 1 : chunk;
  let next: Promise<Buffer> | null = readAt(range.from, asked);
  try {
    let position = range.from;
    for (;;) {
      const bytes = await next;
      next = null;
      if (bytes.length === 0) return;
      position += bytes.length;
      // A short read found the end, as far as the file is written: the read that finds it again
      // asks for little. A chunk's buffer for it cost every small file 1 MB of V8's external
      // memory, and a store worker a young-generation collection every 30 or so rollouts.
      asked = bytes.length < asked ? Math.min(PROBE, chunk) : chunk;
      next = readAt(position, asked);
      yield bytes;
      signal?.throwIfAborted();
    }
  } finally {
    // A read still in flight when the caller stops (or a read failed) ends before the handle closes;
    // its own failure is not the caller's: the caller has what it asked for, or its own error.
    if (next) await next.catch(() => undefined);
    await f.close();
  }
}

/**
 * A whole regular file, read into one buffer of the size it says (no chunks held beside a copy:
 * a 250 MiB file costs 250 MiB, not twice that); refuses one larger than `maxBytes` rather than
 * hold it. Reads to the end whatever the size says (a file growing, /proc files saying 0).
 */
export async function readRegularFile(file: string, maxBytes = 256 << 20): Promise<Buffer> {
  const tooLarge = () =>
    new Error(`${path.basename(file)}: larger than ${maxBytes >> 20} MiB; not read`);
  const f = await openRegular(file);
  try {
    if (f.size > maxBytes) throw tooLarge();
    let buf = Buffer.allocUnsafe(Math.min(f.size + 1, maxBytes + 1));
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        if (total > maxBytes) throw tooLarge();
        const grown = Buffer.allocUnsafe(Math.min(buf.length * 2 + CHUNK, maxBytes + 1));
        buf.copy(grown, 0, 0, total);
        buf = grown;
      }
      const view = buf.subarray(total, Math.min(buf.length, total + CHUNK));
      const n = await f.read(view, total);
      if (n === 0) break;
      total += n;
    }
    if (total > maxBytes) throw tooLarge();
    return buf.subarray(0, total);
  } finally {
    await f.close();
  }
}

/** `call` watched on a store worker, else `later` under the read deadline. */
function within<T>(file: string, call: () => T, later: () => Promise<T>): Promise<T> {
  const w = watch;
  return w ? Promise.resolve().then(() => blocking(file, w, call)) : withDeadline(later(), file);
}

// The metadata calls a store read makes: on a stalled mount even these never return.

/** `stat` under the read deadline (on a stalled mount it never returns); watched on a worker. */
export function statWithin(file: string): Promise<Stats> {
  return within(
    file,
    () => statSync(file),
    () => stat(file),
  );
}

/** `lstat` (the link itself) under the read deadline; watched on a worker. */
export function lstatWithin(file: string): Promise<Stats> {
  return within(
    file,
    () => lstatSync(file),
    () => lstat(file),
  );
}

/** `realpath` under the read deadline; watched on a worker. */
export function realpathWithin(file: string): Promise<string> {
  return within(
    file,
    () => realpathSync.native(file),
    () => realpath(file),
  );
}

/** A directory's entries (names and types) under the read deadline; watched on a worker. */
export function readdirWithin(dir: string): Promise<Dirent[]> {
  return within(
    dir,
    () => readdirSync(dir, { withFileTypes: true }),
    () => readdir(/*turbopackIgnore: true*/ dir, { withFileTypes: true }),
  );
}
