// Temporary store directories with real files, for reader and route tests: token records in the
// real line format, and fingerprints that prove a read changed nothing.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { fingerprintTree } from "./fingerprint";
import os from "node:os";
import path from "node:path";

export function tempStore(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-store-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

/** Fingerprints of every file in a store directory, to prove a read changed nothing. */
export const fingerprintDir = fingerprintTree;

export function line(record: Record<string, unknown>): string {
  return JSON.stringify(record) + "\n";
}

export function tokenRecord(
  rolloutId: string,
  id: string,
  prompt: number[],
  gen: number[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    rollout_id: rolloutId,
    model_call_id: id,
    model: "policy",
    prompt_token_ids: prompt,
    generation_token_ids: gen,
    generation_log_probs: gen.map(() => -0.25),
    created_at: 1786032154.0,
    ...extra,
  };
}

/** A run `run` under a temporary root with a token store of `rollouts` two-call rollouts `i-0`. */
export function tempRun(rollouts: number): { root: string; tokens: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), "rollout-lens-index-"));
  const tokens = path.join(root, "run", "tokens");
  mkdirSync(tokens, { recursive: true });
  for (let i = 0; i < rollouts; i++) {
    const id = `${i}-0`;
    writeFileSync(
      path.join(tokens, `${id}.tokens.jsonl`),
      line(tokenRecord(id, "a", [1, 2, 3], [4, 5])) +
        line(tokenRecord(id, "b", [1, 2, 3, 4, 5, 6], [7], { created_at: 1786032155 })),
    );
  }
  return { root, tokens };
}
