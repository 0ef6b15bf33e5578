// Trainer files at the sizes that used to hold the server's thread for seconds: a TensorBoard event
// file, an MLflow metric file, an MLflow tracking database, a W&B run file and a byte-level BPE
// tokenizer.json, each written in pieces (never held whole in memory) to a given size. Used by the hostile-trainer-files suite and the
// hostile-load bench.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { eventFileBytes, type ScalarToWrite } from "./event-writer";
import { addMlflowMetrics, writeMlflowDb } from "./mlflow-db";
import { wandbHistory, writeWandbRunFile } from "./wandb-file";
import { encodeRecord } from "@/lib/trainer/wandb/proto";

type Bytes = Uint8Array | string;
const put = (fd: number, b: Bytes) => (typeof b === "string" ? writeSync(fd, b) : writeSync(fd, b));

/** A new file: `head`, `piece` until it holds at least `bytes`, then `tail`; returns its size. */
function repeatTo(
  file: string,
  bytes: number,
  head: Bytes,
  piece: Bytes,
  tail: Bytes = "",
): number {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, "w");
  try {
    let written = put(fd, head);
    while (written < bytes) written += put(fd, piece);
    return written + put(fd, tail);
  } finally {
    closeSync(fd);
  }
}

/**
 * An event file of `bytes` or a little more: one 100,000-record chunk (train/loss and
 * train/reward, 50,000 steps) repeated, so every record is parsed and steps repeat.
 */
export function writeLargeEventFile(file: string, bytes: number): number {
  const chunk: ScalarToWrite[] = Array.from({ length: 100_000 }, (_, i) => ({
    tag: i % 2 ? "train/reward" : "train/loss",
    step: i >> 1,
    wall_time: 1.7e9 + i,
    value: Math.sin(i / 1000),
  }));
  return repeatTo(file, bytes, new Uint8Array(0), eventFileBytes(1.7e9, chunk));
}

/** An MLflow metric file (`timestamp value step` lines, steps 0–199,999 repeated) of `bytes`. */
export function writeLargeMlflowMetric(file: string, bytes: number): number {
  const lines =
    Array.from({ length: 200_000 }, (_, i) => `${1.7e12 + i} ${Math.cos(i)} ${i}`).join("\n") +
    "\n";
  return repeatTo(file, bytes, "", lines);
}

/**
 * The 256 symbols of a byte-level BPE vocabulary (GPT-2's byte-to-unicode table): the printable
 * Latin-1 bytes as themselves, in byte order, then the rest as U+0100 onwards. Symbol i is id i.
 */
export function byteSymbols(): string[] {
  const symbols: string[] = [];
  for (let b = 33; b <= 126; b++) symbols.push(String.fromCharCode(b));
  for (let b = 161; b <= 172; b++) symbols.push(String.fromCharCode(b));
  for (let b = 174; b <= 255; b++) symbols.push(String.fromCharCode(b));
  for (let n = 0; symbols.length < 256; n++) symbols.push(String.fromCharCode(256 + n));
  return symbols;
}

/**
 * A valid byte-level BPE tokenizer.json of `bytes` or a little more, nearly all of it merges (which
 * decoding never uses); its 256-token vocabulary decodes any byte.
 */
export function writeLargeTokenizer(file: string, bytes: number): number {
  const vocab: Record<string, number> = {};
  byteSymbols().forEach((s, i) => (vocab[s] = i));
  const head = JSON.stringify({
    version: "1.0",
    added_tokens: [],
    normalizer: null,
    pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: true },
    post_processor: null,
    decoder: { type: "ByteLevel", add_prefix_space: true, trim_offsets: true },
    model: { type: "BPE", vocab, merges: [] },
  });
  // The head up to its empty merges' `]`, then pieces of merges, then the brackets it closed.
  const open = head.slice(0, head.length - "]}}".length) + '"a0 b0"';
  const piece = Array.from({ length: 100_000 }, (_, i) => `,"a${i % 997} b${i}"`).join("");
  return repeatTo(file, bytes, open, piece, "]}}");
}

/** Fixture truth of writeLargeMlflowDb: its one run logs `train/reward` at these many steps. */
export const LARGE_DB_STEPS = 200_000;

/**
 * An MLflow tracking database of one run holding `rows` metric rows: `train/reward` at steps
 * 0–199,999, logged again and again with later timestamps, the value of repeat r at step s being
 * r + s / 1e6 (so the last repeat wins, as the MLflow UI shows). Written in one transaction.
 */
export function writeLargeMlflowDb(file: string, rows: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const repeats = Math.ceil(rows / LARGE_DB_STEPS);
  writeMlflowDb(file, { runs: [{ uuid: "b16".padEnd(32, "0"), name: "big" }] });
  const db = new Database(file);
  try {
    addMlflowMetrics(db, "b16".padEnd(32, "0"), largeRows(repeats));
  } finally {
    db.close();
  }
}

function* largeRows(repeats: number) {
  for (let r = 0; r < repeats; r++)
    for (let s = 0; s < LARGE_DB_STEPS; s++)
      yield { key: "train/reward", value: r + s / 1e6, step: s, timestamp: 1.7e12 + r * 1e7 + s };
}

/** Fixture truth of writeLargeWandbFile: its history logs `train/reward` at these many steps. */
export const LARGE_WANDB_STEPS = 50_000;

/**
 * A W&B run file of `bytes` or a little more: history records of `train/reward` and `train/loss`
 * at steps 0–49,999 (with `_step` and `_timestamp`), logged again and again, written in pieces.
 */
export function writeLargeWandbFile(file: string, bytes: number): number {
  const one = Array.from({ length: LARGE_WANDB_STEPS }, (_, s) =>
    encodeRecord(
      wandbHistory(s, { "train/reward": Math.sin(s / 1000), "train/loss": Math.cos(s) }, 1.7e9 + s),
    ),
  );
  const per = one.reduce((n, p) => n + p.length + 7, 0);
  const repeats = Math.ceil(bytes / per);
  function* payloads() {
    for (let r = 0; r < repeats; r++) yield* one;
  }
  return writeWandbRunFile(file, payloads());
}
