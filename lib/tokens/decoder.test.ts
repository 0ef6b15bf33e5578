import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { decoderFor, escapeBytes, hfDecoder, o200kDecoder } from "./decoder";

/** A tiny byte-level BPE tokenizer.json (GPT-2 style): single bytes plus a few merges. */
function tinyByteLevel() {
  const chars: string[] = [];
  for (let b = 33; b <= 126; b++) chars.push(String.fromCharCode(b));
  // the byte-level alphabet for bytes outside printable ranges starts at U+0100
  const vocab: Record<string, number> = {};
  chars.forEach((c, i) => (vocab[c] = i));
  let next = chars.length;
  vocab["Ġ"] = next++; // space
  vocab["Ċ"] = next++; // newline
  for (const c of ["ð", "Ł", "ļ", "Ģ", "æ", "Ĺ", "¥"]) vocab[c] = next++;
  vocab["he"] = next++;
  vocab["Ġhe"] = next++;
  vocab["ðŁ"] = next++;
  return {
    json: {
      version: "1.0",
      added_tokens: [
        {
          id: 500,
          content: "<|im_start|>",
          single_word: false,
          lstrip: false,
          rstrip: false,
          normalized: false,
          special: true,
        },
      ],
      normalizer: null,
      pre_tokenizer: {
        type: "ByteLevel",
        add_prefix_space: false,
        trim_offsets: true,
        use_regex: true,
      },
      post_processor: null,
      decoder: { type: "ByteLevel", add_prefix_space: true, trim_offsets: true, use_regex: true },
      model: {
        type: "BPE",
        dropout: null,
        unk_token: null,
        continuing_subword_prefix: null,
        end_of_word_suffix: null,
        fuse_unk: false,
        byte_fallback: false,
        vocab,
        merges: ["h e", "Ġ he", "ð Ł"],
      },
    },
    vocab,
  };
}

describe("o200k_base pieces", () => {
  it("gives text, escaped bytes for partial UTF-8, special names and unknown ids", async () => {
    const d = await o200kDecoder();
    const ids = encode("héllo 日本 🚀\n");
    const pieces = ids.map((id) => d.piece(id));
    expect(pieces.filter((p) => p.kind === "bytes").length).toBeGreaterThan(0); // the emoji is split
    expect(pieces.find((p) => p.kind === "bytes")!.text).toMatch(/\\x[0-9A-F]{2}/);
    expect(d.decode(ids)).toBe("héllo 日本 🚀\n");
    expect(d.piece(200003)).toEqual({ text: "<|im_start|>", kind: "special" });
    expect(d.piece(199998)).toEqual({ text: "#199998", kind: "unknown" });
    expect(d.piece(-1).kind).toBe("unknown");
    expect(d.decode([200003, ...encode("user")])).toBe("<|im_start|>user");
  });

  it("escapes bytes so nothing is lost or interpreted", () => {
    expect(escapeBytes([0x20, 0xf0, 0x9f, 0x41])).toBe(" \\xF0\\x9FA");
  });
});

describe("tokenizer.json through @huggingface/tokenizers", () => {
  it("maps byte-level pieces to text or escaped bytes, and keeps added tokens", () => {
    const { json, vocab } = tinyByteLevel();
    const d = hfDecoder("tiny", json);
    expect(d.piece(vocab["Ġhe"]!)).toEqual({ text: " he", kind: "text" });
    expect(d.piece(vocab["Ċ"]!)).toEqual({ text: "\n", kind: "text" });
    expect(d.piece(vocab["ðŁ"]!)).toEqual({ text: "\\xF0\\x9F", kind: "bytes" });
    expect(d.piece(500)).toEqual({ text: "<|im_start|>", kind: "special" });
    expect(d.piece(9999).kind).toBe("unknown");
    expect(d.decode([vocab["he"]!, vocab["Ġhe"]!])).toBe("he he");
  });

  it("loads the file a run names, relative to the run directory, and explains a missing one", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-tok-"));
    writeFileSync(path.join(dir, "tokenizer.json"), JSON.stringify(tinyByteLevel().json));
    const d = await decoderFor(dir, "tokenizer.json");
    expect(d!.name).toBe("tokenizer.json");
    expect(d!.piece(500).kind).toBe("special");
    expect(await decoderFor(dir, undefined)).toBeNull();
    await expect(decoderFor(dir, "missing/tokenizer.json")).rejects.toThrow(/no such file/);
  });
});

