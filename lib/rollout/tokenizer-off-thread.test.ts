// A run's tokenizer read on a store worker (readTokenizerOffThread): the decoder made from what the
// worker sends (the merges dropped) decodes exactly as one made from the whole file, and a large
// tokenizer.json (merges making most of it) holds the server's event loop for no long stretch.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { watchEventLoop } from "@/lib/testing/event-loop";
import { byteSymbols } from "@/lib/testing/hostile-trainer-files";
import { afterAll, describe, expect, it } from "vitest";
import { decoderFor, hfDecoder } from "@/lib/tokens";
import { readTokenizerOffThread, storePool } from "./pool";

// The large files are removed after the run, so a test run leaves no hundred megabytes behind.
const dirs: string[] = [];
const made = (dir: string) => (dirs.push(dir), dir);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A byte-level BPE tokenizer.json: the 256 byte symbols, `words` merged words, `merges` merges. */
function byteLevel(words: number, merges: number) {
  const symbols = byteSymbols();
  const vocab: Record<string, number> = {};
  symbols.forEach((s, i) => (vocab[s] = i));
  for (let w = 0; w < words; w++) vocab[`Ġw${w}`] = 256 + w;
  return {
    version: "1.0",
    added_tokens: [{ id: 256 + words, content: "<|end|>", special: true }],
    normalizer: null,
    post_processor: null,
    pre_tokenizer: { type: "ByteLevel", add_prefix_space: false, trim_offsets: true },
    decoder: { type: "ByteLevel", add_prefix_space: true, trim_offsets: true },
    model: {
      type: "BPE",
      vocab,
      merges: Array.from({ length: merges }, (_, i) => `Ġw${i % words} x${i}`),
    },
  };
}

function write(json: unknown): string {
  const dir = made(mkdtempSync(path.join(os.tmpdir(), "rollout-lens-tok-off-")));
  writeFileSync(path.join(dir, "tokenizer.json"), JSON.stringify(json));
  return dir;
}

describe("readTokenizerOffThread", () => {
  it("gives a decoder that decodes as the whole file's does", async () => {
    expect(storePool("interactive"), "a built store worker").not.toBeNull();
    const json = byteLevel(2_000, 5_000);
    const dir = write(json);
    const file = path.join(dir, "tokenizer.json");
    const off = await readTokenizerOffThread(file, path.join(dir, "tokenizer_config.json"));
    expect((off.json as { model: { merges: unknown[] } }).model.merges).toEqual([]);
    // The reference: the whole tokenizer, merges and all.
    const whole = JSON.parse(readFileSync(file, "utf8")) as { model: { merges: unknown[] } };
    expect(whole.model.merges).toHaveLength(5_000);
    const a = await decoderFor(dir, "tokenizer.json", undefined, readTokenizerOffThread);
    const b = hfDecoder("tokenizer.json", whole);
    const ids = [...Array.from({ length: 300 }, (_, i) => (i * 37) % 2_257), 2_256, 9_999];
    expect(a!.decode(ids)).toBe(b!.decode(ids));
    for (const id of ids) expect(a!.piece(id)).toEqual(b!.piece(id));
  });

  it("keeps the event loop's longest busy stretch under 100 ms for a large tokenizer.json", async () => {
    const dir = write(byteLevel(50_000, 2_500_000));
    const loop = watchEventLoop();
    const t0 = performance.now();
    const d = await decoderFor(dir, "tokenizer.json", undefined, readTokenizerOffThread);
    const { maxBusyMs } = loop.stop();
    console.log(
      `large tokenizer.json: decoder in ${(performance.now() - t0).toFixed(0)} ms, longest busy ` +
        `stretch ${maxBusyMs.toFixed(1)} ms`,
    );
    expect(d!.piece(256 + 50_000)).toEqual({ text: "<|end|>", kind: "special" });
    expect(maxBusyMs).toBeLessThan(100);
  }, 120_000);
});
