// The run's tokenizer as the index's workers use it to decode a rollout's text for search: loaded
// once per worker (lib/tokens caches it by file version), and only when its tokenizer.json is at
// most SEARCH_TOKENIZER_MAX_BYTES (every tokenizer we know is under 20 MB; a larger file would be
// parsed on every index worker). Not responsible for the inspector's decoder (lib/inspect).
import "server-only";
import { stat } from "node:fs/promises";
import { confinementOf, resolveConfined } from "@/lib/store";
import { BUNDLED_ENCODINGS, decoderFor, type TokenDecoder } from "@/lib/tokens";

export interface SearchTokenizer {
  runDir: string;
  /** What run.json's `tokenizer` names: a bundled encoding or a tokenizer.json path. */
  name: string;
  root: string;
}

const SEARCH_TOKENIZER_MAX_BYTES = 64 << 20;

/** The decoder search text is decoded with; null when the tokenizer cannot be used for it. */
export async function searchDecoder(t: SearchTokenizer): Promise<TokenDecoder | null> {
  try {
    if (!(BUNDLED_ENCODINGS as readonly string[]).includes(t.name)) {
      const c = await confinementOf(t.root, "the runs root");
      const file = await resolveConfined(t.runDir, t.name, c);
      if ((await stat(file)).size > SEARCH_TOKENIZER_MAX_BYTES) return null;
    }
    return await decoderFor(t.runDir, t.name, t.root);
  } catch {
    return null; // the inspector says why the tokenizer cannot be used
  }
}