describe("a tokenizer path that is not a file", () => {
  it("is refused by what it is, never opened or called missing: a FIFO, a directory", async () => {
    const run = mkdtempSync(path.join(os.tmpdir(), "rl-tok-kind-"));
    execFileSync("mkfifo", [path.join(run, "fifo.json")]);
    mkdirSync(path.join(run, "dir.json"));
    const refused = "not a regular file (a directory, FIFO or device); refused";
    await expect(decoderFor(run, "fifo.json")).rejects.toThrow(`tokenizer fifo.json: ${refused}`);
    await expect(decoderFor(run, "dir.json")).rejects.toThrow(`tokenizer dir.json: ${refused}`);
    await expect(decoderFor(run, "none.json")).rejects.toThrow("tokenizer none.json: no such file");
  });
});

describe("tokenizer confinement", () => {
  it("refuses a tokenizer path that leaves the run directory, by .. or by a symlink", async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-tok-outside-"));
    writeFileSync(path.join(outside, "tokenizer.json"), JSON.stringify(tinyByteLevel().json));
    const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-tok-run-"));
    const escape = path.relative(dir, path.join(outside, "tokenizer.json"));
    await expect(decoderFor(dir, escape)).rejects.toThrow(/outside the run directory; refused/);
    await expect(decoderFor(dir, path.join(outside, "tokenizer.json"))).rejects.toThrow(
      /outside the run directory; refused/,
    );
    symlinkSync(path.join(outside, "tokenizer.json"), path.join(dir, "tokenizer.json"));
    await expect(decoderFor(dir, "tokenizer.json")).rejects.toThrow(
      /a symlink that points outside the run directory; refused/,
    );
    symlinkSync(outside, path.join(dir, "tok"));
    await expect(decoderFor(dir, "tok/tokenizer.json")).rejects.toThrow(
      /a symlink that points outside the run directory; refused/,
    );
  });
});

describe("tokenizer confinement with a runs root", () => {
  it("accepts a tokenizer elsewhere in the runs root or under --allow-path, nothing else", async () => {
    const json = JSON.stringify(tinyByteLevel().json);
    const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-tok-root-"));
    const run = path.join(root, "run");
    mkdirSync(run);
    mkdirSync(path.join(root, "shared"));
    writeFileSync(path.join(root, "shared", "tokenizer.json"), json);
    const outside = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-tok-allowed-"));
    writeFileSync(path.join(outside, "tokenizer.json"), json);
    expect((await decoderFor(run, "../shared/tokenizer.json", root))?.piece(500).kind).toBe(
      "special",
    );
    await expect(decoderFor(run, "../shared/tokenizer.json")).rejects.toThrow(
      /outside the run directory; refused/,
    );
    const elsewhere = path.join(outside, "tokenizer.json");
    await expect(decoderFor(run, elsewhere, root)).rejects.toThrow(
      /outside the runs root; refused \(rollout-lens serve --allow-path DIR/,
    );
    vi.stubEnv("ROLLOUT_LENS_ALLOW_PATHS", outside);
    try {
      expect((await decoderFor(run, elsewhere, root))?.name).toBe(elsewhere);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("decoder lifetime", () => {
  it("holds one o200k_base decoder per process, whichever bundle asks", async () => {
    const first = await import("./decoder");
    vi.resetModules();
    const second = await import("./decoder");
    expect(second).not.toBe(first);
    expect(second.o200kDecoder()).toBe(first.o200kDecoder());
  });
});
