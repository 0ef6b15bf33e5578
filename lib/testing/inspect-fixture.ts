// Fixture rollouts opened as the inspector opens them, for inspector tests: the model of a rollout
// of a generated fixture run (its view checked against the wire contract), and a whole sequence read
// back window by window as the page reads it.
import { RUNS_DIR } from "@/fixtures/generate";
import type { RolloutModel } from "@/lib/inspect/model";
import { inspectRollout } from "@/lib/inspect/rollout-model";
import { segmentedWindow, tokenWindow } from "@/lib/inspect/token-window";
import { getRun } from "@/lib/runs/root";
import { rolloutViewSchema } from "@/lib/schema/api-rollout";
import { segmentedWindowSchema, tokenWindowSchema } from "@/lib/schema/api-tokens";

/** The model of a fixture rollout; its view must be exactly what the wire contract says. */
export async function openRollout(
  runId: string,
  rollout: string,
  profile?: "seed" | "gym-v1" | "auto",
) {
  const model = await inspectRollout(await getRun(runId, RUNS_DIR), rollout, { profile });
  rolloutViewSchema.parse(model.view);
  return model;
}

/** The whole sequence, fetched window by window as the page does. */
export function readAll(model: RolloutModel, sequence: string, size = 997) {
  const first = segmentedWindowSchema.parse(segmentedWindow(model, sequence, "0", String(size)));
  const ids = [...first.tokens.id],
    mask = [...first.tokens.mask],
    lps = [...first.tokens.log_prob];
  for (let off = size; off < first.total; off += size) {
    const w = tokenWindowSchema.parse(tokenWindow(model, sequence, String(off), String(size)));
    ids.push(...w.tokens.id);
    mask.push(...w.tokens.mask);
    lps.push(...w.tokens.log_prob);
  }
  return { total: first.total, ids, mask, lps, segments: first.segments };
}
