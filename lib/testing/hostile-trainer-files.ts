// Trainer files at the sizes that used to hold the server's thread for seconds: a TensorBoard event
// file, an MLflow metric file and a byte-level BPE tokenizer.json, each written in pieces (never
// held whole in memory) to a given size. Used by the hostile-trainer-files suite and the
// hostile-load bench.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { eventFileBytes, type ScalarToWrite } from "./event-writer";

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
