// Steps every profile's verdict shares (docs/capture-format.md §8): projection and flattening checks,
// success metrics, failure, masking and the incomplete flag. Pure.
import type { Build } from "./types";
import type { Profile } from "./profiles";
import { checkContiguity, projectChain, ProjectionError } from "./projection";
import { FlattenError, validateChain } from "./flatten";
import { roundHalfEven } from "./round";
import type { CaptureSnapshot, MaskReason, Verdict } from "./verdict";

/** Projection, contiguity and flattening of every chain; returns the error string on failure. */
export function checkBuild(v: Verdict, build: Build, profile: Profile): string | null {
  try {
    const main = build.chains[build.mainIndex];
    if (!main) {
      if (profile === "gym-v1")
        throw new ProjectionError("ValueError", "capture produced no safe trainable chain");
      v.projection = { items: [], usage: { input_tokens: 0, output_tokens: 0 } };
    } else {
      const projection = projectChain(build, main);
      if (profile === "gym-v1" && projection.usage.output_tokens === 0) {
        throw new ProjectionError("ValueError", "capture produced no trainable generated tokens");
      }
      checkContiguity(build, projection, profile);
      v.projection = projection;
    }
    for (const chain of build.chains) validateChain(build.nodes, chain);
    return null;
  } catch (err) {
    if (err instanceof ProjectionError) return `${err.errorType}: ${err.message}`;
    if (err instanceof FlattenError) return `ValueError: ${err.message}`;
    throw err;
  }
}

export function successMetrics(build: Build, nCalls: number) {
  return {
    n_calls: nCalls,
    chains: build.notes.chains,
    quarantined_calls: build.quarantined.length,
    quarantined_fraction: nCalls > 0 ? roundHalfEven(build.quarantined.length / nCalls, 4) : 0,
    delivered_fraction: build.notes.delivered_fraction,
    generated_tokens_captured: build.notes.generated_tokens_captured,
    generated_tokens_delivered: build.notes.generated_tokens_delivered,
  };
}

export function fail(
  v: Verdict,
  error: string,
  metrics: Record<string, unknown>,
  incomplete: boolean,
): Verdict {
  mask(v, "build_error");
  v.error = error;
  v.metrics = metrics;
  v.projection = null;
  return markIncomplete(v, incomplete);
}

/** seed reads only the `.tokens.incomplete` marker; gym-v1's freeze also counts state and intents. */
export function isIncomplete(snapshot: CaptureSnapshot, profile: Profile): boolean {
  if (snapshot.incompleteMarker !== null) return true;
  return profile === "gym-v1" && (snapshot.stateIncomplete || snapshot.danglingIntents.length > 0);
}

export function mask(v: Verdict, reason: MaskReason): void {
  v.mask_sample = true;
  if (!v.mask_reasons.includes(reason)) v.mask_reasons.push(reason);
}

export function markIncomplete(v: Verdict, incomplete: boolean): Verdict {
  if (!incomplete) return v;
  mask(v, "capture_incomplete");
  v.metrics = { ...v.metrics, capture_incomplete: true };
  return v;
}
