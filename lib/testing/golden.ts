// Access to ../shared/spec/golden_vectors.json, vendored at fixtures/golden/ so tests run anywhere:
// the reference digests, store example and builder fixtures with their expected results, typed.
import { readFileSync } from "node:fs";
import path from "node:path";

const FILE = path.join(process.cwd(), "fixtures", "golden", "golden_vectors.json");

export interface GoldenExpectation {
  chains: Array<{
    chain_id: string;
    links: Array<{ model_call_id: string; interstitial: number[] }>;
  }>;
  quarantined: string[];
  builder_notes: Record<string, unknown>;
  consumer: {
    mask_sample: boolean;
    error?: string;
    metrics: Record<string, unknown>;
    unresolved_retries?: string[];
  };
  projection: null | {
    usage: { input_tokens: number; output_tokens: number };
    output: Array<Record<string, unknown>>;
  };
}

export interface Golden {
  token_digest_v1: {
    vectors: Array<{ name: string; tokens: number[] | string; digest: string }>;
    worked_example: { cumulative: number[]; digest: string; hashed_bytes_hex: string };
    extra_examples: Array<{ tokens: number[] | string; digest: string }>;
  };
  store_entry_digest_example: { line: string; sha256: string };
  example_token_store_directory_main_v1: { files: Record<string, string> };
  builder_fixture_inputs: Record<string, unknown[]>;
  builder_expected: Record<
    "main_aug2026_v1" | "seed004_pr2179",
    Record<string, GoldenExpectation | string>
  >;
}

let cached: Golden | null = null;

export function golden(): Golden {
  cached ??= JSON.parse(readFileSync(FILE, "utf8")) as Golden;
  return cached;
}
