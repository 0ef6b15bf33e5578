// Builder benchmark: a 500-call append-only rollout whose last prompt holds 100k+ tokens.
// Figure: builder time (verdict on parsed entries) divided by plain JSON.parse of the same file.
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { decideVerdict, type Profile } from "@/lib/builder";
import { tokenEntrySchema } from "@/lib/schema";
import { readRolloutCapture } from "@/lib/store";
import { syntheticRolloutLines } from "@/fixtures/generator/synthetic-rollout";
import { snapshotOf } from "@/lib/testing/snapshot";
import { fmt, OUT_DIR, time, writeLines } from "./util";

export async function benchBuilder(): Promise<number> {
  const dir = path.join(OUT_DIR, "builder");
  const file = await writeLines(
    path.join(dir, "big-0.tokens.jsonl"),
    syntheticRolloutLines({ rolloutId: "big-0", calls: 500, lastPromptTokens: 110_000, recordedParents: true, seed: 7 }),
  );
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
  const readMs = await time(() => readRolloutCapture(dir, "big-0"), 1);
  console.log(`full read (stream + JSON.parse + zod): ${fmt(readMs)}  ratio ${(readMs / parseMs).toFixed(3)}`);
  const worst = Math.max(...ratios);
  console.log(`builder/JSON.parse ratio (worst profile): ${worst.toFixed(3)}`);
  return worst;
}

if (process.argv[1]?.endsWith("builder.bench.ts")) void benchBuilder();
