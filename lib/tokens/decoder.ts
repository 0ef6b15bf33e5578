// Token text: turns ids into display pieces with the run's tokenizer. A piece is the token's own
// text when its bytes are valid UTF-8 alone; otherwise its bytes, escaped (byte-level BPE splits
// multi-byte characters across tokens). Special tokens keep their names. Ids the vocabulary does
// not have are reported as such, never thrown. Decoders are held once per process (the bundled
// encoding) or per tokenizer.json version (lib/store/versioned-cache); not responsible for windows.
import "server-only";
import {
  cachedOrError,
  confinementOf,
  readRegularFile,
  readTextFile,
  resolveConfined,
} from "@/lib/store";
import { bundledTokenBytes, type TokenBytes } from "./token-bytes";
import { withoutMerges } from "./without-merges";
import path from "node:path";
import { Tokenizer } from "@huggingface/tokenizers";
import { processCache } from "@/lib/cache";
import type { PieceKind } from "@/lib/schema";

export type { PieceKind };

export interface TokenPiece {
  text: string;
  kind: PieceKind;
}

export interface TokenDecoder {
  /** What the run's manifest named, or the bundled encoding. */
  name: string;
  piece(id: number): TokenPiece;
  /** Decoded text of a run of ids (invalid UTF-8 becomes U+FFFD; unknown ids are skipped). */
  decode(ids: readonly number[]): string;
  /** Every ordinary token's bytes in one table, when the decoder has them so (./token-bytes). */
  tokenBytes?: TokenBytes;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/** Printable ASCII stays, every other byte is written `\xNN`. */
export function escapeBytes(bytes: readonly number[]): string {
  return bytes
    .map((b) =>
      b >= 0x20 && b < 0x7f
        ? String.fromCharCode(b)
        : `\\x${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

function bytesPiece(bytes: ArrayLike<number>): TokenPiece {
  try {
    return { text: utf8.decode(Uint8Array.from(bytes)), kind: "text" };
  } catch {
    return { text: escapeBytes(Array.from(bytes)), kind: "bytes" };
  }
}

/** A bounded id -> piece memo: chains repeat the same few thousand ids. */
function memoised(fn: (id: number) => TokenPiece): (id: number) => TokenPiece {
  const cache = new Map<number, TokenPiece>();
  return (id) => {
    let p = cache.get(id);
    if (p === undefined) {
      p = fn(id);
      if (cache.size > 50_000) cache.clear();
      cache.set(id, p);
    }
    return p;
  };
}

/** The bundled encodings' decoders: one per process, whichever bundle (route, page, bench) asks. */
const bundled = () =>
  processCache<Promise<TokenDecoder>>("bundled-decoders", "entries", BUNDLED_ENCODINGS.length);

/** OpenAI's o200k_base from `gpt-tokenizer` (the bundled fixtures' encoding). */
export function o200kDecoder(): Promise<TokenDecoder> {
  const cache = bundled();
  const hit = cache.get("o200k_base");
  if (hit) return hit;
  const decoder = (async (): Promise<TokenDecoder> => {
    // The special-token table only: the package's encoding module builds its encoder's maps when
    // imported (a 100 ms block of the event loop), and decoding needs neither.
    const { createO200KSpecialTokenMap } =
      await import("gpt-tokenizer/esm/encodingParams/o200k_base");
    const names = new Map([...createO200KSpecialTokenMap()].map(([name, id]) => [id, name]));
    const special = (id: number): string | null => names.get(id) ?? null;
    const table = (await bundledTokenBytes("o200k_base")) ?? (await o200kRankTable());
    const bytesOf = (id: number): Uint8Array | null => {
      const at = id < table.at.length ? (table.at[id] as number) : -1;
      return at < 0 ? null : table.bytes.subarray(at, at + (table.length[id] as number));
    };
    const piece = memoised((id) => {
      if (!Number.isInteger(id) || id < 0) return { text: String(id), kind: "unknown" };
      const bytes = bytesOf(id);
      if (bytes) return bytesPiece(bytes);
      const name = special(id);
      return name === null ? { text: `#${id}`, kind: "unknown" } : { text: name, kind: "special" };
    });
    return {
      name: "o200k_base",
      piece,
      tokenBytes: table,
      decode: (ids) => {
        const parts: Uint8Array[] = [];
        let out = "";
        const flush = () => {
          out += lenient.decode(Buffer.concat(parts));
          parts.length = 0;
        };
        for (const id of ids) {
          const bytes = Number.isInteger(id) && id >= 0 ? bytesOf(id) : null;
          if (bytes) parts.push(bytes);
          else {
            flush();
            out += special(id) ?? "";
          }
        }
        flush();
        return out;
      },
    };
  })();
  cache.set("o200k_base", decoder);
  return decoder;
}

/** The same table from the package's rank module, when its rank file is not there to read. */
async function o200kRankTable(): Promise<TokenBytes> {
  const ranks = (await import("gpt-tokenizer/esm/bpeRanks/o200k_base")).default as Array<
    string | number[]
  >;
  const encoder = new TextEncoder();
  const each = ranks.map((r) => (typeof r === "string" ? encoder.encode(r) : Uint8Array.from(r)));
  const table: TokenBytes = {
    bytes: new Uint8Array(each.reduce((n, b) => n + b.length, 0)),
    at: new Int32Array(each.length),
    length: new Uint16Array(each.length),
  };
  let used = 0;
  each.forEach((b, id) => {
    table.bytes.set(b, used);
    table.at[id] = used;
    table.length[id] = b.length;
    used += b.length;
  });
  return table;
}

