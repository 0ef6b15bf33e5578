// Builder benchmark: a 500-call append-only rollout whose last prompt holds 200k tokens.
// Figure: builder time (verdict on parsed entries) divided by plain JSON.parse of the same file.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { decideVerdict, type Profile } from "@/lib/builder";
import { tokenEntrySchema } from "@/lib/schema";
import { readRolloutCapture } from "@/lib/store";
import { BIG_ROLLOUT_ID, LARGE_DEFAULTS, writeLargeRollout } from "@/fixtures/generator/large";
import { LARGE_DIR } from "@/fixtures/generate";
import { snapshotOf } from "@/lib/testing/snapshot";
import { fmt, time } from "./util";

export async function benchBuilder(): Promise<number> {
  await writeLargeRollout(LARGE_DIR, LARGE_DEFAULTS, true);
  const dir = path.join(LARGE_DIR, "large-rollout", "tokens");
  const file = path.join(dir, `${BIG_ROLLOUT_ID}.tokens.jsonl`);
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n").filter((l) => l.length > 0);
  const parseMs = await time(() => lines.map((l) => JSON.parse(l) as unknown));
  const entries = lines.map((l) => tokenEntrySchema.parse(JSON.parse(l)));
  const last = entries[entries.length - 1]!;
  console.log(`rollout: ${entries.length} calls, last prompt ${last.prompt_token_ids.length} tokens, file ${(statSync(file).size / 1e6).toFixed(1)} MB`);
  console.log(`JSON.parse of every line: ${fmt(parseMs)}`);
  const ratios: number[] = [];
  for (const profile of ["seed", "gym-v1"] as Profile[]) {
    const ms = await time(() => decideVerdict(snapshotOf(entries), { profile }));
    const v = decideVerdict(snapshotOf(entries), { profile });
    if (v.mask_sample || v.build?.chains.length !== 1) throw new Error(`unexpected verdict for the bench rollout (${profile})`);
    console.log(`builder (${profile}): ${fmt(ms)}  ratio ${(ms / parseMs).toFixed(3)}`);
    ratios.push(ms / parseMs);
  }
  const readMs = await time(() => readRolloutCapture(dir, BIG_ROLLOUT_ID), 1);
  console.log(`full read (stream + JSON.parse + zod): ${fmt(readMs)}  ratio ${(readMs / parseMs).toFixed(3)}`);
  const worst = Math.max(...ratios);
  console.log(`builder/JSON.parse ratio (worst profile): ${worst.toFixed(3)}`);
  return worst;
}

if (process.argv[1]?.endsWith("builder.bench.ts")) void benchBuilder();
