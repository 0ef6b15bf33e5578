// The bundled encoding read from gpt-tokenizer's rank file agrees with the package's own rank module
// on every id and with its own decoder on real text; a damaged rank file is refused by line.
import { describe, expect, it } from "vitest";
import { decode as referenceDecode, encode } from "gpt-tokenizer/encoding/o200k_base";
import ranks from "gpt-tokenizer/esm/bpeRanks/o200k_base";
import { o200kDecoder, Utf8Text } from "@/lib/tokens";
import { bundledTokenBytes, parseTiktoken } from "./token-bytes";

const bytesOfRank = (r: string | number[]) =>
  typeof r === "string" ? Buffer.from(r, "utf8") : Buffer.from(r);

describe("the bundled encoding's token bytes", () => {
  it("hold every rank's bytes as the package's rank module gives them", async () => {
    const table = await bundledTokenBytes("o200k_base");
    expect(table, "gpt-tokenizer/data/o200k_base.tiktoken is read").not.toBeNull();
    const all = ranks as Array<string | number[]>;
    expect(table!.at.length).toBe(all.length);
    let differ = 0;
    all.forEach((r, id) => {
      const at = table!.at[id]!;
      const got = Buffer.from(table!.bytes.subarray(at, at + table!.length[id]!));
      if (at < 0 || !got.equals(bytesOfRank(r))) differ++;
    });
    expect(differ).toBe(0);
  });

  it("decode as gpt-tokenizer decodes, special tokens and split characters included", async () => {
    const text =
      "rm -rf /var/cache/apt; Das Ergebnis wurde gespeichert. 测试全部通过。 🤖 naïve — ok\n\tdone";
    const ids = [...encode(text), 199999, ...encode(" après"), 200005];
    const d = await o200kDecoder();
    expect(d.decode(ids)).toBe(referenceDecode(ids));
    // Search's bytes are the same text's UTF-8 (special tokens by name).
    const u = new Utf8Text();
    u.appendIds(d, ids);
    expect(Buffer.from(u.bytes()).toString("utf8")).toBe(referenceDecode(ids));
  });

  it("give each piece its text, or its bytes escaped where they split a character", async () => {
    const d = await o200kDecoder();
    const [emoji] = encode("🤖").filter((id) => d.piece(id).kind === "bytes");
    expect(emoji, "a token holding part of the emoji's bytes").toBeDefined();
    expect(d.piece(emoji!).text).toMatch(/^(\\x[0-9A-F]{2})+$/);
    expect(d.piece(encode(" hello")[0]!)).toEqual({ text: " hello", kind: "text" });
    expect(d.piece(199999)).toEqual({ text: "<|endoftext|>", kind: "special" });
    expect(d.piece(199998).kind).toBe("unknown");
  });

  it("refuse a damaged rank file, naming the line", () => {
    const file = (s: string) => new TextEncoder().encode(s);
    expect(parseTiktoken(file("IQ== 0\nIg== 1\n")).length).toEqual(new Uint16Array([1, 1]));
    expect(() => parseTiktoken(file("IQ== 0\nI*== 1\n"))).toThrow(/^line 2: not base64/);
    expect(() => parseTiktoken(file("IQ== 0\nIg== x\n"))).toThrow(/^line 2: the rank is no number/);
    expect(() => parseTiktoken(file("IQ== 0\nIg== 0\n"))).toThrow(/^line 2: rank 0 given twice/);
    expect(() => parseTiktoken(file("IQ==\n"))).toThrow(/^line 1: no token before a space/);
  });
});