/** GPT-2's byte <-> printable-character table that byte-level BPE vocabularies are written in. */
function byteLevelTable(): Map<string, number> {
  const bs: number[] = [];
  for (let b = 33; b <= 126; b++) bs.push(b);
  for (let b = 161; b <= 172; b++) bs.push(b);
  for (let b = 174; b <= 255; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  return new Map(bs.map((b, i) => [String.fromCodePoint(cs[i] as number), b]));
}

function usesByteLevel(config: unknown): boolean {
  const d = (config as { decoder?: { type?: string; decoders?: Array<{ type?: string }> } })
    .decoder;
  return (
    d?.type === "ByteLevel" ||
    (d?.type === "Sequence" && (d.decoders ?? []).some((x) => x.type === "ByteLevel"))
  );
}

/** A Hugging Face `tokenizer.json`, read with `@huggingface/tokenizers`. */
export function hfDecoder(name: string, json: unknown, config: unknown = {}): TokenDecoder {
  const tok = new Tokenizer(json as object, config as object);
  const added = tok.get_added_tokens_decoder();
  const table = usesByteLevel(json) ? byteLevelTable() : null;
  const piece = memoised((id) => {
    const a = added.get(id);
    if (a) return { text: a.content, kind: "special" };
    const token = tok.id_to_token(id);
    if (token === undefined) return { text: `#${id}`, kind: "unknown" };
    if (table) {
      const bytes = [...token].map((c) => table.get(c));
      if (bytes.every((b) => b !== undefined)) return bytesPiece(bytes as number[]);
    }
    return {
      text: tok.decode([id], { skip_special_tokens: false, clean_up_tokenization_spaces: false }),
      kind: "text",
    };
  });
  return {
    name,
    piece,
    decode: (ids) =>
      tok.decode(
        ids.filter((id) => tok.id_to_token(id) !== undefined || added.has(id)) as number[],
        { skip_special_tokens: false, clean_up_tokenization_spaces: false },
      ),
  };
}

export const BUNDLED_ENCODINGS = ["o200k_base"] as const;

/** A tokenizer.json and the tokenizer_config.json beside it, parsed. */
export interface TokenizerFiles {
  json: unknown;
  config: unknown;
}
/** Reads a tokenizer's two files: on this thread (readTokenizerFiles) or a store worker's. */
export type TokenizerReader = (file: string, configFile: string) => Promise<TokenizerFiles>;

/**
 * Both files read and parsed on this thread (a missing config is `{}`), with what decoding never
 * uses dropped: a BPE model's merges, most of a large tokenizer.json, are cut out of the bytes
 * before the parse (so a 200 MB file is never millions of strings) and left an empty list.
 */
export async function readTokenizerFiles(
  file: string,
  configFile: string,
): Promise<TokenizerFiles> {
  const json = JSON.parse(withoutMerges(await readRegularFile(file))) as unknown;
  const config = JSON.parse(await readTextFile(configFile).catch(() => "{}")) as unknown;
  const model = (json as { model?: { merges?: unknown } } | null)?.model;
  if (model && Array.isArray(model.merges)) model.merges = [];
  return { json, config };
}

/** The two files as readTokenizerFiles leaves them, as text: what a store worker sends back. */
export async function slimTokenizerText(
  file: string,
  configFile: string,
): Promise<{ json: string; config: string }> {
  const { json, config } = await readTokenizerFiles(file, configFile);
  return { json: JSON.stringify(json), config: JSON.stringify(config) };
}

/**
 * The decoder a run's manifest names: a bundled encoding name, or a `tokenizer.json` path relative
 * to the run directory (a `tokenizer_config.json` beside it is used when present). Null when the
 * run names none: views then show ids. The file must resolve (by `..`, an absolute path or a
 * symlink) inside `root` (the run directory when not given, else the runs root, as run.json paths
 * do) or an --allow-path directory. Throws with a readable message when it is unusable or refused.
 */
export async function decoderFor(
  runDir: string,
  tokenizer: string | undefined,
  root?: string,
  read: TokenizerReader = readTokenizerFiles,
): Promise<TokenDecoder | null> {
  if (!tokenizer) return null;
  if (tokenizer === "o200k_base") return o200kDecoder();
  const c = await confinementOf(root ?? runDir, root ? "the runs root" : "the run directory");
  const file = await resolveConfined(runDir, tokenizer, c);
  // A FIFO, directory or device is refused by what it is (never opened), not called missing.
  const { value: decoder, error } = await cachedOrError("tokenizer", file, async () => {
    const configFile = await resolveConfined(
      runDir,
      path.join(path.dirname(tokenizer), "tokenizer_config.json"),
      c,
    );
    const { json, config } = await read(file, configFile);
    return hfDecoder(tokenizer, json, config);
  });
  if (decoder) return decoder;
  throw new Error(`tokenizer ${tokenizer}: ${error?.replace(/^[^:]*: /, "") ?? "no such file"}`);
}
