// Writes W&B run files (`run-<id>.wandb`) byte for byte as wandb's datastore.py writes them: the
// 7-byte header, records laid into 32 KiB blocks (a record that does not fit its block split into
// FIRST, MIDDLE…, LAST chunks; a block tail too short for a chunk header zero-padded), each chunk's
// CRC over its type byte and data. Records are encoded with the reader's own protobuf types.
// Used by the tests and the fixture generator; the app never writes. Returns bytes, or writes a
// large file in pieces.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import {
  BLOCK_LENGTH,
  CHUNK,
  CHUNK_HEADER_LENGTH,
  chunkCrc,
  WANDB_HEADER,
} from "@/lib/trainer/wandb/framing";
import { toWandbJson } from "@/lib/trainer/wandb/json-value";
import { encodeRecord, type WandbItem, type WandbRecordMessage } from "@/lib/trainer/wandb/proto";

export type { WandbRecordMessage } from "@/lib/trainer/wandb/proto";

/** The file header, with another log version for the tests of refusal. */
export function wandbHeader(version: number = WANDB_HEADER.version): Buffer {
  const out = Buffer.alloc(WANDB_HEADER.length);
  out.write(WANDB_HEADER.ident, 0, "latin1");
  out.writeUInt16LE(WANDB_HEADER.magic, 4);
  out.writeUInt8(version, 6);
  return out;
}

function chunk(type: number, data: Uint8Array): Buffer {
  const out = Buffer.alloc(CHUNK_HEADER_LENGTH + data.length);
  out.writeUInt32LE(chunkCrc(type, data), 0);
  out.writeUInt16LE(data.length, 4);
  out.writeUInt8(type, 6);
  out.set(data, CHUNK_HEADER_LENGTH);
  return out;
}

/**
 * Lays `payloads` into the file's blocks after its header, handing each piece to `put` in order:
 * datastore.py's `_write_data` for each. Returns where each record's first chunk starts.
 */
function framePayloads(payloads: Iterable<Uint8Array>, put: (b: Buffer) => void): number[] {
  const offsets: number[] = [];
  let index = 0;
  const out = (b: Buffer) => {
    put(b);
    index += b.length;
  };
  out(wandbHeader());
  const dataLength = BLOCK_LENGTH - CHUNK_HEADER_LENGTH;
  for (const s of payloads) {
    let spaceLeft = BLOCK_LENGTH - (index % BLOCK_LENGTH);
    if (spaceLeft < CHUNK_HEADER_LENGTH) {
      out(Buffer.alloc(spaceLeft));
      spaceLeft = BLOCK_LENGTH;
    }
    offsets.push(index);
    if (s.length + CHUNK_HEADER_LENGTH <= spaceLeft) {
      out(chunk(CHUNK.full, s));
      continue;
    }
    // The first chunk fills its block (it may hold no data when only a header's room is left).
    const room = spaceLeft - CHUNK_HEADER_LENGTH;
    out(chunk(CHUNK.first, s.subarray(0, room)));
    let used = room;
    while (s.length - used > dataLength) {
      out(chunk(CHUNK.middle, s.subarray(used, used + dataLength)));
      used += dataLength;
    }
    out(chunk(CHUNK.last, s.subarray(used)));
  }
  return offsets;
}

/** The file, and where each record's first chunk starts. */
export function frameWandbPayloads(payloads: readonly Uint8Array[]): {
  bytes: Buffer;
  offsets: number[];
} {
  const parts: Buffer[] = [];
  const offsets = framePayloads(payloads, (b) => parts.push(b));
  return { bytes: Buffer.concat(parts), offsets };
}

/**
 * Writes a run file of `payloads` (encoded records, `encodeRecord`) to `file` as they come, in
 * pieces of about 1 MiB: a file of hundreds of MiB is never held whole. Returns its size.
 */
export function writeWandbRunFile(file: string, payloads: Iterable<Uint8Array>): number {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, "w");
  let pending: Buffer[] = [];
  let held = 0;
  let size = 0;
  const flush = () => {
    const b = Buffer.concat(pending);
    writeSync(fd, b);
    size += b.length;
    pending = [];
    held = 0;
  };
  try {
    framePayloads(payloads, (b) => {
      pending.push(b);
      held += b.length;
      if (held >= 1 << 20) flush();
    });
    flush();
    return size;
  } finally {
    closeSync(fd);
  }
}

/** A whole run file of these records. */
export function wandbRunFile(records: readonly WandbRecordMessage[]): Buffer {
  return frameWandbPayloads(records.map(encodeRecord)).bytes;
}

/** An item's name: a dotted key becomes a nested key (as wandb-core writes nested values). */
function named(key: string): WandbItem {
  return key.includes(".") ? { nested_key: key.split(".") } : { key };
}

/** An item of a history, config or summary record. */
function item(key: string, value: unknown): WandbItem {
  return { ...named(key), value_json: toWandbJson(value) };
}

/**
 * A history record as wandb-core writes one: the step in HistoryStep and as `_step`, the wall time
 * (seconds) as `_timestamp` when given, then the values.
 */
export function wandbHistory(
  step: number,
  items: Record<string, number | string | boolean | object>,
  timestamp?: number,
): WandbRecordMessage {
  const own = [
    item("_step", step),
    ...(timestamp === undefined ? [] : [item("_timestamp", timestamp)]),
  ];
  return {
    history: {
      item: [...own, ...Object.entries(items).map(([k, v]) => item(k, v))],
      step: { num: step },
    },
  };
}

function change(obj: Record<string, unknown>, remove: readonly string[]) {
  return {
    update: Object.entries(obj).map(([k, v]) => item(k, v)),
    remove: remove.map(named),
  };
}

/** A config record: each key's value itself in value_json, as wandb's `_make_config` writes it. */
export function wandbConfig(
  obj: Record<string, unknown>,
  remove: readonly string[] = [],
): WandbRecordMessage {
  return { config: change(obj, remove) };
}

/** A summary record: updates, then removes. */
export function wandbSummary(
  obj: Record<string, unknown>,
  remove: readonly string[] = [],
): WandbRecordMessage {
  return { summary: change(obj, remove) };
}

/** A run record: the ids and names wandb.init records, and the start time (seconds) when given. */
export function wandbRun(run: {
  run_id: string;
  project: string;
  display_name?: string;
  entity?: string;
  start_time?: number;
}): WandbRecordMessage {
  const { start_time, ...names } = run;
  if (start_time === undefined) return { run: names };
  const seconds = Math.floor(start_time);
  return {
    run: { ...names, start_time: { seconds, nanos: Math.round((start_time - seconds) * 1e9) } },
  };
}

/** The exit record a finished run ends with. */
export function wandbExit(code: number): WandbRecordMessage {
  return { exit: { exit_code: code } };
}
